// A student's 学情档案 (GET /api/analysis/v1.0/student/history, docs/api-student-history.md):
// score-rate trend per subject, knowledge-point mastery, the exams sat and the 临界 flags, for the
// student's teachers; and the rules that turn counts into the words the screen and the one-page
// diagnostic PDF print. Declared once for the route's reply schema, the data provider, the screen
// and the tests. A rate without a denominator is null (暂无数据).
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';
import { SCORE_BAND_LABELS, scoreBand } from './content';
import { percent } from './format';

const Rate = Nullable(Type.Number());

/** Mastery of a knowledge point from the student's score rate on its items. */
export const MasteryLevel = { strong: 'strong', fair: 'fair', weak: 'weak', few: 'few' } as const;
export type MasteryLevelValue = (typeof MasteryLevel)[keyof typeof MasteryLevel];
export const MASTERY_LEVEL_LABELS: Record<MasteryLevelValue, string> = { strong: '掌握良好', fair: '基本掌握', weak: '薄弱', few: '题量不足' };

/** Fewer answered items than this and a knowledge point's rate says little: 题量不足. */
export const MASTERY_MIN_ITEMS = 3;
/** 掌握良好 from this score rate on, 基本掌握 from FAIR on, 薄弱 below. */
export const MASTERY_STRONG = 0.85;
export const MASTERY_FAIR = 0.6;

export function masteryLevel(items: number, rate: number | null): MasteryLevelValue {
  if (items < MASTERY_MIN_ITEMS || rate === null) return MasteryLevel.few;
  if (rate >= MASTERY_STRONG) return MasteryLevel.strong;
  if (rate >= MASTERY_FAIR) return MasteryLevel.fair;
  return MasteryLevel.weak;
}

/**
 * 临界: an exam result below 及格 (60 %) or 优秀 (90 %) by at most this share of the full marks
 * (5 points of 100): a few points from the next band, where a little help changes the band.
 */
export const CRITICAL_MARGIN = 0.05;
/** The boundaries a 临界 flag names, highest first. */
export const CRITICAL_BOUNDARIES = [
  { band: 'excellent', rate: 0.9 },
  { band: 'pass', rate: 0.6 },
] as const;

/** The boundary an exam result sits just below, and the points it lacks; null when none. */
export function criticalGap(score: number, fullMarks: number): { boundary: string; gap: number } | null {
  if (!(fullMarks > 0)) return null;
  for (const b of CRITICAL_BOUNDARIES) {
    const need = b.rate * fullMarks;
    // Within the margin below the line (a boundary belongs to the band above: scoreBand).
    if (score < need && need - score <= CRITICAL_MARGIN * fullMarks + 1e-9) return { boundary: SCORE_BAND_LABELS[b.band], gap: Math.round((need - score) * 10) / 10 };
  }
  return null;
}

export const bandLabel = (score: number, fullMarks: number) => SCORE_BAND_LABELS[scoreBand(score, fullMarks)];

export const HistoryWeekSchema = Type.Object({
  /** Monday of the week (China time), YYYY-MM-DD. */
  week: Type.String(),
  works: Type.Integer(),
  score: Type.Number(),
  maxScore: Type.Number(),
  scoreRate: Rate,
});

export const HistorySubjectSchema = Type.Object({
  subjectId: Type.Integer(),
  name: Type.String(),
  /** Submissions (homework and exams) in the term. */
  works: Type.Integer(),
  score: Type.Number(),
  maxScore: Type.Number(),
  scoreRate: Rate,
  /** The student's class on the same work (Σ score / Σ max score of every classmate's submission). */
  classRate: Rate,
  weeks: Type.Array(HistoryWeekSchema),
});
export type HistorySubject = Static<typeof HistorySubjectSchema>;

export const HistoryPointSchema = Type.Object({
  knowledgePointId: Type.Integer(),
  name: Type.String(),
  subjectName: Type.String(),
  /** Items answered on the point this term. */
  items: Type.Integer(),
  correct: Type.Integer(),
  scoreRate: Rate,
  level: Type.Union([Type.Literal('strong'), Type.Literal('fair'), Type.Literal('weak'), Type.Literal('few')]),
});
export type HistoryPoint = Static<typeof HistoryPointSchema>;

export const HistoryExamSchema = Type.Object({
  examId: Type.Integer(),
  title: Type.String(),
  examDate: Type.String(),
  subjectName: Type.String(),
  /** Null for a leader (no student's score leaves the server for them). */
  score: Nullable(Type.Number()),
  fullMarks: Type.Number(),
  scoreRate: Rate,
  /** 优秀/良好/及格/不及格; null when the school shows leaders nothing per student. */
  band: Nullable(Type.String()),
  /** The class's average on the exam; null for a leader. */
  classAverage: Nullable(Type.Number()),
});
export type HistoryExam = Static<typeof HistoryExamSchema>;

