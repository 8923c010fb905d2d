// Periodic sweeps that run once per period across every API process on the database, whichever
// process's timer fires first. Each process keeps its own timer; before working, a timer claims the
// sweep's row in sweep_runs with one statement that succeeds only when the last run is a period
// old, so of several processes one does the work and the others skip. The claim is a row, not a
// lock held for the run: nothing to release if a process dies mid-sweep (the next period's claim
// runs it again), no connection pinned, and the same on PGlite. Where a run is recorded (`ran_by`,
// `runs`), an operator sees which process swept and how often.
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';

/** This process, as recorded in sweep_runs.ran_by. */
export const processName = `${hostname()}:${process.pid}`;

/**
 * A claim is granted a little before the full period has passed: timers of one process drift by
 * milliseconds, and a sweep skipped for being 1 ms early would wait a whole second period.
 */
const EARLY = 0.9;

/**
 * Runs `work` if no process ran the sweep `name` within the last `periodMs`; answers whether this
 * call ran it. A failed run gives its claim back, so the next timer (here or elsewhere) tries again.
 */
export async function sweepOnce(db: Db, name: string, periodMs: number, work: () => Promise<unknown>): Promise<boolean> {
  const seconds = (periodMs / 1000) * EARLY;
  const claimed = await rows(
    db,
    sql`INSERT INTO sweep_runs (name, ran_at, ran_by, runs) VALUES (${name}, now(), ${processName}, 1)
        ON CONFLICT (name) DO UPDATE SET ran_at = now(), ran_by = ${processName}, runs = sweep_runs.runs + 1
         WHERE sweep_runs.ran_at <= now() - make_interval(secs => ${seconds}::float8)
        RETURNING 1`,
  );
  if (!claimed.length) return false;
  try {
    await work();
  } catch (error) {
    await db
      .execute(sql`UPDATE sweep_runs SET ran_at = '-infinity' WHERE name = ${name} AND ran_by = ${processName}`)
      .catch(() => undefined);
    throw error;
  }
  return true;
}
