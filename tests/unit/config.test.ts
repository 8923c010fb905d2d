import { describe, expect, it } from 'vitest';
import { databasePoolSize, loadConfig, parseTrustProxy } from '../../server/config';
import { connectionBudgetMessage } from '../../server/db/connections';

const env = (extra: Record<string, string>) => ({ JWT_SECRET: 'unit-test-secret', TERMINAL_PIN_KEY: 'unit-test-pin-key', DATA_DIR: '/nonexistent', ...extra });

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset', () => {
    expect(loadConfig(env({})).trustProxy).toEqual([]);
    expect(parseTrustProxy('')).toEqual([]);
  });

  it('takes addresses and networks, comma-separated', () => {
    expect(parseTrustProxy('10.0.0.1, 172.16.0.0/12,::1,fd00::/8,loopback')).toEqual(['10.0.0.1', '172.16.0.0/12', '::1', 'fd00::/8', 'loopback']);
  });

  it.each(['true', '*', '1', '10.0.0.300', '10.0.0.0/33', '10.0.0.0/8/1', 'proxy.example.com'])('refuses %s with a Chinese message', (value) => {
    expect(() => parseTrustProxy(value)).toThrow(/^TRUST_PROXY 中的“.+”不是 IP 地址或网段/);
  });
});

describe('SESSION_IDLE_MINUTES', () => {
  it('is two hours by default, next to a seven-day lifetime', () => {
    const config = loadConfig(env({}));
    expect(config.sessionIdle).toBe(7200);
    expect(config.sessionTtl).toBe(7 * 24 * 3600);
  });

  it('takes whole minutes', () => {
    expect(loadConfig(env({ SESSION_IDLE_MINUTES: '30' })).sessionIdle).toBe(1800);
  });

  it.each(['0', '-5', '1.5', 'two'])('refuses %s', (value) => {
    expect(() => loadConfig(env({ SESSION_IDLE_MINUTES: value }))).toThrow(/^SESSION_IDLE_MINUTES 应为正整数/);
  });
});

describe('WEB_CONCURRENCY and FILE_STORE', () => {
  const pg = { DATABASE_URL: 'postgres://db.internal/xuezhu' };

  it('one process and the local disk by default', () => {
    expect(loadConfig(env({}))).toMatchObject({ webConcurrency: 1, fileStore: 'local' });
  });

  it('several processes and the database store on PostgreSQL', () => {
    expect(loadConfig(env({ ...pg, WEB_CONCURRENCY: '4', FILE_STORE: 'postgres' }))).toMatchObject({ webConcurrency: 4, fileStore: 'postgres' });
  });

  it('one process is allowed on the embedded database, two are not', () => {
    expect(loadConfig(env({ WEB_CONCURRENCY: '1' })).webConcurrency).toBe(1);
    expect(() => loadConfig(env({ WEB_CONCURRENCY: '2' }))).toThrow(/^WEB_CONCURRENCY=2 需要 PostgreSQL/);
  });

  it.each(['0', '65', 'auto', '1.5'])('refuses WEB_CONCURRENCY=%s', (value) => {
    expect(() => loadConfig(env({ ...pg, WEB_CONCURRENCY: value }))).toThrow(/^WEB_CONCURRENCY 应为 1–64 的整数/);
  });

  it("shares four connections a core between this machine's API processes, at least two each", () => {
    expect(databasePoolSize(undefined, 1, 2)).toBe(8);
    expect(databasePoolSize(undefined, 2, 2)).toBe(4);
    expect(databasePoolSize(undefined, 3, 2)).toBe(2);
    expect(databasePoolSize(undefined, 16, 2)).toBe(2);
    expect(databasePoolSize('', 4, 16)).toBe(16);
    expect(loadConfig(env({ ...pg, WEB_CONCURRENCY: '2', DATABASE_POOL_SIZE: '12' })).databasePoolSize).toBe(12);
  });

  it("warns at start when this machine's processes would need more connections than PostgreSQL allows", () => {
    // 100 connections, 3 kept for superusers: 97 for the product.
    expect(connectionBudgetMessage(4, { requests: 8, grading: 3 }, 100, 3)).toBeUndefined();
    expect(connectionBudgetMessage(16, { requests: 4, grading: 0 }, 100, 3)).toBeUndefined();
    expect(connectionBudgetMessage(10, { requests: 8, grading: 0 }, 100, 3)).toBe(
      '注意：本机 10 个服务进程最多要用 100 个数据库连接（每个进程请求 8 个，另加 2 个监听），超过 PostgreSQL 允许普通用户使用的 97 个（max_connections=100，其中 3 个保留）。请调小 DATABASE_POOL_SIZE 或 WEB_CONCURRENCY，或调大 max_connections。',
    );
    // The number an operator set (DATABASE_POOL_SIZE) is the one the warning names; grading's share beside it.
    expect(connectionBudgetMessage(2, { requests: 60, grading: 3 }, 100, 3)).toBe(
      '注意：本机 2 个服务进程最多要用 130 个数据库连接（每个进程请求 60 个、批改 3 个，另加 2 个监听），超过 PostgreSQL 允许普通用户使用的 97 个（max_connections=100，其中 3 个保留）。请调小 DATABASE_POOL_SIZE 或 WEB_CONCURRENCY，或调大 max_connections。',
    );
  });

  it.each(['0', '101', 'ten', '2.5'])('refuses DATABASE_POOL_SIZE=%s', (value) => {
    expect(() => loadConfig(env({ ...pg, DATABASE_POOL_SIZE: value }))).toThrow(/^DATABASE_POOL_SIZE 应为 1–100 的整数/);
  });

  it('refuses a store it does not have', () => {
    expect(() => loadConfig(env({ FILE_STORE: 's3' }))).toThrow(/^FILE_STORE 应为 local（本机磁盘）或 postgres/);
  });
});

