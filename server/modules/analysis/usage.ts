// 使用统计 of the mini-program teacher: homework given to their own classes in the term, per class
// and per student of one class, and week by week. From homeworks and work_student_stats only.
// Homework not yet due counts only the hand-ins so far (scopeCtes' `expected`), never as missing.
import { sql } from 'drizzle-orm';
import type { Usage } from '../../../src/domain/analysis';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { HOMEWORK, ratio, scopeCtes, type AnalysisQuery } from './figures';

interface Tally {
  assigned: number;
  submitted: number;
  answered: number;
  correct: number;
}

const rates = <T extends Tally>(t: T) => ({ ...t, completionRate: ratio(t.submitted, t.assigned), accuracy: ratio(t.correct, t.answered) });

export async function usage(db: Db, p: Principal, q: AnalysisQuery): Promise<Usage> {
  // Classes and weeks cover all the teacher's classes; the chosen class only picks the student list.
  const homework = sql`WITH ${scopeCtes(p, { ...q, classId: undefined })}, hw AS (SELECT * FROM work WHERE ${HOMEWORK}), hs AS (SELECT * FROM ws WHERE ${HOMEWORK})`;
  // graded = submitted minus those still awaiting the teacher's review (homeworks.pending_review).
  const classes = await rows<Tally & { classId: number; className: string; homeworks: number; enrolled: number; graded: number }>(db, sql`
    ${homework},
    given AS (SELECT class_id, count(*)::int AS n, coalesce(sum(pending_review), 0)::int AS pending FROM hw GROUP BY 1),
    due AS (SELECT class_id, sum(n)::int AS n FROM expected GROUP BY 1),
    done AS (SELECT class_id, count(*)::int AS submitted, coalesce(sum(answered), 0)::int AS answered, coalesce(sum(correct), 0)::int AS correct FROM hs GROUP BY 1)
    SELECT sc.id AS "classId", sc.name AS "className", coalesce(given.n, 0) AS homeworks, coalesce(en.n, 0) AS enrolled,
           coalesce(due.n, 0) AS assigned, coalesce(done.submitted, 0) AS submitted,
           greatest(coalesce(done.submitted, 0) - coalesce(given.pending, 0), 0) AS graded,
           coalesce(done.answered, 0) AS answered, coalesce(done.correct, 0) AS correct
      FROM sc JOIN grades g ON g.id = sc.grade_id LEFT JOIN enrolled en ON en.class_id = sc.id
      LEFT JOIN given ON given.class_id = sc.id LEFT JOIN due ON due.class_id = sc.id LEFT JOIN done ON done.class_id = sc.id
     ORDER BY g.name, sc.name`);
  const trend = await rows<Tally & { week: string }>(db, sql`
    ${homework},
    given AS (SELECT date_trunc('week', at)::date AS week, coalesce(sum(n), 0)::int AS assigned FROM expected GROUP BY 1),
    done AS (SELECT date_trunc('week', at)::date AS week, count(*)::int AS submitted, coalesce(sum(answered), 0)::int AS answered, coalesce(sum(correct), 0)::int AS correct FROM hs GROUP BY 1)
    SELECT given.week::text AS week, given.assigned, coalesce(done.submitted, 0) AS submitted, coalesce(done.answered, 0) AS answered, coalesce(done.correct, 0) AS correct
      FROM given LEFT JOIN done USING (week) ORDER BY 1`);
  // Students: of the chosen class, else of the first class; in student-number order, never by score.
  const classId = q.classId ?? classes[0]?.classId;
  const students = classId
    ? await rows<Tally & { studentId: number; studentNo: string; name: string }>(db, sql`
        ${homework},
        done AS (SELECT student_id, count(*)::int AS submitted, coalesce(sum(answered), 0)::int AS answered, coalesce(sum(correct), 0)::int AS correct FROM hs WHERE class_id = ${classId} GROUP BY 1)
        SELECT st.id AS "studentId", st.student_no AS "studentNo", st.name,
               (SELECT count(*)::int FROM hw WHERE hw.class_id = ${classId} AND NOT hw.open)
                 + (SELECT count(*)::int FROM hs WHERE hs.class_id = ${classId} AND hs.open AND hs.student_id = st.id) AS assigned,
               coalesce(done.submitted, 0) AS submitted, coalesce(done.answered, 0) AS answered, coalesce(done.correct, 0) AS correct
          FROM students st LEFT JOIN done ON done.student_id = st.id
         WHERE st.tenant_id = ${p.tenantId} AND st.status = 0 AND st.class_id = ${classId} AND st.class_id IN (SELECT id FROM sc)
         ORDER BY st.student_no`)
    : [];
  return { term: q.term, classId: classId ?? null, classes: classes.map(rates), students: students.map(rates), trend: trend.map(rates) };
}
