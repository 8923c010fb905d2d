// Sessions end after the idle timeout without use, besides their absolute lifetime; use keeps them
// alive, recorded in the database at most about once a minute, and the in-memory session cache
// neither hides that use nor keeps an idle session alive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { rows } from '../../server/db/query';
import { createTestApp, testConfig, type TestApp } from '../support/testApp';

let t: TestApp;
/** The same database without the session cache: every request reads the session row. */
let uncached: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  uncached = await buildApp({ db: t.database.db, config: testConfig() });
});
afterAll(async () => {
  await uncached?.close();
  await t?.close();
});

const IDLE_MESSAGE = '长时间未操作，登录已失效，请重新登录';
const sessionId = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid as string;
const myRoles = (app: FastifyInstance, token: string) => app.inject({ url: '/api/juno/personal/myRoles', headers: { 'blade-auth': `bearer ${token}` } });

/** Says the session was last used `seconds` ago. */
const lastUsed = (token: string, seconds: number) =>
  t.database.db.execute(sql`UPDATE sessions SET last_seen_at = now() - make_interval(secs => ${seconds}::float8) WHERE id = ${sessionId(token)}`);
const secondsSinceUse = async (token: string) =>
  (await rows<{ s: number }>(t.database.db, sql`SELECT extract(epoch FROM now() - last_seen_at)::float8 AS s FROM sessions WHERE id = ${sessionId(token)}`))[0].s;

describe('idle timeout (2 hours by default)', () => {
  it('ends a session unused for longer than two hours, with a Chinese message', async () => {
    const token = await t.login('teacher');
    await lastUsed(token, 2 * 3600 + 1);
    const res = await myRoles(t.app, token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 401, msg: IDLE_MESSAGE, success: false, data: null });
  });

  it('keeps a session in use alive, recording its use at most once a minute', async () => {
    const token = await t.login('principal');
    await lastUsed(token, 2 * 3600 - 30);
    expect((await myRoles(uncached, token)).statusCode).toBe(200);
    expect(await secondsSinceUse(token)).toBeLessThan(5);

    // Used 30 seconds ago: no new write.
    await lastUsed(token, 30);
    expect((await myRoles(uncached, token)).statusCode).toBe(200);
    expect(await secondsSinceUse(token)).toBeGreaterThanOrEqual(30);
    // Used 61 seconds ago: recorded again.
    await lastUsed(token, 61);
    expect((await myRoles(uncached, token)).statusCode).toBe(200);
    expect(await secondsSinceUse(token)).toBeLessThan(5);
  });

  it('still ends a busy session at the end of its lifetime', async () => {
    const token = await t.login('psych');
    await t.database.db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ${sessionId(token)}`);
    const res = await myRoles(uncached, token);
    expect(res.statusCode).toBe(401);
    expect(res.json().msg).toBe('登录已失效，请重新登录');
  });
});

describe('with the session cache and a four-second idle timeout', () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await createTestApp({ sessionIdle: 4 });
  });
  afterAll(() => short?.close());

  it('use through the cache keeps the session alive; four idle seconds end it though the cache still holds it', async () => {
    const token = await short.login('teacher');
    // Six seconds of use, a request every half second: longer than the idle timeout.
    for (let i = 0; i < 12; i++) {
      const res = await myRoles(short.app, token);
      expect(res.statusCode, `request ${i}`).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
    }
    // Use is recorded every second here (a quarter of the idle timeout): this request is recorded
    // as the last use, and cached, for up to 5 s by the cache's own rule.
    await new Promise((r) => setTimeout(r, 700));
    expect((await myRoles(short.app, token)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 4300));
    const res = await myRoles(short.app, token);
    expect(res.statusCode).toBe(401);
    expect(res.json().msg).toBe(IDLE_MESSAGE);
  });
});
