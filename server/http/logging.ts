// The server log (pino, one JSON line each): one line per request and one per error, each with the
// request id. Secrets and personal data never reach it: fields named like a token, password or
// phone are masked wherever they sit, query values other than paging and ids are masked in URLs,
// and mobile numbers, JWTs and SQL parameters are cut out of every message, URL and stack.
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

/** What pino writes to (a writable stream or any object with write()). */
export interface DestinationStream {
  write(line: string): void;
}

export interface LogOptions {
  /** pino level: fatal, error, warn, info (the default), debug, trace or silent. */
  level?: string;
  /** Where lines go; standard output by default. */
  stream?: DestinationStream;
}

export const REDACTED = '[redacted]';

/** Field names whose values are never logged: headers (blade-auth, authorization, cookie) and body fields alike. */
const SECRET_KEY = /auth|token|password|secret|cookie|phone|^params$/i;
const MOBILE = /(?<!\d)1[3-9]\d{9}(?!\d)/g;
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]+/g;
/** Drizzle puts every bound value of a failed query in its message; the SQL text stays, the values go. */
const SQL_PARAMS = /\nparams: [^\n]*/g;

export function scrubText(text: string): string {
  return text.replace(SQL_PARAMS, `\nparams: ${REDACTED}`).replace(JWT, REDACTED).replace(MOBILE, REDACTED);
}

/** A copy with secret-named fields masked and every string scrubbed; bounded in depth and cycles. */
export function scrub(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  // Raw bytes (the packet of a malformed request) say nothing useful and may hold anything.
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (seen.has(value) || depth > 8) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) && v != null && v !== '' ? REDACTED : scrub(v, depth + 1, seen);
  return out;
}

/** An error with its type, code, message, stack and causes (pino's own serializer, without importing pino). */
function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 3) return error;
  const { name, message, stack, cause, ...own } = error as Error & { cause?: unknown };
  return { type: name, message, stack, ...own, ...(cause !== undefined ? { cause: serializeError(cause, depth + 1) } : {}) };
}

/** Query parameters whose values say nothing about a person: paging, order, kinds and numeric ids. */
const PLAIN_PARAM = /^(current|size|sort|order|range|type|status|dateType|leaderType|term|learningTerm|learningYear|queryMode|month|bucket)$/;
/** /f/<token> and /api/family/v1.0/view/<token>: the token part. */
const FAMILY_TOKEN_PATH = /^(\/f\/|\/api\/family\/v1\.0\/view\/)[^/?#]+/;

const ID_PARAM = /(^id|Id|Ids)$/;

/**
 * The URL with its query values masked: searches carry students' names and numbers. Paging, kinds
 * and numeric ids stay, so a request can still be traced.
 */
export function scrubUrl(raw: string): string {
  // A family page's token is its key: never in a log line.
  const url = raw.replace(FAMILY_TOKEN_PATH, `$1${REDACTED}`);
  const at = url.indexOf('?');
  if (at < 0) return scrubText(url);
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const key = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const plain = PLAIN_PARAM.test(key) || (ID_PARAM.test(key) && /^\d+((,|%2C)\d+)*$/i.test(value));
      return plain ? pair : `${key}=${REDACTED}`;
    })
    .join('&');
  return scrubText(`${url.slice(0, at)}?${query}`);
}

function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: scrubUrl(request.url), remoteAddress: request.ip };
}

/** Fastify's logger option (pino options with a stream). */
type PinoOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

export function loggerOptions({ level = 'info', stream }: LogOptions = {}): PinoOptions {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (request: FastifyRequest) => serializeRequest(request),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      // The stack stays (scrubbed): a 500 must be traceable to its line.
      err: (error: Error) => scrub(serializeError(error)) as { type: string; message: string; stack: string },
      msg: (msg: unknown) => (typeof msg === 'string' ? scrubText(msg) : msg),
    },
    formatters: {
      log(object: Record<string, unknown>) {
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(object)) {
          // Errors, requests and replies go through their serializers above.
          out[key] = key === 'err' || key === 'req' || key === 'res' ? value : SECRET_KEY.test(key) ? REDACTED : scrub(value);
        }
        return out;
      },
    },
  };
}

/** One line per answered request (Fastify's own are two: incoming and completed). */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
