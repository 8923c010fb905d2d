// 学情分析 and 使用统计: each role sees exactly its scope, and every figure equals a recount from
// the answer records and homeworks of the demo school (the server reads only the rollups).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, readRows, XLSX } from '../support/school';
import { query } from '../support/content';
import ExcelJS from 'exceljs';
import { currentSemester, termLabel } from '../../src/domain/semester';
import { BAND_MIN_ITEMS } from '../../src/domain/analysis';
import { dateTime } from '../../src/domain/format';

let t: TestApp;
let c: ReturnType<typeof client>;
const TERM = currentSemester();
const URL = '/api/analysis/v1.0/overview';
/** An int[] parameter (drizzle would spread a JS array into a row). */
const ints = (ids: number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

beforeAll(async () => {
  // The classic teacher web keeps `teacher` (the analysis role); `teacher` logs in as that too.
  t = await createTestApp({ classicTeacher: true });
  c = client(t);
});
afterAll(() => t.close());

interface Group { id: number; name: string; works: number; score: number; maxScore: number; scoreRate: number | null; enrolled: number; enrolledWithWork: number; participants: number; participationRate: number | null; homeworkAssigned: number; homeworkSubmitted: number; completionRate: number | null; excellent: number; good: number; pass: number; fail: number }

const tenantOf = async (user: string) => (await query<{ tenantId: number; schoolId: number; userId: number }>(t, sql`SELECT tenant_id AS "tenantId", school_id AS "schoolId", id AS "userId" FROM users WHERE username = ${user}`))[0];

/** The recount: straight from answer_records and homeworks, for a set of classes (and subjects). */
async function recount(classIds: number[], subjectIds?: number[]) {
  const subject = subjectIds ? sql`AND subject_id = ANY(${ints(subjectIds)})` : sql``;
  const [totals] = await query<{ score: number; maxScore: number; works: number; participants: number }>(t, sql`
    SELECT coalesce(sum(score), 0)::float8 AS score, coalesce(sum(max_score), 0)::float8 AS "maxScore",
           count(DISTINCT (source_type, source_id, student_id))::int AS works, count(DISTINCT student_id)::int AS participants
      FROM answer_records WHERE class_id = ANY(${ints(classIds)}) AND term = ${TERM} ${subject}`);
  const [hw] = await query<{ submitted: number; assigned: number }>(t, sql`
    SELECT (SELECT count(DISTINCT (source_type, source_id, student_id))::int FROM answer_records
             WHERE class_id = ANY(${ints(classIds)}) AND term = ${TERM} AND source_type <> 2 ${subject}) AS submitted,
           (SELECT coalesce(sum((SELECT count(*) FROM students st WHERE st.class_id = h.class_id AND st.status = 0)), 0)::int FROM homeworks h JOIN courses co ON co.id = h.course_id
             WHERE h.class_id = ANY(${ints(classIds)}) AND h.term = ${TERM} ${subjectIds ? sql`AND co.subject_id = ANY(${ints(subjectIds)})` : sql``}) AS assigned`);
  // Bands: exams, and homework of at least BAND_MIN_ITEMS items.
  const bands = await query<{ band: string; n: number }>(t, sql`
    SELECT CASE WHEN s >= 0.9 * m THEN 'excellent' WHEN s >= 0.7 * m THEN 'good' WHEN s >= 0.6 * m THEN 'pass' ELSE 'fail' END AS band, count(*)::int AS n
      FROM (SELECT sum(score) AS s, sum(max_score) AS m FROM answer_records a WHERE class_id = ANY(${ints(classIds)}) AND term = ${TERM} ${subject}
               AND (a.source_type = 2 OR (SELECT jsonb_array_length(h.items) FROM homeworks h WHERE h.id = a.source_id) >= ${BAND_MIN_ITEMS})
             GROUP BY source_type, source_id, student_id HAVING sum(max_score) > 0) x GROUP BY 1`);
  // Participation: only classes given work (homework or an exam) in the term count their students.
  const [given] = await query<{ n: number }>(t, sql`
    SELECT count(*)::int AS n FROM students st WHERE st.status = 0 AND st.class_id = ANY(${ints(classIds)})
       AND (st.class_id IN (SELECT h.class_id FROM homeworks h JOIN courses co ON co.id = h.course_id WHERE h.term = ${TERM} ${subjectIds ? sql`AND co.subject_id = ANY(${ints(subjectIds)})` : sql``})
         OR st.class_id IN (SELECT ec.class_id FROM exam_classes ec JOIN exams e ON e.id = ec.exam_id JOIN courses co ON co.id = e.course_id WHERE e.term = ${TERM} ${subjectIds ? sql`AND co.subject_id = ANY(${ints(subjectIds)})` : sql``}))`);
  return { ...totals, ...hw, enrolledWithWork: given.n, bands: Object.fromEntries(bands.map((b) => [b.band, b.n])) };
}

const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(0.01);

function matches(total: Group, r: Awaited<ReturnType<typeof recount>>) {
  close(total.score, r.score);
  close(total.maxScore, r.maxScore);
  expect(total.scoreRate).toBeCloseTo(r.score / r.maxScore, 3);
  expect(total.participants).toBe(r.participants);
  expect(total.enrolledWithWork).toBe(r.enrolledWithWork);
  expect(total.participationRate).toBeCloseTo(r.participants / r.enrolledWithWork, 3);
  expect(total.homeworkSubmitted).toBe(r.submitted);
  expect(total.homeworkAssigned).toBe(r.assigned);
  expect(total.completionRate).toBeCloseTo(r.submitted / r.assigned, 3);
  expect({ excellent: total.excellent, good: total.good, pass: total.pass, fail: total.fail }).toEqual({ excellent: 0, good: 0, pass: 0, fail: 0, ...r.bands });
}

describe('学情分析 scope by role', () => {
  it('the principal compares every class of the school, in name order, with figures equal to a recount', async () => {
    const { schoolId } = await tenantOf('principal');
    const classes = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ${schoolId}`);
    const a = await c.data('principal', URL);
    expect(a.groupBy).toBe('class');
    expect(a.groups.map((g: Group) => g.id).sort()).toEqual(classes.map((x) => x.id).sort());
    const names = a.groups.map((g: Group) => g.name);
    expect(names).toEqual([...names].sort((x: string, y: string) => x.localeCompare(y, 'zh-Hans-CN', { numeric: true })));
    expect(JSON.stringify(a)).not.toMatch(/rank|名次/);
    expect(a.total.works).toBeGreaterThan(0);
    matches(a.total, await recount(classes.map((x) => x.id)));
    // One class's figures are that class's recount too.
    const one = a.groups.find((g: Group) => g.works > 0) as Group;
    matches(one, await recount([one.id]));
    // Weekly trend sums to the total; mastery and missed questions come with their denominators.
    close(a.trend.reduce((s: number, w: { score: number }) => s + w.score, 0), a.total.score);
    expect(a.trend.reduce((s: number, w: { assigned: number }) => s + w.assigned, 0)).toBe(a.total.homeworkAssigned);
    expect(a.knowledge.knowledgePoints.length).toBeGreaterThan(0);
    for (const cell of a.knowledge.cells) expect(cell.mastery).toBeCloseTo(cell.correct / cell.answered, 3);
    expect(a.questions.length).toBeGreaterThan(0);
    const q = a.questions[0];
    const [raw] = await query<{ answered: number; wrong: number }>(t, sql`
      SELECT count(*)::int AS answered, count(*) FILTER (WHERE NOT is_correct)::int AS wrong FROM answer_records
       WHERE question_id = ${q.questionId} AND class_id = ANY(${ints(classes.map((x) => x.id))}) AND term = ${TERM}`);
    expect({ answered: q.answered, wrong: q.wrong }).toEqual(raw);
  });

  it('高频错题 of a whole school and of the region are the recount of their classes’ answer records, in the same order', async () => {
    const recountMissed = async (classIds: number[]) =>
      query<{ questionId: number; answered: number; wrong: number }>(t, sql`
        SELECT question_id AS "questionId", count(*)::int AS answered, count(*) FILTER (WHERE NOT is_correct)::int AS wrong FROM answer_records
         WHERE class_id = ANY(${ints(classIds)}) AND term = ${TERM} GROUP BY question_id HAVING count(*) >= 5
         ORDER BY count(*) FILTER (WHERE NOT is_correct)::float8 / count(*) DESC, count(*) DESC, question_id LIMIT 10`);
    const shown = (a: { questions: { questionId: number; answered: number; wrong: number }[] }) => a.questions.map(({ questionId, answered, wrong }) => ({ questionId, answered, wrong }));
    const { schoolId } = await tenantOf('principal');
    const school = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ${schoolId}`);
    const mine = shown(await c.data('principal', URL));
    expect(mine.length).toBe(10);
    expect(mine).toEqual(await recountMissed(school.map((x) => x.id)));
    const [me] = await query<{ region: string }>(t, sql`SELECT region FROM users WHERE username = 'researcher'`);
    const region = await query<{ id: number }>(t, sql`SELECT c.id FROM classes c JOIN schools s ON s.id = c.school_id WHERE s.region = ${me.region}`);
    expect(shown(await c.data('researcher', URL))).toEqual(await recountMissed(region.map((x) => x.id)));
    // A grade of the school reads its classes' rows, and is its own recount too.
    const [grade] = await query<{ gradeId: number }>(t, sql`SELECT grade_id AS "gradeId" FROM classes WHERE school_id = ${schoolId} ORDER BY id LIMIT 1`);
    const gradeClasses = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE grade_id = ${grade.gradeId}`);
    expect(shown(await c.data('principal', `${URL}?gradeId=${grade.gradeId}`))).toEqual(await recountMissed(gradeClasses.map((x) => x.id)));
  });

  it('a classic teacher sees only the classes they teach', async () => {
    const { userId } = await tenantOf('classic');
    const mine = await query<{ id: number }>(t, sql`SELECT DISTINCT ta.class_id AS id FROM teaching_assignments ta JOIN teachers te ON te.id = ta.teacher_id WHERE te.user_id = ${userId}`);
    const a = await c.data('classic', URL);
    expect(a.groups.map((g: Group) => g.id).sort()).toEqual(mine.map((x) => x.id).sort());
    matches(a.total, await recount(mine.map((x) => x.id)));
  });

  it('a subject leader sees the school in their subject only; another subject’s course is refused', async () => {
    const { userId, schoolId } = await tenantOf('subjectleader');
    const [{ subjectId }] = await query<{ subjectId: number }>(t, sql`SELECT subject_id AS "subjectId" FROM leader_scopes WHERE user_id = ${userId}`);
    const classes = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ${schoolId}`);
    const a = await c.data('subjectleader', URL);
    expect(a.groups.length).toBe(classes.length);
    matches(a.total, await recount(classes.map((x) => x.id), [subjectId]));
    const [other] = await query<{ id: number }>(t, sql`SELECT id FROM courses WHERE school_id = ${schoolId} AND subject_id <> ${subjectId} LIMIT 1`);
    const res = await c.get('subjectleader', `${URL}?courseId=${other.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('课程不存在');
  });

  it('a grade leader sees their grade only; another grade is refused', async () => {
    const { userId, schoolId } = await tenantOf('gradeleader');
    const [{ gradeId }] = await query<{ gradeId: number }>(t, sql`SELECT grade_id AS "gradeId" FROM leader_scopes WHERE user_id = ${userId} AND role = 'gradeLeader'`);
    const classes = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE grade_id = ${gradeId}`);
    const a = await c.data('gradeleader', URL, 'gradeLeader');
    expect(a.groups.map((g: Group) => g.id).sort()).toEqual(classes.map((x) => x.id).sort());
    matches(a.total, await recount(classes.map((x) => x.id)));
    const [other] = await query<{ id: number }>(t, sql`SELECT id FROM grades WHERE school_id = ${schoolId} AND id <> ${gradeId} LIMIT 1`);
    const res = await c.get('gradeleader', `${URL}?gradeId=${other.id}`, 'gradeLeader');
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('年级不存在');
    // Asking for a subject leader's view (leader type 2) as a grade leader is refused.
    const wrongType = await c.get('gradeleader', `${URL}?leaderType=2`, 'gradeLeader');
    expect(wrongType.statusCode).toBe(403);
    expect(wrongType.json().msg).toBe('无权查看该角色的数据');
    expect((await c.get('gradeleader', `${URL}?leaderType=3`, 'gradeLeader')).statusCode).toBe(200);
  });

  it('a regional researcher compares the region’s schools (each its own tenant: tests/api/region.test.ts), never another region', async () => {
    const [me] = await query<{ tenantId: number; region: string }>(t, sql`SELECT tenant_id AS "tenantId", region FROM users WHERE username = 'researcher'`);
    const schools = await query<{ id: number }>(t, sql`SELECT id FROM schools WHERE region = ${me.region}`);
    expect(schools.length).toBeGreaterThanOrEqual(3);
    const a = await c.data('researcher', URL);
    expect(a.groupBy).toBe('school');
    expect(a.groups.map((g: Group) => g.id).sort()).toEqual(schools.map((x) => x.id).sort());
    const classes = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ANY(${ints(schools.map((x) => x.id))})`);
    matches(a.total, await recount(classes.map((x) => x.id)));
    for (const cell of a.knowledge.cells) expect(schools.map((x) => x.id)).toContain(cell.groupId);
  });

  it('refuses other roles, other tenants’ ids and hostile input in Chinese', async () => {
    for (const user of ['schooladmin', 'psych']) {
      const res = await c.get(user, URL);
      expect(res.statusCode, user).toBe(403);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const { tenantId } = await tenantOf('principal');
    const [foreign] = await query<{ classId: number; gradeId: number; courseId: number }>(t, sql`
      SELECT c.id AS "classId", c.grade_id AS "gradeId", (SELECT id FROM courses WHERE tenant_id = c.tenant_id LIMIT 1) AS "courseId"
        FROM classes c WHERE c.tenant_id <> ${tenantId} LIMIT 1`);
    for (const [param, msg] of [['classId', '班级不存在'], ['gradeId', '年级不存在'], ['courseId', '课程不存在']] as const) {
      const res = await c.get('principal', `${URL}?${param}=${foreign[param]}`);
      expect(res.statusCode, param).toBe(404);
      expect(res.json().msg).toBe(msg);
    }
    for (const bad of ['term=2025%27%3BDROP', 'gradeId=-1', 'classId=1e300', 'courseId=abc', 'leaderType=99', 'term=' + '2'.repeat(500)]) {
      const res = await c.get('principal', `${URL}?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const fig = await c.get('principal', `${URL}/export?figure=secrets`);
    expect(fig.statusCode).toBe(400);
    expect(fig.json().msg).toContain('图表');
  });

  it('a term without work shows no rates (暂无数据), not zeros', async () => {
    const a = await c.data('principal', `${URL}?term=201901`);
    expect(a.total.scoreRate).toBeNull();
    expect(a.total.completionRate).toBeNull();
    expect(a.trend).toEqual([]);
  });
});

