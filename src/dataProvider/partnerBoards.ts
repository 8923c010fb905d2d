// The partner data boards (docs/api-partner-boards.md): 数据看板, a school's board and a student's
// usage. The 直营学校 list goes through its resource (src/resources/directSchools).
import type { BoardKpis, BoardRange, BoardRevenue, BoardSeries, Metric, RangeQuery, Statistics } from '../domain/boardRange';

export type { BoardKpis, BoardRevenue, BoardSeries, Metric, Statistics } from '../domain/boardRange';
import type { HttpClient } from './http';
import type { Page } from './adapters';
import type { StudentPrintJob, StudentSignInDay } from '../domain/devices';

const BASE = '/api/wrongbook/v1.0/partner/board';

export interface BoardFilter extends RangeQuery {
  userKind?: number;
}

export interface Overview {
  range: BoardRange;
  kpis: BoardKpis;
  series: BoardSeries[];
  revenue: BoardRevenue;
}

interface UsageTally {
  students: number;
  activeStudents: number;
  pages: number;
  jobs: number;
}

export interface SchoolBoard {
  range: BoardRange;
  school: { id: number; name: string; region: string; partnerName: string | null; students: number };
  kpis: BoardKpis;
  trend: { pages: number[]; uses: number[] };
  byApp: BoardSeries[];
  bySubject: BoardSeries[];
  byGrade: (UsageTally & { gradeName: string })[];
  byClass: (UsageTally & { classId: number; className: string; gradeName: string })[];
  topStudents: { studentId: number; name: string; className: string | null; pages: number; jobs: number }[];
  devices: { id: number; serial: string; model: string; online: boolean; lastSeenAt: string | null; paperLeft: number; pages: number; jobs: number; signIns: number }[];
}

export interface StudentUsage {
  range: BoardRange;
  student: { id: number; name: string; className: string | null; gradeName: string | null };
  kpis: { pages: number; jobs: number; signIns: number; activeDays: number };
  bySubject: BoardSeries[];
  byApp: { id: number; name: string; pages: number; jobs: number }[];
}

export type { StudentPrintJob, StudentSignInDay };

export function createPartnerBoardsApi(http: HttpClient) {
  return {
    boardOverview: (f: BoardFilter & { statistics: Statistics; metric: Metric; partnerId?: number }) => http.get<Overview>(`${BASE}/overview`, { ...f }),
    boardPartners: () => http.get<{ id: number; name: string; level: number }[]>(`${BASE}/partners`),
    schoolBoard: (schoolId: number, f: BoardFilter) => http.get<SchoolBoard>(`${BASE}/school`, { ...f, schoolId }),
    studentUsage: (schoolId: number, studentId: number, f: RangeQuery) => http.get<StudentUsage>(`${BASE}/student`, { ...f, schoolId, studentId }),
    studentPrintJobs: (schoolId: number, studentId: number, f: RangeQuery, current: number, size: number) =>
      http.get<Page<StudentPrintJob>>(`${BASE}/student/printJobs`, { ...f, schoolId, studentId, current, size }),
    studentSignIns: (schoolId: number, studentId: number, f: RangeQuery, current: number, size: number) =>
      http.get<Page<StudentSignInDay>>(`${BASE}/student/signIns`, { ...f, schoolId, studentId, current, size }),
  };
}

export type PartnerBoardsApi = ReturnType<typeof createPartnerBoardsApi>;
