// Teaching content enumerations (SPEC §3) and the score bands, shared by the client and the server.
import type { Option } from './semester';

/** Question types of the bank. 综合 holds sub-questions; 作文 is scored by the essay engine. */
export const QuestionType = { single: 1, multiple: 2, judge: 3, blank: 4, answer: 5, composite: 6, essay: 7 } as const;
export type QuestionTypeValue = (typeof QuestionType)[keyof typeof QuestionType];

export const QUESTION_TYPES: Option<number>[] = [
  { label: '单选题', value: QuestionType.single },
  { label: '多选题', value: QuestionType.multiple },
  { label: '判断题', value: QuestionType.judge },
  { label: '填空题', value: QuestionType.blank },
  { label: '解答题', value: QuestionType.answer },
  { label: '综合题', value: QuestionType.composite },
  { label: '作文', value: QuestionType.essay },
];

/** Items whose answer is an option choice: option (distractor) rates are reported for these. */
export const OBJECTIVE_TYPES: readonly number[] = [QuestionType.single, QuestionType.multiple, QuestionType.judge];

/** SPEC §3 wrong-question source: where an answer record comes from. */
export const SourceType = { customHomework: 0, bookHomework: 1, exam: 2 } as const;

/** A homework's note to the students: a few sentences (what to watch for, how to hand in). */
export const HOMEWORK_NOTE_MAX = 200;

/** Stage of schooling of a knowledge point or question. */
export const Stage = { primary: 1, junior: 2, senior: 3 } as const;

/** 上册 1, 下册 2. */
export const BOOK_TERMS: Option<number>[] = [
  { label: '上册', value: 1 },
  { label: '下册', value: 2 },
];

export type ScoreBand = 'excellent' | 'good' | 'pass' | 'fail';

/**
 * SPEC §3 score bands on the share of full marks: 优秀 over 90 %, 良好 70–90 %, 及格 60–70 %,
 * 不及格 under 60 %. A boundary belongs to the band above it (90 % is 优秀, 60 % is 及格), as
 * schools count it.
 */
export function scoreBand(score: number, fullMarks: number): ScoreBand {
  const rate = fullMarks > 0 ? score / fullMarks : 0;
  if (rate >= 0.9) return 'excellent';
  if (rate >= 0.7) return 'good';
  if (rate >= 0.6) return 'pass';
  return 'fail';
}

export const SCORE_BAND_LABELS: Record<ScoreBand, string> = { excellent: '优秀', good: '良好', pass: '及格', fail: '不及格' };

/**
 * What a school lets people other than the student's teachers see of each student's exam result
 * (未成年人学校保护规定, 2021: schools do not publish students' scores or ranks). Teachers always
 * see scores and ranks; everyone else (leaders, researchers) never sees a student's score, and
 * sees a rank, a band or nothing per student as the school decides. Class figures are unaffected.
 */
export const ScoreDisclosure = { none: 0, band: 1, rank: 2 } as const;
export type ScoreDisclosureValue = (typeof ScoreDisclosure)[keyof typeof ScoreDisclosure];
export const SCORE_DISCLOSURES: Option<number>[] = [
  { label: '不显示学生个人结果', value: ScoreDisclosure.none },
  { label: '只显示等级（优秀、良好、及格、不及格）', value: ScoreDisclosure.band },
  { label: '显示名次（不显示分数）', value: ScoreDisclosure.rank },
];
