// Calls out to a real gateway (WeChat Pay, Alipay): every request has a timeout, and the calls that
// are safe to repeat (query, close, refund by its own number) are retried a bounded number of times
// on network errors, timeouts and 5xx answers. A gateway that cannot be reached or answers nonsense
// is a Chinese 503/502 to the user, never a 500. Nothing here logs a key, a signature or a body.
import { ApiError } from '../../../http/envelope';

/** The gateway's trouble, told to the user in Chinese; `detail` goes to the log only. */
export class GatewayError extends ApiError {
  constructor(
    code: 502 | 503,
    message: string,
    public readonly detail: string,
  ) {
    super(code, message);
  }
}

export const GATEWAY_TIMEOUT = '支付通道响应超时，请稍后重试';
export const GATEWAY_UNREACHABLE = '支付通道暂时无法连接，请稍后重试';
export const GATEWAY_BAD_ANSWER = '支付通道返回异常，请稍后重试';
export const GATEWAY_REFUSED = '支付通道拒绝了该请求，请联系平台管理员';

export interface GatewayHttpOptions {
  /** Per attempt; 10 s by default. */
  timeoutMs?: number;
  /** Attempts of a call that may be repeated (query, close, refund); 3 by default. */
  attempts?: number;
  /** Pause before each retry, growing: retryDelayMs, 2×, 4×…; 300 ms by default. */
  retryDelayMs?: number;
}

export interface GatewayAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One HTTP exchange with the gateway. `repeatable`: retried on a network error, a timeout or a 5xx
 * answer; otherwise (creating a payment) tried once, since the user is waiting.
 */
export async function gatewayFetch(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  { repeatable, options, what }: { repeatable: boolean; options: GatewayHttpOptions; what: string },
): Promise<GatewayAnswer> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const attempts = repeatable ? Math.max(1, options.attempts ?? 3) : 1;
  let last: GatewayError | undefined;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, (options.retryDelayMs ?? 300) * 2 ** (i - 1)));
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
      const text = await readCapped(res, 64 * 1024);
      if (res.status >= 500) {
        last = new GatewayError(502, GATEWAY_BAD_ANSWER, `${what}: HTTP ${res.status}`);
        continue;
      }
      return { status: res.status, headers: res.headers, text };
    } catch (error) {
      if (error instanceof GatewayError) {
        last = error;
        continue;
      }
      const name = (error as Error)?.name;
      last =
        name === 'TimeoutError' || name === 'AbortError'
          ? new GatewayError(503, GATEWAY_TIMEOUT, `${what}: no answer within ${timeoutMs} ms`)
          : new GatewayError(503, GATEWAY_UNREACHABLE, `${what}: ${(error as Error)?.message ?? 'network error'}`);
    }
  }
  throw last!;
}

/** The answer's text, refusing one larger than `max` bytes (a gateway's answers are small). */
async function readCapped(res: Response, max: number): Promise<string> {
  const buffer = Buffer.from(await res.arrayBuffer());
  if (buffer.length > max) throw new GatewayError(502, GATEWAY_BAD_ANSWER, `answer of ${buffer.length} bytes`);
  return buffer.toString('utf8');
}
