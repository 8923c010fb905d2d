// The school year (docs/api-school-year.md): terms and the default term of reports, student states
// with their day (out of lists and expected counts from that day, records kept), birth dates,
// class consents and their withdrawal, 升年级 applied and undone exactly; roles, tenants, bad input.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateOnly } from '../../src/domain/format';
import { rows } from '../../server/db/query';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, multipart, workbook, XLSX } from '../support/school';
import { studentCountsDrift } from '../support/content';

let t: TestApp;
let c: ReturnType<typeof client>;
let foreignStudentId: number;
let foreignClassId: number;

interface GradeNode {
  gradeId: number;
  gradeName: string;
  level: number;
  graduatedYear: number | null;
  children: { classId: number; className: string; studentCount: number }[];
}
interface Homework {
  id: number;
  classId: number;
  assignedAt: string;
  dueAt: string;
  term: string;
  studentCount: number;
  submittedCount: number;
}

const today = () => dateOnly(new Date());
const put = async (user: string, url: string, payload: object) => t.call(await c.token(user), { method: 'PUT', url, payload });
const tree = async (includeGraduated = false): Promise<GradeNode[]> =>
  c.data('schooladmin', `/api/vesta/class/treeClassBySchool${includeGraduated ? '?includeGraduated=true' : ''}`);

beforeAll(async () => {
  t = await createTestApp({ classicTeacher: true }, { logger: { level: 'error' } });
  c = client(t);
  foreignStudentId = (await c.data('schooladmin2', '/api/vesta/student/page?size=1')).records[0].id;
  foreignClassId = (await c.data('schooladmin2', '/api/vesta/class/treeClassBySchool'))[0].children[0].classId;
});
afterAll(() => t.close());

