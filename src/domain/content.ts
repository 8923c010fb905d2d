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

/**
 * A homework given as a photo or PDF of the assignment carries its own answer key: per item its
 * number, kind (选择 one or more option letters, 判断 对/错, 填空 the blanks joined by '；', 解答
 * no answer: points only, marked by the teacher) and points.
 */
export const HOMEWORK_KEY_KINDS = [
  { label: '选择', value: 'choice' },
  { label: '判断', value: 'judge' },
  { label: '填空', value: 'blank' },
  { label: '解答', value: 'answer' },
] as const;
export type HomeworkKeyKind = (typeof HOMEWORK_KEY_KINDS)[number]['value'];

export interface HomeworkKeyItem {
  /** As printed on the assignment: "3" or "12(2)". */
  no: string;
  kind: HomeworkKeyKind;
  /** 选择: letters A–G (several: 多选); 判断: 对 or 错; 填空: the blanks joined by '；'; 解答: absent. */
  answer?: string;
  points: number;
}

export const HOMEWORK_KEY_LIMITS = { items: 100, answerMax: 200, pointsMax: 100, noPattern: '^[0-9]{1,3}(\\([0-9]{1,2}\\))?$' } as const;
/** The assignment itself: a photo (JPG, PNG) or a PDF, at most this size. */
export const HOMEWORK_FILE_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export const HOMEWORK_FILE_MAX_BYTES = 10 * 1024 * 1024;

/** The bank question type an answer-key item is stored as. */
export function keyItemQuestionType(item: HomeworkKeyItem): QuestionTypeValue {
  if (item.kind === 'choice') return (item.answer ?? '').length > 1 ? QuestionType.multiple : QuestionType.single;
  if (item.kind === 'judge') return QuestionType.judge;
  if (item.kind === 'blank') return QuestionType.blank;
  return QuestionType.answer;
}

/**
 * An answer as the key compares it: option letters sorted and upper-case, 对/错 from the usual
 * marks (√ ✓ T 正确 / × ✗ F 错误), blanks without spaces, full-width forms folded to half-width.
 * null: nothing to compare (empty).
 */
export function normalizeKeyAnswer(kind: HomeworkKeyKind, raw: string): string | null {
  const folded = raw.normalize('NFKC').replace(/\s+/g, '');
  if (!folded) return null;
  if (kind === 'choice') {
    const letters = [...new Set(folded.toUpperCase().replace(/[^A-G]/g, ''))].sort().join('');
    return letters || null;
  }
  if (kind === 'judge') {
    // The mark written last counts (a photo may read the printed number or stem before it).
    if (/^(T|X|F)$/i.test(folded)) return /^T$/i.test(folded) ? '对' : '错';
    if (/(错误|错|×|✗|✘)$/.test(folded)) return '错';
    if (/(正确|对|√|✓|✔)$/.test(folded)) return '对';
    return null;
  }
  if (kind === 'blank') return folded.replace(/[;；,，]+/g, '；').replace(/^；|；$/g, '');
  return null;
}
