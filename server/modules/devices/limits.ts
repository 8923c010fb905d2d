// Per-terminal request limits of the device API (DEVICE_RATE_LIMITS in src/domain/devices.ts):
// one terminal once posted 17,876 学生心声 in ten minutes. Counted after the signature, the clock
// window and the nonce are checked (auth.ts runs in preValidation, this in preHandler), so nobody
// without the terminal's secret can spend its allowance; over the limit the answer is a Chinese
// 429 with Retry-After, which the simulator (server/devices/client.ts) waits out.
//
// Fixed windows counted in this process's memory: cheap enough for the heartbeat path. With
// several API processes each counts its own requests, so a terminal may get that many times the
// allowance — still bounded. @fastify/rate-limit is not used because it runs at most one limit
// per request, and a 学生心声 is limited per terminal and per student.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/envelope';
import { waitText } from '../../auth/signInLimits';
import { DEVICE_LIMIT_NOUNS, DEVICE_RATE_LIMITS, type DeviceLimitName, type RateLimit } from '../../../src/domain/devices';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's per-terminal limit. */
    deviceLimit?: DeviceLimitName;
  }
}

/** Windows kept at most; past it the expired ones go, and if that is not enough, all. */
const MAX_KEYS = 100_000;

export type Take = { allowed: true } | { allowed: false; retryAfter: number };

export class WindowLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly enabled = true) {}

  /** Counts one request under `key` if the window has room; otherwise says how long to wait. */
  take(key: string, limit: RateLimit, now = Date.now()): Take {
    if (!this.enabled) return { allowed: true };
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= MAX_KEYS) this.sweep(now);
      window = { count: 0, resetAt: now + limit.seconds * 1000 };
      this.windows.set(key, window);
    }
    if (window.count >= limit.max) return { allowed: false, retryAfter: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
    window.count++;
    return { allowed: true };
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
    if (this.windows.size >= MAX_KEYS) this.windows.clear();
  }
}

/** 429 with Retry-After and when to try again. */
export const tooFrequent = (what: string, retryAfter: number, extra = '') =>
  new ApiError(429, `${what}过于频繁，请${waitText(retryAfter)}后再试${extra}`, { 'retry-after': String(retryAfter) });

/** What a student in distress reads when a message cannot be sent yet. */
export const HOTLINE = '如果你现在很难受，可以马上告诉身边的老师或家人，也可以拨打青少年心理援助热线 12355。';

/** The per-terminal limit of each route that names one (config.deviceLimit). */
export function registerDeviceLimits(app: FastifyInstance, limiter: WindowLimiter) {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const name = request.routeOptions.config.deviceLimit;
    if (!name || !request.device) return;
    const taken = limiter.take(`${name}:${request.device.id}`, DEVICE_RATE_LIMITS[name]);
    if (!taken.allowed) throw tooFrequent(`本终端${DEVICE_LIMIT_NOUNS[name]}`, taken.retryAfter, name === 'heartVoice' ? `。${HOTLINE}` : '');
  });
}
