// The 学情分析 figures reply (GET /api/analysis/v1.0/overview, definitions in
// docs/analysis-figures.md) and the 使用统计 reply, declared once for the route's reply schema, the data provider, the
// screens and the tests. A rate without a denominator is null ('暂无数据').
import { Type, type Static } from 'typebox';

/** The cards of 学情分析, each of which exports its numbers as a workbook. */
export const ANALYSIS_FIGURES = ['groups', 'bands', 'participation', 'trend', 'knowledge', 'questions'] as const;
export type AnalysisFigure = (typeof ANALYSIS_FIGURES)[number];

const Rate = Type.Union([Type.Number(), Type.Null()]);

/**
 * 成绩分段 counts exams and homework of at least this many items: on a four-item homework one
 * wrong answer is already 75 %, and its bands would say more about the homework than the students.
 */
export const BAND_MIN_ITEMS = 10;

/** Counts of a class, a school or the whole scope, and the rates made from them. */
export const GroupFiguresSchema = Type.Object({
  enrolled: Type.Integer(),
  /** Students 在读 in the classes given work in scope (参与率's denominator). */
  enrolledWithWork: Type.Integer(),
  participants: Type.Integer(),
  homeworkAssigned: Type.Integer(),
  homeworkSubmitted: Type.Integer(),
  works: Type.Integer(),
  score: Type.Number(),
  maxScore: Type.Number(),
  excellent: Type.Integer(),
  good: Type.Integer(),
  pass: Type.Integer(),
  fail: Type.Integer(),
  scoreRate: Rate,
  participationRate: Rate,
  completionRate: Rate,
  bands: Type.Object({ excellent: Rate, good: Rate, pass: Rate, fail: Rate }),
});
export type GroupFigures = Static<typeof GroupFiguresSchema>;

export const AnalysisSchema = Type.Object({
  term: Type.String(),
  groupBy: Type.Union([Type.Literal('class'), Type.Literal('school')]),
  total: GroupFiguresSchema,
  groups: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), ...GroupFiguresSchema.properties })),
  /** Week by week (weeks start on Monday, 'YYYY-MM-DD'). */
  trend: Type.Array(
    Type.Object({
      week: Type.String(),
      score: Type.Number(),
      maxScore: Type.Number(),
      submitted: Type.Integer(),
      assigned: Type.Integer(),
      scoreRate: Rate,
      completionRate: Rate,
    }),
  ),
  knowledge: Type.Object({
    knowledgePoints: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
    cells: Type.Array(
      Type.Object({ groupId: Type.Integer(), knowledgePointId: Type.Integer(), answered: Type.Integer(), correct: Type.Integer(), mastery: Rate }),
    ),
  }),
  questions: Type.Array(
    Type.Object({ questionId: Type.Integer(), stem: Type.String(), answered: Type.Integer(), correct: Type.Integer(), wrong: Type.Integer(), wrongRate: Rate }),
  ),
});
export type Analysis = Static<typeof AnalysisSchema>;

const Tally = {
  assigned: Type.Integer(),
  submitted: Type.Integer(),
  answered: Type.Integer(),
  correct: Type.Integer(),
  completionRate: Rate,
  accuracy: Rate,
};

/** 使用统计 of the mini-program teacher (GET /api/analysis/v1.0/usage): per class, per student of one class, per week. */
export const UsageSchema = Type.Object({
  term: Type.String(),
  classId: Type.Union([Type.Integer(), Type.Null()]),
  classes: Type.Array(
    Type.Object({
      classId: Type.Integer(),
      className: Type.String(),
      homeworks: Type.Integer(),
      enrolled: Type.Integer(),
      assigned: Type.Integer(),
      submitted: Type.Integer(),
      /** Submitted and no longer awaiting the teacher's review. */
      graded: Type.Integer(),
      answered: Type.Integer(),
      correct: Type.Integer(),
      completionRate: Rate,
      accuracy: Rate,
    }),
  ),
  students: Type.Array(Type.Object({ studentId: Type.Integer(), studentNo: Type.String(), name: Type.String(), ...Tally })),
  trend: Type.Array(Type.Object({ week: Type.String(), ...Tally })),
});
export type Usage = Static<typeof UsageSchema>;
