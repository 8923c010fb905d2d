// Process configuration from the environment (README lists every variable).
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ALIPAY_ENV, alipaySettingsFromEnv, type AlipaySettings } from './modules/mercury/payment/alipay';
import { WECHAT_ENV, wechatSettingsFromEnv, type WechatPaySettings } from './modules/mercury/payment/wechat';

export interface AppConfig {
  port: number;
  dataDir: string;
  /** postgres:// URL; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl?: string;
  /** A streaming replica of databaseUrl for analysis, boards and exports (DATABASE_READ_URL). */
  databaseReadUrl?: string;
  jwtSecret: Uint8Array;
  classicTeacher: boolean;
  classicAdmin: boolean;
  /** Session lifetime in seconds, however active the session. */
  sessionTtl: number;
  /** Seconds without any request after which a session ends. */
  sessionIdle: number;
  /** Reverse proxies whose X-Forwarded-For is believed (addresses, CIDRs); none by default. */
  trustProxy: string[];
  /**
   * NODE_ENV=production: a school's or a region's install. No demo data, no sandbox gateway, and
   * the server refuses to start without its own secrets (see productionProblems).
   */
  production?: boolean;
  /** The payment gateway: WeChat Pay, Alipay, the built-in sandbox (demo only) or none (paying online is refused). */
  paymentGateway?: PaymentGatewayName;
  /** WeChat Pay's merchant settings, with PAYMENT_GATEWAY=wechat (WECHATPAY_* variables). */
  wechatPay?: WechatPaySettings;
  /** Alipay's app settings, with PAYMENT_GATEWAY=alipay (ALIPAY_* variables). */
  alipay?: AlipaySettings;
  /**
   * The periodic sweeps (closing unpaid orders, retention): on unless false. A test that attributes
   * every database write to the request that made it turns them off.
   */
  backgroundSweeps?: boolean;
  /** Keys the hashes of students' terminal PINs (server/auth/terminalPins.ts); outside the database. */
  pinKey: Uint8Array;
  /** Per-terminal request limits of the device API; off only for load measurements (DEVICE_RATE_LIMITS=0). */
  deviceRateLimits: boolean;
  /** How often the fleet sweep looks for silent terminals (DEVICE_SWEEP_SECONDS); SWEEP_SECONDS by default. */
  deviceSweepSeconds?: number;
  /**
   * TEST_HOOKS=1 outside production: routes under /api/test/ that let an end-to-end test make a
   * terminal fall silent without waiting half an hour. Never in production.
   */
  testHooks?: boolean;
  /**
   * FILE_STORE: where uploaded files are kept. `local` (default): under DATA_DIR/files, for one
   * machine. `postgres`: in the database, shared by API processes and workers on several machines.
   */
  fileStore?: FileStoreName;
  /** WEB_CONCURRENCY: API processes on this machine sharing its port (PostgreSQL only when more than 1). */
  webConcurrency?: number;
  /** DATABASE_POOL_SIZE: PostgreSQL connections each API process keeps for requests (databasePoolSize). */
  databasePoolSize?: number;
  /** Open live event streams per user (LIVE_STREAMS_PER_USER, for load measurements); MAX_STREAMS_PER_USER by default. */
  liveStreamsPerUser?: number;
}

export type FileStoreName = 'local' | 'postgres';

/** FILE_STORE: local (default) or postgres. */
function fileStoreName(value: string | undefined): FileStoreName {
  if (value === undefined || value === '' || value === 'local') return 'local';
  if (value === 'postgres') return 'postgres';
  throw new ConfigError(`FILE_STORE 应为 local（本机磁盘）或 postgres（存入数据库，多台服务器共用），当前为“${value}”`);
}

/**
 * WEB_CONCURRENCY: how many API processes share the port, 1 by default. More than one needs
 * PostgreSQL: the embedded database (PGlite) belongs to one process.
 */
export function webConcurrency(value: string | undefined, databaseUrl: string | undefined): number {
  if (value === undefined || value === '') return 1;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 64) throw new ConfigError(`WEB_CONCURRENCY 应为 1–64 的整数（服务进程数），当前为“${value}”`);
  const n = Number(value);
  if (n > 1 && !databaseUrl) {
    throw new ConfigError(`WEB_CONCURRENCY=${n} 需要 PostgreSQL：内置数据库（PGlite）只能由一个进程使用。请设置 DATABASE_URL，或去掉 WEB_CONCURRENCY 以单进程运行。`);
  }
  return n;
}

