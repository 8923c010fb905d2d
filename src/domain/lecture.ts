// 讲评 sample answers (docs/api-correct.md, "讲评样例"): the graded papers a teacher picks to show
// for one question on the projector, each as the crop of that question from the student's scan,
// labelled 样例A, 样例B… and never with a name. Declared once for the routes, the data provider,
// the screen and the tests.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';

/** The most samples one question shows (the projector has room for a few, side by side). */
export const SAMPLES_PER_QUESTION = 4;

/** 样例A, 样例B, … by position. */
export const sampleLabel = (position: number) => `样例${String.fromCharCode(65 + position)}`;

const Rect = Type.Object({ x: Type.Number(), y: Type.Number(), w: Type.Number(), h: Type.Number() });

/** One scan page narrowed to one question: the geometry ScanOverlay draws (server/modules/correct/view.ts). */
export const SamplePageSchema = Type.Object({
  page: Type.Integer(),
  fileId: Nullable(Type.Integer()),
  h: Nullable(Type.Array(Type.Number())),
  size: Nullable(Type.Object({ w: Type.Number(), h: Type.Number() })),
  regions: Type.Array(Type.Object({ no: Type.Integer(), kind: Type.String(), rect: Rect })),
  bubbles: Type.Array(Type.Object({ no: Type.Integer(), label: Type.String(), cx: Type.Number(), cy: Type.Number(), rx: Type.Number(), ry: Type.Number(), fill: Type.Number(), state: Type.String() })),
  fills: Type.Array(Type.Object({ no: Type.Integer(), box: Type.Integer(), rect: Rect, text: Type.String(), confidence: Type.Number(), blank: Type.Boolean() })),
});

/** A paper's answer to one question, without anything that names the student. */
export const SamplePaperSchema = Type.Object({
  resultId: Type.Integer(),
  no: Type.Integer(),
  /** The points that count (the teacher's where given); null when unscored. */
  score: Nullable(Type.Number()),
  max: Nullable(Type.Number()),
  /** What grading read (option letters, text); the crop is what the class sees. */
  given: Type.String(),
  needsReview: Type.Boolean(),
  page: SamplePageSchema,
});
export type SamplePaper = Static<typeof SamplePaperSchema>;

export const LectureSampleSchema = Type.Intersect([SamplePaperSchema, Type.Object({ label: Type.String(), position: Type.Integer() })]);
export type LectureSample = Static<typeof LectureSampleSchema>;

export const LectureSamplesSchema = Type.Object({ samples: Type.Array(LectureSampleSchema) });
export const SampleCandidatesSchema = Type.Object({ no: Type.Integer(), papers: Type.Array(SamplePaperSchema) });
export type SampleCandidates = Static<typeof SampleCandidatesSchema>;

export const SaveSamplesBody = Type.Object(
  {
    taskId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
    no: Type.Integer({ minimum: 1, maximum: 200 }),
    resultIds: Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: SAMPLES_PER_QUESTION }),
  },
  { additionalProperties: false },
);
