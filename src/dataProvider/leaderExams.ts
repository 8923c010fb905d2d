// The leaders' exam report (考试分析, docs/api-content.md "Exams for leaders"): the exams in the
// caller's scope, a report of the scope or one class, its analysis, one student's page and the
// scanned sheet, and 阅卷进度 (also for the exam's teachers).
import type { HttpClient } from './http';
import type { Page } from '../domain/envelope';
import type { ExamMarkingProgress, LeaderExamAnalysis, LeaderExamReport, LeaderExamStudent, LeaderExamSummary } from '../domain/leaderExams';

const BASE = '/api/minerva/v1.0/leader/exams';

export function createLeaderExamApi(http: HttpClient) {
  return {
    leaderExamPage: (query: { gradeId?: string | number; courseId?: string | number; current?: number; size?: number }) =>
      http.get<Page<LeaderExamSummary>>(BASE, { gradeId: query.gradeId || undefined, courseId: query.courseId || undefined, current: query.current ?? 1, size: query.size ?? 20 }),
    leaderExamReport: (examId: number | string, classId?: number | string) => http.get<LeaderExamReport>(`${BASE}/${Number(examId)}/report`, { classId: classId || undefined }),
    leaderExamAnalysis: (examId: number | string, classId?: number | string) => http.get<LeaderExamAnalysis>(`${BASE}/${Number(examId)}/analysis`, { classId: classId || undefined }),
    /** The analysis as a workbook (per student only what the school discloses), named by the server. */
    exportLeaderExam: (examId: number | string, classId?: number | string) =>
      http.download(`${BASE}/${Number(examId)}/analysis/export`, { name: '考试分析', ext: 'xlsx', query: { classId: classId || undefined }, serverName: true }),
    leaderExamStudent: (examId: number | string, studentId: number | string) => http.get<LeaderExamStudent>(`${BASE}/${Number(examId)}/students/${Number(studentId)}`),
    leaderExamSheetFile: (examId: number | string, fileId: number) => http.blob(`${BASE}/${Number(examId)}/sheetFile`, { fileId }),
    leaderExamMarking: (examId: number | string) => http.get<ExamMarkingProgress>(`${BASE}/${Number(examId)}/marking`),
    /** The same progress for a teacher of the exam. */
    examMarking: (examId: number | string) => http.get<ExamMarkingProgress>(`/api/minerva/v1.0/exams/${Number(examId)}/marking`),
  };
}

export type LeaderExamApi = ReturnType<typeof createLeaderExamApi>;
