// The teacher's exams and exam reports (docs/api-content.md "Exams and the exam report"), and the
// report's xlsx export.
import type { HttpClient } from './http';
import type { Page } from '../domain/envelope';
import type { ExamSummary } from '../domain/exams';

export type BandKey = 'excellent' | 'good' | 'pass' | 'fail';

export interface OptionRate {
  key: string;
  count: number;
  rate: number;
  correct: boolean;
}

export interface QuestionStats {
  no: string;
  questionId: number;
  type: number;
  points: number;
  knowledgePoints: { id: number; name: string }[];
  answered: number;
  correct: number;
  average: number | null;
  scoreRate: number | null;
  difficulty: number | null;
  discrimination: number | null;
  optionRates: OptionRate[] | null;
}

export interface ClassStats {
  classId: number;
  className: string;
  participants: number;
  average: number | null;
  highest: number | null;
  lowest: number | null;
  stdDev: number | null;
  excellentRate: number;
  passRate: number;
}

export interface ExamReport {
  exam: { id: number; title: string; examDate: string; term: string; fullMarks: number; gradeId: number; gradeName: string; courseId: number; courseName: string };
  scope: { classIds: number[]; classNames: string[] };
  participants: number;
  absent: number;
  average: number | null;
  highest: number | null;
  lowest: number | null;
  stdDev: number | null;
  bands: Record<BandKey, { count: number; rate: number }>;
  distribution: { from: number; to: number; count: number }[];
  reliability: number | null;
  ranking: { rank: number; studentId: number; name: string; studentNo: string; classId: number; className: string; score: number }[];
  questions: QuestionStats[];
  classes: ClassStats[];
}

/** A question of the exam as the bank holds it, to show beside its figures. */
export interface ExamQuestion {
  id: number;
  type: number;
  stem: string;
  options: { key: string; text: string }[] | null;
  answer: string;
  analysis: string;
}

const BASE = '/api/minerva/v1.0/exams';

export function createExamApi(http: HttpClient) {
  return {
    examPage: (query: { gradeId?: string | number; courseId?: string | number; current?: number; size?: number }) =>
      http.get<Page<ExamSummary>>(BASE, {
        gradeId: query.gradeId || undefined,
        courseId: query.courseId || undefined,
        current: query.current ?? 1,
        size: query.size ?? 20,
      }),
    examReport: (examId: number | string, classId?: number | string) =>
      http.get<ExamReport>(`${BASE}/${Number(examId)}/report`, { classId: classId || undefined }),
    examQuestion: (questionId: number) => http.get<ExamQuestion>(`/api/minerva/v1.0/questions/${Number(questionId)}`),
    /** Saves the workbook; `scopeName` (a class or 全年级) goes into the file name. */
    exportExamReport: (examId: number | string, classId: number | string | undefined, title: string, scopeName: string) =>
      http.download(`${BASE}/${Number(examId)}/report/export`, { name: `${title}_成绩分析`, suffix: scopeName, ext: 'xlsx', query: { classId: classId || undefined } }),
  };
}

export type ExamApi = ReturnType<typeof createExamApi>;
