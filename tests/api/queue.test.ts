import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db';
import { rows } from '../../server/db/query';
import { claim, complete, enqueue, jobStatus } from '../../server/jobs/queue';
import { Worker, type JobHandler } from '../../server/jobs/worker';
import { openTestDatabase } from '../support/testDatabase';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ seed: false });
  await database.db.execute(sql`CREATE TABLE results (ref_id text, worker text, value text)`);
});
afterAll(() => database.close());

const resultsFor = (refId: string) => rows<{ worker: string; value: string }>(database.db, sql`SELECT worker, value FROM results WHERE ref_id = ${refId}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function handler(kind: string, run: JobHandler<string>['run'], onDead?: JobHandler['onDead']): JobHandler<string> {
  return {
    kind,
    run,
    async save(tx, job, value) {
      await tx.execute(sql`INSERT INTO results (ref_id, worker, value) VALUES (${job.refId}, 'w', ${value})`);
    },
    onDead,
  };
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(25);
  }
}

describe('job queue', () => {
  it('enqueueing the same work twice is one job', async () => {
    const a = await enqueue(database.db, { kind: 'k1', refId: 42 });
    const b = await enqueue(database.db, { kind: 'k1', refId: '42' });
    expect(a).toBe(b);
  });

  it('runs a job once and writes its result once', async () => {
    await enqueue(database.db, { kind: 'simple', refId: 's1' });
    const worker = new Worker(database.db, [handler('simple', async (job) => `done ${job.refId}`)], { pollMs: 20 });
    expect(await worker.runOnce()).toBe(true);
    expect(await worker.runOnce()).toBe(false);
    expect(await resultsFor('s1')).toEqual([{ worker: 'w', value: 'done s1' }]);
    expect(await jobStatus(database.db, 'simple', 's1')).toEqual({ state: 'done', attempts: 1, lastError: null });
  });

  it('retries with backoff and succeeds', async () => {
    await enqueue(database.db, { kind: 'flaky', refId: 'f1', maxAttempts: 3 });
    let calls = 0;
    const worker = new Worker(
      database.db,
      [handler('flaky', async () => {
        calls++;
        if (calls < 3) throw new Error('识别服务暂时不可用');
        return 'third time';
      })],
      { pollMs: 10, baseBackoffMs: 20 },
    );
    worker.start();
    await until(async () => (await jobStatus(database.db, 'flaky', 'f1'))?.state === 'done');
    await worker.stop();
    expect(calls).toBe(3);
    expect(await resultsFor('f1')).toEqual([{ worker: 'w', value: 'third time' }]);
  });

  it('ends dead after the last attempt and tells the handler the reason', async () => {
    await enqueue(database.db, { kind: 'broken', refId: 'b1', maxAttempts: 2 });
    const dead: string[] = [];
    const worker = new Worker(
      database.db,
      [handler('broken', async () => { throw new Error('图片无法识别：未找到定位点'); }, async (_db, job, error) => { dead.push(`${job.refId}:${error}`); })],
      { pollMs: 10, baseBackoffMs: 10 },
    );
    worker.start();
    await until(async () => (await jobStatus(database.db, 'broken', 'b1'))?.state === 'dead');
    await worker.stop();
    expect(dead).toEqual(['b1:图片无法识别：未找到定位点']);
    expect(await jobStatus(database.db, 'broken', 'b1')).toEqual({ state: 'dead', attempts: 2, lastError: '图片无法识别：未找到定位点' });
    expect(await resultsFor('b1')).toEqual([]);
  });

  it('a worker that stops mid-job leaves it to another after the lease runs out', async () => {
    await enqueue(database.db, { kind: 'slow', refId: 'c1' });
    const a = new Worker(database.db, [handler('slow', (_job, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))))], { id: 'A', leaseMs: 300, pollMs: 10 });
    a.start();
    await until(async () => (await jobStatus(database.db, 'slow', 'c1'))?.state === 'running');
    await a.stop(0); // the process "dies": no heartbeat, no result, no failure recorded
    expect((await jobStatus(database.db, 'slow', 'c1'))?.state).toBe('running');

    const b = new Worker(database.db, [handler('slow', async () => 'finished by B')], { id: 'B', leaseMs: 300, pollMs: 20 });
    b.start();
    await until(async () => (await jobStatus(database.db, 'slow', 'c1'))?.state === 'done');
    await b.stop();
    expect(await resultsFor('c1')).toEqual([{ worker: 'w', value: 'finished by B' }]);
    expect((await jobStatus(database.db, 'slow', 'c1'))?.attempts).toBe(2);
  });

  it('a worker whose lease was taken over cannot write its late result', async () => {
    await enqueue(database.db, { kind: 'late', refId: 'l1' });
    const jobA = await claim(database.db, 'A', ['late'], 100);
    expect(jobA).not.toBeNull();
    await sleep(250);
    const jobB = await claim(database.db, 'B', ['late'], 10_000);
    expect(jobB?.id).toBe(jobA!.id);
    const write = (value: string) => (tx: typeof database.db) => tx.execute(sql`INSERT INTO results (ref_id, worker, value) VALUES ('l1', 'w', ${value})`).then(() => undefined);
    expect(await complete(database.db, jobA!, 'A', write('late A'))).toBe(false);
    expect(await complete(database.db, jobB!, 'B', write('B'))).toBe(true);
    expect(await resultsFor('l1')).toEqual([{ worker: 'w', value: 'B' }]);
  });

  it('two workers never take the same job', async () => {
    for (let i = 0; i < 20; i++) await enqueue(database.db, { kind: 'many', refId: `m${i}` });
    const taken: string[] = [];
    const mk = (id: string) => new Worker(database.db, [handler('many', async (job) => { taken.push(job.refId); await sleep(5); return id; })], { id, pollMs: 10 });
    const [w1, w2] = [mk('W1'), mk('W2')];
    w1.start();
    w2.start();
    await until(async () => (await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'many' AND state = 'done'`))[0].n === 20);
    await Promise.all([w1.stop(), w2.stop()]);
    expect(taken.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`).sort());
    const [{ n }] = await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM results WHERE ref_id LIKE 'm%'`);
    expect(n).toBe(20);
  });
});