describe('图表不误导', () => {
  it('参与率 counts only the classes given work in the term: a class without any is 暂无数据, not 0 %', async () => {
    const { tenantId, schoolId } = await tenantOf('principal');
    const before = await c.data('principal', URL);
    const [{ gradeId }] = await query<{ gradeId: number }>(t, sql`SELECT id AS "gradeId" FROM grades WHERE school_id = ${schoolId} AND level = 7`);
    const [idle] = await query<{ id: number }>(t, sql`INSERT INTO classes (tenant_id, school_id, grade_id, name) VALUES (${tenantId}, ${schoolId}, ${gradeId}, '七(9)班') RETURNING id`);
    for (let i = 1; i <= 30; i++) {
      await query(t, sql`INSERT INTO students (tenant_id, school_id, class_id, name, student_no) VALUES (${tenantId}, ${schoolId}, ${idle.id}, ${`新生${i}`}, ${`20269${String(i).padStart(3, '0')}`})`);
    }
    try {
      const a = await c.data('principal', URL);
      const group = a.groups.find((g: Group) => g.id === idle.id) as Group;
      expect({ enrolled: group.enrolled, enrolledWithWork: group.enrolledWithWork, participants: group.participants, participationRate: group.participationRate }).toEqual({
        enrolled: 30,
        enrolledWithWork: 0,
        participants: 0,
        participationRate: null,
      });
      // The school's rate does not drop: the idle class's 30 students are on the roll, not in the denominator.
      expect(a.total.enrolled).toBe(before.total.enrolled + 30);
      expect(a.total.enrolledWithWork).toBe(before.total.enrolledWithWork);
      expect(a.total.participationRate).toBe(before.total.participationRate);
      const classes = await query<{ id: number }>(t, sql`SELECT id FROM classes WHERE school_id = ${schoolId}`);
      matches(a.total, await recount(classes.map((x) => x.id)));
      const sheet = await readRows((await c.get('principal', `${URL}/export?figure=participation`)).rawPayload);
      const row = sheet.find((r) => r[0] === '七(9)班') as string[];
      expect(row.slice(1, 5)).toEqual(['30', '0', '0', '暂无数据']);
    } finally {
      await query(t, sql`DELETE FROM students WHERE class_id = ${idle.id}`);
      await query(t, sql`DELETE FROM classes WHERE id = ${idle.id}`);
    }
  });

  it('one knowledge point, one column: points of a subject named alike are one column, equal to a recount', async () => {
    const { schoolId } = await tenantOf('principal');
    const a = await c.data('principal', URL);
    const names = a.knowledge.knowledgePoints.map((k: { name: string }) => k.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    // The demo's curriculum lists 词语运用 twice (语言积累与运用, 文言文阅读): one column here.
    expect(names.filter((n: string) => n === '词语运用').length).toBe(1);
    const cells = await query<{ classId: number; name: string; answered: number; correct: number }>(t, sql`
      SELECT a.class_id AS "classId", kp.name, count(*)::int AS answered, count(*) FILTER (WHERE a.is_correct)::int AS correct
        FROM answer_records a CROSS JOIN LATERAL unnest(a.knowledge_point_ids) AS k(id) JOIN knowledge_points kp ON kp.id = k.id
       WHERE a.school_id = ${schoolId} AND a.term = ${TERM} GROUP BY 1, 2`);
    const recounted = new Map(cells.map((x) => [`${x.classId}:${x.name}`, x]));
    const nameOf = new Map(a.knowledge.knowledgePoints.map((k: { id: number; name: string }) => [k.id, k.name]));
    expect(a.knowledge.cells.length).toBeGreaterThan(0);
    for (const cell of a.knowledge.cells) {
      const raw = recounted.get(`${cell.groupId}:${nameOf.get(cell.knowledgePointId)}`);
      expect({ answered: cell.answered, correct: cell.correct }).toEqual({ answered: raw?.answered, correct: raw?.correct });
    }
  });

  it('成绩分段 leaves out homework of fewer than BAND_MIN_ITEMS items and counts exams', async () => {
    const a = await c.data('principal', URL);
    const { schoolId } = await tenantOf('principal');
    const [n] = await query<{ exams: number; shortHomework: number }>(t, sql`
      SELECT count(DISTINCT (source_id, student_id)) FILTER (WHERE source_type = 2)::int AS exams,
             count(DISTINCT (source_type, source_id, student_id)) FILTER (WHERE source_type <> 2 AND (SELECT jsonb_array_length(items) FROM homeworks h WHERE h.id = source_id) < ${BAND_MIN_ITEMS})::int AS "shortHomework"
        FROM answer_records WHERE school_id = ${schoolId} AND term = ${TERM}`);
    expect(n.shortHomework).toBeGreaterThan(0);
    const banded = a.total.excellent + a.total.good + a.total.pass + a.total.fail;
    expect(banded).toBe(n.exams);
    expect(banded).toBeLessThan(a.total.works);
  });
});

describe('导出', () => {
  it('each card downloads as xlsx with the numbers the API answers, its scope and term, rates as percentages', async () => {
    const a = await c.data('principal', URL);
    const before = new Date();
    const res = await c.get('principal', `${URL}/export?figure=groups`);
    const after = new Date();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    // The file name says what it covers: the figure, the school, the term and the time in China.
    const fileName = decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))?.[1] ?? '');
    expect(fileName).toMatch(new RegExp(`^学情分析_班级对比_杭州市西湖区实验中学_${termLabel(TERM)}_\\d{14}\\.xlsx$`));
    const stamp = fileName.slice(-19, -5);
    const china = (d: Date) => dateTime(d).replace(/\D/g, '');
    expect([china(before), china(after)]).toContain(stamp.slice(0, 12));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getCell('A1').value).toBe('学情分析 · 班级对比');
    expect(ws.getCell('A2').value).toBe('范围：杭州市西湖区实验中学');
    expect(ws.getCell('A3').value).toBe(`学期：${termLabel(TERM)}`);
    expect([`导出时间：${dateTime(before)}（北京时间）`, `导出时间：${dateTime(after)}（北京时间）`]).toContain(ws.getCell('A4').value);
    expect(ws.getRow(6).values).toEqual([undefined, '班级', '得分', '满分', '得分率']);
    const first = ws.getRow(7);
    expect(first.getCell(1).value).toBe(a.groups[0].name);
    // A rate is a number Excel shows as 94.9 %, not the text or the bare fraction 0.9488.
    expect(first.getCell(4).value).toBeCloseTo(a.groups[0].scoreRate ?? NaN, 4);
    expect(first.getCell(4).numFmt).toBe('0.0%');
    expect(first.getCell(2).numFmt).not.toBe('0.0%');
    const total = ws.getRow(7 + a.groups.length);
    expect(total.getCell(1).value).toBe('合计');
    expect(Number(total.getCell(2).value)).toBeCloseTo(a.total.score, 2);
    expect(ws.rowCount).toBe(6 + a.groups.length + 1);
    for (const figure of ['bands', 'participation', 'trend', 'knowledge', 'questions']) {
      const r = await c.get('researcher', `${URL}/export?figure=${figure}`);
      expect(r.statusCode, figure).toBe(200);
    }
  });
});

