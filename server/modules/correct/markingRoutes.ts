// 网上阅卷 calls (docs/api-correct.md "Marking"): the hand-marked questions of a task, one question's
// papers (every student's crop of its region and points), and saving one student's points for it —
// one small transaction that updates the result's item, points and total, so the report and the
// student's total follow at once.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { answerSheets, gradingResults, gradingTasks } from '../../db/schema';
import { badRequest, notFound, ok } from '../../http/envelope';
import type { Rect, SheetLayout } from '../../grading';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { MarkingQuestionSchema, MarkingSavedSchema, MarkingSheetSchema, type MarkingCrop, type MarkingPaper, type RubricItem } from '../../../src/domain/marking';
import { BASE, correctors, findMyTask, type TaskRow } from './access';
import { itemsWith, manualQuestions, sheetNos, type ManualQuestion } from './marking';
import { totals, type GradedWork, type PageTrace } from './results';
import { writeScore } from './markingScore';
import { Id } from './schemas';
import type { Db } from '../../db';

const No = Type.Integer({ minimum: 1, maximum: 200 });
/** Points a teacher gives: half points at most fine, bounded by the question's full marks. */
const Points = Type.Number({ minimum: 0, maximum: 150 });

export function checkHalf(points: number) {
  if (!Number.isInteger(points * 2)) throw badRequest('分数只能是整数或 0.5 分');
}

export async function questionOf(db: Db, task: TaskRow, no: number): Promise<ManualQuestion> {
  if (task.sheetId === null) throw badRequest('只有答题卡批改任务可以网上阅卷');
  const q = manualQuestions(task, await sheetNos(db, task)).find((m) => m.no === no);
  if (!q) throw badRequest(`第 ${no} 题不是解答题或作文，不能网上阅卷`);
  return q;
}

