// The region and the whole school: the researcher reads the schools of their region across tenants
// (and drills school → grade → class), never a school outside it; the principal's 学校概况 and
// 联考 (own school against the region, never another school); every figure recounted here from
// answer records, homeworks and grading tasks, not from the rollups the server reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { query } from '../support/content';
import { currentSemester } from '../../src/domain/semester';
import type { Activity, Analysis, JointExamReport, JointExamSummary } from '../../src/domain/analysis';

let t: TestApp;
let c: ReturnType<typeof client>;
const TERM = currentSemester();
const URL = '/api/analysis/v1.0/overview';
const ints = (ids: number[]) => sql`${`{${ids.join(',')}}`}::int[]`;
const CHINESE = /[\u4e00-\u9fa5]/;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

const regionSchools = () =>
  query<{ id: number; name: string; tenantId: number }>(t, sql`
    SELECT id, name, tenant_id AS "tenantId" FROM schools WHERE region = (SELECT region FROM users WHERE username = 'researcher') ORDER BY id`);
const userOf = async (username: string) =>
  (await query<{ tenantId: number; schoolId: number }>(t, sql`SELECT tenant_id AS "tenantId", school_id AS "schoolId" FROM users WHERE username = ${username}`))[0];

/** Score, full marks and submissions of a set of classes in the term, from the answer records. */
async function recount(classIds: number[]) {
  const [r] = await query<{ score: number; maxScore: number; works: number }>(t, sql`
    SELECT coalesce(sum(score), 0)::float8 AS score, coalesce(sum(max_score), 0)::float8 AS "maxScore", count(DISTINCT (source_type, source_id, student_id))::int AS works
      FROM answer_records WHERE class_id = ANY(${ints(classIds)}) AND term = ${TERM}`);
  return r;
}
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(0.01);

