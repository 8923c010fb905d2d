// A task's results: read one with what the review screen draws over its scans, and correct its
// points and comment (teacher review), which also rewrites the linked answer records.
import { and, eq, ne, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import type { Principal } from '../../auth/principal';
import { answerSheets, gradingAnnotations, gradingResults, gradingTasks, students } from '../../db/schema';
import type { Annotation } from '../../../src/domain/marking';
import { badRequest, conflict, ok } from '../../http/envelope';
import type { SheetLayout } from '../../grading';
import { BASE, checkStudent, correctors, findMyResult, findMyTask } from './access';
import { totals, type GradedWork, type PageTrace } from './results';
import { photoView, sheetView, type ResultView } from './view';
import { AssignBody, Id, ReviewBody } from './schemas';
import { linkOf, recordTaskAnswers } from './workLink';

/**
 * What the review screen shows besides the result: the student's name and number, and `view`,
 * the geometry to draw the reading over each scan or photo (view.ts). The sheet layout is the
 * task's own, read within the tenant; results graded before pages kept their file give no pages.
 */
async function resultExtras(db: Db, p: Principal, result: typeof gradingResults.$inferSelect) {
  const task = await findMyTask(db, p, result.taskId);
  const [student] = result.studentId
    ? await db.select({ name: students.name, studentNo: students.studentNo }).from(students).where(and(eq(students.id, result.studentId), eq(students.tenantId, task.tenantId)))
    : [];
  const work = result.result as GradedWork;
  const detail = (work.detail ?? {}) as { pages?: PageTrace[]; fileId?: number; regions?: Parameters<typeof photoView>[1] };
  let view: ResultView = { pages: [] };
  if (work.kind === 'sheet') {
    const [sheet] = await db.select({ layout: answerSheets.layout }).from(answerSheets).where(and(eq(answerSheets.id, task.sheetId ?? ''), eq(answerSheets.tenantId, task.tenantId)));
    if (sheet && detail.pages) view = sheetView(sheet.layout as SheetLayout, detail.pages);
  } else if (work.fileId ?? detail.fileId) {
    view = photoView(work.fileId ?? detail.fileId ?? null, detail.regions ?? []);
  }
  // The markers' pens (网上阅卷), drawn over the questions' regions in the student view.
  const pens = await db.select({ no: gradingAnnotations.no, marks: gradingAnnotations.marks }).from(gradingAnnotations).where(eq(gradingAnnotations.resultId, result.id));
  const annotations = Object.fromEntries(pens.map((a) => [String(a.no), a.marks as Annotation[]]));
  return { studentName: student?.name ?? null, studentNo: student?.studentNo ?? null, taskType: task.type, taskTitle: task.title, view, annotations };
}

const resultRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(`${BASE}/result/detail`, { preHandler: correctors, schema: { querystring: Type.Object({ resultId: Id }) } }, async (request) => {
    const { resultId } = request.query;
    const result = await findMyResult(db, request.principal, resultId);
    return ok({ ...result, ...(await resultExtras(db, request.principal, result)) });
  });

  app.post(`${BASE}/result/review`, { preHandler: correctors, schema: { body: ReviewBody } }, async (request) => {
    const { resultId, items, comment } = request.body;
    const result = await findMyResult(db, request.principal, resultId);
    const work = result.result as GradedWork;
    const review: Record<string, number> = { ...((result.review as Record<string, number> | null) ?? {}) };
    const [task] = await db.select().from(gradingTasks).where(eq(gradingTasks.id, result.taskId));
    const link = linkOf(task.answerKey);
    for (const { no, score } of items) {
      const item = work.items.find((i) => i.no === no);
      if (!item) throw badRequest(`第 ${no} 题不存在`);
      // Homework items have no full marks of their own; a linked one has the work's points.
      const max = item.max ?? link?.items[String(no)]?.points ?? 100;
      if (score > max) throw badRequest(`第 ${no} 题得分不能超过满分 ${max} 分`);
      review[String(no)] = score;
    }
    const t = totals(work, review);
    // The teacher's comment lives in the result's own jsonb next to the machine's output; an
    // empty comment removes it (the printed feedback then shows the machine's comment).
    const teacherComment = comment === undefined ? work.teacherComment : comment.trim() || undefined;
    const next: GradedWork = { ...work, teacherComment };
    if (teacherComment === undefined) delete next.teacherComment;
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(gradingResults)
        .set({ review, result: next, score: t.score, maxScore: t.maxScore, needsReview: t.needsReview, reviewedAt: sql`now()` })
        .where(eq(gradingResults.id, resultId))
        .returning({ id: gradingResults.id, score: gradingResults.score, maxScore: gradingResults.maxScore, needsReview: gradingResults.needsReview, review: gradingResults.review });
      // The items reviewed now overwrite the answer records, marked as the teacher's.
      const reviewed = Object.fromEntries(items.map(({ no, score }) => [String(no), score]));
      await recordTaskAnswers(tx as never, task, [{ studentId: result.studentId, work, review: reviewed }], 'review', request.principal.userId);
      return row;
    });
    return ok({ ...updated!, teacherComment: teacherComment ?? null }, '已保存批改');
  });

  // A page that named no student (a smudged QR code, a number from another class) or the wrong
  // one is handed to a student by hand, within the same rule as grading's own matching: a student
  // of the task's class, or of the teacher's classes when the task has none (checkStudent).
  app.post(`${BASE}/result/assign`, { preHandler: correctors, schema: { body: AssignBody } }, async (request) => {
    const { resultId, studentId } = request.body;
    const result = await findMyResult(db, request.principal, resultId);
    const task = await findMyTask(db, request.principal, result.taskId);
    await checkStudent(db, task, studentId);
    const [other] = await db
      .select({ id: gradingResults.id })
      .from(gradingResults)
      .where(and(eq(gradingResults.taskId, task.id), eq(gradingResults.studentId, studentId), ne(gradingResults.id, resultId)));
    if (other) throw conflict('该学生已有批改结果，请先核对那一份');
    const work = result.result as GradedWork;
    await db.transaction(async (tx) => {
      await tx.update(gradingResults).set({ studentId }).where(eq(gradingResults.id, resultId));
      // Their answers become the student's records, the teacher's points where given.
      await recordTaskAnswers(tx as never, task, [{ studentId, work }], 'machine');
      const review = result.review as Record<string, number> | null;
      if (review && Object.keys(review).length) await recordTaskAnswers(tx as never, task, [{ studentId, work, review }], 'review', request.principal.userId);
    });
    const [student] = await db.select({ name: students.name, studentNo: students.studentNo }).from(students).where(eq(students.id, studentId));
    return ok({ resultId, studentId, studentName: student?.name ?? null, studentNo: student?.studentNo ?? null }, '已指定学生');
  });
};

export default resultRoutes;
