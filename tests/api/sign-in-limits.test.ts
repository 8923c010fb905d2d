// Password guessing is limited per account (from any address) and per address (across accounts),
// with a Chinese 429 saying when to try again. Time passes by moving the stored time of the last
// counted try into the past, as the database's clock would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db';
import { createTestApp, testConfig, type TestApp } from '../support/testApp';
import { client } from '../support/school';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const RIGHT = 'Demo@2026';
let ipCounter = 0;
/** A new client address each call, so only the account limit is in play. */
const someIp = () => `10.77.${Math.floor(ipCounter / 200)}.${(ipCounter++ % 200) + 1}`;

function login(app: TestApp, username: string, password: string, ip = someIp(), headers: Record<string, string> = {}) {
  return app.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password }, remoteAddress: ip, headers });
}
const tryLogin = (username: string, password: string, ip?: string) => login(t, username, password, ip);

async function elapse(app: TestApp, key: string, seconds: number) {
  await app.database.db.execute(sql`UPDATE login_throttles SET updated_at = updated_at - make_interval(secs => ${seconds}::float8) WHERE key = ${key}`);
}

/** Ten wrong passwords, each after the wait the previous one imposed: the account is locked. */
async function lockOut(username: string) {
  for (let i = 0; i < 10; i++) {
    if (i >= 3) await elapse(t, `account:${username}`, 5 * 2 ** (i - 3));
    const res = await tryLogin(username, 'wrong');
    expect(res.statusCode, res.body).toBe(401);
  }
}

const refusal = (msg: string) => ({ code: 429, msg, success: false, data: null });
const LOCKED = (wait: string) => refusal(`密码错误次数过多，账号已暂时锁定，请${wait}后再试，或联系管理员重置密码`);

describe('one account, from any address', () => {
  it('slows down after three wrong passwords, doubling the wait, and refuses even the right password meanwhile', async () => {
    for (let i = 0; i < 3; i++) expect((await tryLogin('psych', 'wrong')).statusCode).toBe(401);
    for (const [seconds, next] of [
      [5, 10],
      [10, 20],
    ]) {
      const slowed = await tryLogin('psych', RIGHT);
      expect(slowed.statusCode).toBe(429);
      expect(slowed.json()).toEqual(refusal(`密码错误次数较多，请${seconds}秒后再试`));
      expect(slowed.headers['retry-after']).toBe(String(seconds));
      await elapse(t, 'account:psych', seconds);
      expect((await tryLogin('psych', 'wrong')).statusCode).toBe(401);
      expect((await tryLogin('psych', RIGHT)).headers['retry-after']).toBe(String(next));
    }
    await elapse(t, 'account:psych', 20);
    expect((await tryLogin('psych', RIGHT)).statusCode).toBe(200);
    // Signing in forgets the failures: three free tries again.
    for (let i = 0; i < 3; i++) expect((await tryLogin('psych', 'wrong')).statusCode).toBe(401);
    expect((await tryLogin('psych', 'wrong')).statusCode).toBe(429);
  });

  it('locks for 15 minutes at ten failures; more tries do not prolong it; then the right password works', async () => {
    await lockOut('subjectleader');
    const locked = await tryLogin('subjectleader', RIGHT);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(LOCKED('15分钟'));
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(890);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);

    for (let i = 0; i < 20; i++) expect((await tryLogin('subjectleader', i % 2 ? RIGHT : 'wrong')).statusCode).toBe(429);
    await elapse(t, 'account:subjectleader', 600);
    const later = await tryLogin('subjectleader', RIGHT);
    expect(later.json()).toEqual(LOCKED('5分钟'));
    expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(300);

    await elapse(t, 'account:subjectleader', 300);
    expect((await tryLogin('subjectleader', RIGHT)).statusCode).toBe(200);
  });

  it('forgets failures after 15 minutes without one', async () => {
    for (let i = 0; i < 5; i++) {
      if (i >= 3) await elapse(t, 'account:researcher', 5 * 2 ** (i - 3));
      expect((await tryLogin('researcher', 'wrong')).statusCode).toBe(401);
    }
    await elapse(t, 'account:researcher', 15 * 60);
    for (let i = 0; i < 3; i++) expect((await tryLogin('researcher', 'wrong')).statusCode).toBe(401);
    expect((await tryLogin('researcher', 'wrong')).json().msg).toBe('密码错误次数较多，请5秒后再试');
  });

  it('answers for an unknown name exactly as for a real one', async () => {
    for (let i = 0; i < 3; i++) expect((await tryLogin('no-such-user', 'wrong')).json().msg).toBe('用户名或密码错误');
    expect((await tryLogin('no-such-user', 'wrong')).json()).toEqual(refusal('密码错误次数较多，请5秒后再试'));
  });

  it('lets no more than the free tries through when guesses arrive all at once', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => tryLogin('gradeleader', 'wrong')));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it("a school admin's password reset unlocks a locked-out teacher at once", async () => {
    const c = client(t);
    const { teacherId } = await c.data('teacher2', '/api/juno/personal/info');
    await lockOut('teacher2');
    expect((await tryLogin('teacher2', RIGHT)).json()).toEqual(LOCKED('15分钟'));

    const { password } = await c.done('schooladmin', '/api/vesta/teacher/resetPassword', { teacherId });
    const res = await tryLogin('teacher2', password);
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('one address, across accounts', () => {
  const ACCOUNTS = Array.from({ length: 50 }, (_, i) => `staff${i}`);
  // Up to 30 seconds: the failures drain while the test makes them.
  const ADDRESS_REFUSED = /^当前网络登录失败次数过多，请(2\d|30)秒后再试$/;

  it('stops password spraying after 30 failures; other addresses are not affected', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 30; i++) expect((await tryLogin(ACCOUNTS[i], 'Password1', ip)).statusCode).toBe(401);
    const refused = await tryLogin(ACCOUNTS[30], 'Password1', ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 429, success: false, data: null });
    expect(refused.json().msg).toMatch(ADDRESS_REFUSED);
    expect(refused.json().msg).toContain(`请${refused.headers['retry-after']}秒后再试`);
    // Not even a right password from there, but from elsewhere at once.
    expect((await tryLogin('principal', RIGHT, ip)).statusCode).toBe(429);
    expect((await tryLogin('principal', RIGHT, '203.0.113.99')).statusCode).toBe(200);
    // About one more guess every 30 seconds.
    await elapse(t, `address:${ip}`, 30);
    expect((await tryLogin(ACCOUNTS[31], 'Password1', ip)).statusCode).toBe(401);
    expect((await tryLogin(ACCOUNTS[32], 'Password1', ip)).statusCode).toBe(429);
  });

  it('does not count sign-ins that succeed, so a school behind one address keeps working', async () => {
    const ip = '203.0.113.8';
    for (let i = 0; i < 29; i++) expect((await tryLogin(ACCOUNTS[i], 'typo', ip)).statusCode).toBe(401);
    for (const user of ['teacher', 'schooladmin', 'principal', 'parttime', 'classic', 'teacher', 'schooladmin']) {
      expect((await tryLogin(user, RIGHT, ip)).statusCode).toBe(200);
    }
    expect((await tryLogin(ACCOUNTS[29], 'typo', ip)).statusCode).toBe(401);
    expect((await tryLogin(ACCOUNTS[30], 'typo', ip)).json().msg).toMatch(ADDRESS_REFUSED);
  });

  it('does not count tries refused because their account is locked', async () => {
    const ip = '203.0.113.9';
    for (let i = 0; i < 10; i++) {
      if (i >= 3) await elapse(t, 'account:locked-name', 5 * 2 ** (i - 3));
      await tryLogin('locked-name', 'wrong');
    }
    for (let i = 0; i < 40; i++) expect((await tryLogin('locked-name', 'wrong', ip)).json()).toEqual(LOCKED('15分钟'));
    expect((await tryLogin(ACCOUNTS[40], 'wrong', ip)).statusCode).toBe(401);
  });
});

