// A district's install: two real API processes (separate data directories, as on two machines)
// and a grading worker process on one PostgreSQL database, with FILE_STORE=postgres. What one
// process does, the other knows at once: a sign-out, the sign-in limits, a grading task's progress,
// the fleet's live events; and the periodic sweeps run once, not once per process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db';
import { rows } from '../../server/db/query';
import { DeviceClient, httpTransport } from '../../server/devices/client';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import { LIVE_STREAM_PATH } from '../../src/domain/alarms';
import { runScript, serverEntry, startServer, type RunningServer } from '../support/serverProcess';
import { openTestDatabase } from '../support/testDatabase';

const root = join(import.meta.dirname, '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const login = (server: RunningServer, username: string, password = 'Demo@2026') =>
  fetch(`${server.url}/api/juno/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
const session = async (server: RunningServer, username: string) => {
  const res = await login(server, username);
  expect(res.status).toBe(200);
  return { 'blade-auth': `bearer ${(await res.json()).data.accessToken}` };
};
/** Asks until `done` holds or `ms` pass; the last answer. */
async function until<T>(ask: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let value = await ask();
  while (!done(value) && Date.now() < end) {
    await sleep(50);
    value = await ask();
  }
  return value;
}

describe.skipIf(!process.env.DATABASE_URL)('two API processes and a grading worker on one PostgreSQL (needs DATABASE_URL)', () => {
  let database: Database & { url?: string };
  let a: RunningServer;
  let b: RunningServer;
  let worker: ChildProcess;
  let workerOutput = '';
  const workerDir = mkdtempSync(join(tmpdir(), 'xz-worker-'));

  beforeAll(async () => {
    database = await openTestDatabase();
    // What every machine of the install shares: the database, the sign-in secret, the file store.
    const env = {
      DATABASE_URL: database.url!,
      JWT_SECRET: 'scale-out-test-jwt-secret-of-enough-length',
      FILE_STORE: 'postgres',
      IN_PROCESS_WORKER: '0',
    };
    a = await startServer({ env });
    b = await startServer({ env });
    worker = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'worker.ts')], {
      cwd: root,
      env: { ...process.env, ...env, DATA_DIR: workerDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (d) => (workerOutput += d));
    worker.stderr!.on('data', (d) => (workerOutput += d));
  }, 600_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
    await a?.stop();
    await b?.stop();
    await database?.close();
    rmSync(workerDir, { recursive: true, force: true });
  });

  it('a sign-out through one process is refused by the other at once', async () => {
    const headers = await session(a, 'teacher');
    const roles = () => fetch(`${b.url}/api/juno/personal/myRoles`, { headers }).then((r) => r.status);
    // B has the session in its cache now.
    expect(await roles()).toBe(200);
    expect(await roles()).toBe(200);
    expect((await fetch(`${a.url}/api/juno/auth/logout`, { method: 'POST', headers })).status).toBe(200);
    // Delivered when the sign-out commits: a moment, not the cache's lifetime.
    expect(await until(roles, (s) => s === 401, 2000)).toBe(401);
  });

  it('wrong passwords through both processes count together', async () => {
    for (const server of [a, b, a]) expect((await login(server, 'researcher', 'wrong')).status).toBe(401);
    // Three failures from this address (two on A, one on B): B slows the next try down, as A would.
    const res = await login(b, 'researcher');
    expect(res.status).toBe(429);
    expect((await res.json()).msg).toMatch(/^密码错误次数较多，请\d+秒后再试$/);
  });

  it('a task submitted through one process is graded by the worker process and shown graded by the other', async () => {
    const teacherA = await session(a, 'teacher');
    const teacherB = await session(b, 'teacher');
    const json = { ...teacherA, 'content-type': 'application/json' };
    const base = (server: RunningServer) => `${server.url}/api/wrongbook/v1.0/correct`;
    const create = await fetch(`${base(a)}/task/create`, { method: 'POST', headers: json, body: JSON.stringify({ type: 2, title: '作文：秋天', essayBrief: { title: '秋天', fullMarks: 50 } }) });
    const task = (await create.json()).data;
    const photo = await homeworkPhoto(['秋天来了树叶黄了', '一片片叶子从树上落下来', '我喜欢秋天'].map((text) => ({ text, hand: true })), 3);
    const form = new FormData();
    form.append('taskId', String(task.id));
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), '作文.jpg');
    // The upload lands in A's request, is kept in the database's file store, and read by the worker on its own disk-less copy.
    expect((await fetch(`${base(a)}/task/upload`, { method: 'POST', headers: teacherA, body: form })).status).toBe(200);
    expect((await fetch(`${base(a)}/task/submit`, { method: 'POST', headers: json, body: JSON.stringify({ taskId: task.id }) })).status).toBe(200);

    const detail = await until(
      async () => (await (await fetch(`${base(b)}/task/detail?taskId=${task.id}`, { headers: teacherB })).json()).data,
      (d) => d.task.status === 4,
      120_000,
    );
    expect(detail.task.status, workerOutput).toBe(4);
    expect(detail.files[0].recognitionStatus).toBe(3);
    expect(detail.results[0]).toMatchObject({ maxScore: 50 });
    expect(detail.results[0].score).toBeGreaterThan(0);
    // B shows the scan A took, from the shared store.
    const view = await fetch(`${base(b)}/file/view?fileId=${detail.files[0].id}`, { headers: teacherB });
    expect(view.status).toBe(200);
    expect(Buffer.from(await view.arrayBuffer()).equals(photo)).toBe(true);
  }, 180_000);

  it('each sweep ran once on start, though both processes started their timers', async () => {
    const runs = await rows<{ name: string; runs: number }>(database.db, sql`SELECT name, runs FROM sweep_runs ORDER BY name`);
    // The daily and quarter-hourly sweeps: both processes started within these periods.
    const once = ['audit-retention', 'heart-voice-reminders', 'heart-voice-retention'];
    expect(runs.filter((r) => once.includes(r.name))).toEqual(once.map((name) => ({ name, runs: 1 })));
  });

  it("a terminal's beat taken by one process reaches a partner's live stream opened on the other", async () => {
    const partner = await session(b, 'partner1');
    const partnerId = (await (await fetch(`${b.url}/api/wrongbook/v1.0/partner/getCurrentPartner`, { headers: partner })).json()).data.id as number;
    const [device] = await rows<{ id: number; serial: string; secret: string }>(
      database.db,
      sql`SELECT id, serial, secret FROM devices WHERE partner_id = ${partnerId} AND school_id IS NOT NULL ORDER BY id LIMIT 1`,
    );
    const controller = new AbortController();
    const stream = await fetch(`${b.url}${LIVE_STREAM_PATH}`, { headers: partner, signal: controller.signal });
    expect(stream.status).toBe(200);
    let text = '';
    const heard = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
          text += decoder.decode(chunk, { stream: true });
          if (text.includes(`"deviceId":${device.id},`)) return true;
        }
      } catch {
        // aborted: not heard in time
      }
      return false;
    })();
    await until(async () => text, (t) => t.includes(': connected'), 5000);

    const terminal = new DeviceClient(device.serial, device.secret, httpTransport(a.url));
    await terminal.call('POST', '/api/device/v1/heartbeat', { paperLeft: 300, jammed: false, firmware: '2.4.0' });
    const timeout = setTimeout(() => controller.abort(), 5000);
    expect(await heard).toBe(true);
    clearTimeout(timeout);
    controller.abort();
  });
});

/** The process ids of `pid`'s API processes (its children running the server's bundle; not, say, a compiler service). */
async function childrenOf(pid: number): Promise<number[]> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) =>
    execFile('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], (_error, out) =>
      resolve(
        String(out)
          .split('\n')
          .filter((line) => line.includes('/dist-server/'))
          .map((line) => Number(line.trim().split(/\s+/)[0])),
      ),
    ),
  );
}

/** A GET on a connection of its own (none kept alive from before), given 2 s; its status. */
async function freshGet(url: string, headers: Record<string, string>): Promise<number> {
  const { get } = await import('node:http');
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    request.on('timeout', () => request.destroy(new Error('no answer in 2 s')));
    request.on('error', reject);
  });
}

describe('WEB_CONCURRENCY', () => {
  it('refuses more than one process on the embedded database, in Chinese', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xz-concurrency-'));
    try {
      const { code, out } = await runScript(await serverEntry(), [], { WEB_CONCURRENCY: '2', DATA_DIR: dataDir, PORT: '0' });
      expect(code).toBe(1);
      expect(out).toContain('WEB_CONCURRENCY=2 需要 PostgreSQL：内置数据库（PGlite）只能由一个进程使用。请设置 DATABASE_URL，或去掉 WEB_CONCURRENCY 以单进程运行。');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL (needs DATABASE_URL)', () => {
    let database: Database & { url?: string };
    let server: RunningServer;
    beforeAll(async () => {
      database = await openTestDatabase();
      server = await startServer({ env: { DATABASE_URL: database.url!, WEB_CONCURRENCY: '2', IN_PROCESS_WORKER: '0', DATABASE_POOL_SIZE: '3' } });
    }, 600_000);
    afterAll(async () => {
      await server?.stop();
      await database?.close();
    });

    it('keeps each process to DATABASE_POOL_SIZE connections for requests, however many arrive at once', async () => {
      const processes = await until(() => childrenOf(server.process.pid!), (p) => p.length === 2, 30_000);
      expect(processes).toHaveLength(2);
      const headers = await session(server, 'schooladmin');
      // 60 lists at once: more than both pools together, so each pool opens all it may.
      const answers = await Promise.all(
        Array.from({ length: 60 }, () => fetch(`${server.url}/api/vesta/student/page?current=1&size=20`, { headers }).then((r) => r.status)),
      );
      expect(answers.every((s) => s === 200)).toBe(true);
      // Idle pool connections stay open for 10 s: what the burst opened is still there to count. The
      // listening connections (cache invalidations, live events) are not the pool's; the supervisor
      // closed its own at start.
      const [{ n }] = await rows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND query NOT ILIKE 'LISTEN%'`,
      );
      // Both processes answered from the database, and neither opened more than its 3.
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThanOrEqual(2 * 3);
    }, 60_000);

    it('serves from two processes on one port, replaces one that dies, and stops them all', async () => {
      const processes = await until(() => childrenOf(server.process.pid!), (p) => p.length === 2, 30_000);
      expect(processes).toHaveLength(2);
      const headers = await session(server, 'teacher');
      // Requests are handed to both in turn; every one is answered with the same session.
      const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(`${server.url}/api/juno/personal/myRoles`, { headers }).then((r) => r.status)));
      expect(answers.every((s) => s === 200)).toBe(true);

      process.kill(processes[0], 'SIGKILL');
      // The other keeps answering meanwhile, on new connections (the dead one's were reset; one
      // handed to it in the instant before the supervisor noticed is lost, as behind a proxy).
      const ask = () => freshGet(`${server.url}/api/juno/personal/myRoles`, headers).catch(() => 0);
      expect(await until(ask, (s) => s === 200, 10_000)).toBe(200);
      const after = await until(() => childrenOf(server.process.pid!), (p) => p.length === 2 && !p.includes(processes[0]), 60_000);
      expect(after).toHaveLength(2);
      expect(after).toContain(processes[1]);
      // Once replaced, every request is answered again.
      const again = await Promise.all(Array.from({ length: 10 }, () => freshGet(`${server.url}/api/juno/personal/myRoles`, headers)));
      expect(again.every((s) => s === 200)).toBe(true);

      const supervisor = server.process;
      await server.stop();
      expect(supervisor.exitCode).toBe(0);
      expect(await childrenOf(supervisor.pid!)).toEqual([]);
      for (const pid of after) expect(() => process.kill(pid, 0)).toThrow();
    }, 120_000);
  });
});
