// 班级错题本 calls (docs/api-wrongbook-class.md, service wrongbook): a class's wrongly answered
// questions with their error rates, and one question's wrong answers and option spread.
import type { HttpClient } from './http';
import type { Page } from '../domain/envelope';
import type { BankQuestion } from './papers';

/** Error-rate bands: 全部, >40%, 30–40%, 10–30%, <10%. */
export type MistakeBand = 'all' | 'gt40' | '30to40' | '10to30' | 'lt10';

export interface ClassMistake {
  question: BankQuestion;
  /** Where the class met it: 0 自定义作业, 1 作业本, 2 考试. */
  sources: number[];
  works: number;
  answered: number;
  correct: number;
  wrong: number;
  /** wrong / answered, 0–1. */
  errorRate: number;
}
export interface ClassMistakePage extends Page<ClassMistake> {
  bands: Record<MistakeBand, number>;
  knowledgePoints: { id: number; name: string; count: number }[];
}
export interface MistakeScope {
  classId: number | string;
  courseId: number | string;
  /** 'YYYY01' | 'YYYY02' a term, 'YYYY03' a learning year. */
  term?: string;
  sourceType?: number;
  /** 1: homework only (作业本 and 自定义作业). */
  mistakeType?: number;
}
export interface WrongAnswer {
  studentId: number;
  name: string;
  studentNo: string;
  answer: string | null;
  score: number;
  maxScore: number;
  sourceType: number;
  sourceId: number;
  workTitle: string;
  answeredAt: string;
}
export interface MistakeDetail extends Omit<ClassMistake, 'question'> {
  question: BankQuestion & { children?: BankQuestion[] };
  options: { key: string; count: number; rate: number; correct: boolean }[] | null;
  students: WrongAnswer[];
}

const BASE = '/api/wrongbook/v1.0/web/class/mistakes';
const PLATFORM = '/api/wrongbook/v1.0/platform';

/** The platform admin's picker lists (any school). */
export interface PlatformSchool {
  id: number;
  name: string;
  region: string;
}
export interface PlatformClass {
  id: number;
  className: string;
  gradeId: number;
  gradeName: string;
}

const scopeQuery = (s: MistakeScope) => ({
  classId: s.classId,
  courseId: s.courseId,
  term: s.term || undefined,
  sourceType: s.sourceType,
  mistakeType: s.mistakeType,
});

export function createWrongbookApi(http: HttpClient) {
  return {
    classMistakes: (q: MistakeScope & { band?: MistakeBand; knowledgePointId?: number; current?: number; size?: number }) =>
      http.get<ClassMistakePage>(BASE, {
        ...scopeQuery(q),
        band: q.band && q.band !== 'all' ? q.band : undefined,
        knowledgePointId: q.knowledgePointId,
        current: q.current ?? 1,
        size: q.size ?? 20,
      }),
    classMistakeDetail: (questionId: number, scope: MistakeScope) => http.get<MistakeDetail>(`${BASE}/${Number(questionId)}`, scopeQuery(scope)),
    platformSchools: () => http.get<PlatformSchool[]>(`${PLATFORM}/schools`),
    platformClasses: (schoolId: number | string) => http.get<PlatformClass[]>(`${PLATFORM}/classes`, { schoolId }),
    platformCourses: (schoolId: number | string) => http.get<{ courseId: number; courseName: string }[]>(`${PLATFORM}/courses`, { schoolId }),
  };
}

export type WrongbookApi = ReturnType<typeof createWrongbookApi>;