describe('region scope', () => {
  it('the demo region has at least three schools, each its own tenant, and the researcher compares them all', async () => {
    const schools = await regionSchools();
    expect(schools.length).toBeGreaterThanOrEqual(3);
    expect(new Set(schools.map((s) => s.tenantId)).size).toBe(schools.length);
    const a: Analysis = await c.data('researcher', URL);
    expect(a.groupBy).toBe('school');
    expect(a.groups.map((g) => g.id).sort((x, y) => x - y)).toEqual(schools.map((s) => s.id));
    for (const g of a.groups) {
      const classes = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ${g.id}`);
      const r = await recount(classes.map((x) => x.id));
      close(g.score, r.score);
      close(g.maxScore, r.maxScore);
      expect(g.works, g.name).toBe(r.works);
      // Every school of the region has work this term: the comparison is not of empty schools.
      expect(g.works, g.name).toBeGreaterThan(0);
    }
    const all = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ANY(${ints(schools.map((s) => s.id))})`);
    const total = await recount(all.map((x) => x.id));
    close(a.total.score, total.score);
    expect(a.total.works).toBe(total.works);
  });

  it('drills region → school → grade → class, each level the sum of the one below', async () => {
    const schools = await regionSchools();
    const school = schools[schools.length - 1];
    const bySchool: Analysis = await c.data('researcher', URL);
    const s = bySchool.groups.find((g) => g.id === school.id)!;
    const byGrade: Analysis = await c.data('researcher', `${URL}?schoolId=${school.id}`);
    expect(byGrade.groupBy).toBe('grade');
    const grades = await query<{ id: number; name: string }>(t, sql`SELECT id, name FROM grades WHERE school_id = ${school.id} ORDER BY level`);
    expect(byGrade.groups.map((g) => g.id).sort((x, y) => x - y)).toEqual(grades.map((g) => g.id).sort((x, y) => x - y));
    close(byGrade.total.score, s.score);
    expect(byGrade.total.works).toBe(s.works);
    const grade = byGrade.groups.find((g) => g.works > 0)!;
    const byClass: Analysis = await c.data('researcher', `${URL}?schoolId=${school.id}&gradeId=${grade.id}`);
    expect(byClass.groupBy).toBe('class');
    const classes = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE grade_id = ${grade.id} ORDER BY id`);
    expect(byClass.groups.map((g) => g.id)).toEqual(classes.map((x) => x.id));
    close(byClass.total.score, grade.score);
    const one: Analysis = await c.data('researcher', `${URL}?schoolId=${school.id}&gradeId=${grade.id}&classId=${classes[0].id}`);
    expect(one.groups.map((g) => g.id)).toEqual([classes[0].id]);
    const r = await recount([classes[0].id]);
    close(one.total.score, r.score);
    expect(one.total.works).toBe(r.works);
    // A subject across the schools (each school has its own course ids).
    const [maths] = await query<{ id: number }>(t, sql`SELECT id FROM subjects WHERE name = '数学'`);
    const m: Analysis = await c.data('researcher', `${URL}?subjectId=${maths.id}`);
    const [rm] = await query<{ score: number }>(t, sql`
      SELECT coalesce(sum(score), 0)::float8 AS score FROM answer_records
       WHERE term = ${TERM} AND subject_id = ${maths.id} AND school_id = ANY(${ints(schools.map((x) => x.id))})`);
    close(m.total.score, rm.score);
  });

  it('refuses a school, grade or class outside the region, and the principal another school', async () => {
    const [outside] = await query<{ schoolId: number; gradeId: number; classId: number }>(t, sql`
      SELECT c.school_id AS "schoolId", c.grade_id AS "gradeId", c.id AS "classId" FROM classes c JOIN schools s ON s.id = c.school_id
       WHERE s.region <> (SELECT region FROM users WHERE username = 'researcher') ORDER BY c.id LIMIT 1`);
    for (const [param, id, msg] of [['schoolId', outside.schoolId, '学校不存在'], ['gradeId', outside.gradeId, '年级不存在'], ['classId', outside.classId, '班级不存在']] as const) {
      const res = await c.get('researcher', `${URL}?${param}=${id}`);
      expect(res.statusCode, param).toBe(404);
      expect(res.json().msg).toBe(msg);
    }
    // The principal of the first school: another school of the same region is not theirs.
    const me = await userOf('principal');
    const foreign = (await regionSchools()).find((s) => s.id !== me.schoolId)!;
    const res = await c.get('principal', `${URL}?schoolId=${foreign.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('学校不存在');
    const [foreignClass] = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ${foreign.id} LIMIT 1`);
    expect((await c.get('principal', `${URL}?classId=${foreignClass.id}`)).statusCode).toBe(404);
    expect((await c.get('principal', '/api/analysis/v1.0/activity')).statusCode).toBe(200);
    expect((await c.get('principal', `/api/analysis/v1.0/subjects?schoolId=${foreign.id}`)).statusCode).toBe(404);
    expect((await c.get('researcher', `/api/analysis/v1.0/subjects?schoolId=${outside.schoolId}`)).statusCode).toBe(404);
    expect((await c.get('researcher', `/api/analysis/v1.0/subjects?schoolId=${foreign.id}`)).statusCode).toBe(200);
  });

  it('answers hostile input with a Chinese 400 and a wrong role with 403', async () => {
    for (const q of ['schoolId=0', 'schoolId=abc', 'subjectId=-1', 'schoolId=99999999999', "subjectId=1'--", 'term=2026']) {
      const res = await c.get('researcher', `${URL}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().msg, q).toMatch(CHINESE);
    }
    expect((await c.get('researcher', `${URL}?subjectId=2147483647`)).statusCode).toBe(404);
    for (const [user, url] of [
      ['schooladmin', '/api/analysis/v1.0/activity'],
      ['researcher', '/api/analysis/v1.0/activity'],
      ['gradeleader', '/api/analysis/v1.0/jointExams'],
      ['schooladmin', '/api/analysis/v1.0/jointExams/1'],
      ['teacher', '/api/analysis/v1.0/jointExams'],
    ] as const) {
      const res = await c.get(user, url);
      expect(res.statusCode, `${user} ${url}`).toBe(403);
      expect(res.json().msg).toMatch(CHINESE);
    }
    for (const id of ['0', 'x', '1.5', '99999999999']) {
      const res = await c.get('researcher', `/api/analysis/v1.0/jointExams/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().msg).toMatch(CHINESE);
    }
  });
});

/** Each sitting student's total of a joint exam, per school, from the answer records. */
async function examTotals(jointId: number) {
  return query<{ schoolId: number; total: number; max: number }>(t, sql`
    SELECT e.school_id AS "schoolId", sum(a.score)::float8 AS total, sum(a.max_score)::float8 AS max
      FROM exams e JOIN answer_records a ON a.source_type = 2 AND a.source_id = e.id
     WHERE e.joint_exam_id = ${jointId} GROUP BY e.school_id, a.student_id`);
}

function stats(list: { total: number; max: number }[]) {
  const n = list.length;
  const mean = list.reduce((s, x) => s + x.total, 0) / n;
  const sd = Math.sqrt(list.reduce((s, x) => s + (x.total - mean) ** 2, 0) / n);
  const share = (f: (x: { total: number; max: number }) => boolean) => Math.round((list.filter(f).length / n) * 10000) / 10000;
  return {
    n,
    mean,
    sd,
    excellent: share((x) => x.total >= 0.9 * x.max),
    pass: share((x) => x.total >= 0.6 * x.max),
    low: share((x) => x.total < 0.4 * x.max),
    fail: list.filter((x) => x.total < 0.6 * x.max).length,
  };
}

describe('联考', () => {
  it('the researcher sees every school of the region side by side, each figure a recount', async () => {
    const list: JointExamSummary[] = await c.data('researcher', '/api/analysis/v1.0/jointExams');
    expect(list.length).toBeGreaterThanOrEqual(1);
    const joint = list[0];
    expect(joint.schools).toBeGreaterThanOrEqual(3);
    const r: JointExamReport = await c.data('researcher', `/api/analysis/v1.0/jointExams/${joint.id}`);
    expect(r.view).toBe('region');
    expect(r.schools.length).toBe(joint.schools);
    const totals = await examTotals(joint.id);
    for (const s of r.schools) {
      const mine = stats(totals.filter((x) => x.schoolId === s.schoolId));
      expect(s.participants, s.schoolName).toBe(mine.n);
      close(s.average!, mine.mean);
      close(s.standardDeviation!, mine.sd);
      expect(s.excellentRate).toBeCloseTo(mine.excellent, 4);
      expect(s.passRate).toBeCloseTo(mine.pass, 4);
      expect(s.lowRate).toBeCloseTo(mine.low, 4);
      expect(s.bands.fail).toBe(mine.fail);
      expect(s.bands.excellent + s.bands.good + s.bands.pass + s.bands.fail).toBe(mine.n);
    }
    const all = stats(totals);
    expect(r.total!.participants).toBe(all.n);
    close(r.total!.average!, all.mean);
    close(r.total!.standardDeviation!, all.sd);
    // The schools differ: a side-by-side report of equal schools would show nothing.
    expect(new Set(r.schools.map((s) => s.average)).size).toBeGreaterThan(1);
  });

  it('a principal sees their own school against the region, and no other school', async () => {
    const list: JointExamSummary[] = await c.data('principal3', '/api/analysis/v1.0/jointExams');
    expect(list.length).toBe(1);
    const me = await userOf('principal3');
    const r: JointExamReport = await c.data('principal3', `/api/analysis/v1.0/jointExams/${list[0].id}`);
    expect(r.view).toBe('school');
    expect(r.schools.map((s) => s.schoolId)).toEqual([me.schoolId]);
    const totals = await examTotals(list[0].id);
    expect(r.schools[0].participants).toBe(totals.filter((x) => x.schoolId === me.schoolId).length);
    expect(r.total!.participants).toBe(totals.length);
    // Nothing in the reply names another school.
    const others = (await regionSchools()).filter((s) => s.id !== me.schoolId);
    for (const o of others) expect(JSON.stringify(r)).not.toContain(o.name);
  });

  it('refuses a joint exam of another region, and a principal whose school did not sit it', async () => {
    const [subject] = await query<{ id: number }>(t, sql`SELECT id FROM subjects ORDER BY id LIMIT 1`);
    const [elsewhere] = await query<{ id: number }>(t, sql`
      INSERT INTO joint_exams (region, title, subject_id, grade_level, exam_date, term, full_marks)
      VALUES ('宁波市海曙区', '海曙区七年级数学联考', ${subject.id}, 7, '2026-11-01', ${TERM}, 100) RETURNING id`);
    // A school of another region pointing at the demo region's joint exam is not counted.
    const list: JointExamSummary[] = await c.data('researcher', '/api/analysis/v1.0/jointExams');
    expect(list.map((j) => j.id)).not.toContain(elsewhere.id);
    const res = await c.get('researcher', `/api/analysis/v1.0/jointExams/${elsewhere.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('联考不存在');
    // schooladmin2's school (宁波) did not sit the demo 联考; its principal role is not there, so use the ids.
    const [ningbo] = await query<{ id: number; tenantId: number }>(t, sql`SELECT id, tenant_id AS "tenantId" FROM schools WHERE name = '宁波市海曙区育才中学'`);
    const [joint] = await query<{ id: number }>(t, sql`SELECT id FROM joint_exams WHERE region = '杭州市西湖区' LIMIT 1`);
    const [exam] = await query<{ id: number }>(t, sql`SELECT id FROM exams WHERE tenant_id = ${ningbo.tenantId} LIMIT 1`);
    await query(t, sql`UPDATE exams SET joint_exam_id = ${joint.id} WHERE id = ${exam.id}`);
    const r: JointExamReport = await c.data('researcher', `/api/analysis/v1.0/jointExams/${joint.id}`);
    expect(r.schools.map((s) => s.schoolId)).not.toContain(ningbo.id);
    await query(t, sql`UPDATE exams SET joint_exam_id = NULL WHERE id = ${exam.id}`);
    // The principal of 西湖区实验中学 sat the demo 联考, but not the other region's.
    expect((await c.get('principal', `/api/analysis/v1.0/jointExams/${elsewhere.id}`)).statusCode).toBe(404);
    await query(t, sql`DELETE FROM joint_exams WHERE id = ${elsewhere.id}`);
  });
});

describe('学校概况 (principal)', () => {
  it('counts homework, hand-ins, AI批改 tasks and active teachers per class and per term', async () => {
    const me = await userOf('principal');
    const a: Activity = await c.data('principal', '/api/analysis/v1.0/activity');
    expect(a.term).toBe(TERM);
    const classes = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ${me.schoolId} ORDER BY id`);
    expect(a.classes.map((x) => x.classId).sort((x, y) => x - y)).toEqual(classes.map((x) => x.id));
    // A grading task in a class, made now: it counts for that class and its teacher is active.
    const [task] = await query<{ classId: number; teacherId: number }>(t, sql`
      INSERT INTO grading_tasks (tenant_id, teacher_id, class_id, type, title)
      SELECT ta.tenant_id, ta.teacher_id, ta.class_id, 1, '单元小测' FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id
       WHERE c.school_id = ${me.schoolId} ORDER BY ta.class_id DESC LIMIT 1
      RETURNING class_id AS "classId", teacher_id AS "teacherId"`);
    const b: Activity = await c.data('principal', '/api/analysis/v1.0/activity');
    for (const row of b.classes) {
      const [r] = await query<{ homeworks: number; submitted: number; tasks: number; active: number }>(t, sql`
        SELECT (SELECT count(*)::int FROM homeworks WHERE class_id = ${row.classId} AND term = ${TERM}) AS homeworks,
               (SELECT count(DISTINCT (source_id, student_id))::int FROM answer_records WHERE class_id = ${row.classId} AND term = ${TERM} AND source_type <> 2) AS submitted,
               (SELECT count(*)::int FROM grading_tasks WHERE class_id = ${row.classId}) AS tasks,
               (SELECT count(DISTINCT x)::int FROM (SELECT teacher_id AS x FROM homeworks WHERE class_id = ${row.classId} AND term = ${TERM}
                                                    UNION SELECT teacher_id FROM grading_tasks WHERE class_id = ${row.classId}) y) AS active`);
      expect(row.homeworks, row.className).toBe(r.homeworks);
      expect(row.submitted, row.className).toBe(r.submitted);
      expect(row.gradingTasks, row.className).toBe(r.tasks);
      expect(row.activeTeachers, row.className).toBe(r.active);
    }
    expect(b.classes.find((x) => x.classId === task.classId)!.gradingTasks).toBe(a.classes.find((x) => x.classId === task.classId)!.gradingTasks + 1);
    const [school] = await query<{ homeworks: number; active: number; teachers: number }>(t, sql`
      SELECT (SELECT count(*)::int FROM homeworks h JOIN classes c ON c.id = h.class_id WHERE c.school_id = ${me.schoolId} AND h.term = ${TERM}) AS homeworks,
             (SELECT count(DISTINCT x)::int FROM (SELECT h.teacher_id AS x FROM homeworks h JOIN classes c ON c.id = h.class_id WHERE c.school_id = ${me.schoolId} AND h.term = ${TERM}
                                                  UNION SELECT g.teacher_id FROM grading_tasks g JOIN teachers te ON te.id = g.teacher_id WHERE te.school_id = ${me.schoolId}) y) AS active,
             (SELECT count(*)::int FROM teachers WHERE school_id = ${me.schoolId} AND status = 0) AS teachers`);
    expect(b.total.homeworks).toBe(school.homeworks);
    expect(b.total.activeTeachers).toBe(school.active);
    expect(b.total.teachers).toBe(school.teachers);
    const current = b.terms.find((x) => x.term === TERM)!;
    expect(current.homeworks).toBe(school.homeworks);
    expect(current.submitted).toBe(b.total.submitted);
    await query(t, sql`DELETE FROM grading_tasks WHERE class_id = ${task.classId} AND title = '单元小测' AND teacher_id = ${task.teacherId}`);
  });
});
