// Answer groups (相同作答): the students whose fill-in or short answer reads the same once
// normalized, marked with one decision (POST /correct/answerGroups/decide).
import { Type, type Static } from 'typebox';

/** How two readings compare: 「ｘ＝３」, "x = 3" and "X=3" are one answer. */
export const normalizeAnswer = (given: string) => given.normalize('NFKC').replace(/\s+/g, '').toLowerCase();

/** One paper a group decision changed: its points before (null: the machine's), now, and the student's total. */
export const GroupDecidedPaperSchema = Type.Object({
  resultId: Type.Integer(),
  previous: Type.Union([Type.Number(), Type.Null()]),
  score: Type.Union([Type.Number(), Type.Null()]),
  total: Type.Union([Type.Number(), Type.Null()]),
  maxScore: Type.Union([Type.Number(), Type.Null()]),
  needsReview: Type.Boolean(),
  review: Type.Record(Type.String(), Type.Number()),
});
export type GroupDecidedPaper = Static<typeof GroupDecidedPaperSchema>;

export const GroupDecisionSchema = Type.Object({
  no: Type.Integer(),
  papers: Type.Array(GroupDecidedPaperSchema),
});
export type GroupDecision = Static<typeof GroupDecisionSchema>;
