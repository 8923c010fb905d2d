// Password guessing is limited per account and address (slowed down), per account from anywhere
// (locked) and per address across accounts (busy), with a Chinese 429 saying when to try again.
// Schools share one public address: whatever happens there, someone who knows their password gets
// in unless their own account is locked. Time passes through the clock the limits are given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { addressGroup } from '../../server/auth/addressGroup';
import { openDatabase, type Database } from '../../server/db';
import { createTestApp, testConfig, type TestApp } from '../support/testApp';
import { client } from '../support/school';

/** The limits' clock: starts now, moves only when a test says so. */
const clock = {
  time: Date.now(),
  now: () => new Date(clock.time),
  pass(seconds: number) {
    clock.time += seconds * 1000;
  },
};
/** Long enough for every counter to forget: each test starts from a clean slate. */
const FORGET = 15 * 60 + 1;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { signInClock: clock.now });
});
afterAll(() => t?.close());

const RIGHT = 'Demo@2026';
let ipCounter = 0;
/** A new client address each call, so only the per-account lock is in play. */
const someIp = () => `10.77.${Math.floor(ipCounter / 200)}.${(ipCounter++ % 200) + 1}`;

function login(app: TestApp, username: string, password: string, ip = someIp(), headers: Record<string, string> = {}) {
  return app.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password }, remoteAddress: ip, headers });
}
const tryLogin = (username: string, password: string, ip?: string) => login(t, username, password, ip);

/** Ten wrong passwords from ten addresses, at once: the account is locked. `first` tries three of them. */
async function lockOut(username: string, first = someIp()) {
  for (let i = 0; i < 10; i++) {
    const res = await tryLogin(username, 'wrong', i < 3 ? first : someIp());
    expect(res.statusCode, res.body).toBe(401);
  }
}

const refusal = (msg: string) => ({ code: 429, msg, success: false, data: null });
const LOCKED = (wait: string) => refusal(`密码错误次数过多，账号已暂时锁定，请${wait}后再试，或联系管理员重置密码`);
const SLOWED = (wait: string) => refusal(`密码错误次数较多，请${wait}后再试`);
const BUSY = (wait: string) => refusal(`当前网络登录失败次数过多，请${wait}后再试`);

describe('one account from one address', () => {
  it('slows down after three wrong passwords, doubling the wait, and refuses even the right password from there meanwhile', async () => {
    clock.pass(FORGET);
    const ip = '198.51.100.20';
    for (let i = 0; i < 3; i++) expect((await tryLogin('psych', 'wrong', ip)).statusCode).toBe(401);
    for (const [seconds, next] of [
      [5, 10],
      [10, 20],
    ]) {
      const slowed = await tryLogin('psych', RIGHT, ip);
      expect(slowed.statusCode).toBe(429);
      expect(slowed.json()).toEqual(SLOWED(`${seconds}秒`));
      expect(slowed.headers['retry-after']).toBe(String(seconds));
      clock.pass(seconds);
      expect((await tryLogin('psych', 'wrong', ip)).statusCode).toBe(401);
      expect((await tryLogin('psych', RIGHT, ip)).headers['retry-after']).toBe(String(next));
    }
    clock.pass(20);
    expect((await tryLogin('psych', RIGHT, ip)).statusCode).toBe(200);
    // Signing in forgets this address's failures: three free tries again.
    for (let i = 0; i < 3; i++) expect((await tryLogin('psych', 'wrong', ip)).statusCode).toBe(401);
    expect((await tryLogin('psych', 'wrong', ip)).statusCode).toBe(429);
  });

  it('does not slow down the same account at another address: its owner signs in at once', async () => {
    clock.pass(FORGET);
    const attacker = '198.51.100.21';
    for (let i = 0; i < 3; i++) expect((await tryLogin('researcher', 'wrong', attacker)).statusCode).toBe(401);
    expect((await tryLogin('researcher', RIGHT, attacker)).json()).toEqual(SLOWED('5秒'));
    expect((await tryLogin('researcher', RIGHT, '198.51.100.22')).statusCode).toBe(200);
    // The owner's sign-in does not give the attacker fresh tries.
    expect((await tryLogin('researcher', 'wrong', attacker)).json()).toEqual(SLOWED('5秒'));
  });

  it('forgets failures after 15 minutes without one', async () => {
    clock.pass(FORGET);
    const ip = '198.51.100.23';
    for (let i = 0; i < 5; i++) {
      if (i >= 3) clock.pass(5 * 2 ** (i - 3));
      expect((await tryLogin('researcher', 'wrong', ip)).statusCode).toBe(401);
    }
    clock.pass(15 * 60);
    for (let i = 0; i < 3; i++) expect((await tryLogin('researcher', 'wrong', ip)).statusCode).toBe(401);
    expect((await tryLogin('researcher', 'wrong', ip)).json()).toEqual(SLOWED('5秒'));
  });

  it('answers for an unknown name exactly as for a real one', async () => {
    const ip = '198.51.100.24';
    for (let i = 0; i < 3; i++) expect((await tryLogin('no-such-user', 'wrong', ip)).json().msg).toBe('用户名或密码错误');
    expect((await tryLogin('no-such-user', 'wrong', ip)).json()).toEqual(SLOWED('5秒'));
    for (let i = 0; i < 7; i++) expect((await tryLogin('no-such-user', 'wrong')).json().msg).toBe('用户名或密码错误');
    expect((await tryLogin('no-such-user', 'wrong')).json()).toEqual(LOCKED('15分钟'));
  });

  it('lets no more than the free tries through when guesses arrive all at once', async () => {
    clock.pass(FORGET);
    const answers = await Promise.all(Array.from({ length: 20 }, () => tryLogin('subjectleader', 'wrong', '198.51.100.25')));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });
});

