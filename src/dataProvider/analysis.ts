// 学情分析 and 使用统计 (docs/api-analysis.md): figures of the caller's scope, and each card's xlsx.
import type { StudentHistory } from '../domain/studentHistory';
import type { Activity, Analysis, AnalysisFigure, JointExamCandidate, JointExamReport, JointExamSummary, Usage } from '../domain/analysis';
import type { HttpClient } from './http';

const BASE = '/api/analysis/v1.0';

export interface AnalysisFilter {
  term?: string;
  /** A school of the researcher's region (the drill). */
  schoolId?: string | number;
  gradeId?: string | number;
  /** A subject across the region's schools (the researcher's 学科). */
  subjectId?: string | number;
  courseId?: string | number;
  classId?: string | number;
  leaderType?: number;
}

const params = (f: AnalysisFilter) => ({
  term: f.term || undefined,
  schoolId: f.schoolId || undefined,
  gradeId: f.gradeId || undefined,
  subjectId: f.subjectId || undefined,
  courseId: f.courseId || undefined,
  classId: f.classId || undefined,
  leaderType: f.leaderType,
});

export function createAnalysisApi(http: HttpClient) {
  return {
    analysis: (filter: AnalysisFilter) => http.get<Analysis>(`${BASE}/overview`, params(filter)),
    /** Saves one card's workbook under the server's name (学情分析_班级对比_<scope>_<term>_<time>); `title` names it in messages. */
    exportAnalysis: (filter: AnalysisFilter, figure: AnalysisFigure, title: string) =>
      http.download(`${BASE}/overview/export`, { name: `学情分析_${title}`, ext: 'xlsx', query: { ...params(filter), figure }, serverName: true }),
    usage: (filter: AnalysisFilter) => http.get<Usage>(`${BASE}/usage`, params(filter)),
    /** A student's 学情档案 of a term (the school's current one without `term`; docs/api-student-history.md). */
    studentHistory: (studentId: number, term?: string) => http.get<StudentHistory>(`${BASE}/student/history`, { studentId, term: term || undefined }),
    /** The one-page 学情诊断 PDF for a parent meeting, named by the server. */
    downloadStudentDiagnostic: (studentId: number, term?: string) =>
      http.download(`${BASE}/student/diagnostic`, { name: '学情诊断', ext: 'pdf', query: { studentId, term: term || undefined }, serverName: true, timeout: 120_000 }),
    /** Subjects taught in the caller's scope (the researcher's 学科 picker). */
    analysisSubjects: (schoolId?: string | number) => http.get<{ id: number; name: string }[]>(`${BASE}/subjects`, { schoolId: schoolId || undefined }),
    /** 学校概况 of the principal's school for a term. */
    schoolActivity: (term?: string) => http.get<Activity>(`${BASE}/activity`, { term: term || undefined }),
    jointExams: (term?: string) => http.get<JointExamSummary[]>(`${BASE}/jointExams`, { term: term || undefined }),
    jointExam: (id: number) => http.get<JointExamReport>(`${BASE}/jointExams/${id}`),
    /** The region's exams of a grade level and subject that a researcher may join into a 联考. */
    jointExamCandidates: (gradeLevel: number, subjectId: number) => http.get<JointExamCandidate[]>(`${BASE}/jointExams/candidates`, { gradeLevel, subjectId }),
    createJointExam: async (body: { title: string; gradeLevel: number; subjectId: number; examIds: number[] }) =>
      (await http.request<{ id: number }>(`${BASE}/jointExams`, { method: 'POST', body })).msg,
    deleteJointExam: async (id: number) => (await http.request<null>(`${BASE}/jointExams/${id}`, { method: 'DELETE' })).msg,
    /** A 联考 report as the caller's screen shows it, as a workbook named by the server. */
    exportJointExam: (id: number) => http.download(`${BASE}/jointExams/${id}/export`, { name: '联考', ext: 'xlsx', serverName: true }),
    /** 学校概况 of a term as a workbook. */
    exportSchoolActivity: (term?: string) => http.download(`${BASE}/activity/export`, { name: '学校概况', ext: 'xlsx', query: { term: term || undefined }, serverName: true }),
  };
}

export type AnalysisApi = ReturnType<typeof createAnalysisApi>;
