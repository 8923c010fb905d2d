// School resources (教案/试卷/课件/其他): upload, list, preview, download, delete.
// Bytes go to the content-addressed file store; types are decided by magic bytes only.
import { eq, sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RESOURCE_TYPES, NAME_MAX_LENGTH } from '../../../src/domain/school';
import { rows } from '../../db/query';
import { resources } from '../../db/schema';
import { fileReply } from '../../http/download';
import { ApiError, badRequest, forbidden, notFound, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { TOO_LARGE, asUploadError } from '../../files/plugin';
import { ALLOWED_TYPES_TEXT, detectType } from '../../files/sniff';
import type { PendingFile } from '../../files/store';
import { stem, storedFileName } from '../../files/names';
import { cleanName, findGrade, isAdmin, resourceUsers, schoolOf } from './access';
import { Id } from '../../http/schemas';
import { multipartFields } from '../../http/input';

const ResourceType = Type.Union(RESOURCE_TYPES.map((t) => Type.Literal(t)));
/** The fields sent with the file; a wrong or missing type is explained by the handler, with the list of types. */
const UploadFields = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 20 })),
  title: Type.Optional(Type.String({ maxLength: 200 })),
  gradeId: Type.Optional(Id),
  subjectId: Type.Optional(Id),
});

interface ResourceRow {
  id: number;
  uploaderId: number;
  fileHash: string;
  fileName: string;
  mime: string;
  size: number;
}

const resourceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  async function findResource(request: import('fastify').FastifyRequest, resourceId: number): Promise<ResourceRow> {
    const s = schoolOf(request.principal);
    const [row] = await rows<ResourceRow>(db, sql`
      SELECT id, uploader_id AS "uploaderId", file_hash AS "fileHash", file_name AS "fileName", mime, size
        FROM resources WHERE id = ${resourceId} AND tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}`);
    if (!row) throw notFound('资源不存在');
    return row;
  }

  app.post('/api/vesta/resource/upload', { preHandler: resourceUsers, config: { multipartFields: UploadFields } }, async (request) => {
    const p = request.principal;
    const s = schoolOf(p);
    if (!request.isMultipart()) throw badRequest('请选择要上传的文件');
    const fields: Record<string, string> = {};
    let pending: PendingFile | undefined;
    let originalName = '';
    try {
      // Fields may come before or after the file; the file streams to disk either way.
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (pending) throw badRequest('一次只能上传一个文件');
          originalName = part.filename;
          pending = await app.files.write(part.file);
          if (part.file.truncated) throw new ApiError(413, TOO_LARGE);
        } else fields[part.fieldname] = String(part.value ?? '');
      }
    } catch (err) {
      await pending?.discard();
      throw asUploadError(err);
    }
    if (!pending) throw badRequest('请选择要上传的文件');
    const file = pending;
    try {
      if (file.size === 0) throw badRequest('文件内容为空');
      const detected = detectType(file.head, originalName);
      if (!detected) throw new ApiError(415, `不支持的文件类型，仅支持${ALLOWED_TYPES_TEXT}`);
      const { type = '', title: givenTitle, gradeId, subjectId } = multipartFields<typeof UploadFields>(request, fields);
      if (!(RESOURCE_TYPES as readonly string[]).includes(type)) throw badRequest(`类型只能是${RESOURCE_TYPES.join('、')}`);
      if (gradeId !== undefined) await findGrade(db, p, gradeId);
      if (subjectId !== undefined) {
        const [known] = await rows(db, sql`SELECT 1 FROM subjects WHERE id = ${subjectId}`);
        if (!known) throw notFound('学科不存在');
      }
      const fileName = storedFileName(originalName, detected.ext);
      const title = givenTitle?.trim() ? cleanName(givenTitle, '标题') : [...stem(fileName)].slice(0, NAME_MAX_LENGTH).join('');
      await file.commit();
      const [row] = await db
        .insert(resources)
        .values({ ...s, uploaderId: p.userId, gradeId: gradeId ?? null, subjectId: subjectId ?? null, type, title, fileName, fileHash: file.hash, mime: detected.mime, size: file.size })
        .returning();
      return ok({ id: row.id, resourceId: row.id, title, type, fileName, mime: detected.mime, size: file.size }, '上传成功');
    } catch (err) {
      await file.discard();
      throw err;
    }
  });

  app.get(
    '/api/vesta/resource/page',
    {
      preHandler: resourceUsers,
      schema: {
        querystring: Type.Object({
          ...PagingQuery,
          gradeId: Type.Optional(Id),
          subjectId: Type.Optional(Id),
          type: Type.Optional(ResourceType),
          keyword: Type.Optional(Type.String({ maxLength: 50 })),
          mine: Type.Optional(Type.Boolean()),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const p = request.principal;
      const s = schoolOf(p);
      const { current, size, offset } = pageWindow(q);
      const parts: SQL[] = [sql`r.tenant_id = ${s.tenantId}`, sql`r.school_id = ${s.schoolId}`];
      if (q.gradeId !== undefined) parts.push(sql`r.grade_id = ${(await findGrade(db, p, q.gradeId)).id}`);
      if (q.subjectId !== undefined) parts.push(sql`r.subject_id = ${q.subjectId}`);
      if (q.type) parts.push(sql`r.type = ${q.type}`);
      if (q.keyword?.trim()) parts.push(sql`r.title LIKE ${`%${q.keyword.trim()}%`}`);
      if (q.mine) parts.push(sql`r.uploader_id = ${p.userId}`);
      const where = sql.join(parts, sql` AND `);
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM resources r WHERE ${where}`);
      const records = await rows(db, sql`
        SELECT r.id, r.id AS "resourceId", r.title, r.type, r.grade_id AS "gradeId", g.name AS "gradeName",
               r.subject_id AS "subjectId", su.name AS "subjectName", r.file_name AS "fileName", r.mime, r.size,
               r.uploader_id AS "uploaderId", u.name AS "uploaderName", r.created_at AS "createdAt",
               (r.uploader_id = ${p.userId} OR ${isAdmin(p)}) AS "canDelete",
               (r.mime = 'application/pdf' OR r.mime LIKE 'image/%') AS "previewable"
          FROM resources r
          LEFT JOIN grades g ON g.id = r.grade_id
          LEFT JOIN subjects su ON su.id = r.subject_id
          LEFT JOIN users u ON u.id = r.uploader_id
         WHERE ${where}
         ORDER BY r.created_at DESC, r.id DESC LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  const sendFile = async (request: FastifyRequest, reply: FastifyReply, resourceId: number, kind: 'inline' | 'attachment') => {
    const row = await findResource(request, resourceId);
    if (kind === 'inline' && !(row.mime === 'application/pdf' || row.mime.startsWith('image/'))) {
      throw new ApiError(415, '该类型文件不支持预览，请下载后查看');
    }
    let stream;
    try {
      stream = await app.files.open(row.fileHash);
    } catch {
      throw notFound('文件不存在或已被删除');
    }
    return fileReply(reply, row.mime, kind, row.fileName)
      .header('content-length', String(row.size))
      .send(stream);
  };

  const ByResourceId = { querystring: Type.Object({ resourceId: Id }) };
  app.get('/api/vesta/resource/preview', { preHandler: resourceUsers, schema: ByResourceId }, (request, reply) => sendFile(request, reply, request.query.resourceId, 'inline'));
  app.get('/api/vesta/resource/download', { preHandler: resourceUsers, schema: ByResourceId }, (request, reply) => sendFile(request, reply, request.query.resourceId, 'attachment'));

  app.post(
    '/api/vesta/resource/remove',
    { preHandler: resourceUsers, schema: { body: Type.Object({ resourceId: Id }) } },
    async (request) => {
      const { resourceId } = request.body;
      const p = request.principal;
      const row = await findResource(request, resourceId);
      if (row.uploaderId !== p.userId && !isAdmin(p)) throw forbidden('只有上传者或学校管理员可以删除该资源');
      const stillUsed = await db.transaction(async (tx) => {
        await tx.delete(resources).where(eq(resources.id, row.id));
        const [{ n }] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM resources WHERE file_hash = ${row.fileHash}`);
        return n > 0;
      });
      // The same bytes may back another school's upload; only the last reference frees them.
      if (!stillUsed) await app.files.remove(row.fileHash);
      return ok(null, '删除成功');
    },
  );
};

export default resourceRoutes;
