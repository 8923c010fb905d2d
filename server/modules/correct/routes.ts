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
import { fileReply, sendWorkbook } from '../../http/download';
import { buildWorkbookSheets } from '../../files/xlsx';
import { page, pageWindow, PagingQuery } from '../../http/paging';
import { asUploadError, singleFile } from '../../files/plugin';
import { detectType } from '../../files/sniff';
import { safeFileName } from '../../files/names';
import { findClass } from '../vesta/access';
import { GradingStatus, RecognitionStatus, TaskType } from '../../grading/statuses';
import type { SectionSpec, SheetLayout, SheetSpec } from '../../grading';
import { enqueue } from '../../jobs/queue';
import { runHeavy } from './threadTasks';
import { correctors, findMySheet, findMyTask, myTeacherId, type TaskRow } from './access';
import { READ_FILE, rosterKey } from './jobs';
import { totals, type GradedWork, type PageTrace } from './results';
import { photoView, sheetView, type ResultView } from './view';
import { reportSheets, taskReport } from './report';
import { CreateSheetBody, CreateTaskBody, ExamSheetBody, Id, ReviewBody, UploadFields } from './schemas';
import { linkOf, recordTaskAnswers, resolveLink } from './workLink';
import { sheetFromExam } from './fromExam';
import { multipartFields } from '../../http/input';

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
      ? await db.select({ id: students.id, name: students.name, studentNo: students.studentNo }).from(students).where(and(eq(students.classId, classRow.id), eq(students.status, 0))).orderBy(students.studentNo)
      : [];
    if (body.identity === 'roster' && !roster.length) throw badRequest('该班级还没有学生');
    const sheetId = `S${randomBytes(5).toString('hex').toUpperCase()}`;
    const spec: SheetSpec = {
      sheetId,
      title: body.title,
      paper: body.paper,
      identity:
        body.identity === 'roster'
          ? { mode: 'roster', students: roster.map((s) => ({ id: rosterKey(s.id), name: s.name, className: classRow!.name, studentNo: s.studentNo })) }
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

  // The answer sheet of one of the teacher's exams for one class of it, with the key from its questions.
  app.post(`${BASE}/sheet/fromExam`, { preHandler: correctors, schema: { body: ExamSheetBody } }, async (request) => {
    const { examId, classId } = request.body as Static<typeof ExamSheetBody>;
    const p = request.principal;
    return ok(await sheetFromExam(db, p, await myTeacherId(db, p), examId, classId), '答题卡已生成');
  });

  app.get(`${BASE}/sheet/pdf`, { preHandler: correctors, schema: { querystring: Type.Object({ sheetId: Type.String({ minLength: 1, maxLength: 40 }) }) } }, async (request, reply) => {
    const { sheetId } = request.query as { sheetId: string };
    const sheet = await findMySheet(db, request.principal, sheetId);
    // A class set of copies takes seconds to lay out and embed fonts for: done in a thread.
    const pdf = await runHeavy('requests', 'renderSheet', sheet.layout as SheetLayout);
    return fileReply(reply, 'application/pdf', 'attachment', `答题卡_${sheet.title}.pdf`).send(Buffer.from(pdf));
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

  app.post(`${BASE}/task/upload`, { preHandler: correctors, config: { multipartFields: UploadFields } }, async (request) => {
    const p = request.principal;
    // singleFile has checked the fields against UploadFields already.
    const file = await singleFile(request);
    const { taskId, studentId = null } = multipartFields<typeof UploadFields>(request, file.fields);
    const task = await findMyTask(db, p, taskId).catch((error) => {
      file.file.resume();
      throw error;
    });
    if (task.status !== GradingStatus.pendingSubmission) {
      file.file.resume();
      throw conflict('任务已提交批改，不能再上传');
    }
    if (studentId !== null) {
      await checkStudent(task, studentId).catch((error) => {
        file.file.resume();
        throw error;
      });
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
    // Pixels and PDF streams are measured in a thread before anything is kept: an image or PDF
    // that would unpack to gigabytes is refused now, with the reason, rather than at grading.
    const refusal = await runHeavy('requests', 'checkScan', { path: pending.path, mime: type.mime }).catch(async (error) => {
      await pending.discard();
      throw error;
    });
    if (refusal) {
      await pending.discard();
      throw badRequest(refusal);
    }
    await pending.commit();
    const [row] = await db
      .insert(gradingFiles)
      .values({ tenantId: p.tenantId!, taskId, studentId, fileHash: pending.hash, fileName: safeFileName(file.filename, 200), mime: type.mime, size: pending.size, recognitionStatus: RecognitionStatus.new })
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

  // Only a task never submitted may go: once submitted it has queue jobs and results behind it.
  app.post(`${BASE}/task/remove`, { preHandler: correctors, schema: { body: Type.Object({ taskId: Id }) } }, async (request) => {
    const { taskId } = request.body as { taskId: number };
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

  app.get(`${BASE}/task/report`, { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id }) } }, async (request) => {
    const { taskId } = request.query as { taskId: number };
    const task = await findMyTask(db, request.principal, taskId);
    return ok(await taskReport(db, task));
  });

  app.get(`${BASE}/task/report/export`, { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id }) } }, async (request, reply) => {
    const { taskId } = request.query as { taskId: number };
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
    return ok({ ...result, ...(await resultExtras(request.principal, result)) });
  });

  app.post(`${BASE}/result/review`, { preHandler: correctors, schema: { body: ReviewBody } }, async (request) => {
    const { resultId, items, comment } = request.body as { resultId: number; items: { no: number; score: number }[]; comment?: string };
    const result = await findMyResult(request.principal, resultId);
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

  app.get(`${BASE}/file/view`, { preHandler: correctors, schema: { querystring: Type.Object({ fileId: Id }) } }, async (request, reply) => {
    const { fileId } = request.query as { fileId: number };
    const [file] = await db.select().from(gradingFiles).where(and(eq(gradingFiles.id, fileId), eq(gradingFiles.tenantId, request.principal.tenantId ?? -1)));
    if (!file || file.recognitionStatus === RecognitionStatus.deleted) throw notFound('文件不存在');
    await findMyTask(db, request.principal, file.taskId).catch(() => {
      throw notFound('文件不存在');
    });
    return fileReply(reply, file.mime, 'inline', file.fileName).send(await app.files.open(file.fileHash));
  });

  /** A named student must be in a class the teacher teaches, and in the task's class when it has one. */
  async function checkStudent(task: TaskRow, studentId: number): Promise<void> {
    if (!Number.isInteger(studentId) || studentId < 1 || studentId > 2 ** 31 - 1) throw badRequest('学生格式不正确');
    const [student] = await rows<{ classId: number | null }>(db, sql`
      SELECT s.class_id AS "classId" FROM students s
       WHERE s.id = ${studentId} AND s.tenant_id = ${task.tenantId}
         AND s.class_id IN (SELECT ta.class_id FROM teaching_assignments ta WHERE ta.teacher_id = ${task.teacherId})`);
    if (!student) throw notFound('学生不存在或不在您任教的班级');
    if (task.classId !== null && student.classId !== task.classId) throw badRequest('该学生不在本任务的班级中');
  }

  /**
   * What the review screen shows besides the result: the student's name and number, and `view`,
   * the geometry to draw the reading over each scan or photo (view.ts). The sheet layout is the
   * task's own, read within the tenant; results graded before pages kept their file give no pages.
   */
  async function resultExtras(p: Principal, result: typeof gradingResults.$inferSelect) {
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
    return { studentName: student?.name ?? null, studentNo: student?.studentNo ?? null, taskType: task.type, taskTitle: task.title, view };
  }

  async function findMyResult(p: Principal, resultId: number) {
    const [result] = await db.select().from(gradingResults).where(and(eq(gradingResults.id, resultId), eq(gradingResults.tenantId, p.tenantId ?? -1)));
    if (!result) throw notFound('批改结果不存在');
    await findMyTask(db, p, result.taskId).catch(() => {
      throw notFound('批改结果不存在');
    });
    return result;
  }
}

