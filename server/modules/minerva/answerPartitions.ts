// Answer records are partitioned by term (migration 0034): a term's reports read its partition
// only, and a region's years of history stay out of their way. A term's partition is best made
// before its first row; a row whose term has none lands in the default partition and moves to its
// own when the partition is made (answer_records_term_partition, in the migration).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { currentSemester } from '../../../src/domain/semester';

/** Two school years back to one ahead of the running term: '202401' … '202702' in 2026. */
export function termsAround(now: Date = new Date()): string[] {
  const year = Number(currentSemester(now).slice(0, 4));
  return [year - 2, year - 1, year, year + 1].flatMap((y) => [`${y}01`, `${y}02`]);
}

/**
 * Makes the partitions of the terms around `now` and of every term waiting in the default
 * partition; returns the terms it made. Idempotent: the server calls it at each start, the demo's
 * seed before it writes.
 */
export async function ensureAnswerPartitions(db: Db, now: Date = new Date()): Promise<string[]> {
  const waiting = await rows<{ term: string }>(db, sql`SELECT DISTINCT term FROM answer_records_default`);
  const terms = new Set([...termsAround(now), ...waiting.map((w) => w.term)]);
  const made: string[] = [];
  for (const term of terms) {
    const [{ done }] = await rows<{ done: boolean }>(db, sql`SELECT answer_records_term_partition(${term}) AS done`);
    if (done) made.push(term);
  }
  return made;
}
