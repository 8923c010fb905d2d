// 学校看板 (partner view of one school): the range's usage on the subtree's terminals in that school.
// Totals, trend and apps/subjects come from the rollups; the per-class figures and the students
// who print most come from the school's print jobs (print_jobs_school_idx), a reseller's view:
// names and classes, never phone numbers or scores.
import { sql } from 'drizzle-orm';
import type { BoardRange } from '../../../src/domain/boardRange';
import { UserKind } from '../../../src/domain/partner';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { inRange, inRangeAt, isOnline } from './boardQuery';
import { breakdown, totals } from './boardOverview';
import { inSubtree, type PartnerScope } from './scope';

/** How many students the 打印排行 lists. */
export const TOP_STUDENTS = 10;

interface School {
  id: number;
  name: string;
  tenantId: number;
}

export async function schoolBoard(db: Db, scope: PartnerScope, school: School, range: BoardRange, userKind: number | undefined) {
  const here = sql`school_id = ${school.id}`;
  const mine = (column = sql`partner_id`) => inSubtree(scope, column);
  const jobsHere = sql`pj.school_id = ${school.id} AND ${mine(sql`pj.partner_id`)} AND ${inRangeAt(range, sql`pj.printed_at`)} AND pj.user_kind = ${UserKind.student}`;

  const [info] = await rows<{ region: string; partnerName: string | null; students: number }>(db, sql`
    SELECT s.region, p.name AS "partnerName",
           (SELECT count(*)::int FROM students st WHERE st.school_id = s.id AND st.status = 0) AS students
      FROM schools s LEFT JOIN partners p ON p.id = s.partner_id AND ${mine(sql`p.id`)} WHERE s.id = ${school.id}`);

  const t = await totals(db, scope, range, userKind, here, sql`d.school_id = ${school.id}`);

  const classes = await rows<{ classId: number; className: string; gradeName: string; students: number; activeStudents: number; pages: number; jobs: number }>(db, sql`
    WITH printed AS (SELECT pj.user_id, sum(pj.pages)::int AS pages, count(*)::int AS jobs FROM print_jobs pj WHERE ${jobsHere} GROUP BY 1)
    SELECT c.id AS "classId", c.name AS "className", g.name AS "gradeName",
           count(st.id)::int AS students, count(printed.user_id)::int AS "activeStudents",
           coalesce(sum(printed.pages), 0)::int AS pages, coalesce(sum(printed.jobs), 0)::int AS jobs
      FROM classes c JOIN grades g ON g.id = c.grade_id
      LEFT JOIN students st ON st.class_id = c.id AND st.status = 0
      LEFT JOIN printed ON printed.user_id = st.id
     WHERE c.school_id = ${school.id} AND g.graduated_year IS NULL
     GROUP BY c.id, c.name, g.name, g.level ORDER BY g.level, c.name`);

  const topStudents = await rows<{ studentId: number; name: string; className: string | null; pages: number; jobs: number }>(db, sql`
    SELECT st.id AS "studentId", st.name, c.name AS "className", sum(pj.pages)::int AS pages, count(*)::int AS jobs
      FROM print_jobs pj JOIN students st ON st.id = pj.user_id AND st.school_id = ${school.id}
      LEFT JOIN classes c ON c.id = st.class_id
     WHERE ${jobsHere}
     GROUP BY st.id, st.name, c.name ORDER BY pages DESC, st.id LIMIT ${TOP_STUDENTS}`);

  const devices = await rows<{ id: number; serial: string; model: string; online: boolean; lastSeenAt: string | null; paperLeft: number; pages: number; jobs: number; signIns: number }>(db, sql`
    SELECT d.id, d.serial, d.model, ${isOnline()} AS online, ${isoTime(sql`d.last_seen_at`)} AS "lastSeenAt", d.paper_left AS "paperLeft",
           coalesce(sum(dd.pages), 0)::int AS pages, coalesce(sum(dd.jobs), 0)::int AS jobs, coalesce(sum(dd.sign_ins), 0)::int AS "signIns"
      FROM devices d LEFT JOIN device_daily dd ON dd.device_id = d.id AND ${inRange(range, sql`dd.day`)}
     WHERE d.school_id = ${school.id} AND ${mine(sql`d.partner_id`)}
     GROUP BY d.id ORDER BY d.serial`);

  const grades = new Map<string, { gradeName: string; students: number; activeStudents: number; pages: number; jobs: number }>();
  for (const c of classes) {
    const g = grades.get(c.gradeName) ?? { gradeName: c.gradeName, students: 0, activeStudents: 0, pages: 0, jobs: 0 };
    g.students += c.students;
    g.activeStudents += c.activeStudents;
    g.pages += c.pages;
    g.jobs += c.jobs;
    grades.set(c.gradeName, g);
  }

  return {
    range,
    school: { id: school.id, name: school.name, region: info.region, partnerName: info.partnerName, students: info.students },
    kpis: t.kpis,
    trend: { pages: t.pages, uses: t.uses },
    byApp: await breakdown(db, scope, range, { statistics: 'app', metric: 'pages', userKind }, school.id),
    bySubject: await breakdown(db, scope, range, { statistics: 'subject', metric: 'pages', userKind }, school.id),
    byGrade: [...grades.values()],
    byClass: classes,
    topStudents,
    devices,
  };
}
