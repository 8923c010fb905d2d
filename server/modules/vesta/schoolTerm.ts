// The school's current term, the one default every report's range follows: the term the school
// chose (学年/学期 settings), else its term whose dates hold today, else the calendar's (SPEC §9).
import { sql } from 'drizzle-orm';
import { chinaDayStart, dateOnly } from '../../../src/domain/format';
import { schoolZone } from '../../http/schoolZone';
import { currentSemester, rangeStart } from '../../../src/domain/semester';
import type { Db } from '../../db';
import { rows } from '../../db/query';

export interface CurrentTerm {
  term: string;
  /** The term's first and last day when the school set them; null: the calendar's term. */
  startDate: string | null;
  endDate: string | null;
}

export async function schoolCurrentTerm(db: Db, schoolId: number | null, now: Date = new Date()): Promise<CurrentTerm> {
  if (schoolId !== null) {
    const today = dateOnly(now, await schoolZone(db, schoolId));
    const [found] = await rows<CurrentTerm>(db, sql`
      SELECT t.term, to_char(t.start_date, 'YYYY-MM-DD') AS "startDate", to_char(t.end_date, 'YYYY-MM-DD') AS "endDate"
        FROM school_terms t JOIN schools s ON s.id = t.school_id
       WHERE t.school_id = ${schoolId}
         AND (t.term = s.current_term OR (s.current_term IS NULL AND ${today}::date BETWEEN t.start_date AND t.end_date))
       LIMIT 1`);
    if (found) return found;
  }
  return { term: currentSemester(now), startDate: null, endDate: null };
}

/**
 * SPEC §3 time range (week 1, month 2, term 0) → its first instant; 本学期 starts on the first day
 * of the school's current term when the school set it (00:00 on the school's clock), else the calendar's.
 */
export async function schoolRangeStart(db: Db, schoolId: number | null, dateType: number, now: Date = new Date()): Promise<Date> {
  if (dateType !== 0) return rangeStart(dateType, now);
  const { startDate } = await schoolCurrentTerm(db, schoolId, now);
  return startDate ? chinaDayStart(startDate, await schoolZone(db, schoolId)) : rangeStart(0, now);
}
