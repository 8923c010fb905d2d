// 网上阅卷 calls (docs/api-correct.md "Marking"): the hand-marked questions of a task, one question's
// papers (every student's crop of its region and points), and saving one student's points for it —
// one small transaction that updates the result's item, points and total, so the report and the
// student's total follow at once.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { answerSheets, gradingAnnotations, gradingMarks, gradingResults, gradingTasks } from '../../db/schema';
import { badRequest, forbidden, notFound, ok } from '../../http/envelope';
import type { Rect, SheetLayout } from '../../grading';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { AnnotationsSchema, MarkingQuestionSchema, MarkingSavedSchema, MarkingSheetSchema, type Annotation, type MarkingCrop, type MarkingPaper, type RubricItem } from '../../../src/domain/marking';
import { BASE, correctors, findMyTask, type TaskRow } from './access';
import { itemsWith, manualQuestions, sheetNos, type ManualQuestion } from './marking';
import { awaitsArbitration, checkQuestion, doubleFinal, doubleOf, findMarkingTask, markerIds, markersOf, marksOf, paperMarkers, progressOf, type MarkingAccess, type MarkRow } from './markers';
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

const reviewsOf = (db: Db, taskId: number) => rows<{ id: number; review: Record<string, number> | null }>(db, sql`SELECT id, review FROM grading_results WHERE task_id = ${taskId} ORDER BY id`);

/**
 * How a paper shows to the caller: with 双评 a marker of the paper sees their own mark only; the owner
 * sees the final points and both marks (once their own is in, when they mark it too), and 待仲裁.
 */
export function paperView(access: MarkingAccess, resultId: number, final: number | null, ids: number[], threshold: number | null, given: MarkRow[]) {
  const assigned = paperMarkers(resultId, ids, threshold !== null);
  const myMark = given.find((g) => g.kind === 'mark' && g.teacherId === access.teacherId)?.score ?? null;
  const marking = threshold !== null && assigned.includes(access.teacherId);
  const settled = given.some((g) => g.kind === 'final');
  const score = marking && !(access.owner && settled) ? myMark : final;
  const seesMarks = access.owner && threshold !== null && (!marking || myMark !== null || settled);
  return {
    score,
    marks: seesMarks ? given.filter((g) => g.kind === 'mark' && assigned.includes(g.teacherId)).map((g) => ({ teacher: g.name, score: g.score })) : [],
    pending: access.owner && threshold !== null && awaitsArbitration(given, assigned, threshold),
  };
}