describe('NODE_ENV=production', () => {
  const strong = 'f3b1c8a09d7e4b2c6a5f8e1d0c9b7a6e5d4c3b2a19f8e7d6';
  const pinKey = '7c2e9a41b05d86f3e1a4c7b9d2f05e8a63b1c4d7e9f2a5b8';
  const prod = (extra: Record<string, string>) => ({ NODE_ENV: 'production', DATA_DIR: '/nonexistent', TERMINAL_PIN_KEY: pinKey, ...extra });

  it('needs its own TERMINAL_PIN_KEY, the same in every process', () => {
    expect(() => loadConfig(prod({ JWT_SECRET: strong, TERMINAL_PIN_KEY: '' }))).toThrow(/未设置 TERMINAL_PIN_KEY 或太短/);
    expect(() => loadConfig(prod({ JWT_SECRET: strong, TERMINAL_PIN_KEY: 'unit-test-pin-key' }))).toThrow(/未设置 TERMINAL_PIN_KEY 或太短/);
  });

  it('needs its own JWT_SECRET: not missing, not short, not a published example', () => {
    expect(() => loadConfig(prod({}))).toThrow(/未设置 JWT_SECRET/);
    for (const weak of ['secret', 'unit-test-secret', 'test-secret-test-secret-test-secret', 'CHANGEME']) {
      expect(() => loadConfig(prod({ JWT_SECRET: weak }))).toThrow(/JWT_SECRET 太短或是公开的示例值/);
    }
  });

  it('refuses the sandbox gateway, and names every problem at once', () => {
    expect(() => loadConfig(prod({ JWT_SECRET: strong, PAYMENT_GATEWAY: 'sandbox' }))).toThrow(/PAYMENT_GATEWAY=sandbox 是演示用的沙箱支付/);
    let message = '';
    try {
      loadConfig(prod({ PAYMENT_GATEWAY: 'sandbox' }));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^生产模式（NODE_ENV=production）无法启动：/);
    expect(message).toContain('未设置 JWT_SECRET');
    expect(message).toContain('PAYMENT_GATEWAY=sandbox');
  });

  it('starts with no gateway in production and the sandbox in the demo', () => {
    expect(loadConfig(prod({ JWT_SECRET: strong }))).toMatchObject({ production: true, paymentGateway: 'none' });
    expect(loadConfig(env({}))).toMatchObject({ production: false, paymentGateway: 'sandbox' });
    expect(loadConfig(env({ PAYMENT_GATEWAY: 'none' })).paymentGateway).toBe('none');
    expect(() => loadConfig(env({ PAYMENT_GATEWAY: 'paypal' }))).toThrow(/^PAYMENT_GATEWAY 应为 wechat、alipay、sandbox 或 none/);
  });
});

describe('terminal keys and limits', () => {
  it('takes the terminal PIN key from TERMINAL_PIN_KEY', () => {
    expect(new TextDecoder().decode(loadConfig(env({})).pinKey)).toBe('unit-test-pin-key');
  });

  it('keeps the per-terminal limits on unless DEVICE_RATE_LIMITS=0', () => {
    expect(loadConfig(env({})).deviceRateLimits).toBe(true);
    expect(loadConfig(env({ DEVICE_RATE_LIMITS: '1' })).deviceRateLimits).toBe(true);
    expect(loadConfig(env({ DEVICE_RATE_LIMITS: '0' })).deviceRateLimits).toBe(false);
  });
});
