// Raw SQL through Drizzle, typed by the caller. Both drivers return { rows }.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './index';

export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A timestamptz column as ISO 8601 in UTC, the same text through either driver. */
export const isoTime = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