export const CriticalFlagSchema = Type.Object({
  examId: Type.Integer(),
  title: Type.String(),
  examDate: Type.String(),
  subjectName: Type.String(),
  /** The band the result is just below: 优秀 or 及格. */
  boundary: Type.String(),
  /** Points missing to reach it. */
  gap: Type.Number(),
});
export type CriticalFlag = Static<typeof CriticalFlagSchema>;

export const StudentHistorySchema = Type.Object({
  student: Type.Object({ id: Type.Integer(), name: Type.String(), studentNo: Type.String(), className: Type.String(), gradeName: Type.String() }),
  term: Type.String(),
  termLabel: Type.String(),
  /** 'teacher': everything for the subjects taught (all for the 班主任); 'leader': what the school discloses. */
  viewer: Type.Union([Type.Literal('teacher'), Type.Literal('leader')]),
  /** The subjects the figures cover, by name. */
  subjectNames: Type.Array(Type.String()),
  subjects: Type.Array(HistorySubjectSchema),
  points: Type.Array(HistoryPointSchema),
  exams: Type.Array(HistoryExamSchema),
  critical: Type.Array(CriticalFlagSchema),
  /** A few plain sentences for the family (the PDF prints them). */
  summary: Type.Array(Type.String()),
});
export type StudentHistory = Static<typeof StudentHistorySchema>;

const pct = (rate: number) => percent(rate);

/** Strengths and weaknesses: the best and weakest points with enough items, by rate. */
export function strengthsAndWeaknesses(points: readonly HistoryPoint[], n = 3): { strong: HistoryPoint[]; weak: HistoryPoint[] } {
  const rated = points.filter((p) => p.level !== MasteryLevel.few && p.scoreRate !== null);
  const byRate = [...rated].sort((a, b) => b.scoreRate! - a.scoreRate! || b.items - a.items || a.knowledgePointId - b.knowledgePointId);
  const strong = byRate.filter((p) => p.level === MasteryLevel.strong).slice(0, n);
  const weak = byRate
    .filter((p) => p.level === MasteryLevel.weak)
    .reverse()
    .slice(0, n);
  return { strong, weak };
}

/**
 * The plain-language summary for a parent meeting: each subject's rate beside the class's, the
 * direction of the last weeks, the strongest and weakest points, and the 临界 results. Counts only.
 */
export function plainSummary(h: Pick<StudentHistory, 'student' | 'subjects' | 'points' | 'critical'>): string[] {
  const out: string[] = [];
  const subjects = h.subjects.filter((s) => s.scoreRate !== null);
  if (!subjects.length) return [`${h.student.name}本学期还没有已批改的作业或考试，暂无学情可总结。`];
  for (const s of subjects) {
    const vs = s.classRate === null ? '' : s.scoreRate! >= s.classRate + 0.03 ? `，高于班级（${pct(s.classRate)}）` : s.scoreRate! <= s.classRate - 0.03 ? `，低于班级（${pct(s.classRate)}）` : `，与班级（${pct(s.classRate)}）相当`;
    const rated = s.weeks.filter((w) => w.scoreRate !== null);
    let trend = '';
    if (rated.length >= 4) {
      // The last three weeks against the weeks before them.
      const mean = (ws: typeof rated) => ws.reduce((a, w) => a + w.score, 0) / Math.max(1e-9, ws.reduce((a, w) => a + w.maxScore, 0));
      const diff = mean(rated.slice(-3)) - mean(rated.slice(0, -3));
      trend = diff >= 0.05 ? '，近三周有进步' : diff <= -0.05 ? '，近三周有所下滑' : '，近几周保持稳定';
    }
    out.push(`${s.name}：本学期得分率 ${pct(s.scoreRate!)}（${s.works} 次作业和考试）${vs}${trend}。`);
  }
  const { strong, weak } = strengthsAndWeaknesses(h.points, 2);
  if (strong.length) out.push(`掌握较好的知识点：${strong.map((p) => p.name).join('、')}。`);
  if (weak.length) out.push(`需要加强的知识点：${weak.map((p) => p.name).join('、')}，建议在家多做这几类题并订正错题。`);
  for (const c of h.critical.slice(0, 2)) out.push(`${c.title}差 ${c.gap} 分达到${c.boundary}，稍加努力即可跨过这一档。`);
  return out;
}
