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
  /** 双评: the points two marks may differ by before the owner arbitrates; null when marked once. */
  double: Nullable(Type.Number()),
  /** 双评 papers whose two marks differ by more: waiting for the owner's 仲裁. */
  arbitration: Type.Integer(),
  /** The teachers the owner gave the question to, each with their own queue's progress (empty: the owner marks it alone). */
  markers: Type.Array(Type.Object({ teacherId: Type.Integer(), name: Type.String(), marked: Type.Integer(), total: Type.Integer() })),
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

/** What a marker's pen can draw on a paper: ✓, ✗, a circle, an underline, a few words. */
export const ANNOTATION_KINDS = ['check', 'cross', 'circle', 'underline', 'text'] as const;
export const ANNOTATION_LABELS: Record<(typeof ANNOTATION_KINDS)[number], string> = { check: '对号', cross: '叉号', circle: '圈画', underline: '下划线', text: '文字' };
/** Most marks one paper's question takes: enough for a worked problem, bounded for the database. */
export const MAX_ANNOTATIONS = 40;
export const MAX_ANNOTATION_TEXT = 20;
const Fraction = Type.Number({ minimum: 0, maximum: 1 });

/**
 * One mark of the marker's pen. x, y, w, h are fractions of the question's region (0..1, from its
 * top-left): the same spot on any scan of the sheet. A ✓/✗/text sits at (x, y); a circle fills the
 * box; an underline runs along its bottom.
 */
export const AnnotationSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('check'), Type.Literal('cross'), Type.Literal('circle'), Type.Literal('underline'), Type.Literal('text')]),
    x: Fraction,
    y: Fraction,
    w: Fraction,
    h: Fraction,
    text: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_ANNOTATION_TEXT })),
  },
  { additionalProperties: false },
);
export type Annotation = Static<typeof AnnotationSchema>;
export const AnnotationsSchema = Type.Array(AnnotationSchema, { maxItems: MAX_ANNOTATIONS });

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
  /** The marker's pen on this paper's question. */
  annotations: AnnotationsSchema,
  /** 双评, for the owner only: each marker's points (a marker never sees the other's). */
  marks: Type.Array(Type.Object({ teacher: Type.String(), score: Type.Number() })),
  /** 双评: both marks are in and differ by more than allowed; the owner's points settle it. */
  pending: Type.Boolean(),
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
  /** The owner: every result of the task; a marker: their own share of it. By student number (unmatched last). */
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
  /** 双评 (owner only): the paper's marks after this one, and whether they now wait for 仲裁. */
  marks: Type.Array(Type.Object({ teacher: Type.String(), score: Type.Number() })),
  pending: Type.Boolean(),
});
export type MarkingSaved = Static<typeof MarkingSavedSchema>;

/** Who a task owner may give a question to: teachers of the task's course in its class. */
export const MarkerCandidateSchema = Type.Object({ teacherId: Type.Integer(), name: Type.String() });

export const MarkerSetupSchema = Type.Object({
  candidates: Type.Array(MarkerCandidateSchema),
  questions: Type.Array(Type.Object({ no: Type.Integer(), teacherIds: Type.Array(Type.Integer()), double: Nullable(Type.Number()) })),
});
export type MarkerSetup = Static<typeof MarkerSetupSchema>;

/** A task another teacher gave the caller questions of, with the caller's progress on each. */
export const AssignedMarkingSchema = Type.Object({
  taskId: Type.Integer(),
  title: Type.String(),
  owner: Type.String(),
  questions: Type.Array(Type.Object({ no: Type.Integer(), kind: Type.Union([Type.Literal('short'), Type.Literal('essay')]), double: Type.Boolean(), marked: Type.Integer(), total: Type.Integer() })),
});
export type AssignedMarking = Static<typeof AssignedMarkingSchema>;