/**
 * DATABASE_POOL_SIZE: the connections each API process keeps for its requests (and as many again to
 * DATABASE_READ_URL); one that grades in process keeps a grading worker's few more (main.ts). By
 * default the API processes of a machine share four per core between them, at least two each.
 * More connections than the cores can serve at once do not answer more: they queue inside
 * PostgreSQL instead of the pool, and requests wait behind each other's slices there. Measured on
 * 2 cores with PostgreSQL on the same machine (student list, 50 connections, three runs of 10 s):
 * one process with 10 connections 3,470–3,850 req/s, p99 22–30 ms, with 8 4,350–4,470, p99
 * 18–22 ms; two processes with 10 each 3,960–4,120 req/s, p99 100–310 ms, with 4 each 4,350–4,510,
 * p99 30–43 ms.
 */
export function databasePoolSize(value: string | undefined, processes: number, cores = availableParallelism()): number {
  if (value === undefined || value === '') return Math.max(2, Math.floor((4 * cores) / processes));
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100) {
    throw new ConfigError(`DATABASE_POOL_SIZE 应为 1–100 的整数（每个服务进程的数据库连接数），当前为“${value}”`);
  }
  return Number(value);
}

export type PaymentGatewayName = 'wechat' | 'alipay' | 'sandbox' | 'none';
const GATEWAYS: readonly PaymentGatewayName[] = ['wechat', 'alipay', 'sandbox', 'none'];
const WECHAT_VARS = [...WECHAT_ENV, 'WECHATPAY_PLATFORM_CERT_FILE', 'WECHATPAY_PUBLIC_KEY_FILE', 'WECHATPAY_PUBLIC_KEY_ID'];

/**
 * The chosen gateway's settings, or what keeps them from working (Chinese). A real gateway must be
 * configured completely: a half-configured one would take orders it cannot be paid for.
 */
function paymentSettings(env: NodeJS.ProcessEnv, gateway: string): { wechatPay?: WechatPaySettings; alipay?: AlipaySettings; problems: string[] } {
  if (gateway === 'wechat') {
    const { settings, problems } = wechatSettingsFromEnv(env);
    return { wechatPay: settings, problems };
  }
  if (gateway === 'alipay') {
    const { settings, problems } = alipaySettingsFromEnv(env);
    return { alipay: settings, problems };
  }
  return { problems: [] };
}

const flag = (v: string | undefined) => v === '1' || v === 'true';

/** A configuration the server cannot start with; its message is for the operator, in Chinese. */
export class ConfigError extends Error {}

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
      throw new ConfigError(`TRUST_PROXY 中的“${entry}”不是 IP 地址或网段（例如 10.0.0.1 或 10.0.0.0/8）`);
    }
  }
  return entries;
}

/** DEVICE_SWEEP_SECONDS: 1–3600 whole seconds; undefined for the default. */
function sweepSeconds(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 3600) throw new ConfigError(`DEVICE_SWEEP_SECONDS 应为 1–3600 的整数（秒），当前为“${value}”`);
  return Number(value);
}

/** SESSION_IDLE_MINUTES: whole minutes, at least 1; two hours by default. */
function idleSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return 2 * 3600;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new ConfigError(`SESSION_IDLE_MINUTES 应为正整数（分钟），当前为“${value}”`);
  return Number(value) * 60;
}

/** Secrets that appear in documentation, examples and tests: anyone could sign tokens with them. */
const KNOWN_SECRETS = new Set(['secret', 'changeme', 'change-me', 'jwt-secret', 'xuezhu', 'test-secret-test-secret-test-secret', 'please-change-this-secret']);
/** Fewer characters than this cannot be a random secret of 128 bits or more. */
export const MIN_SECRET_LENGTH = 32;

/**
 * What keeps a production start from being safe, one Chinese sentence each (empty: none). The
 * server prints them all and stops, so an operator fixes everything in one go.
 */
