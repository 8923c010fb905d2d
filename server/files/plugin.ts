// File handling for the app: the content-addressed store as `app.files`, and multipart uploads
// capped at the product's per-file limit.
import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { UPLOAD_MAX_BYTES } from '../../src/domain/school';
import { ApiError, badRequest } from '../http/envelope';
import { multipartFields } from '../http/input';
import type { FileStore, PendingFile } from './store';
import { fileStoreFor } from './stores';

declare module 'fastify' {
  interface FastifyInstance {
    files: FileStore;
  }
}

export const TOO_LARGE = `文件过大，单个文件不能超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB`;

/** Uploads spooled to disk for the request, removed when its reply is done. */
const spooled = new WeakMap<FastifyRequest, PendingFile[]>();

export default fp(async function files(app: FastifyInstance) {
  // Several modules register this plugin; the store and the spool's cleanup are set up once.
  if (!app.hasDecorator('files')) {
    app.decorate('files', fileStoreFor(app.config, app.db));
    const removeSpooled = async (request: FastifyRequest) => {
      await Promise.all((spooled.get(request) ?? []).map((f) => f.discard()));
      spooled.delete(request);
    };
    app.addHook('onResponse', removeSpooled);
    app.addHook('onRequestAbort', removeSpooled);
  }
  // Another module may have registered multipart already; one parser serves all.
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024 } });
  }
});

/** The one file of a multipart request, its name and the fields before it checked (http/input.ts), or a Chinese 400. */
export async function singleFile(request: FastifyRequest): Promise<MultipartFile> {
  if (!request.isMultipart()) throw badRequest('请选择要上传的文件');
  const file = await request.file();
  if (!file) throw badRequest('请选择要上传的文件');
  try {
    multipartFields(request, file.fields);
  } catch (error) {
    file.file.resume();
    throw error;
  }
  return file;
}

/**
 * The one file of a multipart request, written to a temporary file as it arrives (never held in
 * memory) for a worker thread to read; removed once the reply is done.
 */
export async function spoolUpload(request: FastifyRequest): Promise<PendingFile> {
  const file = await singleFile(request);
  let pending: PendingFile;
  try {
    pending = await request.server.files.write(file.file);
  } catch (err) {
    throw asUploadError(err);
  }
  spooled.set(request, [...(spooled.get(request) ?? []), pending]);
  if (file.file.truncated) throw new ApiError(413, TOO_LARGE);
  return pending;
}

/** Maps multipart's own limit errors to the envelope's Chinese messages. */
export function asUploadError(err: unknown): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError(413, TOO_LARGE);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') return badRequest('一次只能上传一个文件');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return badRequest('请选择要上传的文件');
  return err;
}
