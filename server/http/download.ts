// Binary replies: file names in Content-Disposition (RFC 6266 with RFC 5987 for non-ASCII), and
// the headers every file we send carries so a browser never guesses a type from the bytes.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { withoutInvisible } from '../files/names';

/**
 * `attachment; filename="..."; filename*=UTF-8''...`: old clients read the ASCII fallback, browsers
 * the UTF-8 name. Names stored before they were cleaned are cleaned here too.
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const name = withoutInvisible(fileName).trim() || '未命名文件';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Type, name and `nosniff` for a file reply: the declared type is the only one a browser may use. */
export function fileReply(reply: FastifyReply, type: string, kind: 'attachment' | 'inline', fileName: string): FastifyReply {
  return reply.header('content-type', type).header('content-disposition', contentDisposition(kind, fileName)).header('x-content-type-options', 'nosniff');
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function sendWorkbook(reply: FastifyReply, bytes: Buffer | Readable, fileName: string, status = 200) {
  return fileReply(reply.status(status), XLSX_MIME, 'attachment', fileName)
    // The client's download helper reads the name from here (CORS-safe when proxied).
    .header('access-control-expose-headers', 'content-disposition, x-import-result, x-import-error-count, x-import-errors')
    .send(bytes);
}
