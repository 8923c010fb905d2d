// Answer groups (相同作答, docs/api-correct.md "Answer groups"): in the by-question review the
// students whose fill-in (or homework short answer) reads the same are marked with one decision —
// every paper of the group in one transaction, totals and linked answer records included, so the
// report follows at once — and each paper can be put back to the points it had (undo per paper).
// The task owner's call only: fill-ins are not shared out to markers.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { gradingResults } from '../../db/schema';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { GroupDecisionSchema, normalizeAnswer, type GroupDecidedPaper } from '../../../src/domain/answerGroups';
import { BASE, correctors, findMyTask, type TaskRow } from './access';
import { checkHalf } from './markingRoutes';
import { totals, type GradedWork, type ReviewItem } from './results';
import { Id } from './schemas';
import { linkOf, recordTaskAnswers } from './workLink';
import type { Db } from '../../db';

const No = Type.Integer({ minimum: 1, maximum: 200 });
const Points = Type.Number({ minimum: 0, maximum: 150 });
/** A class is at most a few dozen papers; a group never more than the task's results. */
const MAX_GROUP = 300;

/** Fill-ins and read short answers only: choices are scored from their bubbles, 解答题 and essays are marked by hand. */
function checkGroupable(task: TaskRow, no: number) {
  const key = ((task.answerKey as { items?: Record<string, { answer?: unknown; manual?: boolean }> } | null)?.items ?? {})[String(no)];
  if (key?.manual) throw badRequest(`第 ${no} 题是解答题，请在网上阅卷中评分`);
  if (typeof key?.answer === 'string') throw badRequest(`第 ${no} 题是选择题，按涂卡判分，不能按相同作答给分`);
}

const maxOf = (task: TaskRow, item: ReviewItem) => item.max ?? linkOf(task.answerKey)?.items[String(item.no)]?.points ?? 100;

type ResultRow = typeof gradingResults.$inferSelect;

/** Writes (or, with null, clears) the teacher's points of item `no` in locked result rows. */
async function writeItem(tx: Db, task: TaskRow, no: number, rows: ResultRow[], score: (r: ResultRow, item: ReviewItem) => number | null, userId: number): Promise<GroupDecidedPaper[]> {
  const papers: GroupDecidedPaper[] = [];
  const records: { studentId: number | null; work: GradedWork; review: Record<string, number> }[] = [];
  for (const r of rows) {
    const work = r.result as GradedWork;
    const item = work.items.find((i) => i.no === no)!;
    const review = { ...((r.review as Record<string, number> | null) ?? {}) };
    const previous = review[String(no)] ?? null;
    const next = score(r, item);
    if (next === null) delete review[String(no)];
    else review[String(no)] = next;
    const t = totals(work, review);
    await tx.update(gradingResults).set({ review, score: t.score, maxScore: t.maxScore, needsReview: t.needsReview, reviewedAt: sql`now()` }).where(eq(gradingResults.id, r.id));
    // The answer records follow: the teacher's points, or the machine's again once they are taken back.
    const recorded = next ?? item.score;
    if (recorded !== null) records.push({ studentId: r.studentId, work, review: { [String(no)]: recorded } });
    papers.push({ resultId: r.id, previous, score: next, total: t.score, maxScore: t.maxScore, needsReview: t.needsReview, review });
  }
  if (records.length) await recordTaskAnswers(tx, task, records, 'review', userId);
  return papers;
}

const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  // One decision for a whole group: the same points for every paper named, which must all belong to
  // the task and read the same for question `no` (a group the screen showed; otherwise 409).
  app.post(
    `${BASE}/answerGroups/decide`,
    {
      preHandler: correctors,
      schema: {
        body: Type.Object({ taskId: Id, no: No, resultIds: Type.Array(Id, { minItems: 1, maxItems: MAX_GROUP }), score: Points }),
        response: { 200: EnvelopeSchema(GroupDecisionSchema) },
      },
    },
    async (request) => {
      const { taskId, no, score } = request.body;
      const resultIds = [...new Set(request.body.resultIds)];
      const task = await findMyTask(db, request.principal, taskId);
      checkGroupable(task, no);
      checkHalf(score);
      const papers = await db.transaction(async (tx) => {
        const found = await tx.select().from(gradingResults).where(and(eq(gradingResults.taskId, task.id), inArray(gradingResults.id, resultIds))).orderBy(gradingResults.id).for('update');
        if (found.length !== resultIds.length) throw notFound('批改结果不存在');
        const items = found.map((r) => (r.result as GradedWork).items.find((i) => i.no === no));
        if (items.some((i) => !i)) throw badRequest(`第 ${no} 题不存在`);
        if (new Set(items.map((i) => normalizeAnswer(i!.given))).size > 1) throw conflict('这些学生的作答不相同，请刷新后重试');
        const max = maxOf(task, items[0]!);
        if (score > max) throw badRequest(`第 ${no} 题得分不能超过满分 ${max} 分`);
        return writeItem(tx as never, task, no, found, () => score, request.principal.userId);
      });
      return ok({ no, papers }, `已给 ${papers.length} 名学生判分`);
    },
  );

  // Undo for one paper of a group: back to the points it had before (null: the machine's).
  app.post(
    `${BASE}/answerGroups/restore`,
    {
      preHandler: correctors,
      schema: {
        body: Type.Object({ taskId: Id, no: No, resultId: Id, score: Type.Union([Type.Null(), Points]) }),
        response: { 200: EnvelopeSchema(GroupDecisionSchema) },
      },
    },
    async (request) => {
      const { taskId, no, resultId, score } = request.body;
      const task = await findMyTask(db, request.principal, taskId);
      checkGroupable(task, no);
      if (score !== null) checkHalf(score);
      const papers = await db.transaction(async (tx) => {
        const found = await tx.select().from(gradingResults).where(and(eq(gradingResults.taskId, task.id), eq(gradingResults.id, resultId))).for('update');
        if (!found.length) throw notFound('批改结果不存在');
        const item = (found[0]!.result as GradedWork).items.find((i) => i.no === no);
        if (!item) throw badRequest(`第 ${no} 题不存在`);
        if (score !== null && score > maxOf(task, item)) throw badRequest(`第 ${no} 题得分不能超过满分 ${maxOf(task, item)} 分`);
        return writeItem(tx as never, task, no, found, () => score, request.principal.userId);
      });
      return ok({ no, papers }, '已撤销');
    },
  );
};

export default groupRoutes;
