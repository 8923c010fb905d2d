// Grading tasks: create one, submit it to the grading queue, remove it before that, follow its
// progress in the list and the detail, and read or export its report.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { gradingFiles, gradingTasks } from '../../db/schema';
import { badRequest, conflict, ok } from '../../http/envelope';
import { sendWorkbook } from '../../http/download';
import { buildWorkbookSheets } from '../../files/xlsx';
import { page, pageWindow, PagingQuery } from '../../http/paging';
import { findClass } from '../vesta/access';
import { GradingStatus, RecognitionStatus, TaskType } from '../../grading/statuses';
import { enqueue } from '../../jobs/queue';
import { BASE, correctors, findMySheet, findMyTask, myTeacherId } from './access';
import { READ_FILE } from './jobs';
import { reportSheets, taskReport } from './report';
import { taskCoverage } from './coverage';
import { CreateTaskBody, Id } from './schemas';
import { resolveLink } from './workLink';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { TaskReportSchema } from '../../../src/domain/correct';

declare module 'fastify' {
  interface FastifyInstance {
    /** Wakes the in-process worker when work is queued; a no-op when workers run elsewhere. */
    wakeWorkers(): void;
  }
}

const taskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post(`${BASE}/task/create`, { preHandler: correctors, schema: { body: CreateTaskBody } }, async (request) => {
    const body = request.body;
    const p = request.principal;
    const teacherId = await myTeacherId(db, p);
    if (body.classId) await findClass(db, p, body.classId);
    if (body.type === TaskType.answerSheet) {
      if (!body.sheetId) throw badRequest('答题卡批改需要选择答题卡');
      await findMySheet(db, p, body.sheetId);
    }
    // Tied to a homework or an exam, its results become answer records (workLink.ts).
    const linked = await resolveLink(db, p, teacherId, body);
    const answerKey = linked ? { ...(body.answerKey ?? {}), work: linked.link } : (body.answerKey ?? null);
    const [task] = await db
      .insert(gradingTasks)
      .values({
        tenantId: p.tenantId!,
        teacherId,
        classId: linked?.classId ?? body.classId ?? null,
        type: body.type,
        status: GradingStatus.pendingSubmission,
        title: body.title,
        sheetId: body.type === TaskType.answerSheet ? body.sheetId : null,
        answerKey,
        questions: body.questions ?? null,
        essayBrief: body.essayBrief ?? null,
      })
      .returning();
    return ok(task, '批改任务已创建');
  });

  app.post(`${BASE}/task/submit`, { preHandler: correctors, schema: { body: Type.Object({ taskId: Id }) } }, async (request) => {
    const { taskId } = request.body;
    const task = await findMyTask(db, request.principal, taskId);
    // A graded (or failed) task takes more pages: submitting again grades only the files new since.
    if (task.status === GradingStatus.grading) throw conflict('任务正在批改，请等批改完成');
    await db.transaction(async (tx) => {
      const files = await tx
        .select({ id: gradingFiles.id })
        .from(gradingFiles)
        .where(and(eq(gradingFiles.taskId, taskId), eq(gradingFiles.recognitionStatus, RecognitionStatus.new)));
      if (!files.length) throw badRequest('请先上传要批改的图片或扫描件');
      // The first submission's time stays the task's: answer records are dated by it.
      await tx
        .update(gradingTasks)
        .set({ status: GradingStatus.grading, failReason: null, submittedAt: sql`coalesce(${gradingTasks.submittedAt}, now())`, updatedAt: sql`now()` })
        .where(eq(gradingTasks.id, taskId));
      for (const f of files) await enqueue(tx as never, { kind: READ_FILE, refId: f.id, tenantId: task.tenantId });
    });
    app.wakeWorkers();
    return ok({ taskId, status: GradingStatus.grading }, '已提交批改');
  });

  // Only a task never submitted may go: once submitted it has queue jobs and results behind it.
  app.post(`${BASE}/task/remove`, { preHandler: correctors, schema: { body: Type.Object({ taskId: Id }) } }, async (request) => {
    const { taskId } = request.body;
    const task = await findMyTask(db, request.principal, taskId);
    if (task.status !== GradingStatus.pendingSubmission) throw conflict('任务已提交批改，不能删除');
    // Its uploaded files go with it (ON DELETE CASCADE); the status check is repeated in the
    // statement so a submit racing this delete wins.
    const removed = await db
      .delete(gradingTasks)
      .where(and(eq(gradingTasks.id, taskId), eq(gradingTasks.status, GradingStatus.pendingSubmission)))
      .returning({ id: gradingTasks.id });
    if (!removed.length) throw conflict('任务已提交批改，不能删除');
    return ok(null, '已删除');
  });

  app.get(`${BASE}/task/report`, { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id }), response: { 200: EnvelopeSchema(TaskReportSchema) } } }, async (request) => {
    const { taskId } = request.query;
    const task = await findMyTask(db, request.principal, taskId);
    return ok(await taskReport(db, task));
  });

  app.get(`${BASE}/task/report/export`, { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id }) } }, async (request, reply) => {
    const { taskId } = request.query;
    const task = await findMyTask(db, request.principal, taskId);
    const report = await taskReport(db, task);
    if (!report.students.length) throw badRequest('该任务还没有批改结果，无法导出');
    return sendWorkbook(reply, await buildWorkbookSheets(reportSheets(report)), `批改报告_${task.title}.xlsx`);
  });

  app.get(
    `${BASE}/task/page`,
    {
      preHandler: correctors,
      schema: {
        querystring: Type.Object({
          ...PagingQuery,
          type: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)])),
          status: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(3), Type.Literal(4), Type.Literal(7)])),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const teacherId = await myTeacherId(db, request.principal);
      const { current, size, offset } = pageWindow(q);
      const where = sql`t.tenant_id = ${request.principal.tenantId} AND t.teacher_id = ${teacherId}
        ${q.type ? sql`AND t.type = ${q.type}` : sql``} ${q.status ? sql`AND t.status = ${q.status}` : sql``}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM grading_tasks t WHERE ${where}`);
      const records = await rows(db, sql`
        SELECT t.id, t.type, t.status, t.title, t.class_id AS "classId", c.name AS "className", t.fail_reason AS "failReason",
               t.created_at AS "createdAt", t.submitted_at AS "submittedAt",
               (SELECT count(*)::int FROM grading_files f WHERE f.task_id = t.id AND f.recognition_status <> 5) AS "fileCount",
               (SELECT count(*)::int FROM grading_files f WHERE f.task_id = t.id AND f.recognition_status IN (3, 4)) AS "doneCount",
               (SELECT count(*)::int FROM grading_results r WHERE r.task_id = t.id AND r.needs_review) AS "reviewCount",
               (SELECT count(*)::int FROM grading_results r WHERE r.task_id = t.id AND NOT r.needs_review) AS "gradedCount",
               -- As coverage.ts counts them: failed files, and read scans with pages that failed or none found.
               (SELECT count(*)::int FROM grading_files f WHERE f.task_id = t.id
                   AND (f.recognition_status = 4 OR (f.recognition_status = 3 AND (f.error IS NOT NULL OR f.reading->'pages' = '[]'::jsonb)))) AS "failedCount",
               (SELECT count(*)::int FROM students s WHERE t.class_id IS NOT NULL AND s.tenant_id = t.tenant_id AND s.class_id = t.class_id AND s.status = 0
                   AND NOT EXISTS (SELECT 1 FROM grading_results r WHERE r.task_id = t.id AND r.student_id = s.id)
                   AND NOT EXISTS (SELECT 1 FROM grading_files f WHERE f.task_id = t.id AND f.student_id = s.id AND f.recognition_status IN (3, 4))) AS "absentCount"
          FROM grading_tasks t LEFT JOIN classes c ON c.id = t.class_id
         WHERE ${where}
         ORDER BY t.id DESC LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.get(`${BASE}/task/detail`, { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id }) } }, async (request) => {
    const { taskId } = request.query;
    const task = await findMyTask(db, request.principal, taskId);
    const files = await db
      .select({ id: gradingFiles.id, fileName: gradingFiles.fileName, size: gradingFiles.size, studentId: gradingFiles.studentId, recognitionStatus: gradingFiles.recognitionStatus, error: gradingFiles.error })
      .from(gradingFiles)
      .where(and(eq(gradingFiles.taskId, taskId), sql`${gradingFiles.recognitionStatus} <> ${RecognitionStatus.deleted}`))
      .orderBy(gradingFiles.id);
    const results = await rows(db, sql`
      SELECT r.id, r.student_id AS "studentId", s.name AS "studentName", s.student_no AS "studentNo", r.student_key AS "studentKey",
             r.score, r.max_score AS "maxScore", r.needs_review AS "needsReview", r.reviewed_at AS "reviewedAt"
        FROM grading_results r LEFT JOIN students s ON s.id = r.student_id
       WHERE r.task_id = ${taskId} ORDER BY s.student_no NULLS LAST, r.id`);
    const done = files.filter((f) => f.recognitionStatus === RecognitionStatus.recognised || f.recognitionStatus === RecognitionStatus.failed).length;
    const { answerKey, questions, essayBrief, ...summary } = task;
    return ok({ task: { ...summary, answerKey, questions, essayBrief }, progress: { files: files.length, done }, files, results, coverage: await taskCoverage(db, task) });
  });
};

export default taskRoutes;
