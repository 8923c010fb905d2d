// 联考: one exam sat by several schools of a region, each school's sitting an `exams` row of its own
// tenant pointing at `joint_exams`. The researcher reads every school of their region side by
// side; a principal reads their own school against the region as a whole and nothing of another
// school. Figures from work_student_stats (one row per student and sitting), definitions in
// docs/analysis-figures.md, "联考".
import { sql, type SQL } from 'drizzle-orm';
import { LOW_SCORE_SHARE, REGION_FIGURE_MIN_SCHOOLS, type JointExamFigures, type JointExamReport, type JointExamSummary } from '../../../src/domain/analysis';
import { SourceType } from '../../../src/domain/content';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { forbidden, notFound } from '../../http/envelope';
import { regionSchoolIds } from '../vesta/scope';
import { ratio } from './figures';

/**
 * The sittings the caller may read, as a condition on `exams e`: for a researcher the sittings of
 * their region's schools, for a principal their own school's. A school outside the region that
 * points at a joint exam is never read.
 */
function sittingScope(p: Principal): SQL {
  if (p.activeRole === 'regionResearcher') return sql`e.school_id IN ${regionSchoolIds(p)}`;
  if (p.activeRole === 'schoolMaster' && p.tenantId !== null && p.schoolId !== null) return sql`e.tenant_id = ${p.tenantId} AND e.school_id = ${p.schoolId}`;
  throw forbidden();
}

/** The joint exams the caller may open: their region's, or those their school sat. */
function visible(p: Principal): SQL {
  if (p.activeRole === 'regionResearcher') return sql`j.region = ${p.region ?? ''}`;
  return sql`EXISTS (SELECT 1 FROM exams e WHERE e.joint_exam_id = j.id AND ${sittingScope(p)})`;
}

export async function listJointExams(db: Db, p: Principal, term?: string): Promise<JointExamSummary[]> {
  return rows<JointExamSummary>(db, sql`
    SELECT j.id, j.title, su.name AS subject, j.grade_level AS "gradeLevel", to_char(j.exam_date, 'YYYY-MM-DD') AS "examDate", j.term, j.full_marks AS "fullMarks",
           (SELECT count(DISTINCT e.school_id)::int FROM exams e WHERE e.joint_exam_id = j.id AND e.school_id IN (SELECT s.id FROM schools s WHERE s.region = j.region)) AS schools
      FROM joint_exams j JOIN subjects su ON su.id = j.subject_id
     WHERE ${visible(p)} ${term ? sql`AND j.term = ${term}` : sql``}
     ORDER BY j.exam_date DESC, j.id DESC LIMIT 100`);
}

interface SchoolCounts {
  schoolId: number;
  schoolName: string;
  participants: number;
  sum: number;
  sumSquares: number;
  highest: number | null;
  lowest: number | null;
  excellent: number;
  good: number;
  pass: number;
  fail: number;
  low: number;
}

/** Figures of a set of sittings, from summed counts (a region's are never an average of schools'). */
function figuresOf(c: Omit<SchoolCounts, 'schoolId' | 'schoolName'>): JointExamFigures {
  const n = c.participants;
  const mean = n > 0 ? c.sum / n : null;
  // Population standard deviation of the students' totals: sqrt(Σx²/n − mean²).
  const sd = mean === null ? null : Math.sqrt(Math.max(0, c.sumSquares / n - mean * mean));
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  return {
    participants: n,
    average: round(mean),
    standardDeviation: round(sd),
    highest: c.highest,
    lowest: c.lowest,
    excellentRate: ratio(c.excellent, n),
    passRate: ratio(c.excellent + c.good + c.pass, n),
    lowRate: ratio(c.low, n),
    bands: { excellent: c.excellent, good: c.good, pass: c.pass, fail: c.fail },
  };
}

