// Raw SQL through Drizzle, typed by the caller. Both drivers return { rows }.
import type { SQL } from 'drizzle-orm';
import type { Db } from './index';

export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
