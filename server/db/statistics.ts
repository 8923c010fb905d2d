// Planner statistics for the embedded database. PostgreSQL's autovacuum daemon ANALYZEs a table
// once enough of it changed; PGlite runs no daemon, so without this its tables are never analyzed
// and the planner guesses every table at a handful of rows: the student list then sorted a whole
// school to show 20 students (6.7 ms) instead of reading 20 off the (school, number) index (0.4 ms),
// and the wrong-answer book joined a term of answer records the slow way round.
//
// The same rule as autovacuum's analyze (threshold 50 rows + 10 % of the table), checked every few
// minutes, plus every table never analyzed; such a table is vacuumed as well, which keeps updated
// tables (the terminals' rows, beaten every minute) from bloating and marks pages all-visible for
// index-only scans. PGlite's activity counters start at zero on each open,
// so a restart forgets changes not yet analyzed; the periodic pass after a start catches up on
// tables that were never analyzed, and the seed analyzes once it is written.
import { sql } from 'drizzle-orm';
import type { Db } from './index';
import { rows } from './query';

const EVERY_MS = 5 * 60_000;

/** VACUUMs and ANALYZEs the tables autovacuum would analyze (and those never analyzed); resolves to their names. */
export async function refreshStatistics(db: Db): Promise<string[]> {
  const due = await rows<{ name: string }>(db, sql`
    SELECT quote_ident(s.schemaname) || '.' || quote_ident(s.relname) AS name
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE c.reltuples < 0 OR s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
     ORDER BY s.relname`);
  // One table a statement: PGlite answers nothing else while a statement runs, and a table takes
  // milliseconds where the whole database takes a second or more.
  for (const { name } of due) await db.execute(sql.raw(`VACUUM (ANALYZE) ${name}`));
  return due.map((d) => d.name);
}

export interface StatisticsKeeper {
  stop(): Promise<void>;
}

/** For PGlite: a pass now (in the background) and every few minutes. */
export function keepStatisticsFresh(db: Db, log: (error: unknown) => void, everyMs = EVERY_MS): StatisticsKeeper {
  let inFlight: Promise<unknown> | undefined;
  const pass = () => {
    if (inFlight) return;
    inFlight = refreshStatistics(db)
      .catch(log)
      .finally(() => (inFlight = undefined));
  };
  const timer = setInterval(pass, everyMs);
  timer.unref();
  pass();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