export function productionProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const secret = env.JWT_SECRET ?? '';
  if (!secret) problems.push(`未设置 JWT_SECRET：生产环境需要自己的登录令牌密钥（至少 ${MIN_SECRET_LENGTH} 个字符的随机串，可用 openssl rand -hex 32 生成）`);
  else if (secret.length < MIN_SECRET_LENGTH || KNOWN_SECRETS.has(secret.toLowerCase())) {
    problems.push(`JWT_SECRET 太短或是公开的示例值：请换成至少 ${MIN_SECRET_LENGTH} 个字符的随机串（openssl rand -hex 32）`);
  }
  const pinKey = env.TERMINAL_PIN_KEY ?? '';
  if (pinKey.length < MIN_SECRET_LENGTH || KNOWN_SECRETS.has(pinKey.toLowerCase())) {
    problems.push(`未设置 TERMINAL_PIN_KEY 或太短：生产环境需要自己的终端PIN密钥（至少 ${MIN_SECRET_LENGTH} 个字符的随机串，每个服务进程相同；openssl rand -hex 32）`);
  }
  const gateway = env.PAYMENT_GATEWAY || 'none';
  if (gateway === 'sandbox') problems.push('PAYMENT_GATEWAY=sandbox 是演示用的沙箱支付，任何人都能用它“付款”：生产环境请删除该设置（暂不开放在线支付），或接入真实的支付通道（PAYMENT_GATEWAY=wechat 或 alipay）');
  problems.push(...paymentSettings(env, gateway).problems);
  // Keys set for a gateway that is not chosen: the operator meant to connect it and would be left without payments.
  const stray = [...(gateway === 'wechat' ? [] : WECHAT_VARS), ...(gateway === 'alipay' ? [] : ALIPAY_ENV)].filter((name) => env[name]);
  if (stray.length) problems.push(`设置了 ${stray.join('、')}，但 PAYMENT_GATEWAY 不是对应的支付通道（当前为 ${gateway}）：请设置 PAYMENT_GATEWAY=wechat 或 alipay，或删除这些变量`);
  return problems;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(env.DATA_DIR || './data');
  const production = env.NODE_ENV === 'production';
  if (production) {
    const problems = productionProblems(env);
    if (problems.length) throw new ConfigError(['生产模式（NODE_ENV=production）无法启动：', ...problems.map((p) => `  · ${p}`)].join('\n'));
  }
  const paymentGateway = (env.PAYMENT_GATEWAY || (production ? 'none' : 'sandbox')) as PaymentGatewayName;
  if (!GATEWAYS.includes(paymentGateway)) throw new ConfigError(`PAYMENT_GATEWAY 应为 wechat、alipay、sandbox 或 none，当前为“${env.PAYMENT_GATEWAY}”`);
  const payment = paymentSettings(env, paymentGateway);
  if (payment.problems.length) throw new ConfigError(['支付通道配置有误，无法启动：', ...payment.problems.map((p) => `  · ${p}`)].join('\n'));
  if (env.DATABASE_READ_URL && !env.DATABASE_URL) throw new ConfigError('设置了 DATABASE_READ_URL（只读副本）却没有 DATABASE_URL（主库）：只读副本只能与 PostgreSQL 主库一起使用');
  const processes = webConcurrency(env.WEB_CONCURRENCY, env.DATABASE_URL || undefined);
  return {
    port: Number(env.PORT) || 3000,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    jwtSecret: loadSecret(dataDir, env.JWT_SECRET),
    classicTeacher: flag(env.TEACHER_CLASSIC_WEB),
    classicAdmin: flag(env.ADMIN_CLASSIC_WEB),
    sessionTtl: 7 * 24 * 3600,
    sessionIdle: idleSeconds(env.SESSION_IDLE_MINUTES),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    production,
    paymentGateway,
    wechatPay: payment.wechatPay,
    alipay: payment.alipay,
    // The PIN hashes are worthless without this key, so a copy of the database alone cannot be
    // searched for the 10^6 possible PINs. Losing it means setting the PINs again.
    pinKey: loadSecret(dataDir, env.TERMINAL_PIN_KEY, 'terminal-pin-key'),
    deviceRateLimits: env.DEVICE_RATE_LIMITS !== '0',
    deviceSweepSeconds: sweepSeconds(env.DEVICE_SWEEP_SECONDS),
    testHooks: !production && env.TEST_HOOKS === '1',
    fileStore: fileStoreName(env.FILE_STORE),
    webConcurrency: processes,
    databasePoolSize: databasePoolSize(env.DATABASE_POOL_SIZE, processes),
    liveStreamsPerUser: /^\d{1,4}$/.test(env.LIVE_STREAMS_PER_USER ?? '') && Number(env.LIVE_STREAMS_PER_USER) > 0 ? Number(env.LIVE_STREAMS_PER_USER) : undefined,
  };
}
