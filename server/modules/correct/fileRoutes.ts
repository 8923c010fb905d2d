// A task's files: upload a photo or scan (checked before it is kept), remove one before the task
// is submitted, and view one.
import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerSheets, gradingFiles } from '../../db/schema';
import type { SheetLayout } from '../../grading';
import { ApiError, badRequest, conflict, notFound, ok } from '../../http/envelope';
import { fileReply } from '../../http/download';
import { asUploadError, singleFile } from '../../files/plugin';
import { detectType } from '../../files/sniff';
import { storedFileName } from '../../files/names';
import { GradingStatus, RecognitionStatus, TaskType } from '../../grading/statuses';
import { runHeavy } from './threadTasks';
import { multipartFields } from '../../http/input';
import { BASE, checkStudent, correctors, findMyTask } from './access';
import { FileStudentBody, Id, UploadFields } from './schemas';
import { replaceable, retireFile } from './replace';
import { findMarkingTask, markerSeesFile } from './markers';

const ACCEPTED = ['image/jpeg', 'image/png', 'application/pdf'];

const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post(`${BASE}/task/upload`, { preHandler: correctors, config: { multipartFields: UploadFields } }, async (request) => {
    const p = request.principal;
    // singleFile has checked the fields against UploadFields already.
    const file = await singleFile(request);
    const { taskId, studentId = null, replaces = null } = multipartFields<typeof UploadFields>(request, file.fields);
    const refuse = (error: unknown) => {
      file.file.resume();
      throw error;
    };
    const task = await findMyTask(db, p, taskId).catch(refuse);
    // A graded task takes more pages too (submitted again, only they are graded); not while grading runs.
    if (task.status === GradingStatus.grading) refuse(conflict('任务正在批改，请等批改完成后再上传'));
    if (studentId !== null) await checkStudent(db, task, studentId).catch(refuse);
    const replaced = replaces === null ? null : await replaceable(db, task.id, p.tenantId!, replaces).catch(refuse);
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
    // An answer-sheet photo is read for its corner marks and QR code now, as grading will: a page
    // that will not be read is kept (grading has the last word) but named with the reason at once.
    let warning: string | null = null;
    if (task.type === TaskType.answerSheet && type.mime !== 'application/pdf') {
      const [sheet] = await db.select({ layout: answerSheets.layout }).from(answerSheets).where(and(eq(answerSheets.id, task.sheetId ?? ''), eq(answerSheets.tenantId, task.tenantId)));
      if (sheet) warning = await runHeavy('requests', 'checkSheetImage', { path: pending.path, layout: sheet.layout as SheetLayout }).catch(() => null);
    }
    await pending.commit();
    const row = await db.transaction(async (tx) => {
      // A replacement takes the old page's student unless another is named, and the old page
      // leaves with whatever was graded from it alone (replace.ts).
      if (replaced) await retireFile(tx as never, replaced);
      const [inserted] = await tx
        .insert(gradingFiles)
        .values({ tenantId: p.tenantId!, taskId, studentId: studentId ?? replaced?.studentId ?? null, fileHash: pending.hash, fileName: storedFileName(file.filename, type.ext, 200), mime: type.mime, size: pending.size, recognitionStatus: RecognitionStatus.new, error: warning })
        .returning({ id: gradingFiles.id, fileName: gradingFiles.fileName, size: gradingFiles.size, studentId: gradingFiles.studentId, recognitionStatus: gradingFiles.recognitionStatus, error: gradingFiles.error });
      return inserted;
    });
    return ok(row, warning ? `已上传，但这一页可能无法识别：${warning}` : replaced ? '已替换，提交批改后重新批改这一页' : '上传成功');
  });

  app.post(`${BASE}/task/removeFile`, { preHandler: correctors, schema: { body: Type.Object({ fileId: Id }) } }, async (request) => {
    const { fileId } = request.body;
    const [file] = await db.select().from(gradingFiles).where(and(eq(gradingFiles.id, fileId), eq(gradingFiles.tenantId, request.principal.tenantId ?? -1)));
    if (!file) throw notFound('文件不存在');
    const task = await findMyTask(db, request.principal, file.taskId).catch(() => {
      throw notFound('文件不存在');
    });
    // Files not yet submitted may go; a graded page is replaced instead (upload with `replaces`).
    if (task.status === GradingStatus.grading || file.recognitionStatus !== RecognitionStatus.new) throw conflict('文件已提交批改，不能删除');
    await db.update(gradingFiles).set({ recognitionStatus: RecognitionStatus.deleted }).where(eq(gradingFiles.id, fileId));
    return ok(null, '已删除');
  });

  // A class's photos uploaded at once (essays, homework): the teacher names each file's student
  // before submitting, or takes it back (null) to let the name written on the page decide.
  app.post(`${BASE}/task/fileStudent`, { preHandler: correctors, schema: { body: FileStudentBody } }, async (request) => {
    const { fileId, studentId } = request.body;
    const [file] = await db.select().from(gradingFiles).where(and(eq(gradingFiles.id, fileId), eq(gradingFiles.tenantId, request.principal.tenantId ?? -1)));
    if (!file || file.recognitionStatus === RecognitionStatus.deleted) throw notFound('文件不存在');
    const task = await findMyTask(db, request.principal, file.taskId).catch(() => {
      throw notFound('文件不存在');
    });
    if (task.type === TaskType.answerSheet) throw badRequest('答题卡按二维码对应学生，无需指定');
    if (task.status === GradingStatus.grading || file.recognitionStatus !== RecognitionStatus.new) throw conflict('文件已提交批改，请在批改报告中为结果指定学生');
    if (studentId !== null) await checkStudent(db, task, studentId);
    await db.update(gradingFiles).set({ studentId }).where(eq(gradingFiles.id, fileId));
    return ok({ id: fileId, studentId }, studentId === null ? '已取消指定学生' : '已指定学生');
  });

  app.get(`${BASE}/file/view`, { preHandler: correctors, schema: { querystring: Type.Object({ fileId: Id }) } }, async (request, reply) => {
    const { fileId } = request.query;
    const [file] = await db.select().from(gradingFiles).where(and(eq(gradingFiles.id, fileId), eq(gradingFiles.tenantId, request.principal.tenantId ?? -1)));
    if (!file || file.recognitionStatus === RecognitionStatus.deleted) throw notFound('文件不存在');
    const access = await findMarkingTask(db, request.principal, file.taskId).catch(() => {
      throw notFound('文件不存在');
    });
    // A marker sees the scans of their own share of the papers only.
    if (!access.owner && !(await markerSeesFile(db, access, fileId))) throw notFound('文件不存在');
    return fileReply(reply, file.mime, 'inline', file.fileName).send(await app.files.open(file.fileHash));
  });
};

export default fileRoutes;
