// 网上阅卷 (marking subjective questions online, docs/api-correct.md "Marking"): the replies of the
// marking calls, declared once for the server's route schemas, the data provider and the tests.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';

/** A question of a task the teacher marks by hand: a 解答题 region or an essay of the sheet. */
export const MarkingQuestionSchema = Type.Object({
  no: Type.Integer(),
  kind: Type.Union([Type.Literal('short'), Type.Literal('essay')]),
  /** null: the sheet gave no points for it yet (older sheets); the teacher sets them first. */
  fullMarks: Nullable(Type.Number()),
  /** Results marked by the teacher / results of the task. */
  marked: Type.Integer(),
  total: Type.Integer(),
});
export type MarkingQuestion = Static<typeof MarkingQuestionSchema>;

const Rect = Type.Object({ x: Type.Number(), y: Type.Number(), w: Type.Number(), h: Type.Number() });

/** Where the question lies on one student's scan: the file, the page transform (mm → px), the region in mm. */
export const MarkingCropSchema = Type.Object({
  page: Type.Integer(),
  fileId: Nullable(Type.Integer()),
  h: Nullable(Type.Array(Type.Number())),
  size: Nullable(Type.Object({ w: Type.Number(), h: Type.Number() })),
  rect: Rect,
});
export type MarkingCrop = Static<typeof MarkingCropSchema>;

export const MarkingPaperSchema = Type.Object({
  resultId: Type.Integer(),
  /** Names, number and key are null unless the task shows names (anonymous marking). */
  studentName: Nullable(Type.String()),
  studentNo: Nullable(Type.String()),
  /** What the sheet identified when no student matched (QR id or number). */
  studentKey: Nullable(Type.String()),
  /** The teacher's points for this question; null until marked. */
  score: Nullable(Type.Number()),
  /** The machine's proposal (essays); null for 解答题. */
  proposed: Nullable(Type.Number()),
  /** The student's total as it stands. */
  total: Nullable(Type.Number()),
  crop: Nullable(MarkingCropSchema),
  /** Rubric items applied to this paper (their ids). */
  applied: Type.Array(Type.Integer()),
});
export type MarkingPaper = Static<typeof MarkingPaperSchema>;

/** A rubric item of a question: "列式正确" +2, "计算错误" −1. */
export const RubricItemSchema = Type.Object({ id: Type.Integer(), label: Type.String(), points: Type.Number() });
export type RubricItem = Static<typeof RubricItemSchema>;

export const MarkingSheetSchema = Type.Object({
  taskId: Type.Integer(),
  taskTitle: Type.String(),
  /** The task owner lets markers see the students' names; without, papers come without them. */
  showNames: Type.Boolean(),
  /** The caller owns the task (and may change `showNames`). */
  owner: Type.Boolean(),
  question: MarkingQuestionSchema,
  rubric: Type.Array(RubricItemSchema),
  /** Every result of the task, by student number (unmatched last). */
  papers: Type.Array(MarkingPaperSchema),
});
export type MarkingSheet = Static<typeof MarkingSheetSchema>;

export const MarkingSavedSchema = Type.Object({
  resultId: Type.Integer(),
  no: Type.Integer(),
  /** null: no rubric item left applied, the paper is unmarked again. */
  score: Nullable(Type.Number()),
  applied: Type.Array(Type.Integer()),
  /** The student's new total and full marks. */
  total: Nullable(Type.Number()),
  maxScore: Nullable(Type.Number()),
  marked: Type.Integer(),
});
export type MarkingSaved = Static<typeof MarkingSavedSchema>;