describe('one account, from any address', () => {
  it('locks for 15 minutes at ten failures; more tries do not prolong it; then the right password works', async () => {
    clock.pass(FORGET);
    await lockOut('subjectleader');
    const locked = await tryLogin('subjectleader', RIGHT);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(LOCKED('15分钟'));
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(890);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);

    for (let i = 0; i < 20; i++) expect((await tryLogin('subjectleader', i % 2 ? RIGHT : 'wrong')).statusCode).toBe(429);
    clock.pass(600);
    const later = await tryLogin('subjectleader', RIGHT);
    expect(later.json()).toEqual(LOCKED('5分钟'));
    expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(300);

    clock.pass(300);
    expect((await tryLogin('subjectleader', RIGHT)).statusCode).toBe(200);
  });

  it('forgets failures after 15 minutes without one', async () => {
    clock.pass(FORGET);
    for (let i = 0; i < 9; i++) expect((await tryLogin('gradeleader', 'wrong')).statusCode).toBe(401);
    clock.pass(15 * 60);
    for (let i = 0; i < 9; i++) expect((await tryLogin('gradeleader', 'wrong')).statusCode).toBe(401);
    expect((await tryLogin('gradeleader', RIGHT)).statusCode).toBe(200);
  });

  it('locks at exactly ten failures when guesses from many addresses arrive all at once', async () => {
    clock.pass(FORGET);
    const answers = await Promise.all(Array.from({ length: 20 }, () => tryLogin('gradeleader', 'wrong')));
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((r) => r.statusCode === 429).map((r) => r.json())).toEqual(Array(10).fill(LOCKED('15分钟')));
  });

  it("a school admin's password reset unlocks a locked-out teacher at once, at every address", async () => {
    clock.pass(FORGET);
    const c = client(t);
    const { teacherId } = await c.data('teacher2', '/api/juno/personal/info');
    const school = '198.51.100.26';
    await lockOut('teacher2', school);
    expect((await tryLogin('teacher2', RIGHT, school)).json()).toEqual(LOCKED('15分钟'));

    const { password } = await c.done('schooladmin', '/api/vesta/teacher/resetPassword', { teacherId });
    const res = await tryLogin('teacher2', password, school);
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('one address, across accounts', () => {
  const ACCOUNTS = Array.from({ length: 50 }, (_, i) => `staff${i}`);

  it('after 30 wrong passwords an address is busy: one free try per account from there, and the right password still gets in', async () => {
    clock.pass(FORGET);
    const ip = '203.0.113.7';
    for (let i = 0; i < 30; i++) expect((await tryLogin(ACCOUNTS[i], 'Password1', ip)).statusCode).toBe(401);
    // A new account still gets its password checked, once; then it waits, and so do the others.
    expect((await tryLogin(ACCOUNTS[30], 'Password1', ip)).statusCode).toBe(401);
    const busy = await tryLogin(ACCOUNTS[30], 'Password2', ip);
    expect(busy.json()).toEqual(BUSY('5秒'));
    expect(busy.headers['retry-after']).toBe('5');
    expect((await tryLogin(ACCOUNTS[0], 'Password2', ip)).json()).toEqual(BUSY('5秒'));
    // Someone who knows their password gets in from there at once.
    expect((await tryLogin('principal', RIGHT, ip)).statusCode).toBe(200);
    // Other addresses are not affected.
    expect((await tryLogin(ACCOUNTS[0], 'Password2', '203.0.113.99')).statusCode).toBe(401);
    // About one failure drains every 30 seconds: after a minute and a half the address is calm again.
    clock.pass(90);
    expect((await tryLogin(ACCOUNTS[1], 'Password2', ip)).statusCode).toBe(401);
    expect((await tryLogin(ACCOUNTS[1], 'Password3', ip)).statusCode).toBe(401);
  });

  it('does not count sign-ins that succeed, so a school behind one address keeps working', async () => {
    clock.pass(FORGET);
    const ip = '203.0.113.8';
    for (let i = 0; i < 29; i++) expect((await tryLogin(ACCOUNTS[i], 'typo', ip)).statusCode).toBe(401);
    for (const user of ['teacher', 'schooladmin', 'principal', 'parttime', 'classic', 'teacher', 'schooladmin']) {
      expect((await tryLogin(user, RIGHT, ip)).statusCode).toBe(200);
    }
    expect((await tryLogin(ACCOUNTS[0], 'typo', ip)).statusCode).toBe(401);
    expect((await tryLogin(ACCOUNTS[1], 'typo', ip)).json()).toEqual(BUSY('5秒'));
  });

  it('does not count tries refused because their account is locked', async () => {
    clock.pass(FORGET);
    const ip = '203.0.113.9';
    await lockOut('locked-name');
    for (let i = 0; i < 40; i++) expect((await tryLogin('locked-name', 'wrong', ip)).json()).toEqual(LOCKED('15分钟'));
    expect((await tryLogin(ACCOUNTS[40], 'wrong', ip)).statusCode).toBe(401);
    expect((await tryLogin(ACCOUNTS[40], 'wrong', ip)).statusCode).toBe(401);
  });
});

describe("a school's shared address", () => {
  it('an hour of password spraying from there does not keep a teacher out, and gets few guesses checked', async () => {
    clock.pass(FORGET);
    const school = '203.0.113.50';
    const targets = ['principal', 'schooladmin', 'researcher', 'psych', 'subjectleader', 'admin', ...Array.from({ length: 6 }, (_, i) => `office${i}`)];
    const checked = new Map<string, number[]>(targets.map((name) => [name, []]));
    const refusals = new Set<string>();
    let tries = 0;
    // A guess every 5 seconds, round the accounts, for an hour; two teachers sign in every 5 minutes,
    // a third for the first time half-way through.
    for (let second = 0; second < 3600; second += 5) {
      const target = targets[tries % targets.length];
      const res = await tryLogin(target, `Guess${tries++}`, school);
      if (res.statusCode === 401) checked.get(target)!.push(second);
      else {
        expect(res.statusCode).toBe(429);
        refusals.add(res.json().msg.replace(/\d+(秒|分钟)/, 'N'));
      }
      if (second % 300 === 0) {
        for (const teacher of second === 1800 ? ['teacher', 'classic', 'parttime'] : ['teacher', 'classic']) {
          const signIn = await tryLogin(teacher, RIGHT, school);
          expect(signIn.statusCode, `${teacher} at ${second}s: ${signIn.body}`).toBe(200);
        }
      }
      clock.pass(5);
    }
    // The attacker was held back by the busy address and by locked accounts.
    expect([...refusals].sort()).toEqual(['当前网络登录失败次数过多，请N后再试', '密码错误次数过多，账号已暂时锁定，请N后再试，或联系管理员重置密码'].sort());
    for (const [target, seconds] of checked) {
      // Never more than ten guesses at an account in any 15 minutes (the lock)…
      for (const start of seconds) expect(seconds.filter((s) => s >= start && s < start + 900).length, target).toBeLessThanOrEqual(10);
      // …and, slowed down further by the busy address, far fewer than the 60 tried in the hour.
      expect(seconds.length, target).toBeLessThanOrEqual(20);
    }
    // The attacked accounts' owners are locked out only while their own account is.
    clock.pass(FORGET);
    expect((await tryLogin('principal', RIGHT, school)).statusCode).toBe(200);
  }, 120_000);
});

describe('address groups', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2::10', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:fffe', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
  ])('%s counts as %s', (ip, group) => {
    expect(addressGroup(ip)).toBe(group);
  });

  it('counts an IPv6 /64 as one address: its addresses share the counters, another /64 does not', async () => {
    clock.pass(FORGET);
    // One account: three failures from three addresses of one /64 slow down a fourth address there.
    for (const ip of ['2001:db8:a:1::1', '2001:db8:a:1::2', '2001:db8:a:1:ffff:ffff:ffff:fffe']) {
      expect((await tryLogin('v6-user', 'wrong', ip)).statusCode).toBe(401);
    }
    expect((await tryLogin('v6-user', 'wrong', '2001:db8:a:1:1234::9')).json()).toEqual(SLOWED('5秒'));
    expect((await tryLogin('v6-user', 'wrong', '2001:db8:a:2::1')).statusCode).toBe(401);

    // Across accounts: thirty failures from thirty addresses of one /64 make it busy.
    for (let i = 0; i < 30; i++) expect((await tryLogin(`v6-staff${i}`, 'wrong', `2001:db8:b:1::${i + 1}`)).statusCode).toBe(401);
    expect((await tryLogin('v6-staff0', 'wrong', '2001:db8:b:1:8000::1')).json()).toEqual(BUSY('5秒'));
    // The next /64 is calm: a second failure there is still answered.
    for (let i = 0; i < 2; i++) expect((await tryLogin('v6-staff0', 'wrong', '2001:db8:b:2::1')).statusCode).toBe(401);
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    clock.pass(FORGET);
    for (let i = 0; i < 3; i++) expect((await tryLogin('mapped-user', 'wrong', '::ffff:192.0.2.77')).statusCode).toBe(401);
    expect((await tryLogin('mapped-user', 'wrong', '192.0.2.77')).json()).toEqual(SLOWED('5秒'));
  });
});

