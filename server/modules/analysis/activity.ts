// 学校概况 (the principal's school overview on /analysis): how much the school works with the app —
// homework set and handed in, AI批改 tasks, teachers active — per class for one term, and the
// school's totals term by term. Definitions: docs/analysis-figures.md, "学校概况".
import { sql, type SQL } from 'drizzle-orm';
import type { Activity } from '../../../src/domain/analysis';
import { termLabel } from '../../../src/domain/semester';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { schoolZone } from '../../http/schoolZone';
import { classAndWeekCounts, ratio, HOMEWORK } from './figures';

/** At most this many terms in the term table: a school's history is a few years. */
const MAX_TERMS = 8;

/**
 * A term's first and last day: the school's 学年/学期 settings when it set them, else the
 * calendar's (上学期 August – January, 下学期 February – July; SPEC §9).
 */
export function calendarRange(term: string): { startDate: string; endDate: string } {
  const y = Number(term.slice(0, 4));
  return term.endsWith('01') ? { startDate: `${y}-08-01`, endDate: `${y + 1}-01-31` } : { startDate: `${y + 1}-02-01`, endDate: `${y + 1}-07-31` };
}

interface TermRange {
  term: string;
  startDate: string;
  endDate: string;
  /** Set by the school (学年管理) rather than taken from the calendar. */
  configured: boolean;
}

/** The school's terms: those it set, and those its homework was given in, newest first. */
async function schoolTerms(db: Db, tenantId: number, schoolId: number, current: string): Promise<TermRange[]> {
  const found = await rows<{ term: string; startDate: string | null; endDate: string | null }>(db, sql`
    SELECT x.term, to_char(st.start_date, 'YYYY-MM-DD') AS "startDate", to_char(st.end_date, 'YYYY-MM-DD') AS "endDate"
      FROM (SELECT term FROM school_terms WHERE school_id = ${schoolId}
            UNION SELECT DISTINCT h.term FROM homeworks h JOIN classes c ON c.id = h.class_id WHERE h.tenant_id = ${tenantId} AND c.school_id = ${schoolId} AND h.term <> ''
            UNION SELECT ${current}) x
      LEFT JOIN school_terms st ON st.school_id = ${schoolId} AND st.term = x.term
     WHERE x.term ~ '^20[0-9]{2}0[12]$'
     ORDER BY x.term DESC LIMIT ${MAX_TERMS}`);
  return found.map((t) => (t.startDate && t.endDate ? { term: t.term, startDate: t.startDate, endDate: t.endDate, configured: true } : { term: t.term, ...calendarRange(t.term), configured: false }));
}

/** A time within a term's days on the school's clock: from the first day 00:00 to the day after the last. */
const within = (column: SQL, r: TermRange, zone: string) =>
  sql`${column} >= (${r.startDate}::date::timestamp AT TIME ZONE ${zone}::text) AND ${column} < ((${r.endDate}::date + 1)::timestamp AT TIME ZONE ${zone}::text)`;