describe('使用统计 (mini-program teacher)', () => {
  let mp: TestApp;
  let m: ReturnType<typeof client>;
  beforeAll(async () => {
    mp = await createTestApp();
    m = client(mp);
  });
  afterAll(() => mp.close());

  it('shows the teacher’s own classes and students with completion and accuracy equal to a recount', async () => {
    const u = await m.data('teacher', '/api/analysis/v1.0/usage');
    const [me] = await query<{ id: number }>(mp, sql`SELECT id FROM users WHERE username = 'teacher'`);
    const mine = await query<{ id: number }>(mp, sql`SELECT DISTINCT ta.class_id AS id FROM teaching_assignments ta JOIN teachers te ON te.id = ta.teacher_id WHERE te.user_id = ${me.id}`);
    expect(u.classes.map((x: { classId: number }) => x.classId).sort()).toEqual(mine.map((x) => x.id).sort());
    const cls = u.classes.find((x: { classId: number }) => x.classId === u.classId);
    const [raw] = await query<{ submitted: number; answered: number; correct: number }>(mp, sql`
      SELECT count(DISTINCT (source_type, source_id, student_id))::int AS submitted, count(*)::int AS answered, count(*) FILTER (WHERE is_correct)::int AS correct
        FROM answer_records WHERE class_id = ${u.classId} AND term = ${TERM} AND source_type <> 2`);
    expect({ submitted: cls.submitted, answered: cls.answered, correct: cls.correct }).toEqual(raw);
    expect(cls.accuracy).toBeCloseTo(raw.correct / raw.answered, 3);
    expect(u.students.reduce((s: number, x: { submitted: number }) => s + x.submitted, 0)).toBe(raw.submitted);
    const nos = u.students.map((x: { studentNo: string }) => x.studentNo);
    expect(nos).toEqual([...nos].sort());
    expect((await m.get('teacher', URL)).statusCode).toBe(403);
    expect((await m.get('principal', '/api/analysis/v1.0/usage')).statusCode).toBe(403);
    const [other] = await query<{ id: number }>(mp, sql`SELECT id FROM classes WHERE id <> ALL(${ints(mine.map((x) => x.id))}) LIMIT 1`);
    const res = await m.get('teacher', `/api/analysis/v1.0/usage?classId=${other.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('班级不存在');
  });
});
