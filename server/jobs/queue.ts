// A durable job queue in PostgreSQL (the pattern of pg-boss and graphile-worker), written for
// both drivers: claim with FOR UPDATE SKIP LOCKED, a lease renewed by heartbeat, retries with
// exponential backoff, and a dead state after the last attempt. Time comes from the database's
// now() so that workers on different machines agree on when a lease has run out.
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';

export interface Job {
  id: number;
  tenantId: number | null;
  kind: string;
  refId: string;
  attempts: number;
  maxAttempts: number;
}

interface JobRow {
  id: number;
  tenant_id: number | null;
  kind: string;
  ref_id: string;
  attempts: number;
  max_attempts: number;
}

const toJob = (r: JobRow): Job => ({
  id: r.id,
  tenantId: r.tenant_id,
  kind: r.kind,
  refId: r.ref_id,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
});

export interface EnqueueOptions {
  kind: string;
  refId: string | number;
  tenantId?: number | null;
  maxAttempts?: number;
}

/** Adds a job; the same (kind, refId) again is the same job, so callers may enqueue freely. */
export async function enqueue(db: Db, o: EnqueueOptions): Promise<number> {
  const [row] = await rows<{ id: number }>(db, sql`
    INSERT INTO jobs (tenant_id, kind, ref_id, max_attempts)
    VALUES (${o.tenantId ?? null}, ${o.kind}, ${String(o.refId)}, ${o.maxAttempts ?? 3})
    ON CONFLICT (kind, ref_id) DO UPDATE SET kind = EXCLUDED.kind
    RETURNING id`);
  return row.id;
}

/** Takes the next runnable job of the given kinds: queued and due, or running with an expired lease. */
export async function claim(db: Db, workerId: string, kinds: readonly string[], leaseMs: number): Promise<Job | null> {
  if (!kinds.length) return null;
  const [row] = await rows<JobRow>(db, sql`
    UPDATE jobs SET state = 'running', attempts = attempts + 1, worker_id = ${workerId},
           lease_until = now() + make_interval(secs => ${leaseMs / 1000})
     WHERE id = (
       SELECT id FROM jobs
        WHERE kind IN (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})
          AND ((state = 'queued' AND run_at <= now()) OR (state = 'running' AND lease_until < now()))
        ORDER BY run_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING id, tenant_id, kind, ref_id, attempts, max_attempts`);
  return row ? toJob(row) : null;
}

/** Renews the lease; false when this worker no longer owns the job (it was taken over). */
export async function heartbeat(db: Db, job: Job, workerId: string, leaseMs: number): Promise<boolean> {
  const updated = await rows<{ id: number }>(db, sql`
    UPDATE jobs SET lease_until = now() + make_interval(secs => ${leaseMs / 1000})
     WHERE id = ${job.id} AND worker_id = ${workerId} AND state = 'running'
    RETURNING id`);
  return updated.length > 0;
}

/**
 * Writes a job's result and marks it done in one transaction, only while this worker still owns
 * the job: a worker whose lease ran out (and whose job another worker took) writes nothing.
 * Returns whether the write happened.
 */
export async function complete(db: Db, job: Job, workerId: string, write: (tx: Db) => Promise<void>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const owned = await rows<{ id: number }>(tx as unknown as Db, sql`
      SELECT id FROM jobs WHERE id = ${job.id} AND worker_id = ${workerId} AND state = 'running' FOR UPDATE`);
    if (!owned.length) return false;
    await write(tx as unknown as Db);
    await tx.execute(sql`UPDATE jobs SET state = 'done', finished_at = now(), lease_until = NULL WHERE id = ${job.id}`);
    return true;
  });
}

/** Backoff before attempt n+1: 2 s, 4 s, 8 s … capped at 5 minutes. */
export function backoffMs(attempts: number, baseMs = 2000): number {
  return Math.min(5 * 60_000, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Records a failed attempt: back to the queue after a backoff, or dead after the last attempt.
 * Returns 'retry' or 'dead'; 'lost' when the job was no longer this worker's.
 */
export async function fail(db: Db, job: Job, workerId: string, error: string, baseBackoffMs = 2000): Promise<'retry' | 'dead' | 'lost'> {
  const dead = job.attempts >= job.maxAttempts;
  const delay = backoffMs(job.attempts, baseBackoffMs) / 1000;
  const updated = await rows<{ id: number }>(db, sql`
    UPDATE jobs SET state = ${dead ? 'dead' : 'queued'}, last_error = ${error.slice(0, 2000)}, lease_until = NULL,
           worker_id = NULL, run_at = now() + make_interval(secs => ${dead ? 0 : delay}),
           finished_at = ${dead ? sql`now()` : null}
     WHERE id = ${job.id} AND worker_id = ${workerId} AND state = 'running'
    RETURNING id`);
  if (!updated.length) return 'lost';
  return dead ? 'dead' : 'retry';
}

export interface JobStatus {
  state: 'queued' | 'running' | 'done' | 'dead';
  attempts: number;
  lastError: string | null;
}

export async function jobStatus(db: Db, kind: string, refId: string | number): Promise<JobStatus | null> {
  const [row] = await rows<{ state: JobStatus['state']; attempts: number; last_error: string | null }>(db, sql`
    SELECT state, attempts, last_error FROM jobs WHERE kind = ${kind} AND ref_id = ${String(refId)}`);
  return row ? { state: row.state, attempts: row.attempts, lastError: row.last_error } : null;
}
