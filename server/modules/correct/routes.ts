// AI correction calls: print answer sheets, create a task, upload its photos or scans, submit it
// to the grading queue, follow its progress, read results and correct them (teacher review).
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../auth/principal';
import { rows } from '../../db/query';
import { answerSheets, gradingFiles, gradingResults, gradingTasks, students } from '../../db/schema';
import { ApiError, badRequest, conflict, notFound, ok } from '../../http/envelope';
import { contentDisposition } from '../../http/download';
import { page, pageWindow, PagingQuery } from '../../http/paging';
import { asUploadError, singleFile } from '../../files/plugin';
import { detectType } from '../../files/sniff';
import { findClass } from '../vesta/access';
import { GradingStatus, RecognitionStatus, TaskType } from '../../grading/statuses';
import type { SectionSpec, SheetSpec } from '../../grading';
import { enqueue } from '../../jobs/queue';
import { correctors, findMySheet, findMyTask, myTeacherId } from './access';
import { READ_FILE, rosterKey } from './jobs';
import { totals, type GradedWork } from './results';
import { CreateSheetBody, CreateTaskBody, Id, ReviewBody } from './schemas';

const BASE = '/api/wrongbook/v1.0/correct';
/** The engine (OCR runtime, image and PDF libraries) loads on first use, not with every API process. */
const loadEngine = () => import('../../grading');
const ACCEPTED = ['image/jpeg', 'image/png', 'application/pdf'];

declare module 'fastify' {
  interface FastifyInstance {
    /** Wakes the in-process worker when work is queued; a no-op when workers run elsewhere. */
    wakeWorkers(): void;
  }
}

