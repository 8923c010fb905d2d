// Process configuration from the environment (README lists every variable).
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface AppConfig {
  port: number;
  dataDir: string;
  /** postgres:// URL; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl?: string;
  jwtSecret: Uint8Array;
  classicTeacher: boolean;
  classicAdmin: boolean;
  /** Session lifetime in seconds, however active the session. */
  sessionTtl: number;
  /** Seconds without any request after which a session ends. */
  sessionIdle: number;
  /** Reverse proxies whose X-Forwarded-For is believed (addresses, CIDRs); none by default. */
  trustProxy: string[];
  /** Keys the hashes of students' terminal PINs (server/auth/terminalPins.ts); outside the database. */
  pinKey: Uint8Array;
  /** Per-terminal request limits of the device API; off only for load measurements (DEVICE_RATE_LIMITS=0). */
  deviceRateLimits: boolean;
}

const flag = (v: string | undefined) => v === '1' || v === 'true';

/**
 * A secret from the environment when set, else one generated once and kept in DATA_DIR (mode 0600)
 * so it survives restarts: JWT_SECRET (sessions) in jwt-secret, TERMINAL_PIN_KEY in terminal-pin-key.
 */
function loadSecret(dataDir: string, fromEnv: string | undefined, name = 'jwt-secret'): Uint8Array {
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  const file = join(dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

// The names proxy-addr (Fastify's trustProxy) accepts besides addresses and CIDRs.
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: comma-separated addresses or CIDRs of the proxies in front of the server. */
export function parseTrustProxy(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!(PROXY_RANGES.has(entry) || (family && prefixOk && extra === undefined))) {
      throw new Error(`TRUST_PROXY 中的“${entry}”不是 IP 地址或网段（例如 10.0.0.1 或 10.0.0.0/8）`);
    }
  }
  return entries;
}

/** SESSION_IDLE_MINUTES: whole minutes, at least 1; two hours by default. */
function idleSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return 2 * 3600;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`SESSION_IDLE_MINUTES 应为正整数（分钟），当前为“${value}”`);
  return Number(value) * 60;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(env.DATA_DIR || './data');
  return {
    port: Number(env.PORT) || 3000,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: loadSecret(dataDir, env.JWT_SECRET),
    classicTeacher: flag(env.TEACHER_CLASSIC_WEB),
    classicAdmin: flag(env.ADMIN_CLASSIC_WEB),
    sessionTtl: 7 * 24 * 3600,
    sessionIdle: idleSeconds(env.SESSION_IDLE_MINUTES),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    // The PIN hashes are worthless without this key, so a copy of the database alone cannot be
    // searched for the 10^6 possible PINs. Losing it means setting the PINs again.
    pinKey: loadSecret(dataDir, env.TERMINAL_PIN_KEY, 'terminal-pin-key'),
    deviceRateLimits: env.DEVICE_RATE_LIMITS !== '0',
  };
}
