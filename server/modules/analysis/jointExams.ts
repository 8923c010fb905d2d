// 联考: one exam sat by several schools of a region, each school's sitting an `exams` row of its own
// tenant pointing at `joint_exams`. The researcher reads every school of their region side by
// side; a principal reads their own school against the region as a whole and nothing of another
// school. Figures from work_student_stats (one row per student and sitting), definitions in
// docs/analysis-figures.md, "联考".
import { sql, type SQL } from 'drizzle-orm';
import { LOW_SCORE_SHARE, REGION_FIGURE_MIN_SCHOOLS, type JointExamCandidate, type JointExamFigures, type JointExamReport, type JointExamSummary } from '../../../src/domain/analysis';
import { SourceType } from '../../../src/domain/content';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { badRequest, conflict, forbidden, notFound } from '../../http/envelope';
import { regionSchoolIds } from '../vesta/scope';
import { idList } from '../vesta/access';
import { gradeNameOf } from '../../../src/domain/schoolYear';
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
           (SELECT count(DISTINCT e.school_id)::int FROM exams e WHERE e.joint_exam_id = j.id AND e.school_id IN (SELECT s.id FROM schools s WHERE s.region = j.region)) AS schools,
           (j.created_by IS NOT DISTINCT FROM ${p.userId} AND ${p.activeRole === 'regionResearcher'}) AS mine
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


/** Exams of the researcher's region of one grade level and subject, newest first, school by school. */
export async function jointExamCandidates(db: Db, p: Principal, gradeLevel: number, subjectId: number): Promise<JointExamCandidate[]> {
  if (p.activeRole !== 'regionResearcher') throw forbidden();
  return rows<JointExamCandidate>(db, sql`
    SELECT e.id AS "examId", sc.id AS "schoolId", sc.name AS "schoolName", e.title, to_char(e.exam_date, 'YYYY-MM-DD') AS "examDate", e.term, e.full_marks AS "fullMarks",
           j.title AS "jointExam"
      FROM exams e JOIN schools sc ON sc.id = e.school_id JOIN grades g ON g.id = e.grade_id JOIN courses co ON co.id = e.course_id
      LEFT JOIN joint_exams j ON j.id = e.joint_exam_id
     WHERE e.school_id IN ${regionSchoolIds(p)} AND g.level = ${gradeLevel} AND co.subject_id = ${subjectId}
     ORDER BY sc.id, e.exam_date DESC, e.id DESC LIMIT 500`);
}

export interface NewJointExam {
  title: string;
  gradeLevel: number;
  subjectId: number;
  examIds: number[];
}

/**
 * A 联考 of the researcher's region from one exam of each of at least two of its schools, all of
 * the grade level and subject named, of one term and one full mark. An exam of a school outside
 * the region is refused as not found (its existence is not the researcher's to know).
 */
export async function createJointExam(
  db: Db,
  p: Principal,
  body: NewJointExam,
  audit: (tx: Db, made: { id: number; title: string; schools: string[] }) => Promise<void>,
): Promise<{ id: number; title: string; schools: string[] }> {
  if (p.activeRole !== 'regionResearcher' || !p.region) throw forbidden();
  const title = body.title.trim();
  if (!title) throw badRequest('请填写联考名称');
  const ids = [...new Set(body.examIds)];
  const [subject] = await rows<{ name: string }>(db, sql`SELECT name FROM subjects WHERE id = ${body.subjectId}`);
  if (!subject) throw notFound('学科不存在');
  const found = await rows<{ id: number; schoolId: number; schoolName: string; title: string; level: number; subjectId: number; term: string; fullMarks: number; examDate: string; jointExam: string | null }>(db, sql`
    SELECT e.id, e.school_id AS "schoolId", sc.name AS "schoolName", e.title, g.level, co.subject_id AS "subjectId", e.term, e.full_marks AS "fullMarks",
           to_char(e.exam_date, 'YYYY-MM-DD') AS "examDate", j.title AS "jointExam"
      FROM exams e JOIN schools sc ON sc.id = e.school_id JOIN grades g ON g.id = e.grade_id JOIN courses co ON co.id = e.course_id
      LEFT JOIN joint_exams j ON j.id = e.joint_exam_id
     WHERE e.id IN ${idList(ids)} AND e.school_id IN ${regionSchoolIds(p)} ORDER BY sc.id`);
  if (found.length !== ids.length) throw notFound('考试不存在或不属于本区域的学校');
  const wanted = `${gradeNameOf(body.gradeLevel)}${subject.name}`;
  const off = found.find((e) => e.level !== body.gradeLevel || e.subjectId !== body.subjectId);
  if (off) throw badRequest(`${off.schoolName}的“${off.title}”不是${wanted}的考试`);
  const taken = found.find((e) => e.jointExam);
  if (taken) throw conflict(`${taken.schoolName}的“${taken.title}”已属于联考“${taken.jointExam}”`);
  const twice = found.find((e, i) => found.findIndex((x) => x.schoolId === e.schoolId) !== i);
  if (twice) throw badRequest(`每所学校只能选一场考试（${twice.schoolName}选了两场）`);
  if (found.length < 2) throw badRequest('请至少选择两所学校的考试');
  if (new Set(found.map((e) => e.term)).size > 1) throw badRequest('所选考试不在同一学期');
  if (new Set(found.map((e) => e.fullMarks)).size > 1) throw badRequest('所选考试的满分不同，不能合为一场联考');
  const examDate = found.map((e) => e.examDate).sort()[0];
  return db.transaction(async (tx) => {
    const [joint] = await rows<{ id: number }>(tx, sql`
      INSERT INTO joint_exams (region, title, subject_id, grade_level, exam_date, term, full_marks, created_by)
      VALUES (${p.region}, ${title}, ${body.subjectId}, ${body.gradeLevel}, ${examDate}, ${found[0].term}, ${found[0].fullMarks}, ${p.userId}) RETURNING id`);
    // Only exams still free: one joined meanwhile by another researcher fails the whole 联考.
    const linked = await rows(tx, sql`UPDATE exams SET joint_exam_id = ${joint.id} WHERE id IN ${idList(ids)} AND joint_exam_id IS NULL RETURNING id`);
    if (linked.length !== ids.length) throw conflict('所选考试已被加入其他联考，请刷新后重试');
    const made = { id: joint.id, title, schools: found.map((e) => e.schoolName) };
    await audit(tx, made);
    return made;
  });
}

/** Deletes a 联考 the researcher made; its schools' exams stay, no longer joined. */
export async function deleteJointExam(db: Db, p: Principal, id: number, audit: (tx: Db, title: string) => Promise<void>): Promise<{ title: string }> {
  if (p.activeRole !== 'regionResearcher' || !p.region) throw forbidden();
  const [joint] = await rows<{ title: string; createdBy: number | null }>(db, sql`SELECT title, created_by AS "createdBy" FROM joint_exams WHERE id = ${id} AND region = ${p.region}`);
  if (!joint) throw notFound('联考不存在');
  if (joint.createdBy !== p.userId) throw forbidden('只能删除自己创建的联考');
  await db.transaction(async (tx) => {
    await tx.execute(sql`UPDATE exams SET joint_exam_id = NULL WHERE joint_exam_id = ${id}`);
    await tx.execute(sql`DELETE FROM joint_exams WHERE id = ${id}`);
    await audit(tx, joint.title);
  });
  return { title: joint.title };
}