export default async function correctRoutes(app: FastifyInstance) {
  const db = app.db;

  app.post(`${BASE}/sheet/create`, { preHandler: correctors, schema: { body: CreateSheetBody } }, async (request) => {
    const body = request.body as Static<typeof CreateSheetBody>;
    const p = request.principal;
    const teacherId = await myTeacherId(db, p);
    let classRow: Awaited<ReturnType<typeof findClass>> | undefined;
    if (body.classId) classRow = await findClass(db, p, body.classId);
    if (body.identity === 'roster' && !classRow) throw badRequest('按名单打印需要选择班级');
    const roster = classRow
      ? await db.select({ id: students.id, name: students.name }).from(students).where(and(eq(students.classId, classRow.id), eq(students.status, 0))).orderBy(students.studentNo)
      : [];
    if (body.identity === 'roster' && !roster.length) throw badRequest('该班级还没有学生');
    const sheetId = `S${randomBytes(5).toString('hex').toUpperCase()}`;
    const spec: SheetSpec = {
      sheetId,
      title: body.title,
      paper: body.paper,
      identity:
        body.identity === 'roster'
          ? { mode: 'roster', students: roster.map((s) => ({ id: rosterKey(s.id), name: s.name, className: classRow!.name })) }
          : { mode: 'anonymous', digits: body.digits ?? 8 },
      sections: body.sections as SectionSpec[],
    };
    const { buildLayout } = await loadEngine();
    let layout;
    try {
      layout = buildLayout(spec);
    } catch (error) {
      // The layout builder explains in Chinese what does not fit (too many items, bad digits…).
      throw badRequest((error as Error).message);
    }
    await db.insert(answerSheets).values({ id: sheetId, tenantId: p.tenantId!, teacherId, classId: classRow?.id ?? null, title: body.title, layout });
    return ok({ sheetId, title: body.title, pages: layout.pages.length, copies: body.identity === 'roster' ? roster.length : 1 }, '答题卡已生成');
  });

  app.get(`${BASE}/sheet/pdf`, { preHandler: correctors, schema: { querystring: Type.Object({ sheetId: Type.String({ minLength: 1, maxLength: 40 }) }) } }, async (request, reply) => {
    const { sheetId } = request.query as { sheetId: string };
    const sheet = await findMySheet(db, request.principal, sheetId);
    const { renderSheetPdf } = await loadEngine();
    let pdf: Uint8Array;
    try {
      pdf = await renderSheetPdf(sheet.layout as never);
    } catch (error) {
      throw new ApiError(422, (error as Error).message);
    }
    return reply
      .type('application/pdf')
      .header('content-disposition', contentDisposition('attachment', `答题卡_${sheet.title}.pdf`))
      .send(Buffer.from(pdf));
  });

  app.post(`${BASE}/task/create`, { preHandler: correctors, schema: { body: CreateTaskBody } }, async (request) => {
    const body = request.body as Static<typeof CreateTaskBody>;
    const p = request.principal;
    const teacherId = await myTeacherId(db, p);
    if (body.classId) await findClass(db, p, body.classId);
    if (body.type === TaskType.answerSheet) {
      if (!body.sheetId) throw badRequest('答题卡批改需要选择答题卡');
      await findMySheet(db, p, body.sheetId);
    }
    const [task] = await db
      .insert(gradingTasks)
      .values({
        tenantId: p.tenantId!,
        teacherId,
        classId: body.classId ?? null,
        type: body.type,
        status: GradingStatus.pendingSubmission,
        title: body.title,
        sheetId: body.type === TaskType.answerSheet ? body.sheetId : null,
        answerKey: body.answerKey ?? null,
        questions: body.questions ?? null,
        essayBrief: body.essayBrief ?? null,
      })
      .returning();
    return ok(task, '批改任务已创建');
  });

  app.post(`${BASE}/task/upload`, { preHandler: correctors }, async (request) => {
    const p = request.principal;
    const file = await singleFile(request);
    const fields = file.fields as Record<string, { value?: string } | undefined>;
    const taskId = Number(fields.taskId?.value);
    if (!Number.isInteger(taskId) || taskId < 1) {
      file.file.resume();
      throw badRequest('批改任务不能为空');
    }
    const task = await findMyTask(db, p, taskId).catch((error) => {
      file.file.resume();
      throw error;
    });
    if (task.status !== GradingStatus.pendingSubmission) {
      file.file.resume();
      throw conflict('任务已提交批改，不能再上传');
    }
    const studentId = fields.studentId?.value ? Number(fields.studentId.value) : null;
    if (studentId !== null) {
      const [s] = await db.select({ id: students.id }).from(students).where(and(eq(students.id, studentId), eq(students.tenantId, p.tenantId!)));
      if (!s) {
        file.file.resume();
        throw notFound('学生不存在');
      }
    }
    let pending;
    try {
      pending = await app.files.write(file.file);
    } catch (error) {
      throw asUploadError(error);
    }
    if (file.file.truncated) {
      await pending.discard();
      throw asUploadError({ code: 'FST_REQ_FILE_TOO_LARGE' });
    }
    const type = detectType(pending.head, file.filename);
    if (!type || !ACCEPTED.includes(type.mime)) {
      await pending.discard();
      throw new ApiError(415, '只支持 JPG、PNG 图片或 PDF 文件');
    }
    await pending.commit();
    const [row] = await db
      .insert(gradingFiles)
      .values({ tenantId: p.tenantId!, taskId, studentId, fileHash: pending.hash, fileName: file.filename.slice(0, 200), mime: type.mime, size: pending.size, recognitionStatus: RecognitionStatus.new })
      .returning({ id: gradingFiles.id, fileName: gradingFiles.fileName, size: gradingFiles.size, recognitionStatus: gradingFiles.recognitionStatus });
    return ok(row, '上传成功');
  });

  app.post(`${BASE}/task/removeFile`, { preHandler: correctors, schema: { body: Type.Object({ fileId: Id }) } }, async (request) => {
    const { fileId } = request.body as { fileId: number };
    const [file] = await db.select().from(gradingFiles).where(and(eq(gradingFiles.id, fileId), eq(gradingFiles.tenantId, request.principal.tenantId ?? -1)));
    if (!file) throw notFound('文件不存在');
    const task = await findMyTask(db, request.principal, file.taskId).catch(() => {
      throw notFound('文件不存在');
    });
    if (task.status !== GradingStatus.pendingSubmission) throw conflict('任务已提交批改，不能删除文件');
    await db.update(gradingFiles).set({ recognitionStatus: RecognitionStatus.deleted }).where(eq(gradingFiles.id, fileId));
    return ok(null, '已删除');
  });

  app.post(`${BASE}/task/submit`, { preHandler: correctors, schema: { body: Type.Object({ taskId: Id }) } }, async (request) => {
    const { taskId } = request.body as { taskId: number };
    const task = await findMyTask(db, request.principal, taskId);
    if (task.status !== GradingStatus.pendingSubmission) throw conflict('任务已提交批改');
    await db.transaction(async (tx) => {
      const files = await tx
        .select({ id: gradingFiles.id })
        .from(gradingFiles)
        .where(and(eq(gradingFiles.taskId, taskId), eq(gradingFiles.recognitionStatus, RecognitionStatus.new)));
      if (!files.length) throw badRequest('请先上传要批改的图片或扫描件');
      await tx.update(gradingTasks).set({ status: GradingStatus.grading, submittedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(gradingTasks.id, taskId));
      for (const f of files) await enqueue(tx as never, { kind: READ_FILE, refId: f.id, tenantId: task.tenantId });
    });
    app.wakeWorkers();
    return ok({ taskId, status: GradingStatus.grading }, '已提交批改');
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
      const q = request.query as { current?: number; size?: number; type?: number; status?: number };
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
               (SELECT count(*)::int FROM grading_results r WHERE r.task_id = t.id AND r.needs_review) AS "reviewCount"
          FROM grading_tasks t LEFT JOIN classes c ON c.id = t.class_id
         WHERE ${where}
         ORDER BY t.id DESC LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.get(`${BASE}/task/detail`, { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id }) } }, async (request) => {
    const { taskId } = request.query as { taskId: number };
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
    return ok({ task: { ...summary, answerKey, questions, essayBrief }, progress: { files: files.length, done }, files, results });
  });

  app.get(`${BASE}/result/detail`, { preHandler: correctors, schema: { querystring: Type.Object({ resultId: Id }) } }, async (request) => {
    const { resultId } = request.query as { resultId: number };
    const result = await findMyResult(request.principal, resultId);
    return ok(result);
  });

  app.post(`${BASE}/result/review`, { preHandler: correctors, schema: { body: ReviewBody } }, async (request) => {
    const { resultId, items } = request.body as { resultId: number; items: { no: number; score: number }[] };
    const result = await findMyResult(request.principal, resultId);
    const work = result.result as GradedWork;
    const review: Record<string, number> = { ...((result.review as Record<string, number> | null) ?? {}) };
    for (const { no, score } of items) {
      const item = work.items.find((i) => i.no === no);
      if (!item) throw badRequest(`第 ${no} 题不存在`);
      const max = item.max ?? 100;
      if (score > max) throw badRequest(`第 ${no} 题得分不能超过满分 ${max} 分`);
      review[String(no)] = score;
    }
    const t = totals(work, review);
    const [updated] = await db
      .update(gradingResults)
      .set({ review, score: t.score, maxScore: t.maxScore, needsReview: t.needsReview, reviewedAt: sql`now()` })
      .where(eq(gradingResults.id, resultId))
      .returning({ id: gradingResults.id, score: gradingResults.score, maxScore: gradingResults.maxScore, needsReview: gradingResults.needsReview, review: gradingResults.review });
    return ok(updated, '已保存批改');
  });

  app.get(`${BASE}/file/view`, { preHandler: correctors, schema: { querystring: Type.Object({ fileId: Id }) } }, async (request, reply) => {
    const { fileId } = request.query as { fileId: number };
    const [file] = await db.select().from(gradingFiles).where(and(eq(gradingFiles.id, fileId), eq(gradingFiles.tenantId, request.principal.tenantId ?? -1)));
    if (!file || file.recognitionStatus === RecognitionStatus.deleted) throw notFound('文件不存在');
    await findMyTask(db, request.principal, file.taskId).catch(() => {
      throw notFound('文件不存在');
    });
    return reply.type(file.mime).header('content-disposition', contentDisposition('inline', file.fileName)).send(await app.files.open(file.fileHash));
  });

  async function findMyResult(p: Principal, resultId: number) {
    const [result] = await db.select().from(gradingResults).where(and(eq(gradingResults.id, resultId), eq(gradingResults.tenantId, p.tenantId ?? -1)));
    if (!result) throw notFound('批改结果不存在');
    await findMyTask(db, p, result.taskId).catch(() => {
      throw notFound('批改结果不存在');
    });
    return result;
  }
}

