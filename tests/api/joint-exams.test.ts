// A researcher makes a 联考 of their region from one exam of each of at least two schools, sees it
// reported school by school at once, and deletes it; another region's exam, an exam of another
// grade or subject, a second exam of one school and hostile input are refused in Chinese; a teacher
// or a principal cannot make one, and nobody deletes a 联考 they did not make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { query } from '../support/content';
import { addFreeRegionExams, UNIT_TEST_TITLE } from '../support/jointExams';
import type { JointExamReport, JointExamSummary } from '../../src/domain/analysis';

let t: TestApp;
let c: ReturnType<typeof client>;
let free: { examId: number; schoolId: number }[];
let maths: number;
const BASE = '/api/analysis/v1.0/jointExams';

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  free = await addFreeRegionExams(t.database.db);
  [{ id: maths }] = await query<{ id: number }>(t, sql`SELECT id FROM subjects WHERE name = '数学'`);
});
afterAll(() => t.close());

const refused = async (res: { statusCode: number; json(): { msg: string } }, status: number, msg: string | RegExp) => {
  expect(res.statusCode, res.json().msg).toBe(status);
  expect(res.json().msg).toMatch(msg);
};

describe('making a 联考', () => {
  it('offers the region’s exams of the grade and subject, makes the 联考 and reports every school', async () => {
    expect(free.length).toBeGreaterThanOrEqual(3);
    const candidates = await c.data('researcher', `${BASE}/candidates?gradeLevel=7&subjectId=${maths}`);
    const regionSchools = await query<{ id: number }>(t, sql`SELECT id FROM schools WHERE region = '杭州市西湖区'`);
    expect(candidates.every((x: { schoolId: number }) => regionSchools.some((s) => s.id === x.schoolId))).toBe(true);
    const offered = candidates.filter((x: { title: string; jointExam: string | null }) => x.title === UNIT_TEST_TITLE && x.jointExam === null);
    expect(offered.map((x: { examId: number }) => x.examId).sort()).toEqual(free.map((f) => f.examId).sort());
    // The exams already in the demo 联考 say so.
    expect(candidates.some((x: { jointExam: string | null }) => x.jointExam?.endsWith('联考'))).toBe(true);

    const picked = free.slice(0, 3);
    const res = await c.post('researcher', BASE, { title: '西湖区七年级数学单元联考', gradeLevel: 7, subjectId: maths, examIds: picked.map((f) => f.examId) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('已创建联考“西湖区七年级数学单元联考”（3 所学校）');
    const id = res.json().data.id;
    const [log] = await query<{ action: string; kind: string; summary: string }>(t, sql`SELECT action, kind, summary FROM audit_logs ORDER BY id DESC LIMIT 1`);
    expect(log).toMatchObject({ action: 'create', kind: 'jointExam' });
    expect(log.summary).toMatch(/^新增联考 西湖区七年级数学单元联考（/);

    const list: JointExamSummary[] = await c.data('researcher', BASE);
    const made = list.find((j) => j.id === id)!;
    expect(made).toMatchObject({ subject: '数学', gradeLevel: 7, schools: 3, mine: true });
    expect(list.find((j) => j.id !== id)!.mine).toBe(false);
    const report: JointExamReport = await c.data('researcher', `${BASE}/${id}`);
    expect(report.schools.map((s) => s.schoolId).sort()).toEqual(picked.map((f) => f.schoolId).sort());
    expect(report.schools.every((s) => s.participants > 0)).toBe(true);
    // The principal of a school that sat it sees it, as theirs against the region; not as deletable.
    const theirs = await query<{ username: string }>(t, sql`SELECT u.username FROM users u JOIN user_roles r ON r.user_id = u.id AND r.role_key = 'xz:schoolMaster' WHERE u.school_id = ${picked[0].schoolId} LIMIT 1`);
    const seen: JointExamSummary[] = await c.data(theirs[0].username, BASE);
    expect(seen.find((j) => j.id === id)?.mine).toBe(false);

    // An exam already in a 联考 cannot join a second one.
    await refused(await c.post('researcher', BASE, { title: '重复', gradeLevel: 7, subjectId: maths, examIds: [picked[0].examId, free[3]?.examId ?? picked[1].examId] }), 409, /已属于联考“西湖区七年级数学单元联考”/);

    // Deleted: the exams stay, joined to nothing, and can make another.
    await refused(await c.post('principal', BASE, { title: 'x', gradeLevel: 7, subjectId: maths, examIds: [1, 2] }), 403, '无权访问');
    const gone = await t.call(await c.token('researcher'), { method: 'DELETE', url: `${BASE}/${id}` });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().msg).toBe('已删除联考“西湖区七年级数学单元联考”');
    expect((await query(t, sql`SELECT 1 FROM exams WHERE id = ANY(${`{${picked.map((f) => f.examId).join(',')}}`}::int[]) AND joint_exam_id IS NULL`)).length).toBe(3);
    expect((await c.get('researcher', `${BASE}/${id}`)).statusCode).toBe(404);
  });

  it('refuses another region’s exam, the wrong grade or subject, two of one school, one school, and other roles', async () => {
    const examIds = free.slice(0, 2).map((f) => f.examId);
    const body = { title: '西湖区七年级数学测验联考', gradeLevel: 7, subjectId: maths, examIds };
    // An exam of 宁波 (another region): not found, its existence not told.
    const [ningbo] = await query<{ id: number }>(t, sql`SELECT e.id FROM exams e JOIN schools s ON s.id = e.school_id WHERE s.region <> '杭州市西湖区' LIMIT 1`);
    expect(ningbo).toBeDefined();
    await refused(await c.post('researcher', BASE, { ...body, examIds: [examIds[0], ningbo.id] }), 404, '考试不存在或不属于本区域的学校');
    expect((await c.data('researcher', `${BASE}/candidates?gradeLevel=7&subjectId=${maths}`)).some((x: { examId: number }) => x.examId === ningbo.id)).toBe(false);
    // The home school's exams of another grade or subject.
    const [eighth] = await query<{ id: number }>(t, sql`
      SELECT e.id FROM exams e JOIN schools s ON s.id = e.school_id JOIN grades g ON g.id = e.grade_id WHERE s.region = '杭州市西湖区' AND g.level = 8 LIMIT 1`);
    await refused(await c.post('researcher', BASE, { ...body, examIds: [examIds[0], eighth.id] }), 400, /不是七年级数学的考试/);
    const [english] = await query<{ id: number }>(t, sql`SELECT id FROM subjects WHERE name = '英语'`);
    await refused(await c.post('researcher', BASE, { ...body, subjectId: english.id }), 400, /不是七年级英语的考试/);
    // Two of one school: the seeded 联考 sitting of the same school is taken, so copy another.
    const [again] = await query<{ id: number }>(t, sql`
      INSERT INTO exams (tenant_id, school_id, grade_id, course_id, title, exam_date, term, full_marks, items)
      SELECT tenant_id, school_id, grade_id, course_id, '七年级数学小测', exam_date, term, full_marks, items FROM exams WHERE id = ${examIds[0]} RETURNING id`);
    await refused(await c.post('researcher', BASE, { ...body, examIds: [...examIds, again.id] }), 400, /每所学校只能选一场考试/);
    await refused(await c.post('researcher', BASE, { ...body, examIds: [examIds[0], examIds[0]] }), 400, '请至少选择两所学校的考试');
    await refused(await c.post('researcher', BASE, { ...body, examIds: [examIds[0]] }), 400, /考试/);
    await refused(await c.post('researcher', BASE, { ...body, title: '   ' }), 400, '请填写联考名称');
    await refused(await c.post('researcher', BASE, { ...body, title: '联'.repeat(61) }), 400, /联考名称/);
    await refused(await c.post('researcher', BASE, { ...body, gradeLevel: 13 }), 400, /年级/);
    await refused(await c.post('researcher', BASE, { ...body, subjectId: 99999999 }), 404, '学科不存在');
    await refused(await c.post('researcher', BASE, { ...body, examIds: Array.from({ length: 51 }, (_, i) => i + 1) }), 400, /考试/);
    await refused(await c.post('researcher', BASE, { ...body, examIds: ["1' OR 1=1"] }), 400, /[\u4e00-\u9fa5]/);
    const badQuery = await c.get('researcher', `${BASE}/candidates?gradeLevel=abc&subjectId=${maths}`);
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    // Teachers, principals and school admins make none, nor list the candidates.
    for (const user of ['teacher', 'principal', 'principal3', 'gradeleader', 'schooladmin']) {
      await refused(await c.post(user, BASE, body), 403, '无权访问');
      expect((await c.get(user, `${BASE}/candidates?gradeLevel=7&subjectId=${maths}`)).statusCode, user).toBe(403);
    }
    // The seeded 联考 was made by no researcher: nobody deletes it; a 联考 of another region is not found.
    const [seeded] = await query<{ id: number }>(t, sql`SELECT id FROM joint_exams WHERE created_by IS NULL LIMIT 1`);
    const del = async (user: string, id: number) => t.call(await c.token(user), { method: 'DELETE', url: `${BASE}/${id}` });
    await refused(await del('researcher', seeded.id), 403, '只能删除自己创建的联考');
    await refused(await del('principal', seeded.id), 403, '无权访问');
    const [elsewhere] = await query<{ id: number }>(t, sql`
      INSERT INTO joint_exams (region, title, subject_id, grade_level, exam_date, term, full_marks) VALUES ('宁波市海曙区', '海曙区联考', ${maths}, 7, '2026-10-01', '202601', 100) RETURNING id`);
    await refused(await del('researcher', elsewhere.id), 404, '联考不存在');
    await refused(await del('researcher', 99999999), 404, '联考不存在');
    // It is made once all is right.
    expect((await c.post('researcher', BASE, body)).statusCode).toBe(200);
  });
});