const add = (a: Omit<SchoolCounts, 'schoolId' | 'schoolName'>, b: SchoolCounts) => ({
  participants: a.participants + b.participants,
  sum: a.sum + b.sum,
  sumSquares: a.sumSquares + b.sumSquares,
  highest: a.highest === null ? b.highest : b.highest === null ? a.highest : Math.max(a.highest, b.highest),
  lowest: a.lowest === null ? b.lowest : b.lowest === null ? a.lowest : Math.min(a.lowest, b.lowest),
  excellent: a.excellent + b.excellent,
  good: a.good + b.good,
  pass: a.pass + b.pass,
  fail: a.fail + b.fail,
  low: a.low + b.low,
});

export async function jointExamReport(db: Db, p: Principal, id: number): Promise<JointExamReport> {
  const [exam] = await rows<JointExamSummary & { region: string }>(db, sql`
    SELECT j.id, j.title, j.region, su.name AS subject, j.grade_level AS "gradeLevel", to_char(j.exam_date, 'YYYY-MM-DD') AS "examDate", j.term, j.full_marks AS "fullMarks", 0 AS schools
      FROM joint_exams j JOIN subjects su ON su.id = j.subject_id WHERE j.id = ${id} AND ${visible(p)}`);
  if (!exam) throw notFound('联考不存在');
  // Every sitting school of the region, counted from each student's total on their school's sitting.
  const counts = await rows<SchoolCounts>(db, sql`
    WITH totals AS (
      SELECT e.school_id, s.student_id, sum(s.score)::float8 AS score, sum(s.max_score)::float8 AS max
        FROM exams e JOIN work_student_stats s ON s.tenant_id = e.tenant_id AND s.source_type = ${SourceType.exam} AND s.source_id = e.id
       WHERE e.joint_exam_id = ${id} AND e.school_id IN (SELECT sc.id FROM schools sc WHERE sc.region = ${exam.region})
       GROUP BY 1, 2 HAVING sum(s.max_score) > 0
    )
    SELECT sc.id AS "schoolId", sc.name AS "schoolName", count(*)::int AS participants, sum(score)::float8 AS sum, sum(score * score)::float8 AS "sumSquares",
           max(score)::float8 AS highest, min(score)::float8 AS lowest,
           count(*) FILTER (WHERE score >= 0.9 * max)::int AS excellent,
           count(*) FILTER (WHERE score >= 0.7 * max AND score < 0.9 * max)::int AS good,
           count(*) FILTER (WHERE score >= 0.6 * max AND score < 0.7 * max)::int AS pass,
           count(*) FILTER (WHERE score < 0.6 * max)::int AS fail,
           count(*) FILTER (WHERE score < ${LOW_SCORE_SHARE} * max)::int AS low
      FROM totals JOIN schools sc ON sc.id = totals.school_id GROUP BY sc.id, sc.name`);
  const zero = { participants: 0, sum: 0, sumSquares: 0, highest: null, lowest: null, excellent: 0, good: 0, pass: 0, fail: 0, low: 0 };
  const region = counts.reduce(add, zero);
  const researcher = p.activeRole === 'regionResearcher';
  // A principal sees their own school; the region as a whole only when enough schools sat it that
  // the region minus their school does not give away another school's figures.
  // By name as a Chinese reader orders names (a comparison, not a ranking).
  counts.sort((a, b) => a.schoolName.localeCompare(b.schoolName, 'zh-Hans-CN'));
  const mine = researcher ? counts : counts.filter((c) => c.schoolId === p.schoolId);
  const regionShown = researcher || counts.length >= REGION_FIGURE_MIN_SCHOOLS;
  return {
    id: exam.id,
    title: exam.title,
    region: exam.region,
    subject: exam.subject,
    gradeLevel: exam.gradeLevel,
    examDate: exam.examDate,
    term: exam.term,
    fullMarks: exam.fullMarks,
    schoolCount: counts.length,
    view: researcher ? 'region' : 'school',
    total: regionShown ? figuresOf(region) : null,
    schools: mine.map((c) => ({ schoolId: c.schoolId, schoolName: c.schoolName, ...figuresOf(c) })),
  };
}