export async function schoolActivity(db: Db, p: Principal, term: string): Promise<Activity> {
  const tenantId = p.tenantId as number;
  const schoolId = p.schoolId as number;
  const zone = await schoolZone(db, schoolId);
  const terms = await schoolTerms(db, tenantId, schoolId, term);
  const range = terms.find((t) => t.term === term)!;

  // Hand-ins expected and made: the 学情分析 figures of the whole school for the term (one definition).
  const { classes } = await classAndWeekCounts(db, p, { term });
  const perClass = await rows<{ classId: number; level: number; homeworks: number; gradingTasks: number; activeTeachers: number }>(db, sql`
    WITH sc AS (SELECT c.id, g.level FROM classes c JOIN grades g ON g.id = c.grade_id WHERE c.tenant_id = ${tenantId} AND c.school_id = ${schoolId}),
    hw AS (SELECT h.class_id, h.teacher_id FROM homeworks h WHERE h.tenant_id = ${tenantId} AND h.term = ${term} AND h.class_id IN (SELECT id FROM sc)),
    gt AS (SELECT g.class_id, g.teacher_id FROM grading_tasks g WHERE g.tenant_id = ${tenantId} AND g.class_id IN (SELECT id FROM sc) AND ${within(sql`g.created_at`, range, zone)})
    SELECT sc.id AS "classId", sc.level,
           (SELECT count(*)::int FROM hw WHERE hw.class_id = sc.id) AS homeworks,
           (SELECT count(*)::int FROM gt WHERE gt.class_id = sc.id) AS "gradingTasks",
           (SELECT count(DISTINCT t)::int FROM (SELECT teacher_id AS t FROM hw WHERE hw.class_id = sc.id UNION SELECT teacher_id FROM gt WHERE gt.class_id = sc.id) x) AS "activeTeachers"
      FROM sc`);
  const byClass = new Map(perClass.map((r) => [r.classId, r]));

  // The school's terms side by side; a teacher counts once however many classes they worked in.
  const termRows: Activity['terms'] = [];
  for (const r of terms) {
    const [row] = await rows<{ homeworks: number; submitted: number; gradingTasks: number; activeTeachers: number }>(db, sql`
      WITH hw AS (SELECT h.id, h.teacher_id FROM homeworks h JOIN classes c ON c.id = h.class_id WHERE h.tenant_id = ${tenantId} AND c.school_id = ${schoolId} AND h.term = ${r.term}),
      gt AS (SELECT g.teacher_id FROM grading_tasks g JOIN teachers te ON te.id = g.teacher_id
              WHERE g.tenant_id = ${tenantId} AND te.school_id = ${schoolId} AND ${within(sql`g.created_at`, r, zone)})
      SELECT (SELECT count(*)::int FROM hw) AS homeworks,
             (SELECT count(*)::int FROM work_student_stats s WHERE s.tenant_id = ${tenantId} AND s.${HOMEWORK} AND s.source_id IN (SELECT id FROM hw)) AS submitted,
             (SELECT count(*)::int FROM gt) AS "gradingTasks",
             (SELECT count(DISTINCT t)::int FROM (SELECT teacher_id AS t FROM hw UNION SELECT teacher_id FROM gt) x) AS "activeTeachers"`);
    termRows.push({ term: r.term, label: termLabel(r.term), startDate: r.startDate, endDate: r.endDate, configured: r.configured, ...row });
  }
  const [teachers] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM teachers WHERE tenant_id = ${tenantId} AND school_id = ${schoolId} AND status = 0`);
  const chosen = termRows.find((t) => t.term === term)!;

  const classRows = classes
    .map((c) => {
      const a = byClass.get(c.classId);
      return {
        classId: c.classId,
        level: a?.level ?? 0,
        className: c.className,
        gradeName: c.gradeName,
        homeworks: a?.homeworks ?? 0,
        assigned: c.homeworkAssigned,
        submitted: c.homeworkSubmitted,
        completionRate: ratio(c.homeworkSubmitted, c.homeworkAssigned),
        gradingTasks: a?.gradingTasks ?? 0,
        activeTeachers: a?.activeTeachers ?? 0,
      };
    })
    // Grade by grade (七, 八, 九: by level, not by the names' pinyin), classes in name order.
    .sort((a, b) => a.level - b.level || a.className.localeCompare(b.className, 'zh-Hans-CN', { numeric: true }))
    .map(({ level: _level, ...c }) => c);
  const assigned = classRows.reduce((s, c) => s + c.assigned, 0);
  const submitted = classRows.reduce((s, c) => s + c.submitted, 0);
  return {
    term,
    label: termLabel(term),
    startDate: range.startDate,
    endDate: range.endDate,
    configured: range.configured,
    total: {
      homeworks: chosen.homeworks,
      assigned,
      submitted,
      completionRate: ratio(submitted, assigned),
      gradingTasks: chosen.gradingTasks,
      activeTeachers: chosen.activeTeachers,
      teachers: teachers.n,
      activeRate: ratio(chosen.activeTeachers, teachers.n),
    },
    classes: classRows,
    terms: termRows,
  };
}