describe('the client address behind proxies', () => {
  it('ignores X-Forwarded-For by default: rotating it does not escape the address limit', async () => {
    const ip = '198.51.100.9';
    for (let i = 0; i < 30; i++) {
      const res = await login(t, `forged${i}`, 'wrong', ip, { 'x-forwarded-for': `192.0.2.${i + 1}` });
      expect(res.statusCode).toBe(401);
    }
    const res = await login(t, 'forged30', 'wrong', ip, { 'x-forwarded-for': '192.0.2.200' });
    expect(res.statusCode).toBe(429);
  });

  it('with TRUST_PROXY, believes the named proxy only', async () => {
    const behind = await createTestApp({ trustProxy: ['10.0.0.1'] });
    try {
      const viaProxy = (user: string, password: string, client: string, proxy = '10.0.0.1') =>
        login(behind, user, password, proxy, { 'x-forwarded-for': client });
      for (let i = 0; i < 30; i++) expect((await viaProxy(`sprayed${i}`, 'wrong', '192.0.2.1')).statusCode).toBe(401);
      expect((await viaProxy('sprayed30', 'wrong', '192.0.2.1')).statusCode).toBe(429);
      // Another client behind the same proxy is its own address.
      expect((await viaProxy('teacher', RIGHT, '192.0.2.2')).statusCode).toBe(200);
      // A machine that is not the proxy cannot claim to be the blocked client, nor hide behind it.
      expect((await viaProxy('teacher', RIGHT, '192.0.2.1', '10.0.0.2')).statusCode).toBe(200);
    } finally {
      await behind.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('across API processes (PostgreSQL)', () => {
  const processes: { app: FastifyInstance; database: Database }[] = [];
  beforeAll(async () => {
    const url = (t.database as Database & { url?: string }).url;
    for (let i = 0; i < 2; i++) {
      // Separate pools, as two server processes on the same database would have.
      const database = await openDatabase({ url, poolSize: 4 });
      processes.push({ app: await buildApp({ db: database.db, config: testConfig() }), database });
    }
  });
  afterAll(async () => {
    for (const p of processes) {
      await p.app.close();
      await p.database.close();
    }
  });
  const via = (i: number, username: string, password: string) =>
    processes[i % 2].app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password }, remoteAddress: someIp() });

  it('failures through either process add up to one lock, which both enforce', async () => {
    for (let i = 0; i < 10; i++) {
      if (i >= 3) await elapse(t, 'account:admin', 5 * 2 ** (i - 3));
      expect((await via(i, 'admin', 'wrong')).statusCode).toBe(401);
    }
    for (let i = 0; i < 2; i++) expect((await via(i, 'admin', RIGHT)).json()).toEqual(LOCKED('15分钟'));
  });

  it('guesses sent to both processes at once get no more than the free tries', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => via(i, 'partner2', 'wrong')));
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(17);
  });
});
