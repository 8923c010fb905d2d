// The reply envelope of SPEC §7: {code, msg, success, data}, with HTTP status = code (DESIGN.md).
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { Envelope } from '../../src/domain/envelope';
import { fieldLabel } from './fieldLabels';
import { pgErrorCode } from '../db/errors';

export type { Envelope };

export function ok<T>(data: T, msg = '操作成功'): Envelope<T> {
  return { code: 200, msg, success: true, data };
}

/** A failure the user should read: status code and a Chinese message. */
export class ApiError extends Error {
  constructor(
    public readonly code: number,
    message: string,
    public readonly headers: Record<string, string> = {},
    /** Messages per request field (`data.errors`), which a form shows on the field itself. */
    public readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string) => new ApiError(400, msg);
export const unauthorized = (msg = '请先登录') => new ApiError(401, msg);
export const forbidden = (msg = '无权访问') => new ApiError(403, msg);
export const notFound = (msg = '数据不存在') => new ApiError(404, msg);
export const conflict = (msg: string, fields?: Record<string, string>) => new ApiError(409, msg, {}, fields);

interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
}

/**
 * The field an error is about, named from the schema (never from the request, whose keys may be
 * anything): the missing property, else the last declared property on the schema path.
 */
function fieldOf(err: AjvError, labels: Record<string, string>): string {
  const label = (name: string) => (Object.hasOwn(labels, name) ? labels[name] : fieldLabel(name)) ?? '参数';
  const missing = err.params.missingProperty as string | undefined;
  if (missing) return label(missing);
  const segments = (err.schemaPath ?? '').split('/');
  for (let i = segments.length - 2; i >= 0; i--) {
    if (segments[i] === 'properties') return label(decodeURIComponent(segments[i + 1]));
  }
  return '参数';
}

function describe(err: AjvError, labels: Record<string, string>): string {
  const field = fieldOf(err, labels);
  switch (err.keyword) {
    case 'required':
      return `${field}不能为空`;
    case 'minLength':
      return err.params.limit === 1 ? `${field}不能为空` : `${field}长度不能少于${err.params.limit}个字符`;
    case 'maxLength':
      return `${field}长度不能超过${err.params.limit}个字符`;
    case 'minItems':
      return err.params.limit === 1 ? `${field}不能为空` : `${field}不能少于${err.params.limit}项`;
    case 'maxItems':
      return `${field}不能超过${err.params.limit}项`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'enum':
    case 'anyOf':
    case 'const':
      return `${field}取值不正确`;
    case 'additionalProperties':
      return '请求包含不支持的参数';
    default:
      return `${field}格式不正确`;
  }
}

/**
 * The message for a failed validation. Of the errors ajv reports (one per branch of a union), the
 * one deepest in the input says best what is wrong; ties go to the first.
 */
export function validationMessage(errors: readonly unknown[], labels: Record<string, string> = {}): string {
  const list = errors as AjvError[];
  if (!list.length) return '请求参数格式不正确';
  const depth = (e: AjvError) => e.instancePath.split('/').length + (e.keyword === 'required' ? 1 : 0);
  const best = list.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  return describe(best, labels);
}

function send(reply: FastifyReply, code: number, msg: string, fields?: Record<string, string>) {
  return reply.status(code).send({ code, msg, success: false, data: fields ? { errors: fields } : null });
}

/** One error handler for the whole app: envelopes every failure and never leaks a stack trace. */
/**
 * The product routes by `#` (`/#/studentManage`). A screen's address typed or pasted without it
 * (`/studentManage`) is sent to the same place in the app; `isAppPath` says which paths are screens.
 * Anything under /api, anything that looks like a file, and unknown paths stay 404s.
 */
export function appAddress(method: string, url: string, isAppPath: (path: string) => boolean): string | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const [path, query = ''] = url.split('?', 2);
  if (path === '/' || path.startsWith('/api/') || path === '/api' || !/^\/[\w\-/]{1,200}$/.test(path) || /\/\//.test(path)) return null;
  if (!isAppPath(path)) return null;
  return `/#${path}${query ? `?${query}` : ''}`;
}

/** What a browser shows for an address that is no page: Chinese, with the way home, not raw JSON. */
const NOT_FOUND_PAGE = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>页面不存在</title></head>
<body style="font-family:'PingFang SC','Microsoft YaHei','Noto Sans CJK SC',sans-serif;text-align:center;padding:64px 16px;color:#333">
<h1 style="font-size:22px">页面不存在</h1><p>您访问的地址不存在或已失效。</p><p><a href="/">返回首页</a></p></body></html>`;

export function registerEnvelope(app: FastifyInstance, { isAppPath }: { isAppPath?: (path: string) => boolean } = {}) {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      reply.headers(error.headers);
      return send(reply, error.code, error.message, error.fields);
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      return send(reply, 400, validationMessage(fe.validation, request.routeOptions.config?.fieldLabels));
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return send(reply, 400, '请求内容不是有效的 JSON');
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 413, '上传内容过大');
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 415, '不支持的请求类型');
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      request.log.info({ err: error }, 'request refused');
      return send(reply, fe.statusCode, '请求有误');
    }
    // Two writers of the same rows that PostgreSQL had to part (a deadlock, a serialization
    // failure): the transaction that met the other was rolled back, and the same request
    // succeeds once the other is done.
    const pg = pgErrorCode(error);
    if (pg === '40P01' || pg === '40001') {
      request.log.warn({ err: error }, 'request met another writer');
      reply.header('retry-after', '1');
      return send(reply, 503, '其他操作正在修改相同的数据，请稍后重试');
    }
    request.log.error({ err: error }, 'request failed');
    return send(reply, 500, '服务异常');
  });
  app.setNotFoundHandler((request, reply) => {
    const address = isAppPath ? appAddress(request.method, request.url, isAppPath) : null;
    if (address) return reply.redirect(address, 302);
    // A browser opening an unknown address reads a page; programs asking for JSON get the envelope.
    if (isAppPath && request.method === 'GET' && !request.url.startsWith('/api/') && /text\/html/.test(request.headers.accept ?? '')) {
      return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
    }
    return send(reply, 404, '接口不存在');
  });
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', '请求地址或请求头过长'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', '请求超时，请重试'],
};

/**
 * Requests Node refuses before Fastify sees them (an address or headers beyond maxHeaderSize, a
 * malformed request line, a timeout) are answered with the envelope too, not Node's English text.
 */
export function sendClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, status, msg] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request', '请求格式不正确'];
  this.log.info({ err }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ code, msg, success: false, data: null });
    socket.write(
      `HTTP/1.1 ${code} ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * Errors the router raises before any route runs (a path parameter past maxParamLength, a URL
 * that does not decode): Fastify would answer them in English JSON of its own.
 */
export function sendFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, 414, '请求地址过长');
  return send(reply, 400, '请求地址不正确');
}
