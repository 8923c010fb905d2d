// Request schemas of the correction calls. The sheet spec mirrors server/grading's SheetSpec.
import { Type } from 'typebox';
import { Id } from '../../http/schemas';

export { Id };

const Title = Type.String({ minLength: 1, maxLength: 50 });
/** Question numbers, as printed on a sheet. */
const No = Type.Integer({ minimum: 1, maximum: 200 });

const ObjectiveItem = Type.Object({
  no: No,
  type: Type.Union([Type.Literal('single'), Type.Literal('multiple'), Type.Literal('judge')]),
  options: Type.Optional(Type.Integer({ minimum: 2, maximum: 7 })),
});

const Section = Type.Union([
  Type.Object({ kind: Type.Literal('objective'), title: Title, items: Type.Array(ObjectiveItem, { minItems: 1, maxItems: 100 }) }),
  Type.Object({
    kind: Type.Literal('fill'),
    title: Title,
    items: Type.Array(Type.Object({ no: No, blanks: Type.Integer({ minimum: 1, maximum: 6 }) }), { minItems: 1, maxItems: 40 }),
  }),
  Type.Object({
    kind: Type.Literal('short'),
    title: Title,
    items: Type.Array(Type.Object({ no: No, heightMm: Type.Number({ minimum: 10, maximum: 250 }) }), { minItems: 1, maxItems: 20 }),
  }),
  Type.Object({
    kind: Type.Literal('essay'),
    title: Title,
    no: No,
    cells: Type.Integer({ minimum: 100, maximum: 1500 }),
    columns: Type.Optional(Type.Integer({ minimum: 10, maximum: 30 })),
    prompt: Type.Optional(Type.String({ maxLength: 200 })),
    minChars: Type.Optional(Type.Integer({ minimum: 0, maximum: 1500 })),
  }),
]);

export const CreateSheetBody = Type.Object({
  title: Title,
  paper: Type.Union([Type.Literal('A4'), Type.Literal('A3')]),
  /** roster: a named copy per student of the class; anonymous: student-number bubbles. */
  identity: Type.Union([Type.Literal('roster'), Type.Literal('anonymous')]),
  digits: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
  classId: Type.Optional(Id),
  sections: Type.Array(Section, { minItems: 1, maxItems: 20 }),
});

/** An exam's sheet for one class of it (sheet/fromExam). */
export const ExamSheetBody = Type.Object({ examId: Id, classId: Id });

const KeyItem = Type.Union([
  Type.Object({ answer: Type.String({ minLength: 1, maxLength: 7 }), points: Type.Number({ minimum: 0, maximum: 100 }) }),
  Type.Object({ blanks: Type.Array(Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 20 }), { minItems: 1, maxItems: 6 }), points: Type.Number({ minimum: 0, maximum: 100 }) }),
  Type.Object({ essay: Type.Literal(true), points: Type.Number({ minimum: 0, maximum: 150 }), prompt: Type.Optional(Type.String({ maxLength: 2000 })) }),
  /** A 解答题 marked by the teacher online (marking.ts), out of `points`. */
  Type.Object({ manual: Type.Literal(true), points: Type.Number({ minimum: 0.5, maximum: 150 }) }),
]);

export const CreateTaskBody = Type.Object({
  type: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
  title: Title,
  classId: Type.Optional(Id),
  /** The teacher's homework (homework and answer-sheet tasks) or exam (answer-sheet tasks) the task grades. */
  homeworkId: Type.Optional(Id),
  examId: Type.Optional(Id),
  /** Answer-sheet tasks. */
  sheetId: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  answerKey: Type.Optional(
    Type.Object({
      multipleRule: Type.Optional(Type.Object({ missing: Type.Number({ minimum: 0, maximum: 1 }), wrong: Type.Number({ minimum: 0, maximum: 1 }) })),
      minOcrConfidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      items: Type.Record(Type.String(), KeyItem, { maxProperties: 400 }),
    }),
  ),
  /** Homework tasks: the assignment's questions, for aligning what the photo says. */
  questions: Type.Optional(Type.Array(Type.Object({ no: No, text: Type.Optional(Type.String({ maxLength: 500 })) }), { maxItems: 100 })),
  /** Essay tasks. */
  essayBrief: Type.Optional(
    Type.Object({
      title: Type.Optional(Type.String({ maxLength: 100 })),
      /** The whole writing prompt as printed (材料、要求): the scorer needs it to see it copied out. */
      prompt: Type.Optional(Type.String({ maxLength: 500 })),
      minChars: Type.Optional(Type.Integer({ minimum: 0, maximum: 3000 })),
      fullMarks: Type.Optional(Type.Number({ minimum: 1, maximum: 150 })),
    }),
  ),
});

export const ReviewBody = Type.Object({
  resultId: Id,
  items: Type.Array(Type.Object({ no: No, score: Type.Number({ minimum: 0, maximum: 1000 }) }), { minItems: 1, maxItems: 200 }),
  /** The teacher's comment to the student (essays), shown on the printed feedback. */
  comment: Type.Optional(Type.String({ maxLength: 1000 })),
});

/** Longest teacher comment kept (characters after trimming). */
export const MAX_TEACHER_COMMENT = 1000;

/** The fields of a task upload besides its file (multipart). */
export const UploadFields = Type.Object({
  taskId: Id,
  studentId: Type.Optional(Id),
  /** A page of the task (a failed or wrongly read one) this upload replaces. */
  replaces: Type.Optional(Id),
});

/** Name the student of an uploaded file before submission (a class's photos uploaded at once); null takes it back. */
export const FileStudentBody = Type.Object({ fileId: Id, studentId: Type.Union([Id, Type.Null()]) });

/** Hand a result whose page named no student (or the wrong one) to a student of the task's class. */
export const AssignBody = Type.Object({ resultId: Id, studentId: Id });
