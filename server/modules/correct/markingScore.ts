// Writing a teacher's points for a hand-marked question into a result: its item (added if the
// result has none yet), `review[no]`, the total, and the answer records of a linked task. Used by a
// typed score and by rubric items (applied to one paper, or changed for every paper they mark).
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { gradingResults } from '../../db/schema';
import type { TaskRow } from './access';
import { itemsWith } from './marking';
import { totals, type GradedWork } from './results';
import { recordTaskAnswers } from './workLink';

type ResultRow = typeof gradingResults.$inferSelect;

/** Sets (or, with null, clears) the points of question `no` in a locked result row. */
export async function writeScore(tx: Db, task: TaskRow, no: number, fullMarks: number, result: ResultRow, score: number | null, userId: number) {
  const work = result.result as GradedWork;
  const next: GradedWork = { ...work, items: itemsWith(work, no, fullMarks) };
  const review = { ...((result.review as Record<string, number> | null) ?? {}) };
  if (score === null) delete review[String(no)];
  else review[String(no)] = score;
  const t = totals(next, review);
  await tx
    .update(gradingResults)
    .set({ result: next, review, score: t.score, maxScore: t.maxScore, needsReview: t.needsReview, reviewedAt: sql`now()` })
    .where(eq(gradingResults.id, result.id));
  // A task linked to an exam or homework writes the teacher's points into the answer records.
  if (score !== null) await recordTaskAnswers(tx as never, task, [{ studentId: result.studentId, work: next, review: { [String(no)]: score } }], 'review', userId);
  return t;
}

/** Points from the rubric: the sum of the applied items, bounded to 0..full marks; null when none applied. */
export const rubricScore = (sum: number, count: number, fullMarks: number) => (count ? Math.min(fullMarks, Math.max(0, Math.round(sum * 2) / 2)) : null);

/** Re-scores these results of question `no` from the rubric items applied to them (rows locked). */
export async function rescore(tx: Db, task: TaskRow, no: number, fullMarks: number, resultIds: number[], userId: number) {
  if (!resultIds.length) return;
  const ids = `{${resultIds.join(',')}}`;
  const sums = await rows<{ resultId: number; sum: number; count: number }>(tx, sql`
    SELECT m.result_id AS "resultId", sum(i.points)::float8 AS sum, count(*)::int AS count
      FROM grading_rubric_marks m JOIN grading_rubric_items i ON i.id = m.item_id
     WHERE i.task_id = ${task.id} AND i.no = ${no} AND m.result_id = ANY(${ids}::int[])
     GROUP BY m.result_id`);
  const results = await tx.select().from(gradingResults).where(inArray(gradingResults.id, resultIds)).for('update');
  for (const r of results) {
    const s = sums.find((x) => x.resultId === r.id);
    await writeScore(tx, task, no, fullMarks, r, rubricScore(s?.sum ?? 0, s?.count ?? 0, fullMarks), userId);
  }
}
