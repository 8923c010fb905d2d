// Who counts as a class's student for a piece of work: those in school now, and those who left
// (转出, 休学, 毕业) after the day it was given. A student who left keeps their records, and work
// from before they left still counts them; work from their leaving day on does not.
import { sql, type SQL } from 'drizzle-orm';
import { StudentStatus } from '../../../src/domain/schoolYear';

/** A leaving day after the (Asia/Shanghai) day of `at`, a timestamptz: the student was still there. */
export const leftAfter = (leftOn: SQL, at: SQL): SQL => sql`${leftOn} > (${at} AT TIME ZONE 'Asia/Shanghai')::date`;

/** A condition on a `students` row aliased `alias`, for work given at `at` (a timestamptz). */
export function enrolledAt(alias: string, at: SQL): SQL {
  const st = sql.raw(alias);
  return sql`(${st}.status = ${StudentStatus.enrolled} OR ${leftAfter(sql`${st}.left_on`, at)})`;
}