export const markedCount = async (db: Db, taskId: number, no: number) =>
  (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM grading_results WHERE task_id = ${taskId} AND (review ->> ${String(no)}) IS NOT NULL`))[0]!.n;

/** Where question `no` lies on the sheet: the first page that has it, and its region there (mm). */
function regionOf(layout: SheetLayout, no: number): { page: number; rect: Rect } | null {
  for (const page of layout.pages) {
    const short = page.short.find((s) => s.no === no);
    if (short) return { page: page.page, rect: short.rect };
    const block = page.essay.find((b) => b.no === no);
    if (block) return { page: page.page, rect: { x: block.origin.x, y: block.origin.y, w: block.columns * block.cell, h: block.rows * block.rowPitch } };
  }
  return null;
}

const markingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    `${BASE}/marking/questions`,
    { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id }), response: { 200: EnvelopeSchema(Type.Array(MarkingQuestionSchema)) } } },
    async (request) => {
      const task = await findMyTask(db, request.principal, request.query.taskId);
      if (task.sheetId === null) return ok([]);
      const questions = manualQuestions(task, await sheetNos(db, task));
      if (!questions.length) return ok([]);
      const counts = await rows<{ total: number; marked: Record<string, number> | null }>(db, sql`
        SELECT count(*)::int AS total,
               (SELECT jsonb_object_agg(k, n) FROM (
                  SELECT k, count(*)::int AS n FROM grading_results r2, jsonb_object_keys(coalesce(r2.review, '{}'::jsonb)) k
                   WHERE r2.task_id = ${task.id} GROUP BY k) c) AS marked
          FROM grading_results WHERE task_id = ${task.id}`);
      const { total, marked } = counts[0]!;
      return ok(questions.map((q) => ({ ...q, marked: marked?.[String(q.no)] ?? 0, total })));
    },
  );

  app.get(
    `${BASE}/marking/question`,
    { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id, no: No }), response: { 200: EnvelopeSchema(MarkingSheetSchema) } } },
    async (request) => {
      const { taskId, no } = request.query;
      const task = await findMyTask(db, request.principal, taskId);
      const question = await questionOf(db, task, no);
      const [sheet] = await db.select({ layout: answerSheets.layout }).from(answerSheets).where(and(eq(answerSheets.id, task.sheetId!), eq(answerSheets.tenantId, task.tenantId)));
      const region = sheet ? regionOf(sheet.layout as SheetLayout, no) : null;
      const results = await rows<{ id: number; studentName: string | null; studentNo: string | null; studentKey: string | null; review: Record<string, number> | null; score: number | null; item: { score: number | null } | null; pages: PageTrace[] | null }>(db, sql`
        SELECT r.id, s.name AS "studentName", s.student_no AS "studentNo", r.student_key AS "studentKey", r.review, r.score,
               (SELECT i FROM jsonb_array_elements(r.result -> 'items') i WHERE (i ->> 'no')::int = ${no} LIMIT 1) AS item,
               r.result -> 'detail' -> 'pages' AS pages
          FROM grading_results r LEFT JOIN students s ON s.id = r.student_id
         WHERE r.task_id = ${task.id} ORDER BY s.student_no NULLS LAST, r.id`);
      const rubric = await rows<RubricItem>(db, sql`SELECT id, label, points FROM grading_rubric_items WHERE task_id = ${task.id} AND no = ${no} ORDER BY id`);
      const marks = await rows<{ resultId: number; itemId: number }>(db, sql`
        SELECT m.result_id AS "resultId", m.item_id AS "itemId" FROM grading_rubric_marks m JOIN grading_rubric_items i ON i.id = m.item_id
         WHERE i.task_id = ${task.id} AND i.no = ${no} ORDER BY m.item_id`);
      const papers: MarkingPaper[] = results.map((r) => {
        const trace = region ? r.pages?.find((p) => p.page === region.page) : undefined;
        const size = sheet ? { w: (sheet.layout as SheetLayout).widthMm, h: (sheet.layout as SheetLayout).heightMm } : null;
        const crop: MarkingCrop | null = region && trace ? { page: region.page, fileId: trace.fileId, h: trace.h, size, rect: region.rect } : null;
        // Anonymous marking: who wrote the paper stays on the server.
        const shown = task.markingShowNames;
        return {
          resultId: r.id,
          studentName: shown ? r.studentName : null,
          studentNo: shown ? r.studentNo : null,
          studentKey: shown ? r.studentKey : null,
          score: r.review?.[String(no)] ?? null,
          proposed: question.kind === 'essay' ? (r.item?.score ?? null) : null,
          total: r.score,
          crop,
          applied: marks.filter((m) => m.resultId === r.id).map((m) => m.itemId),
        };
      });
      const marked = papers.filter((p) => p.score !== null).length;
      return ok({ taskId: task.id, taskTitle: task.title, showNames: task.markingShowNames, owner: true, question: { ...question, marked, total: papers.length }, rubric, papers });
    },
  );

  app.post(
    `${BASE}/marking/score`,
    { preHandler: correctors, schema: { body: Type.Object({ taskId: Id, no: No, resultId: Id, score: Points }), response: { 200: EnvelopeSchema(MarkingSavedSchema) } } },
    async (request) => {
      const { taskId, no, resultId, score } = request.body;
      const task = await findMyTask(db, request.principal, taskId);
      const question = await questionOf(db, task, no);
      if (question.fullMarks === null) throw badRequest(`请先设置第 ${no} 题的满分`);
      if (score > question.fullMarks) throw badRequest(`第 ${no} 题得分不能超过满分 ${question.fullMarks} 分`);
      checkHalf(score);
      const saved = await db.transaction(async (tx) => {
        const [result] = await tx.select().from(gradingResults).where(and(eq(gradingResults.id, resultId), eq(gradingResults.taskId, task.id))).for('update');
        if (!result) throw notFound('批改结果不存在');
        // A typed score replaces the rubric items applied to this paper.
        await tx.execute(sql`DELETE FROM grading_rubric_marks WHERE result_id = ${resultId} AND item_id IN (SELECT id FROM grading_rubric_items WHERE task_id = ${task.id} AND no = ${no})`);
        return writeScore(tx as never, task, no, question.fullMarks!, result, score, request.principal.userId);
      });
      return ok({ resultId, no, score, applied: [], total: saved.score, maxScore: saved.maxScore, marked: await markedCount(db, task.id, no) }, '已保存');
    },
  );

  // Whether markers see the students' names: the task owner's choice, anonymous until allowed.
  app.post(
    `${BASE}/marking/settings`,
    { preHandler: correctors, schema: { body: Type.Object({ taskId: Id, showNames: Type.Boolean() }) } },
    async (request) => {
      const { taskId, showNames } = request.body;
      const task = await findMyTask(db, request.principal, taskId);
      await db.update(gradingTasks).set({ markingShowNames: showNames }).where(eq(gradingTasks.id, task.id));
      return ok({ showNames }, showNames ? '阅卷时显示学生姓名' : '阅卷时隐藏学生姓名');
    },
  );

  // Full marks of a 解答题 the sheet gave none (older sheets), or changed: kept in the task's key,
  // and brought into every result that has the item, refused below points already given.
  app.post(
    `${BASE}/marking/fullMarks`,
    { preHandler: correctors, schema: { body: Type.Object({ taskId: Id, no: No, points: Type.Number({ minimum: 0.5, maximum: 150 }) }) } },
    async (request) => {
      const { taskId, no, points } = request.body;
      const task = await findMyTask(db, request.principal, taskId);
      const question = await questionOf(db, task, no);
      if (question.kind !== 'short') throw badRequest('作文的满分在答题卡中设置');
      checkHalf(points);
      await db.transaction(async (tx) => {
        const results = await tx.select().from(gradingResults).where(eq(gradingResults.taskId, task.id)).for('update');
        const highest = Math.max(0, ...results.map((r) => (r.review as Record<string, number> | null)?.[String(no)] ?? 0));
        if (highest > points) throw badRequest(`已有学生第 ${no} 题得 ${highest} 分，满分不能低于它`);
        const key = (task.answerKey ?? {}) as { items?: Record<string, unknown> };
        await tx.update(gradingTasks).set({ answerKey: { ...key, items: { ...(key.items ?? {}), [String(no)]: { manual: true, points } } } }).where(eq(gradingTasks.id, task.id));
        for (const r of results) {
          const work = r.result as GradedWork;
          if (work.kind !== 'sheet') continue;
          const next: GradedWork = { ...work, items: itemsWith(work, no, points) };
          const t = totals(next, r.review as Record<string, number> | null);
          await tx.update(gradingResults).set({ result: next, score: t.score, maxScore: t.maxScore, needsReview: t.needsReview }).where(eq(gradingResults.id, r.id));
        }
      });
      return ok({ no, fullMarks: points }, '满分已设置');
    },
  );
};

export default markingRoutes;
