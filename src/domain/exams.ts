// A teacher's exam as listed (docs/api-content.md "Exams"), declared once: the server's reply
// schema, and the type the data provider and the exam screen read.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';

export const ExamSummarySchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  examDate: Type.String(),
  term: Type.String(),
  fullMarks: Type.Number(),
  gradeId: Type.Integer(),
  gradeName: Type.String(),
  courseId: Type.Integer(),
  courseName: Type.String(),
  questionCount: Type.Integer(),
  paperId: Nullable(Type.Integer()),
  /** The caller's classes of the exam. */
  classes: Type.Array(Type.Object({ classId: Type.Integer(), className: Type.String() })),
  participants: Type.Integer(),
  average: Nullable(Type.Number()),
});
export type ExamSummary = Static<typeof ExamSummarySchema>;