// Separate processes need a database server: PGlite belongs to one process.
describe.skipIf(!process.env.DATABASE_URL)('job queue across processes (PostgreSQL)', () => {
  it('a worker process killed mid-job: another process finishes it, once', async () => {
    const url = (database as Database & { url?: string }).url!;
    await database.db.execute(sql`CREATE TABLE crash_results (ref_id text, worker text)`);
    await enqueue(database.db, { kind: 'crash-test', refId: 'x1' });
    const child = (id: string, mode: string) =>
      spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'support', 'queueChild.ts'), url, id, mode], { stdio: ['ignore', 'pipe', 'inherit'] });

    const doomed = child('doomed', 'hang');
    await new Promise<void>((resolve) => doomed.stdout!.on('data', (d) => String(d).includes('claimed') && resolve()));
    doomed.kill('SIGKILL');

    const rescuer = child('rescuer', 'work');
    await until(async () => (await jobStatus(database.db, 'crash-test', 'x1'))?.state === 'done', 20_000);
    rescuer.kill('SIGTERM');
    expect(await rows(database.db, sql`SELECT ref_id, worker FROM crash_results`)).toEqual([{ ref_id: 'x1', worker: 'rescuer' }]);
    expect((await jobStatus(database.db, 'crash-test', 'x1'))?.attempts).toBe(2);
  });
});

describe('stopping a worker', () => {
  it('lets the job in hand finish and write its result', async () => {
    await enqueue(database.db, { kind: 'graceful', refId: 'g1' });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const worker = new Worker(
      database.db,
      [handler('graceful', async () => {
        started();
        await sleep(200);
        return 'finished before stopping';
      })],
      { pollMs: 10 },
    );
    worker.start();
    await running;
    await worker.stop();
    expect(await jobStatus(database.db, 'graceful', 'g1')).toEqual({ state: 'done', attempts: 1, lastError: null });
    expect(await resultsFor('g1')).toEqual([{ worker: 'w', value: 'finished before stopping' }]);
  });
});
