// The photo or PDF of an assignment a teacher gives as homework with its own answer key: uploaded
// first (checked by its bytes and measured before it is kept), then named by id when assigning;
// viewed by the homework's teacher (作业详情) and listed with it.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HOMEWORK_FILE_MAX_BYTES, HOMEWORK_FILE_TYPES } from '../../../src/domain/content';
import files, { asUploadError, singleFile } from '../../files/plugin';
import { detectType } from '../../files/sniff';
import { storedFileName } from '../../files/names';
import { rows } from '../../db/query';
import { homeworkFiles } from '../../db/schema';
import { fileReply } from '../../http/download';
import { ApiError, badRequest, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { runHeavy } from '../correct/threadTasks';
import { me, teachersOnly } from './access';

export interface HomeworkFileView {
  id: number;
  fileName: string;
  mime: string;
  size: number;
}

const homeworkFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(files);
  const db = app.db;

  app.post('/api/minerva/v1.0/homework-files', { preHandler: teachersOnly }, async (request) => {
    const { tenantId, teacherId } = await me(db, request.principal);
    const file = await singleFile(request);
    let pending;
    try {
      pending = await app.files.write(file.file);
    } catch (error) {
      throw asUploadError(error);
    }
    if (file.file.truncated || pending.size > HOMEWORK_FILE_MAX_BYTES) {
      await pending.discard();
      throw new ApiError(413, `文件过大，作业原件不能超过${HOMEWORK_FILE_MAX_BYTES / 1024 / 1024}MB`);
    }
    if (pending.size === 0) {
      await pending.discard();
      throw badRequest('文件是空的，请重新选择');
    }
    const type = detectType(pending.head, file.filename);
    if (!type || !(HOMEWORK_FILE_TYPES as readonly string[]).includes(type.mime)) {
      await pending.discard();
      throw new ApiError(415, '只支持 JPG、PNG 图片或 PDF 文件');
    }
    // Pixels and PDF streams are measured in a thread before anything is kept.
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
      .insert(homeworkFiles)
      .values({ tenantId, teacherId, fileHash: pending.hash, fileName: storedFileName(file.filename, type.ext, 200), mime: type.mime, size: pending.size })
      .returning({ id: homeworkFiles.id, fileName: homeworkFiles.fileName, mime: homeworkFiles.mime, size: homeworkFiles.size });
    return ok<HomeworkFileView>(row, '上传成功');
  });

  // The uploader sees their file before assigning; afterwards it is the homework's teacher's.
  app.get('/api/minerva/v1.0/homework-files/:fileId', { preHandler: teachersOnly, schema: { params: Type.Object({ fileId: Id }) } }, async (request, reply) => {
    const { tenantId, teacherId } = await me(db, request.principal);
    const [file] = await db
      .select()
      .from(homeworkFiles)
      .where(and(eq(homeworkFiles.id, request.params.fileId), eq(homeworkFiles.tenantId, tenantId), eq(homeworkFiles.teacherId, teacherId)));
    if (!file) throw notFound('文件不存在');
    return fileReply(reply, file.mime, 'inline', file.fileName).send(await app.files.open(file.fileHash));
  });
};

/** An uploaded assignment file of the teacher's not yet given with a homework, or 404. */
export async function unusedHomeworkFile(db: Parameters<typeof rows>[0], tenantId: number, teacherId: number, fileId: number): Promise<HomeworkFileView> {
  const [file] = await rows<HomeworkFileView>(db, sql`
    SELECT id, file_name AS "fileName", mime, size FROM homework_files f
     WHERE f.id = ${fileId} AND f.tenant_id = ${tenantId} AND f.teacher_id = ${teacherId}
       AND NOT EXISTS (SELECT 1 FROM homeworks h WHERE h.file_id = f.id)`);
  if (!file) throw notFound('作业原件不存在，请重新上传');
  return file;
}

export default homeworkFileRoutes;
