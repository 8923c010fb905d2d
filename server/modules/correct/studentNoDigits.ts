// How many digits an anonymous sheet's 考号 grid has: as many as the school's longest 学号, so a
// student can bubble in their own number (the demo school's are 9 digits). 8 when the school has
// no students yet; within the engine's 1–12.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';

export const DEFAULT_DIGITS = 8;

export async function studentNoDigits(db: Db, tenantId: number | null, schoolId: number | null): Promise<number> {
  if (tenantId === null) return DEFAULT_DIGITS;
  const [row] = await rows<{ n: number | null }>(db, sql`
    SELECT max(length(student_no))::int AS n FROM students
     WHERE tenant_id = ${tenantId} AND status = 0 ${schoolId === null ? sql`` : sql`AND school_id = ${schoolId}`}`);
  return Math.min(12, Math.max(1, row?.n ?? DEFAULT_DIGITS));
}
