// The school year's calls (docs/api-school-year.md): terms, the current term every screen defaults
// to, 升年级 preview/apply/undo, a student's state changes and their history, class consents.
import type { PromotionPreview, PromotionRecord, SchoolTerm, SchoolTerms } from '../domain/schoolYear';
import type { HttpClient } from './http';

export interface CurrentTerm {
  term: string;
  label: string;
  startDate: string | null;
  endDate: string | null;
}
export interface StatusChangeEntry {
  id: number;
  change: number;
  changeLabel: string;
  onDate: string;
  reason: string | null;
  className: string | null;
  recordedAt: string;
  recordedBy: string | null;
}
export interface StatusChange {
  studentIds: (number | string)[];
  change: number;
  onDate: string;
  reason?: string;
  classId?: number;
}

export function createSchoolYearApi(http: HttpClient) {
  return {
    currentTerm: () => http.get<CurrentTerm>('/api/vesta/school/currentTerm'),
    schoolTerms: () => http.get<SchoolTerms>('/api/vesta/school/terms'),
    saveSchoolTerms: async (currentTerm: string, terms: SchoolTerm[]) =>
      (await http.request<{ currentTerm: string }>('/api/vesta/school/terms', { method: 'PUT', body: { currentTerm, terms } })).data,
    promotionPreview: (year: number) => http.get<PromotionPreview>('/api/vesta/promotion/preview', { year }),
    lastPromotion: () => http.get<PromotionRecord | null>('/api/vesta/promotion/last'),
    applyPromotion: (year: number) => http.post<PromotionRecord>('/api/vesta/promotion/apply', { year }),
    undoPromotion: (promotionId: number) => http.post<PromotionRecord>('/api/vesta/promotion/undo', { promotionId }),
    changeStudentStatus: (change: StatusChange) => http.post<{ count: number; status: number }>('/api/vesta/student/changeStatus', change),
    studentStatusHistory: (studentId: number | string) => http.get<StatusChangeEntry[]>('/api/vesta/student/statusHistory', { studentId }),
    recordClassConsent: (classId: number, consentedOn: string, guardianName?: string) =>
      http.post<{ classId: number; count: number }>('/api/heart/v1/consents/class', { classId, consentedOn, ...(guardianName ? { guardianName } : {}) }),
    withdrawConsent: (studentId: number) => http.post<{ studentId: number }>('/api/heart/v1/consents/withdraw', { studentId }),
  };
}

export type SchoolYearApi = ReturnType<typeof createSchoolYearApi>;
