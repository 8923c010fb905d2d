// Binary replies: file names in Content-Disposition (RFC 6266 with RFC 5987 for non-ASCII).
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** `attachment; filename="..."; filename*=UTF-8''...`: old clients read the ASCII fallback, browsers the UTF-8 name. */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function sendWorkbook(reply: FastifyReply, bytes: Buffer | Readable, fileName: string, status = 200) {
  return reply
    .status(status)
    .header('content-type', XLSX_MIME)
    .header('content-disposition', contentDisposition('attachment', fileName))
    // The client's download helper reads the name from here (CORS-safe when proxied).
    .header('access-control-expose-headers', 'content-disposition, x-import-result, x-import-error-count')
    .send(bytes);
}
