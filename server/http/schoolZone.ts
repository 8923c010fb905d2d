// The time zone of the school a request is made for (schools.time_zone, SPEC: server-made dates use
// the school's clock). Passed to the format helpers of src/domain/format.ts; never kept in a global,
// since one process serves many schools at once. Callers without a school (partners, platform
// admins) and a school whose stored name this runtime does not know get China time.
import { sql } from 'drizzle-orm';
import { DEFAULT_ZONE, isTimeZone } from '../../src/domain/format';
import type { Principal } from '../auth/principal';
import type { Db } from '../db';
import { rows } from '../db/query';

/** The zone of one school; China time for none. */
export async function schoolZone(db: Db, schoolId: number | null | undefined): Promise<string> {
  if (schoolId === null || schoolId === undefined) return DEFAULT_ZONE;
  const [school] = await rows<{ zone: string }>(db, sql`SELECT time_zone AS zone FROM schools WHERE id = ${schoolId}`);
  return isTimeZone(school?.zone) ? school.zone : DEFAULT_ZONE;
}

/** The zone of the caller's own school. */
export const callerZone = (db: Db, p: Pick<Principal, 'schoolId'>): Promise<string> => schoolZone(db, p.schoolId);
