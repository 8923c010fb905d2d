// 学生心声's part of the demo seed: every enrolled student's birth date (ages as in 七–九年级: a
// 七年级 student is 12 or 13, an 八年级 student 13 or 14, a 九年级 student 14 or 15, so many are
// under 14) and the guardian consents the schools collected at the start of the year — except in
// the last class of each grade, whose forms have not come back yet (their under-14 students are
// refused on the terminal). Derived from the ids in SQL, so the seed's random sequence is untouched.
import { sql } from 'drizzle-orm';
import type { Db } from '../db';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The demo's entry year of 七年级 (as server/seed/index.ts numbers students). */
const FIRST_ENTRY_YEAR = 2026;

export async function seedBirthDatesAndConsents(tx: Tx) {
  // Born between 1 September and 31 August, 12 to 13 years before entering 七年级.
  await tx.execute(sql`
    UPDATE students s SET birth_date = make_date(${FIRST_ENTRY_YEAR} - (g.level - 7) - 13, 9, 1) + ((s.id * 7919) % 365)
      FROM classes c JOIN grades g ON g.id = c.grade_id
     WHERE c.id = s.class_id`);
  await tx.execute(sql`
    WITH last_class AS (
      SELECT DISTINCT ON (c.grade_id) c.id FROM classes c ORDER BY c.grade_id, c.id DESC)
    INSERT INTO guardian_consents (student_id, tenant_id, school_id, guardian_name, consented_on)
    SELECT s.id, s.tenant_id, s.school_id,
           left(s.name, 1) || CASE WHEN s.id % 3 = 0 THEN '先生' ELSE '女士' END,
           make_date(${FIRST_ENTRY_YEAR}, 9, 1) + (s.id % 10)
      FROM students s
     WHERE s.status = 0 AND s.class_id IS NOT NULL AND s.class_id NOT IN (SELECT id FROM last_class)`);
}