describe('terms and the default term of reports', () => {
  it('keeps the terms and makes the current one the default of the analysis', async () => {
    const before = await c.data('schooladmin', '/api/vesta/school/terms');
    expect(before).toMatchObject({ configured: false, terms: [] });
    const terms = [
      { term: '202501', startDate: '2025-09-01', endDate: '2026-01-20' },
      { term: '202502', startDate: '2026-02-16', endDate: '2026-07-10' },
    ];
    const saved = await put('schooladmin', '/api/vesta/school/terms', { currentTerm: '202501', terms });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await c.data('schooladmin', '/api/vesta/school/terms');
    expect(after).toMatchObject({ currentTerm: '202501', configured: true });
    expect(after.terms.map((x: { label: string }) => x.label)).toEqual(['2025-2026学年上学期', '2025-2026学年下学期']);
    // A teacher's report without a term is the school's current term, not the calendar's.
    expect((await c.data('teacher', '/api/analysis/v1.0/overview')).term).toBe('202501');
    expect(await c.data('teacher', '/api/vesta/school/currentTerm')).toMatchObject({ term: '202501', startDate: '2025-09-01', label: '2025-2026学年上学期' });
    // Another school keeps the calendar's.
    expect((await c.data('schooladmin2', '/api/vesta/school/currentTerm')).startDate).toBeNull();

    // 本学期 on the teacher's homework list starts on the first day of the school's term.
    const start = dateOnly(new Date(Date.now() - 10 * 86400_000));
    const year = Number(start.slice(0, 4)) - (Number(start.slice(5, 7)) < 8 ? 1 : 0);
    const term = `${year}0${Number(start.slice(5, 7)) < 8 ? 2 : 1}`;
    const res = await put('schooladmin', '/api/vesta/school/terms', { currentTerm: term, terms: [{ term, startDate: start, endDate: `${year + 1}-07-31` }] });
    expect(res.statusCode, res.body).toBe(200);
    const all = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).total;
    const [{ since }] = await rows<{ since: number }>(t.database.db, sql`
      SELECT count(*)::int AS since FROM homeworks h JOIN teachers te ON te.id = h.teacher_id JOIN users u ON u.id = te.user_id
       WHERE u.username = 'teacher' AND h.assigned_at >= ${`${start}T00:00:00+08:00`}::timestamptz`);
    expect(since).toBeGreaterThan(0);
    expect(since).toBeLessThan(all);
    expect((await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1&dateType=0')).total).toBe(since);
  });

  it('refuses overlapping, reversed, unreal or foreign terms with a Chinese 400, and other roles', async () => {
    const putTerms = (body: object, user = 'schooladmin') => put(user, '/api/vesta/school/terms', body);
    const cases: [object, string][] = [
      [{ currentTerm: '202601', terms: [{ term: '202601', startDate: '2026-09-01', endDate: '2026-08-01' }] }, '2026-2027学年上学期的结束日期须晚于开始日期'],
      [{ currentTerm: '202601', terms: [{ term: '202601', startDate: '2026-02-30', endDate: '2027-01-20' }] }, '2026-2027学年上学期的日期不正确'],
      [{ currentTerm: '202601', terms: [{ term: '202601', startDate: '2024-09-01', endDate: '2025-01-20' }] }, '2026-2027学年上学期的日期须在2026-2027学年内'],
      [
        { currentTerm: '202601', terms: [{ term: '202601', startDate: '2026-09-01', endDate: '2027-02-20' }, { term: '202602', startDate: '2027-02-01', endDate: '2027-07-01' }] },
        '2026-2027学年上学期与2026-2027学年下学期的日期重叠',
      ],
      [{ currentTerm: '202502', terms: [{ term: '202601', startDate: '2026-09-01', endDate: '2027-01-20' }] }, '当前学期须是已填写的学期之一'],
    ];
    for (const [body, msg] of cases) {
      const res = await putTerms(body);
      expect(res.statusCode, msg).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    const tooMany = Array.from({ length: 13 }, (_, i) => ({ term: `20${10 + i}01`, startDate: `20${10 + i}-09-01`, endDate: `20${10 + i}-12-31` }));
    expect((await putTerms({ currentTerm: '201001', terms: tooMany })).statusCode).toBe(400);
    expect((await putTerms({ currentTerm: '202601', terms: [{ term: '202601', startDate: '2026-09-01', endDate: '2027-01-20' }] }, 'teacher')).statusCode).toBe(403);
    expect((await c.get('teacher', '/api/vesta/school/terms')).statusCode).toBe(403);
  });
});

describe('student states', () => {
  it('takes a student out of lists and later expected counts from the day they left, keeping their records', async () => {
    const db = t.database.db;
    // A class of the teacher with homework on several days, one student who handed in the earliest.
    const list: Homework[] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=200')).records;
    const classId = list[0].classId;
    const inClass = list.filter((h) => h.classId === classId && new Date(h.dueAt) < new Date()).sort((a, b) => a.assignedAt.localeCompare(b.assignedAt));
    const days = [...new Set(inClass.map((h) => dateOnly(h.assignedAt)))];
    expect(days.length).toBeGreaterThan(3);
    const leftOn = days[Math.floor(days.length / 2)];
    const earlier = inClass.find((h) => dateOnly(h.assignedAt) < leftOn)!;
    const later = inClass.find((h) => dateOnly(h.assignedAt) >= leftOn)!;
    const earlierDetail = await c.data('teacher', `/api/minerva/v1.0/homeworks/${earlier.id}`);
    const student = earlierDetail.students.find((s: { submitted: boolean }) => s.submitted);
    const term = earlier.term;
    const figures = async () => (await c.data('teacher', `/api/analysis/v1.0/overview?term=${term}&classId=${classId}`)).total;
    const recordsOf = async () => (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM answer_records WHERE student_id = ${student.studentId}`))[0].n;
    const classCount = async () => (await c.data('schooladmin', `/api/vesta/class/getClassInfo?classId=${classId}`)).studentCount;
    const before = { figures: await figures(), records: await recordsOf(), classCount: await classCount(), overview: (await c.data('schooladmin', '/api/vesta/school/overview')).studentCount };
    const laterBefore = await c.data('teacher', `/api/minerva/v1.0/homeworks/${later.id}`);
    expect(laterBefore.students.map((s: { studentId: number }) => s.studentId)).toContain(student.studentId);

    await c.done('schooladmin', '/api/vesta/student/changeStatus', { studentIds: [student.studentId], change: 2, onDate: leftOn, reason: '随父母工作调动转学' });

    // Out of the lists: the teacher's roster, the class and the school counts.
    const roster = await c.data('teacher', `/api/vesta/student/page?classId=${classId}&size=100`);
    expect(roster.records.map((s: { id: number }) => s.id)).not.toContain(student.studentId);
    expect(await classCount()).toBe(before.classCount - 1);
    expect((await c.data('schooladmin', '/api/vesta/school/overview')).studentCount).toBe(before.overview - 1);
    // The admin still finds them, 转出 since that day.
    const found = await c.data('schooladmin', `/api/vesta/student/page?classId=${classId}&status=2`);
    expect(found.records).toEqual([expect.objectContaining({ id: student.studentId, status: 2, leftOn })]);

    // Work from before that day keeps them and their hand-in; work from that day on does not expect them.
    const earlierAfter = await c.data('teacher', `/api/minerva/v1.0/homeworks/${earlier.id}`);
    expect(earlierAfter.studentCount).toBe(earlierDetail.studentCount);
    expect(earlierAfter.students.find((s: { studentId: number }) => s.studentId === student.studentId)).toMatchObject({ submitted: true, score: student.score });
    const laterAfter = await c.data('teacher', `/api/minerva/v1.0/homeworks/${later.id}`);
    expect(laterAfter.studentCount).toBe(laterBefore.studentCount - 1);
    expect(laterAfter.students.map((s: { studentId: number }) => s.studentId)).not.toContain(student.studentId);

    // Figures recounted from the records: hand-ins unchanged, expected less by one per due homework
    // of the class given from that day on.
    const [{ dueFromThen }] = await rows<{ dueFromThen: number }>(db, sql`
      SELECT count(*)::int AS "dueFromThen" FROM homeworks
       WHERE class_id = ${classId} AND term = ${term} AND due_at <= now() AND (assigned_at AT TIME ZONE 'Asia/Shanghai')::date >= ${leftOn}::date`);
    expect(dueFromThen).toBeGreaterThan(0);
    const after = await figures();
    expect(after.homeworkSubmitted).toBe(before.figures.homeworkSubmitted);
    expect(after.homeworkAssigned).toBe(before.figures.homeworkAssigned - dueFromThen);
    expect(await recordsOf()).toBe(before.records);

    // History with day and reason; then back in (转入) with a later day.
    await c.done('schooladmin', '/api/vesta/student/changeStatus', { studentIds: [student.studentId], change: 1, onDate: today(), reason: '转回本校' });
    const history = await c.data('schooladmin', `/api/vesta/student/statusHistory?studentId=${student.studentId}`);
    expect(history.map((h: { changeLabel: string; onDate: string }) => [h.changeLabel, h.onDate])).toEqual([['转入', today()], ['转出', leftOn]]);
    expect(history[1]).toMatchObject({ reason: '随父母工作调动转学', recordedBy: expect.any(String) });
    expect(await classCount()).toBe(before.classCount);
    expect((await figures()).homeworkAssigned).toBe(before.figures.homeworkAssigned);
  });

  it('suspends and resumes, and refuses wrong changes, days, reasons, roles and tenants in Chinese', async () => {
    const [a, b] = (await c.data('schooladmin', '/api/vesta/student/page?status=0&size=2')).records;
    const change = (body: object, user = 'schooladmin') => c.post(user, '/api/vesta/student/changeStatus', body);
    const tomorrow = dateOnly(new Date(Date.now() + 86400_000));
    const refused: [object, number, string][] = [
      [{ studentIds: [a.id], change: 4, onDate: today() }, 409, `${a.name}当前为在读，不能复学`],
      [{ studentIds: [a.id], change: 3, onDate: today() }, 400, '请填写休学原因'],
      [{ studentIds: [a.id], change: 3, onDate: tomorrow, reason: '病休' }, 400, '生效日期不能晚于今天'],
      [{ studentIds: [a.id], change: 3, onDate: '2026-02-30', reason: '病休' }, 400, '生效日期不正确'],
      [{ studentIds: [a.id], change: 3, onDate: today(), reason: '病休', classId: 1 }, 400, '休学不需要选择班级'],
      [{ studentIds: [foreignStudentId], change: 3, onDate: today(), reason: '病休' }, 404, '学生不存在'],
      [{ studentIds: [a.id], change: 9, onDate: today() }, 400, ''],
      [{ studentIds: [a.id], change: 3, onDate: today(), reason: '长'.repeat(201) }, 400, ''],
      [{ studentIds: Array.from({ length: 501 }, (_, i) => i + 1), change: 3, onDate: today(), reason: '病休' }, 400, ''],
    ];
    for (const [body, status, msg] of refused) {
      const res = await change(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      if (msg) expect(res.json().msg).toBe(msg);
      else expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await change({ studentIds: [a.id], change: 3, onDate: today(), reason: '病休' }, 'teacher')).statusCode).toBe(403);

    await c.done('schooladmin', '/api/vesta/student/changeStatus', { studentIds: [a.id, b.id], change: 3, onDate: today(), reason: '病休' });
    expect((await c.data('schooladmin', `/api/vesta/student/page?status=3&size=10`)).total).toBe(2);
    const early = await change({ studentIds: [a.id], change: 4, onDate: '2020-01-01' });
    expect(early.statusCode).toBe(409);
    expect(early.json().msg).toBe(`${a.name}的生效日期不能早于上次变动（${today()}）`);
    await c.done('schooladmin', '/api/vesta/student/changeStatus', { studentIds: [a.id, b.id], change: 4, onDate: today() });
    expect((await c.data('schooladmin', `/api/vesta/student/page?status=3&size=10`)).total).toBe(0);
    expect((await c.get('schooladmin', `/api/vesta/student/statusHistory?studentId=${foreignStudentId}`)).statusCode).toBe(404);
    // Both changes are in 操作日志.
    const log = await c.data('schooladmin', '/api/audit/v1/logs?kind=student&size=5');
    expect(log.records.map((r: { summary: string }) => r.summary).join('\n')).toContain('复学');
  });
});

describe('birth dates and consents', () => {
  it('takes a birth date on the form and in the import, bounded', async () => {
    const [cls] = (await tree())[0].children;
    const added = await c.done('schooladmin', '/api/vesta/student/add', { name: '林小满', studentNo: 'Y-2026-001', classId: cls.classId, birthDate: '2013-10-08' });
    const one = async () => (await c.data('schooladmin', '/api/vesta/student/page?keyword=Y-2026-001')).records[0];
    expect((await one()).birthDate).toBe('2013-10-08');
    await c.done('schooladmin', '/api/vesta/student/update', { studentId: added.id, birthDate: '2013-11-08' });
    expect((await one()).birthDate).toBe('2013-11-08');
    for (const birthDate of ['2013-02-30', '2999-01-01', '13-1-1']) {
      const res = await c.post('schooladmin', '/api/vesta/student/update', { studentId: added.id, birthDate });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toMatch(/出生日期/);
    }
    const header = ['姓名', '学号', '性别', '年级', '班级', '家长手机号', '出生日期'];
    const bad = await c.upload('schooladmin', '/api/vesta/student/importData', multipart({}, { name: 's.xlsx', type: XLSX, content: await workbook(header, [['林小满', 'Y-2026-001', '女', '七年级', cls.className, '', '2013-13-01']]) }));
    expect(bad.statusCode).toBe(422);
    const good = await c.upload('schooladmin', '/api/vesta/student/importData', multipart({}, { name: 's.xlsx', type: XLSX, content: await workbook(header, [['林小满', 'Y-2026-001', '女', '七年级', cls.className, '', '2013-12-08']]) }));
    expect(good.statusCode).toBe(200);
    expect((await one()).birthDate).toBe('2013-12-08');
  });

  it('records a whole class, filters by class, and withdraws one consent', async () => {
    const cls = (await tree())[1].children[0];
    await t.database.db.execute(sql`DELETE FROM guardian_consents WHERE student_id IN (SELECT id FROM students WHERE class_id = ${cls.classId})`);
    const page = async () => c.data('schooladmin', `/api/heart/v1/consents?classId=${cls.classId}&size=100`);
    expect((await page()).records.every((r: { consentedOn: string | null }) => r.consentedOn === null)).toBe(true);
    const res = await c.done('schooladmin', '/api/heart/v1/consents/class', { classId: cls.classId, consentedOn: today() });
    expect(res.count).toBe(cls.studentCount);
    const all = await page();
    expect(all.total).toBe(cls.studentCount);
    expect(all.records.every((r: { consentedOn: string | null }) => r.consentedOn === today())).toBe(true);
    const first = all.records[0];
    await c.done('schooladmin', '/api/heart/v1/consents/withdraw', { studentId: first.studentId });
    expect((await page()).records.find((r: { studentId: number }) => r.studentId === first.studentId).consentedOn).toBeNull();
    const again = await c.post('schooladmin', '/api/heart/v1/consents/withdraw', { studentId: first.studentId });
    expect(again.statusCode).toBe(404);
    expect(again.json().msg).toBe('该学生没有已登记的监护人同意');
    expect((await c.post('schooladmin', '/api/heart/v1/consents/class', { classId: foreignClassId, consentedOn: today() })).statusCode).toBe(404);
    expect((await c.post('schooladmin', '/api/heart/v1/consents/withdraw', { studentId: foreignStudentId })).statusCode).toBe(404);
    expect((await c.post('schooladmin', '/api/heart/v1/consents/class', { classId: cls.classId, consentedOn: '2999-01-01' })).json().msg).toBe('同意日期不正确');
    expect((await c.post('teacher', '/api/heart/v1/consents/class', { classId: cls.classId, consentedOn: today() })).statusCode).toBe(403);
  });
});

describe('升年级', () => {
  it('previews, applies in one go and undoes exactly', async () => {
    const year = Number(today().slice(0, 4));
    const treeBefore = await tree(true);
    const statusBefore = await rows(t.database.db, sql`SELECT id, status, graduated_year, left_on, class_id FROM students ORDER BY id`);
    const preview = await c.data('schooladmin', '/api/vesta/promotion/preview');
    expect(preview.graduating).toEqual([expect.objectContaining({ gradeName: '九年级', classCount: 4 })]);
    expect(preview.moving.map((m: { from: string; to: string }) => `${m.from}→${m.to}`)).toEqual(['七年级→八年级', '八年级→九年级']);
    expect(preview.moving[0].classes[0]).toMatchObject({ from: '七(1)班', to: '八(1)班' });
    expect(preview.created).toEqual(['七年级']);

    const applied = await c.done('schooladmin', '/api/vesta/promotion/apply', { year });
    expect(applied).toMatchObject({ year, undoable: true });
    const now = await tree();
    expect(now.map((g) => g.gradeName)).toEqual(['七年级', '八年级', '九年级']);
    expect(now[0].children).toEqual([]);
    expect(now[1].children.map((x) => x.className)).toEqual(treeBefore[0].children.map((x) => x.className.replace('七', '八')));
    expect(now[2].children.map((x) => x.classId)).toEqual(treeBefore[1].children.map((x) => x.classId));
    const graduated = (await tree(true)).find((g) => g.gradeId === treeBefore[2].gradeId)!;
    expect(graduated.graduatedYear).toBe(year);
    expect((await c.data('schooladmin', `/api/vesta/student/page?gradeId=${graduated.gradeId}&status=1`)).total).toBe(preview.graduating[0].studentCount);
    // Only the top grade graduates by hand; a second promotion of the same year is refused.
    const notTop = await c.post('schooladmin', '/api/vesta/class/graduateGrade', { gradeId: now[1].gradeId, year });
    expect(notTop.statusCode).toBe(409);
    expect(notTop.json().msg).toBe('只有最高年级（九年级）可以毕业，其他年级请使用升年级');
    const twice = await c.post('schooladmin', '/api/vesta/promotion/apply', { year });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().msg).toBe(`${year}年已升过年级，如需重做请先撤销`);
    expect((await c.post('teacher', '/api/vesta/promotion/undo', { promotionId: applied.id })).statusCode).toBe(403);
    expect((await c.post('schooladmin2', '/api/vesta/promotion/undo', { promotionId: applied.id })).statusCode).toBe(404);

    await c.done('schooladmin', '/api/vesta/promotion/undo', { promotionId: applied.id });
    expect(await tree(true)).toEqual(treeBefore);
    expect(await rows(t.database.db, sql`SELECT id, status, graduated_year, left_on, class_id FROM students ORDER BY id`)).toEqual(statusBefore);
    const again = await c.post('schooladmin', '/api/vesta/promotion/undo', { promotionId: applied.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('这次升年级已撤销');
    expect(await c.data('schooladmin', '/api/vesta/promotion/last')).toMatchObject({ id: applied.id, undoable: false, undoneAt: expect.any(String) });
    const log = await c.data('schooladmin', '/api/audit/v1/logs?kind=schoolYear&size=5');
    expect(log.records.map((r: { action: string }) => r.action)).toEqual(['undo', 'promote']);
  });

  it('refuses an undo after the period, and bad input', async () => {
    const applied = await c.done('schooladmin', '/api/vesta/promotion/apply', {});
    await t.database.db.execute(sql`UPDATE promotions SET created_at = now() - interval '8 days' WHERE id = ${applied.id}`);
    const late = await c.post('schooladmin', '/api/vesta/promotion/undo', { promotionId: applied.id });
    expect(late.statusCode).toBe(409);
    expect(late.json().msg).toBe('升年级已超过7天，不能撤销');
    expect((await c.post('schooladmin', '/api/vesta/promotion/apply', { year: 3000 })).statusCode).toBe(400);
    expect((await c.post('schooladmin', '/api/vesta/promotion/undo', { promotionId: 1e300 })).statusCode).toBe(400);
    expect((await c.get('teacher', '/api/vesta/promotion/preview')).statusCode).toBe(403);
  });
});

describe('student counts', () => {
  it('follow promotion, graduation and their undo', async () => {
    expect(await studentCountsDrift(t)).toEqual([]);
  });
});
