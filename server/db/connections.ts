// How many PostgreSQL connections this machine's API processes may open, against what the server
// allows. PostgreSQL refuses connections past max_connections, and a process that cannot get one
// fails its requests: the start says so, not a district's first busy morning.
import { sql } from 'drizzle-orm';
import type { Db } from './index';
import { rows } from './query';

/** Besides its pool, an API process listens on two connections: cache invalidations and live events. */
export const LISTENING_CONNECTIONS = 2;

/** An API process's pool: its requests' share (DATABASE_POOL_SIZE) and, grading in process, grading's. */
export interface ProcessPool {
  requests: number;
  grading: number;
}

/**
 * The warning (Chinese) when `processes` API processes with pools of `pool` would need more
 * connections than PostgreSQL leaves to ordinary users; undefined when they fit. Only this machine's
 * processes are counted: other machines and grading workers need their share too. The two parts of
 * the pool are named apart, so an operator who set DATABASE_POOL_SIZE finds the number they set.
 */
export function connectionBudgetMessage(processes: number, pool: ProcessPool, most: number, reserved: number): string | undefined {
  const needed = processes * (pool.requests + pool.grading + LISTENING_CONNECTIONS);
  const available = most - reserved;
  if (needed <= available) return undefined;
  const parts = pool.grading ? `请求 ${pool.requests} 个、批改 ${pool.grading} 个` : `请求 ${pool.requests} 个`;
  return (
    `注意：本机 ${processes} 个服务进程最多要用 ${needed} 个数据库连接（每个进程${parts}，另加 ${LISTENING_CONNECTIONS} 个监听），` +
    `超过 PostgreSQL 允许普通用户使用的 ${available} 个（max_connections=${most}，其中 ${reserved} 个保留）。` +
    `请调小 DATABASE_POOL_SIZE 或 WEB_CONCURRENCY，或调大 max_connections。`
  );
}

export async function connectionBudgetWarning(db: Db, processes: number, pool: ProcessPool): Promise<string | undefined> {
  // reserved_connections (PostgreSQL 16 and later) are kept for roles granted pg_use_reserved_connections.
  const [{ most, reserved }] = await rows<{ most: number; reserved: number }>(
    db,
    sql`SELECT current_setting('max_connections')::int AS most,
               current_setting('superuser_reserved_connections')::int + coalesce(current_setting('reserved_connections', true)::int, 0) AS reserved`,
  );
  return connectionBudgetMessage(processes, pool, most, reserved);
}
