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
  /** The groups: classes; for a regional researcher the region's schools, then a school's grades (the drill). */
  groupBy: Type.Union([Type.Literal('class'), Type.Literal('school'), Type.Literal('grade')]),
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

/** A group's name by what the groups are. */
export const GROUP_UNITS: Record<Analysis['groupBy'], string> = { school: '学校', grade: '年级', class: '班级' };

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

const ActivityCounts = {
  /** Homework given (one per class and piece of work). */
  homeworks: Type.Integer(),
  /** AI批改 tasks created. */
  gradingTasks: Type.Integer(),
  /** Teachers who gave homework or created an AI批改 task. */
  activeTeachers: Type.Integer(),
};

/**
 * 学校概况 of the principal (GET /api/analysis/v1.0/activity): per class for one term, and the
 * school's totals term by term (docs/analysis-figures.md, "学校概况").
 */
export const ActivitySchema = Type.Object({
  term: Type.String(),
  label: Type.String(),
  /** The term's days: the school's 学年/学期 settings when set (configured), else the calendar's. */
  startDate: Type.String(),
  endDate: Type.String(),
  configured: Type.Boolean(),
  total: Type.Object({
    ...ActivityCounts,
    assigned: Type.Integer(),
    submitted: Type.Integer(),
    completionRate: Rate,
    /** Teachers of the school in service (not 停用/离职). */
    teachers: Type.Integer(),
    activeRate: Rate,
  }),
  classes: Type.Array(
    Type.Object({
      classId: Type.Integer(),
      className: Type.String(),
      gradeName: Type.String(),
      ...ActivityCounts,
      assigned: Type.Integer(),
      submitted: Type.Integer(),
      completionRate: Rate,
    }),
  ),
  terms: Type.Array(Type.Object({ term: Type.String(), label: Type.String(), startDate: Type.String(), endDate: Type.String(), configured: Type.Boolean(), ...ActivityCounts, submitted: Type.Integer() })),
});
export type Activity = Static<typeof ActivitySchema>;

/** 低分率: students whose total is under this share of full marks (below 40 %). */
export const LOW_SCORE_SHARE = 0.4;
/**
 * A principal sees the region's figure of a 联考 only when at least this many schools sat it: with
 * two, the region minus their own school would be the other school's figures.
 */
export const REGION_FIGURE_MIN_SCHOOLS = 3;

/** A 联考 in a list (GET /api/analysis/v1.0/jointExams). */
export const JointExamSummarySchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  subject: Type.String(),
  gradeLevel: Type.Integer(),
  examDate: Type.String(),
  term: Type.String(),
  fullMarks: Type.Number(),
  /** Schools of the region that sat it. */
  schools: Type.Integer(),
  /** Made by the calling researcher, who may delete it. */
  mine: Type.Boolean(),
});
export type JointExamSummary = Static<typeof JointExamSummarySchema>;

/** One school's, or the region's, figures of a 联考 (docs/analysis-figures.md, "联考"). */
export const JointExamFiguresSchema = Type.Object({
  participants: Type.Integer(),
  average: Type.Union([Type.Number(), Type.Null()]),
  /** Population standard deviation of the students' totals. */
  standardDeviation: Type.Union([Type.Number(), Type.Null()]),
  highest: Type.Union([Type.Number(), Type.Null()]),
  lowest: Type.Union([Type.Number(), Type.Null()]),
  /** ≥ 90 % of full marks. */
  excellentRate: Rate,
  /** ≥ 60 % of full marks. */
  passRate: Rate,
  /** < 40 % of full marks (LOW_SCORE_SHARE). */
  lowRate: Rate,
  /** Students per band (优秀 ≥ 90 %, 良好 70–90 %, 及格 60–70 %, 不及格 < 60 %). */
  bands: Type.Object({ excellent: Type.Integer(), good: Type.Integer(), pass: Type.Integer(), fail: Type.Integer() }),
});
export type JointExamFigures = Static<typeof JointExamFiguresSchema>;

/** GET /api/analysis/v1.0/jointExams/:id — the schools side by side. */
export const JointExamReportSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  region: Type.String(),
  subject: Type.String(),
  gradeLevel: Type.Integer(),
  examDate: Type.String(),
  term: Type.String(),
  fullMarks: Type.Number(),
  /** Schools of the region that sat it (all of them, also for a principal who sees only their own). */
  schoolCount: Type.Integer(),
  /** 'region': every school (researcher); 'school': the caller's school only (principal). */
  view: Type.Union([Type.Literal('region'), Type.Literal('school')]),
  /** The region as a whole; null for a principal when fewer than REGION_FIGURE_MIN_SCHOOLS schools sat it. */
  total: Type.Union([JointExamFiguresSchema, Type.Null()]),
  schools: Type.Array(Type.Object({ schoolId: Type.Integer(), schoolName: Type.String(), ...JointExamFiguresSchema.properties })),
});
export type JointExamReport = Static<typeof JointExamReportSchema>;

/** A school's exam that a researcher may put into a 联考 (GET …/jointExams/candidates). */
export interface JointExamCandidate {
  examId: number;
  schoolId: number;
  schoolName: string;
  title: string;
  examDate: string;
  term: string;
  fullMarks: number;
  /** The 联考 it already belongs to, if any (it cannot join another). */
  jointExam: string | null;
}
