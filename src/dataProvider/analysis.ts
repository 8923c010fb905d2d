// 学情分析 and 使用统计 (docs/api-analysis.md): figures of the caller's scope, and each card's xlsx.
import type { HttpClient } from './http';

const BASE = '/api/analysis/v1.0';

export interface AnalysisFilter {
  term?: string;
  gradeId?: string | number;
  courseId?: string | number;
  classId?: string | number;
  leaderType?: number;
}

export type BandKey = 'excellent' | 'good' | 'pass' | 'fail';

export interface GroupFigures {
  enrolled: number;
  participants: number;
  homeworkAssigned: number;
  homeworkSubmitted: number;
  works: number;
  score: number;
  maxScore: number;
  excellent: number;
  good: number;
  pass: number;
  fail: number;
  scoreRate: number | null;
  participationRate: number | null;
  completionRate: number | null;
  bands: Record<BandKey, number | null>;
}

export interface Analysis {
  term: string;
  groupBy: 'class' | 'school';
  total: GroupFigures;
  groups: (GroupFigures & { id: number; name: string })[];
  trend: { week: string; score: number; maxScore: number; submitted: number; assigned: number; scoreRate: number | null; completionRate: number | null }[];
  knowledge: {
    knowledgePoints: { id: number; name: string }[];
    cells: { groupId: number; knowledgePointId: number; answered: number; correct: number; mastery: number | null }[];
  };
  questions: { questionId: number; stem: string; answered: number; correct: number; wrong: number; wrongRate: number | null }[];
}

export type AnalysisFigure = 'groups' | 'bands' | 'participation' | 'trend' | 'knowledge' | 'questions';

interface UsageTally {
  assigned: number;
  submitted: number;
  answered: number;
  correct: number;
  completionRate: number | null;
  accuracy: number | null;
}

export interface Usage {
  term: string;
  classId: number | null;
  classes: (UsageTally & { classId: number; className: string; homeworks: number; enrolled: number; graded: number })[];
  students: (UsageTally & { studentId: number; studentNo: string; name: string })[];
  trend: (UsageTally & { week: string })[];
}

const params = (f: AnalysisFilter) => ({
  term: f.term || undefined,
  gradeId: f.gradeId || undefined,
  courseId: f.courseId || undefined,
  classId: f.classId || undefined,
  leaderType: f.leaderType,
});

export function createAnalysisApi(http: HttpClient) {
  return {
    analysis: (filter: AnalysisFilter) => http.get<Analysis>(`${BASE}/overview`, params(filter)),
    /** Saves one card's workbook; `title` names the file (学情分析_班级对比_…). */
    exportAnalysis: (filter: AnalysisFilter, figure: AnalysisFigure, title: string) =>
      http.download(`${BASE}/overview/export`, { name: `学情分析_${title}`, ext: 'xlsx', query: { ...params(filter), figure } }),
    usage: (filter: AnalysisFilter) => http.get<Usage>(`${BASE}/usage`, params(filter)),
  };
}

export type AnalysisApi = ReturnType<typeof createAnalysisApi>;
