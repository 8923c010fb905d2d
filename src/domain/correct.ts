// The AI-correction task report (docs/api-correct.md "task/report"), declared once: the server's
// reply schema, and the type the data provider, the report screen and the tests read.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';

export const ReportStudentSchema = Type.Object({
  resultId: Type.Integer(),
  studentId: Nullable(Type.Integer()),
  studentName: Nullable(Type.String()),
  studentNo: Nullable(Type.String()),
  studentKey: Nullable(Type.String()),
  score: Nullable(Type.Number()),
  maxScore: Nullable(Type.Number()),
  needsReview: Type.Boolean(),
  /** Items still flagged: the machine was unsure and the teacher has not given points yet. */
  flaggedCount: Type.Integer(),
  /** Points per question number, as counted in the score. */
  points: Type.Record(Type.String(), Nullable(Type.Number())),
});
export type ReportStudent = Static<typeof ReportStudentSchema>;

export const ReportQuestionSchema = Type.Object({
  no: Type.Integer(),
  /** Objective items (single, multiple, judge) of an answer sheet: their answers are letters. */
  objective: Type.Boolean(),
  expected: Nullable(Type.String()),
  max: Nullable(Type.Number()),
  /** Results that have this item. */
  count: Type.Integer(),
  average: Nullable(Type.Number()),
  /** Points earned / points possible, 0–1; null when the item has no full marks (homework). */
  scoreRate: Nullable(Type.Number()),
  flaggedCount: Type.Integer(),
  /** The most common wrong answers, objective items only, most frequent first. */
  wrongAnswers: Type.Array(Type.Object({ answer: Type.String(), count: Type.Integer() })),
  /** Every wrong answer of an objective item, the ones beyond wrongAnswers' few included. */
  wrongCount: Type.Integer(),
});
export type ReportQuestion = Static<typeof ReportQuestionSchema>;

/**
 * Who a task has accounted for (report and task list): results graded and awaiting review, pages
 * that could not be read, pages not graded yet, and the class's students with no page at all.
 */
export const TaskCoverageSchema = Type.Object({
  /** Uploaded files (deleted ones left out). */
  files: Type.Integer(),
  /** Results the teacher need not look at again. */
  graded: Type.Integer(),
  /** Results with items still awaiting the teacher. */
  review: Type.Integer(),
  /** Results whose page named no student of the class (assign them by hand). */
  unmatched: Type.Integer(),
  /** Files uploaded or being read, not graded yet. */
  waiting: Type.Integer(),
  failed: Type.Array(
    Type.Object({
      fileId: Type.Integer(),
      fileName: Type.String(),
      reason: Type.String(),
      /** The student the photo was uploaded for, when named at upload. */
      studentId: Nullable(Type.Integer()),
      studentName: Nullable(Type.String()),
    }),
  ),
  /** Enrolled students of the task's class with neither a result nor a page (empty without a class). */
  absent: Type.Array(Type.Object({ studentId: Type.Integer(), name: Type.String(), studentNo: Nullable(Type.String()) })),
});
export type TaskCoverage = Static<typeof TaskCoverageSchema>;

export const TaskReportSchema = Type.Object({
  task: Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    type: Type.Integer(),
    status: Type.Integer(),
    className: Nullable(Type.String()),
    submittedAt: Nullable(Type.String()),
  }),
  summary: Type.Object({
    students: Type.Integer(),
    /** Full marks of the task, when every result agrees on it. */
    maxScore: Nullable(Type.Number()),
    average: Nullable(Type.Number()),
    highest: Nullable(Type.Number()),
    lowest: Nullable(Type.Number()),
    reviewCount: Type.Integer(),
  }),
  /** Ten bands of the score as a share of full marks: [0,10%), …, [90%,100%]. */
  distribution: Type.Array(Type.Object({ label: Type.String(), from: Type.Number(), to: Type.Number(), count: Type.Integer() })),
  questions: Type.Array(ReportQuestionSchema),
  coverage: TaskCoverageSchema,
  /** Every result, those needing review first, then by student number. */
  students: Type.Array(ReportStudentSchema),
});
export type TaskReport = Static<typeof TaskReportSchema>;
