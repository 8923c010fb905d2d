// 操作日志 is kept a year (AUDIT_LIMITS.retentionDays): older entries are deleted by a sweep at
// start and daily (index.ts). `now` is a parameter so a test can move the clock.
import { sql } from 'drizzle-orm';
import { AUDIT_LIMITS } from '../../../src/domain/auditFields';
import type { Db } from '../../db';
import { rows } from '../../db/query';

const DAY_MS = 24 * 3600 * 1000;

/** Deletes the entries older than the retention at `now`; returns how many. */
export async function pruneAuditLog(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - AUDIT_LIMITS.retentionDays * DAY_MS);
  const [{ n }] = await rows<{ n: number }>(db, sql`
    WITH gone AS (DELETE FROM audit_logs WHERE created_at < ${cutoff.toISOString()} RETURNING 1) SELECT count(*)::int AS n FROM gone`);
  return n;
}