describe('the client address behind proxies', () => {
  it('ignores X-Forwarded-For by default: rotating it escapes neither the account nor the address limits', async () => {
    clock.pass(FORGET);
    const ip = '198.51.100.9';
    for (let i = 0; i < 3; i++) {
      expect((await login(t, 'forged', 'wrong', ip, { 'x-forwarded-for': `192.0.2.${i + 1}` })).statusCode).toBe(401);
    }
    expect((await login(t, 'forged', 'wrong', ip, { 'x-forwarded-for': '192.0.2.100' })).json()).toEqual(SLOWED('5秒'));
    for (let i = 0; i < 27; i++) {
      const res = await login(t, `forged${i}`, 'wrong', ip, { 'x-forwarded-for': `192.0.2.${i + 1}` });
      expect(res.statusCode).toBe(401);
    }
    const res = await login(t, 'forged0', 'wrong', ip, { 'x-forwarded-for': '192.0.2.200' });
    expect(res.json()).toEqual(BUSY('5秒'));
  });

  it('with TRUST_PROXY, believes the named proxy only, and groups forwarded IPv6 clients by /64', async () => {
    const behind = await createTestApp({ trustProxy: ['10.0.0.1'] }, { signInClock: clock.now });
    try {
      const viaProxy = (user: string, password: string, client: string, proxy = '10.0.0.1') =>
        login(behind, user, password, proxy, { 'x-forwarded-for': client });
      for (let i = 0; i < 3; i++) expect((await viaProxy('teacher', 'wrong', '192.0.2.1')).statusCode).toBe(401);
      expect((await viaProxy('teacher', RIGHT, '192.0.2.1')).json()).toEqual(SLOWED('5秒'));
      // Another client behind the same proxy is its own address.
      expect((await viaProxy('teacher', RIGHT, '192.0.2.2')).statusCode).toBe(200);
      // A machine that is not the proxy cannot claim to be the slowed-down client, nor hide behind it.
      expect((await viaProxy('teacher', RIGHT, '192.0.2.1', '10.0.0.2')).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) expect((await viaProxy('principal', 'wrong', `2001:db8:c:1::${i + 1}`)).statusCode).toBe(401);
      expect((await viaProxy('principal', RIGHT, '2001:db8:c:1::99')).json()).toEqual(SLOWED('5秒'));
      expect((await viaProxy('principal', RIGHT, '2001:db8:c:2::1')).statusCode).toBe(200);
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
      processes.push({ app: await buildApp({ db: database.db, config: testConfig(), signInClock: clock.now }), database });
    }
  });
  afterAll(async () => {
    for (const p of processes) {
      await p.app.close();
      await p.database.close();
    }
  });
  const via = (i: number, username: string, password: string, ip = someIp()) =>
    processes[i % 2].app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password }, remoteAddress: ip });

  it('failures through either process add up to one lock, which both enforce', async () => {
    clock.pass(FORGET);
    for (let i = 0; i < 10; i++) expect((await via(i, 'admin', 'wrong')).statusCode).toBe(401);
    for (let i = 0; i < 2; i++) expect((await via(i, 'admin', RIGHT)).json()).toEqual(LOCKED('15分钟'));
  });

  it('guesses sent to both processes at once get no more than the free tries', async () => {
    clock.pass(FORGET);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => via(i, 'partner2', 'wrong', '198.51.100.30')));
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(17);
  });
});