export const markedCount = async (db: Db, taskId: number, no: number) =>
  (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM grading_results WHERE task_id = ${taskId} AND (review ->> ${String(no)}) IS NOT NULL`))[0]!.n;

/** Where question `no` lies on the sheet: the first page that has it, and its region there (mm). */
export function regionOf(layout: SheetLayout, no: number): { page: number; rect: Rect } | null {
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
      const access = await findMarkingTask(db, request.principal, request.query.taskId);
      const { task } = access;
      if (task.sheetId === null) return ok([]);
      const questions = manualQuestions(task, await sheetNos(db, task));
      if (!questions.length) return ok([]);
      const markers = await markersOf(db, task.id);
      const results = await reviewsOf(db, task.id);
      const marks = await marksOf(db, task.id);
      return ok(
        questions
          .filter((q) => access.owner || markerIds(markers, q.no).includes(access.teacherId))
          .map((q) => {
            const threshold = doubleOf(task, q.no);
            const p = progressOf(results, q.no, markers, threshold, marks);
            if (access.owner) return { ...q, marked: p.marked, total: p.total, double: threshold, arbitration: p.arbitration, markers: p.markers };
            // A marker sees their own queue only.
            const own = p.markers.find((m) => m.teacherId === access.teacherId)!;
            return { ...q, marked: own.marked, total: own.total, double: threshold, arbitration: 0, markers: [] };
          }),
      );
    },
  );

  app.get(
    `${BASE}/marking/question`,
    { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id, no: No }), response: { 200: EnvelopeSchema(MarkingSheetSchema) } } },
    async (request) => {
      const { taskId, no } = request.query;
      const access = await findMarkingTask(db, request.principal, taskId);
      const { task, teacherId: me, owner } = access;
      const question = await questionOf(db, task, no);
      const markers = await markersOf(db, task.id);
      const ids = markerIds(markers, no);
      checkQuestion(access, no, ids);
      const threshold = doubleOf(task, no);
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
      const given = await marksOf(db, task.id, no);
      const pens = await rows<{ resultId: number; marks: Annotation[] }>(db, sql`
        SELECT a.result_id AS "resultId", a.marks FROM grading_annotations a JOIN grading_results r ON r.id = a.result_id WHERE r.task_id = ${task.id} AND a.no = ${no}`);
      // A marker gets their own share of the papers only.
      const mine = owner ? results : results.filter((r) => paperMarkers(r.id, ids, threshold !== null).includes(me));
      const papers: MarkingPaper[] = mine.map((r) => {
        const trace = region ? r.pages?.find((p) => p.page === region.page) : undefined;
        const size = sheet ? { w: (sheet.layout as SheetLayout).widthMm, h: (sheet.layout as SheetLayout).heightMm } : null;
        const crop: MarkingCrop | null = region && trace ? { page: region.page, fileId: trace.fileId, h: trace.h, size, rect: region.rect } : null;
        // Anonymous marking: who wrote the paper stays on the server.
        const shown = task.markingShowNames;
        const view = paperView(access, r.id, r.review?.[String(no)] ?? null, ids, threshold, given.filter((g) => g.resultId === r.id));
        return {
          resultId: r.id,
          studentName: shown ? r.studentName : null,
          studentNo: shown ? r.studentNo : null,
          studentKey: shown ? r.studentKey : null,
          ...view,
          proposed: question.kind === 'essay' ? (r.item?.score ?? null) : null,
          // The student's total is the owner's to see.
          total: owner ? r.score : null,
          crop,
          applied: marks.filter((m) => m.resultId === r.id).map((m) => m.itemId),
          annotations: pens.find((a) => a.resultId === r.id)?.marks ?? [],
        };
      });
      const progress = progressOf(results, no, markers, threshold, given);
      const own = owner ? progress : progress.markers.find((m) => m.teacherId === me)!;
      return ok({
        taskId: task.id,
        taskTitle: task.title,
        showNames: task.markingShowNames,
        owner,
        question: { ...question, marked: own.marked, total: own.total, double: threshold, arbitration: owner ? progress.arbitration : 0, markers: owner ? progress.markers : [] },
        rubric,
        papers,
      });
    },
  );

  app.post(
    `${BASE}/marking/score`,
    {
      preHandler: correctors,
      schema: { body: Type.Object({ taskId: Id, no: No, resultId: Id, score: Points, arbitrate: Type.Optional(Type.Boolean()) }), response: { 200: EnvelopeSchema(MarkingSavedSchema) } },
    },
    async (request) => {
      const { taskId, no, resultId, score, arbitrate } = request.body;
      const access = await findMarkingTask(db, request.principal, taskId);
      const { task, teacherId: me } = access;
      const question = await questionOf(db, task, no);
      const markers = await markersOf(db, task.id);
      const ids = markerIds(markers, no);
      checkQuestion(access, no, ids);
      if (question.fullMarks === null) throw badRequest(`请先设置第 ${no} 题的满分`);
      if (score > question.fullMarks) throw badRequest(`第 ${no} 题得分不能超过满分 ${question.fullMarks} 分`);
      checkHalf(score);
      const threshold = doubleOf(task, no);
      const saved = await db.transaction(async (tx) => {
        const [result] = await tx.select().from(gradingResults).where(and(eq(gradingResults.id, resultId), eq(gradingResults.taskId, task.id))).for('update');
        if (!result) throw notFound('批改结果不存在');
        const assigned = paperMarkers(result.id, ids, threshold !== null);
        // A typed score replaces the rubric items applied to this paper.
        const clearRubric = () => tx.execute(sql`DELETE FROM grading_rubric_marks WHERE result_id = ${resultId} AND item_id IN (SELECT id FROM grading_rubric_items WHERE task_id = ${task.id} AND no = ${no})`);
        const upsert = (kind: 'mark' | 'final') =>
          tx.insert(gradingMarks).values({ resultId, no, kind, teacherId: me, score }).onConflictDoUpdate({ target: [gradingMarks.resultId, gradingMarks.no, gradingMarks.kind, gradingMarks.teacherId], set: { score, createdAt: sql`now()` } });
        if (arbitrate || !assigned.includes(me)) {
          // The owner's points count as they are: their own question, a paper outside their share, or 仲裁.
          if (!access.owner) throw forbidden('这份试卷不是分给您阅的');
          if (threshold !== null && ids.length) await upsert('final');
          await clearRubric();
          return writeScore(tx as never, task, no, question.fullMarks!, result, score, request.principal.userId);
        }
        await upsert('mark');
        if (threshold === null) {
          await clearRubric();
          return writeScore(tx as never, task, no, question.fullMarks!, result, score, request.principal.userId);
        }
        // 双评: the points count once both marks agree, or the owner settled it.
        const now = await rows<MarkRow>(tx as never, sql`SELECT result_id AS "resultId", no, kind, teacher_id AS "teacherId", score, '' AS name FROM grading_marks WHERE result_id = ${resultId} AND no = ${no}`);
        return writeScore(tx as never, task, no, question.fullMarks!, result, doubleFinal(now, assigned, threshold), request.principal.userId);
      });
      const results = await reviewsOf(db, task.id);
      const given = await marksOf(db, task.id, no);
      const progress = progressOf(results, no, markers, threshold, given);
      const view = paperView(access, resultId, results.find((r) => r.id === resultId)?.review?.[String(no)] ?? null, ids, threshold, given.filter((g) => g.resultId === resultId));
      const own = access.owner ? progress : progress.markers.find((m) => m.teacherId === me)!;
      return ok({ resultId, no, ...view, applied: [], total: access.owner ? saved.score : null, maxScore: access.owner ? saved.maxScore : null, marked: own.marked }, '已保存');
    },
  );

  // The marker's pen on one paper: the whole list for the paper's question, replaced at each change
  // (an undo is a shorter list). Whoever may score the paper may draw on it.
  app.post(
    `${BASE}/marking/annotations`,
    {
      preHandler: correctors,
      schema: {
        body: Type.Object({ taskId: Id, no: No, resultId: Id, marks: AnnotationsSchema }),
        response: { 200: EnvelopeSchema(Type.Object({ resultId: Type.Integer(), no: Type.Integer(), marks: AnnotationsSchema })) },
      },
    },
    async (request) => {
      const { taskId, no, resultId, marks } = request.body;
      const access = await findMarkingTask(db, request.principal, taskId);
      const { task, teacherId: me } = access;
      await questionOf(db, task, no);
      const ids = markerIds(await markersOf(db, task.id), no);
      checkQuestion(access, no, ids);
      const [result] = await db.select({ id: gradingResults.id }).from(gradingResults).where(and(eq(gradingResults.id, resultId), eq(gradingResults.taskId, task.id)));
      if (!result) throw notFound('批改结果不存在');
      if (!access.owner && !paperMarkers(resultId, ids, doubleOf(task, no) !== null).includes(me)) throw forbidden('这份试卷不是分给您阅的');
      for (const m of marks) {
        if (m.kind === 'text' && !m.text?.trim()) throw badRequest('文字批注不能为空');
        if (m.kind !== 'text' && m.text !== undefined) throw badRequest('只有文字批注可以带文字');
      }
      const clean = marks.map((m) => (m.kind === 'text' ? { ...m, text: m.text!.trim() } : m));
      if (clean.length) {
        await db
          .insert(gradingAnnotations)
          .values({ resultId, no, teacherId: me, marks: clean })
          .onConflictDoUpdate({ target: [gradingAnnotations.resultId, gradingAnnotations.no], set: { marks: clean, teacherId: me, updatedAt: sql`now()` } });
      } else {
        await db.delete(gradingAnnotations).where(and(eq(gradingAnnotations.resultId, resultId), eq(gradingAnnotations.no, no)));
      }
      return ok({ resultId, no, marks: clean }, clean.length ? '批注已保存' : '批注已清除');
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
