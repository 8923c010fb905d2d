// The question bank and the teacher's papers as the content calls answer them (docs/api-content.md
// "Question bank", "Papers"), declared once: the server's reply schemas, and the types the data
// provider, the 组卷 screens and the tests read.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';

const QuestionFields = {
  id: Type.Integer(),
  type: Type.Integer(),
  stem: Type.String(),
  options: Nullable(Type.Array(Type.Object({ key: Type.String(), text: Type.String() }))),
  answer: Type.String(),
  analysis: Type.String(),
  difficulty: Type.Integer(),
  points: Type.Number(),
};

/** A sub-question of a 综合, in its parent's `children`. */
export const SubQuestionSchema = Type.Object(QuestionFields);
export type SubQuestionView = Static<typeof SubQuestionSchema>;

/** One shape for a bank question in every reply. */
export const QuestionViewSchema = Type.Object({
  ...QuestionFields,
  subjectId: Type.Integer(),
  gradeLevel: Nullable(Type.Integer()),
  source: Nullable(Type.String()),
  knowledgePoints: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  /** Sub-questions of a 综合 (in order); empty for every other type. */
  children: Type.Array(SubQuestionSchema),
});
export type QuestionView = Static<typeof QuestionViewSchema>;

/** A paper as listed. */
export const PaperSummarySchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  subjectId: Type.Integer(),
  subjectName: Type.String(),
  gradeLevel: Type.Integer(),
  durationMinutes: Type.Integer(),
  totalPoints: Type.Number(),
  updatedAt: Type.String(),
  questionCount: Type.Integer(),
});
export type PaperSummary = Static<typeof PaperSummarySchema>;

/** A paper with its sections of numbered questions and their points on the paper. */
export const PaperDetailSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  subjectId: Type.Integer(),
  gradeLevel: Type.Integer(),
  durationMinutes: Type.Integer(),
  totalPoints: Type.Number(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  sections: Type.Array(
    Type.Object({
      id: Type.Integer(),
      title: Type.String(),
      questions: Type.Array(Type.Object({ no: Type.Integer(), points: Type.Number(), question: QuestionViewSchema })),
    }),
  ),
});
export type PaperDetail = Static<typeof PaperDetailSchema>;
