// 网上阅卷 rubric items (docs/api-correct.md "Rubric"): a question's items ("列式正确" +2, "计算错误"
// −1) are created, changed and removed by the task's teacher and applied to a paper by a click; a
// paper's points are the sum of its applied items, bounded to 0..full marks. Changing or removing
// an item re-scores every paper it was applied to, in the same transaction.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { gradingResults, gradingRubricItems, gradingRubricMarks } from '../../db/schema';
import { badRequest, forbidden, notFound, ok } from '../../http/envelope';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { MarkingSavedSchema, RubricItemSchema } from '../../../src/domain/marking';
import { BASE, correctors, findMyTask, type TaskRow } from './access';
import { checkHalf, markedCount, questionOf } from './markingRoutes';
import { rescore } from './markingScore';
import { checkQuestion, doubleOf, findMarkingTask, markerIds, markersOf, paperMarkers } from './markers';
import { Id } from './schemas';
import type { Db } from '../../db';

const No = Type.Integer({ minimum: 1, maximum: 200 });
/** Items a question may have: more would not fit the pad or the keys. */
const MAX_ITEMS = 20;

async function fullMarksOf(db: Db, task: TaskRow, no: number): Promise<number> {
  const q = await questionOf(db, task, no);
  if (q.fullMarks === null) throw badRequest(`请先设置第 ${no} 题的满分`);
  return q.fullMarks;
}

async function findItem(db: Db, task: TaskRow, id: number) {
  const [item] = await db.select().from(gradingRubricItems).where(and(eq(gradingRubricItems.id, id), eq(gradingRubricItems.taskId, task.id)));
  if (!item) throw notFound('评分细则不存在');
  return item;
}

const resultsWith = async (db: Db, itemId: number) =>
  (await rows<{ resultId: number }>(db, sql`SELECT result_id AS "resultId" FROM grading_rubric_marks WHERE item_id = ${itemId} ORDER BY result_id`)).map((r) => r.resultId);

const rubricRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post(
    `${BASE}/marking/rubric/save`,
    {
      preHandler: correctors,
      schema: {
        body: Type.Object({ taskId: Id, no: No, id: Type.Optional(Id), label: Type.String({ minLength: 1, maxLength: 30 }), points: Type.Number({ minimum: -150, maximum: 150 }) }),
        response: { 200: EnvelopeSchema(Type.Object({ item: RubricItemSchema, rescored: Type.Integer() })) },
      },
    },
    async (request) => {
      const { taskId, no, id, points } = request.body;
      const label = request.body.label.trim();
      const task = await findMyTask(db, request.principal, taskId);
      const fullMarks = await fullMarksOf(db, task, no);
      if (!label) throw badRequest('请填写评分细则');
      checkHalf(points);
      if (points === 0 || Math.abs(points) > fullMarks) throw badRequest(`细则分值在 -${fullMarks} 到 ${fullMarks} 之间且不为 0`);
      const result = await db.transaction(async (tx) => {
        if (id === undefined) {
          const [{ n }] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM grading_rubric_items WHERE task_id = ${task.id} AND no = ${no}`);
          if (n >= MAX_ITEMS) throw badRequest(`每题最多 ${MAX_ITEMS} 条评分细则`);
          const [item] = await tx.insert(gradingRubricItems).values({ tenantId: task.tenantId, taskId: task.id, no, label, points }).returning();
          return { item: item!, rescored: 0 };
        }
        const old = await findItem(tx as never, task, id);
        if (old.no !== no) throw notFound('评分细则不存在');
        const [item] = await tx.update(gradingRubricItems).set({ label, points }).where(eq(gradingRubricItems.id, id)).returning();
        // Every paper the item marks follows its new points.
        const ids = old.points === points ? [] : await resultsWith(tx as never, id);
        await rescore(tx as never, task, no, fullMarks, ids, request.principal.userId);
        return { item: item!, rescored: ids.length };
      });
      return ok({ item: { id: result.item.id, label: result.item.label, points: result.item.points }, rescored: result.rescored }, id === undefined ? '已添加' : '已保存');
    },
  );

  app.post(
    `${BASE}/marking/rubric/remove`,
    { preHandler: correctors, schema: { body: Type.Object({ taskId: Id, id: Id }) } },
    async (request) => {
      const { taskId, id } = request.body;
      const task = await findMyTask(db, request.principal, taskId);
      const item = await findItem(db, task, id);
      const fullMarks = await fullMarksOf(db, task, item.no);
      const rescored = await db.transaction(async (tx) => {
        const ids = await resultsWith(tx as never, id);
        await tx.delete(gradingRubricItems).where(eq(gradingRubricItems.id, id));
        await rescore(tx as never, task, item.no, fullMarks, ids, request.principal.userId);
        return ids.length;
      });
      return ok({ id, rescored }, '已删除');
    },
  );

  app.post(
    `${BASE}/marking/rubric/apply`,
    {
      preHandler: correctors,
      schema: { body: Type.Object({ taskId: Id, resultId: Id, itemId: Id, applied: Type.Boolean() }), response: { 200: EnvelopeSchema(MarkingSavedSchema) } },
    },
    async (request) => {
      const { taskId, resultId, itemId, applied } = request.body;
      const access = await findMarkingTask(db, request.principal, taskId);
      const { task } = access;
      const item = await findItem(db, task, itemId);
      const ids = markerIds(await markersOf(db, task.id), item.no);
      checkQuestion(access, item.no, ids);
      // 双评 marks are each teacher's own points; rubric items are one per paper.
      if (doubleOf(task, item.no) !== null) throw badRequest('双评的题请直接给分，不能使用评分细则');
      const fullMarks = await fullMarksOf(db, task, item.no);
      const saved = await db.transaction(async (tx) => {
        const [result] = await tx.select({ id: gradingResults.id }).from(gradingResults).where(and(eq(gradingResults.id, resultId), eq(gradingResults.taskId, task.id)));
        if (!result) throw notFound('批改结果不存在');
        if (!access.owner && !paperMarkers(result.id, ids, false).includes(access.teacherId)) throw forbidden('这份试卷不是分给您阅的');
        if (applied) await tx.insert(gradingRubricMarks).values({ resultId, itemId }).onConflictDoNothing();
        else await tx.delete(gradingRubricMarks).where(and(eq(gradingRubricMarks.resultId, resultId), eq(gradingRubricMarks.itemId, itemId)));
        await rescore(tx as never, task, item.no, fullMarks, [resultId], request.principal.userId);
        const [row] = await tx.select({ review: gradingResults.review, score: gradingResults.score, maxScore: gradingResults.maxScore }).from(gradingResults).where(eq(gradingResults.id, resultId));
        const marks = await rows<{ itemId: number }>(tx, sql`
          SELECT m.item_id AS "itemId" FROM grading_rubric_marks m JOIN grading_rubric_items i ON i.id = m.item_id
           WHERE m.result_id = ${resultId} AND i.no = ${item.no} ORDER BY m.item_id`);
        return { row: row!, applied: marks.map((m) => m.itemId) };
      });
      const score = (saved.row.review as Record<string, number> | null)?.[String(item.no)] ?? null;
      const marked = access.owner
        ? await markedCount(db, task.id, item.no)
        : (await rows<{ id: number }>(db, sql`SELECT id FROM grading_results WHERE task_id = ${task.id} AND (review ->> ${String(item.no)}) IS NOT NULL`)).filter((r) => paperMarkers(r.id, ids, false).includes(access.teacherId)).length;
      return ok(
        { resultId, no: item.no, score, applied: saved.applied, total: access.owner ? saved.row.score : null, maxScore: access.owner ? saved.row.maxScore : null, marked, marks: [], pending: false },
        '已保存',
      );
    },
  );
};

export default rubricRoutes;
