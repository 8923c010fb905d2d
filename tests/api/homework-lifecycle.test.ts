// A homework after it is assigned, for the mini-program teacher (demo `teacher`): its detail (who
// has and has not submitted, per question the answers given), guarded by teacher, school and tenant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, multipart, tempDataDir } from '../support/school';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import { query, rawRecords } from '../support/content';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { recordAnswers } from '../../server/modules/minerva/answers';
import type { HomeworkRecord } from '../../src/dataProvider/minerva';
import { PUBLISHED } from '../../server/modules/minerva/homeworkQueries';

// One app for the file: the seeded school, and the homework each test adds.
let t: TestApp;
let c: ReturnType<typeof client>;
// A data directory of its own: the photo-graded homework stores the pages handed in.
beforeAll(async () => void (c = client((t = await createTestApp({ dataDir: tempDataDir() })))));
afterAll(() => t.close());

type Listed = Pick<HomeworkRecord, 'id' | 'submittedCount' | 'studentCount'> & { sourceType: number };

describe('homework detail for the mini-program teacher', () => {
  it('names who has submitted and who has not, and per question the answers given', async () => {
    const listed = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=50')).records as Listed[];
    // A seeded homework some of the class handed in and some did not.
    const hw = listed.find((h) => h.submittedCount > 0 && h.submittedCount < h.studentCount)!;
    expect(hw).toBeDefined();
    const detail = await c.data('teacher', `/api/minerva/v1.0/homeworks/${hw.id}`);
    const records = await rawRecords(t, hw.sourceType, hw.id);
    const handedIn = new Set(records.map((r) => r.studentId));
    const students = detail.students as { studentId: number; name: string; submitted: boolean }[];
    expect(students.filter((s) => s.submitted).map((s) => s.studentId).sort()).toEqual([...handedIn].sort());
    expect(students.filter((s) => !s.submitted).length).toBe(hw.studentCount - handedIn.size);
    expect(students.every((s) => /\p{Script=Han}/u.test(s.name))).toBe(true);

    for (const q of detail.questions as { question: { id: number }; answers: { answer: string; count: number; correct: boolean }[] }[]) {
      const mine = records.filter((r) => r.questionId === q.question.id && r.answer?.trim());
      const counts = new Map<string, number>();
      for (const r of mine) counts.set(r.answer!.trim(), (counts.get(r.answer!.trim()) ?? 0) + 1);
      const top = [...counts.values()].sort((a, b) => b - a).slice(0, 4);
      expect(q.answers.map((a) => a.count)).toEqual(top);
      for (const a of q.answers) {
        expect(counts.get(a.answer)).toBe(a.count);
        expect(a.correct).toBe(mine.some((r) => r.answer!.trim() === a.answer && r.isCorrect));
      }
    }
    expect((detail.questions as { answers: unknown[] }[]).some((q) => q.answers.length > 1)).toBe(true);

    const exported = await c.get('teacher', `/api/minerva/v1.0/homeworks/${hw.id}/export`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
  });

  it("refuses another teacher's or tenant's homework, other roles and hostile ids in Chinese", async () => {
    const [own] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).records as Listed[];
    for (const user of ['teacher2', 'teacher3']) {
      expect((await c.get(user, `/api/minerva/v1.0/homeworks/${own.id}`)).json()).toMatchObject({ code: 404, msg: '作业不存在' });
      expect((await c.get(user, `/api/minerva/v1.0/homeworks/${own.id}/export`)).statusCode).toBe(404);
    }
    for (const user of ['schooladmin', 'partner1']) {
      const res = await c.get(user, `/api/minerva/v1.0/homeworks/${own.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toMatch(/\p{Script=Han}/u);
    }
    for (const id of ['0', '-1', 'abc', '99999999999', '1%3BDROP', '1.5']) {
      const res = await c.get('teacher', `/api/minerva/v1.0/homeworks/${id}`);
      expect(res.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, id).toBeLessThan(500);
      expect(res.json().msg, id).toMatch(/\p{Script=Han}/u);
    }
    expect((await c.get('teacher', '/api/minerva/v1.0/homeworks/2147483000')).json()).toMatchObject({ code: 404, msg: '作业不存在' });
  });
});

const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();

describe('the same pages assigned twice', () => {
  it('asks first with a Chinese 409, writes nothing, and assigns once confirmed', async () => {
    const classes = (await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')) as { id: number; className: string }[];
    const maths = ((await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === '数学')!;
    const [book] = await c.data('teacher', `/api/minerva/v1.0/exercisebook/getExerciseBooksByClassId?classId=${classes[0].id}&courseId=${maths.courseId}`);
    const detail = await c.data('teacher', `/api/minerva/v1.0/exercisebooks/${book.id}`);
    const firstPage = detail.chapters[0].sections[0].pages[0];
    const body = { courseId: maths.courseId, classIds: [classes[0].id], dueAt: inAWeek(), bookId: book.id, pageIds: [firstPage.id] };
    const total = async () => (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).total as number;
    const before = await total();
    // The seeded term has given this page to the class already: asked first, nothing written.
    const seeded = await c.post('teacher', '/api/minerva/v1.0/homeworks', body);
    expect(seeded.json()).toMatchObject({ code: 409, msg: expect.stringMatching(new RegExp(`^${classes[0].className.replace(/[()]/g, '\\$&')}已布置过「.+」中的页面，仍要再布置一次吗？$`)) });
    expect(await total()).toBe(before);
    const first = await c.done('teacher', '/api/minerva/v1.0/homeworks', { ...body, confirmDuplicate: true });
    expect(await total()).toBe(before + 1);
    // Again, also with another class, or confirm false: the newest such homework is named.
    for (const again of [body, { ...body, classIds: [classes[1].id, classes[0].id] }, { ...body, confirmDuplicate: false }]) {
      const res = await c.post('teacher', '/api/minerva/v1.0/homeworks', again);
      expect(res.json()).toMatchObject({ code: 409, msg: `${classes[0].className}已布置过「${first.title}」中的页面，仍要再布置一次吗？` });
    }
    expect(await total()).toBe(before + 1);
    // A teacher of another school is refused as before (404), never asked; a non-boolean confirm is a 400.
    expect((await c.post('teacher3', '/api/minerva/v1.0/homeworks', { ...body, confirmDuplicate: true })).statusCode).toBe(404);
    expect((await c.post('teacher', '/api/minerva/v1.0/homeworks', { ...body, confirmDuplicate: 'yes' })).json().msg).toMatch(/确认重复布置/);
    const confirmed = await c.done('teacher', '/api/minerva/v1.0/homeworks', { ...body, confirmDuplicate: true });
    expect(confirmed.homeworks).toHaveLength(1);
    expect(await total()).toBe(before + 2);
    // A custom list of the same questions is a deliberate review: not asked.
    const questionIds = (await c.data('teacher', `/api/minerva/v1.0/homeworks/${confirmed.homeworks[0].id}`)).questions.map((q: { question: { id: number } }) => q.question.id);
    expect((await c.post('teacher', '/api/minerva/v1.0/homeworks', { courseId: maths.courseId, classIds: [classes[0].id], dueAt: inAWeek(), questionIds })).statusCode).toBe(200);
  });
});

interface UsageRow {
  assigned: number;
  submitted: number;
  completionRate: number | null;
}

describe('homework not yet due is not counted as missing (班级管理)', () => {
  it('counts an open homework only by its hand-ins, and the whole class once the deadline has passed', async () => {
    const usage = async () => (await c.data('teacher', '/api/analysis/v1.0/usage')) as { classId: number; classes: (UsageRow & { classId: number; homeworks: number })[]; students: (UsageRow & { studentId: number })[]; trend: (UsageRow & { week: string })[] };
    const before = await usage();
    const classId = before.classId;
    const cls = (u: typeof before) => u.classes.find((x) => x.classId === classId)!;
    const maths = ((await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === '数学')!;
    const bank = await c.data('teacher', '/api/minerva/v1.0/questions?gradeLevel=7&type=1&size=2&subjectId=2');
    const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { courseId: maths.courseId, classIds: [classId], dueAt: inAWeek(), questionIds: bank.records.map((q: { id: number }) => q.id) });
    const hwId = created.homeworks[0].id as number;

    // Just assigned: one more homework, nothing more expected, the completion line does not drop.
    const fresh = await usage();
    expect(cls(fresh).homeworks).toBe(cls(before).homeworks + 1);
    expect([cls(fresh).assigned, cls(fresh).completionRate]).toEqual([cls(before).assigned, cls(before).completionRate]);
    // This week's point of the line: what was expected and handed in before, or nothing at all.
    const [{ thisWeek }] = await query<{ thisWeek: string }>(t, sql`SELECT date_trunc('week', now())::date::text AS "thisWeek"`);
    const week = (u: typeof before) => u.trend.find((w) => w.week === thisWeek);
    expect(week(fresh)).toBeDefined();
    expect([week(fresh)!.assigned, week(fresh)!.submitted]).toEqual([week(before)?.assigned ?? 0, week(before)?.submitted ?? 0]);
    expect(fresh.students.map((s) => s.assigned)).toEqual(before.students.map((s) => s.assigned));

    // One student hands in: expected and submitted both grow by one, for the class and for her.
    const [tenant] = await query<{ tenantId: number }>(t, sql`SELECT tenant_id AS "tenantId" FROM homeworks WHERE id = ${hwId}`);
    const student = fresh.students[0];
    await recordAnswers(t.database.db, tenant.tenantId, bank.records.map((q: { id: number; answer: string; points: number }) => ({ sourceType: 0, sourceId: hwId, studentId: student.studentId, questionId: q.id, score: q.points, answer: q.answer })), { by: 'machine' });
    const handed = await usage();
    expect([cls(handed).assigned, cls(handed).submitted]).toEqual([cls(fresh).assigned + 1, cls(fresh).submitted + 1]);
    const her = (u: typeof before) => u.students.find((s) => s.studentId === student.studentId)!;
    expect([her(handed).assigned, her(handed).submitted]).toEqual([her(fresh).assigned + 1, her(fresh).submitted + 1]);

    // The deadline passes: the whole class was expected, the 39 who did not hand in are missing.
    await t.database.db.execute(sql`UPDATE homeworks SET due_at = now() - interval '1 minute' WHERE id = ${hwId}`);
    const [{ n }] = await query<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM students WHERE class_id = ${classId} AND status = 0`);
    const closed = await usage();
    expect(cls(closed).assigned).toBe(cls(fresh).assigned + n);
    expect(week(closed)!.assigned).toBe(week(fresh)!.assigned + n);
    expect(cls(closed).submitted).toBe(cls(handed).submitted);
    const other = closed.students.find((s) => s.studentId !== student.studentId)!;
    expect(other.assigned).toBe(fresh.students.find((s) => s.studentId === other.studentId)!.assigned + 1);
    expect(her(closed).assigned).toBe(her(handed).assigned);
  });
});

describe('changing and withdrawing a homework', () => {
  it('changes the title and deadline, withdraws only before anyone handed in, and only for its own teacher', async () => {
    const maths = ((await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === '数学')!;
    const classes = (await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')) as { id: number }[];
    const bank = await c.data('teacher', '/api/minerva/v1.0/questions?gradeLevel=7&type=1&size=2&subjectId=2');
    const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { courseId: maths.courseId, classIds: [classes[0].id], dueAt: inAWeek(), questionIds: bank.records.map((q: { id: number }) => q.id), title: '周末练习' });
    const id = created.homeworks[0].id as number;
    const url = `/api/minerva/v1.0/homeworks/${id}`;
    const put = async (user: string, payload: object, target = url) => t.call(await c.token(user), { method: 'PUT', url: target, payload });
    const del = async (user: string, target = url) => t.call(await c.token(user), { method: 'DELETE', url: target });

    const due = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    const changed = await put('teacher', { title: '  周末练习（改）  ', dueAt: due.toISOString() });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ title: '周末练习（改）', id });
    expect(Math.abs(new Date(changed.json().data.dueAt).getTime() - due.getTime())).toBeLessThan(1000);
    const refusals: [object, number, RegExp][] = [
      [{}, 400, /^请填写要修改的标题、截止时间、发布时间或留言$/],
      // Published when assigned: the publishing time is history.
      [{ startAt: inAWeek() }, 409, /^作业已发布，不能修改发布时间$/],
      [{ note: '字'.repeat(201) }, 400, /^给学生的留言长度不能超过200个字符$/],
      [{ title: '   ' }, 400, /^标题不能为空$/],
      [{ dueAt: '2020-01-01T00:00:00Z' }, 400, /^截止时间必须晚于现在$/],
      [{ dueAt: '明天' }, 400, /^截止时间格式不正确$/],
      [{ title: 'x'.repeat(101) }, 400, /标题/],
      [{ teacherId: 1 }, 400, /\p{Script=Han}/u],
    ];
    for (const [payload, status, msg] of refusals) {
      const res = await put('teacher', payload);
      expect([res.statusCode, res.json().msg], JSON.stringify(payload)).toEqual([status, expect.stringMatching(msg)]);
    }
    // Not hers, not this school's, not a teacher: nothing changes, nothing is withdrawn.
    for (const user of ['teacher2', 'teacher3']) {
      expect((await put(user, { title: '别人的' })).json()).toMatchObject({ code: 404, msg: '作业不存在' });
      expect((await del(user)).json()).toMatchObject({ code: 404, msg: '作业不存在' });
    }
    for (const user of ['schooladmin', 'partner1']) {
      expect((await put(user, { title: '别人的' })).statusCode).toBe(403);
      expect((await del(user)).statusCode).toBe(403);
    }
    for (const bad of ['0', 'abc', '99999999999']) {
      const res = await del('teacher', `/api/minerva/v1.0/homeworks/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg).toMatch(/\p{Script=Han}/u);
    }
    expect((await c.data('teacher', url)).title).toBe('周末练习（改）');

    // A seeded homework someone handed in: refused with a Chinese 409, still there.
    const handedIn = ((await c.data('teacher', '/api/minerva/v1.0/homeworks?size=20')).records as Listed[]).find((h) => h.submittedCount > 0)!;
    expect((await del('teacher', `/api/minerva/v1.0/homeworks/${handedIn.id}`)).json()).toMatchObject({ code: 409, msg: '已有学生提交，不能撤回该作业' });
    expect((await c.get('teacher', `/api/minerva/v1.0/homeworks/${handedIn.id}`)).statusCode).toBe(200);

    const withdrawn = await del('teacher');
    expect(withdrawn.json()).toMatchObject({ code: 200, msg: '已撤回' });
    expect((await c.get('teacher', url)).json()).toMatchObject({ code: 404, msg: '作业不存在' });
    expect((await del('teacher')).statusCode).toBe(404);
  });
});

describe('未提交名单 (the reminder list)', () => {
  it('names exactly the enrolled students who have not handed in, as JSON and as a workbook', async () => {
    const listed = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=50')).records as Listed[];
    const hw = listed.find((h) => h.submittedCount > 0 && h.submittedCount < h.studentCount)!;
    const detail = await c.data('teacher', `/api/minerva/v1.0/homeworks/${hw.id}`);
    const missing = await c.data('teacher', `/api/minerva/v1.0/homeworks/${hw.id}/missing`);
    const expected = (detail.students as { studentId: number; studentNo: string; name: string; submitted: boolean }[]).filter((s) => !s.submitted);
    expect(expected.length).toBeGreaterThan(0);
    expect(missing.students).toEqual(expected.map(({ studentId, studentNo, name }) => ({ studentId, studentNo, name })));
    expect(missing).toMatchObject({ id: hw.id, title: detail.title, className: detail.className, studentCount: detail.studentCount });
    // The seeded homework's deadline has passed; one assigned now has not.
    expect(missing.overdue).toBe(new Date(detail.dueAt).getTime() <= Date.now());

    const file = await c.get('teacher', `/api/minerva/v1.0/homeworks/${hw.id}/missing/export`);
    expect(file.statusCode).toBe(200);
    expect(decodeURIComponent(file.headers['content-disposition'] as string)).toContain(`未提交名单_${detail.className}_`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('未提交名单')!;
    const values: unknown[][] = [];
    sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1, 4)));
    expect(values[0]).toEqual(['学号', '姓名', '班级']);
    expect(values.slice(1)).toEqual(expected.map((s) => [s.studentNo, s.name, `${detail.gradeName} ${detail.className}`]));
  });

  it("refuses another teacher's or tenant's homework, other roles and hostile ids in Chinese", async () => {
    const [own] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).records as Listed[];
    for (const path of ['missing', 'missing/export']) {
      for (const user of ['teacher2', 'teacher3']) {
        expect((await c.get(user, `/api/minerva/v1.0/homeworks/${own.id}/${path}`)).json()).toMatchObject({ code: 404, msg: '作业不存在' });
      }
      for (const user of ['schooladmin', 'partner1']) {
        const res = await c.get(user, `/api/minerva/v1.0/homeworks/${own.id}/${path}`);
        expect([res.statusCode, res.json().msg]).toEqual([403, expect.stringMatching(/\p{Script=Han}/u)]);
      }
      for (const id of ['0', 'abc', '99999999999', '1%3BDROP']) {
        const res = await c.get('teacher', `/api/minerva/v1.0/homeworks/${id}/${path}`);
        expect([res.statusCode, res.json().msg], id).toEqual([400, expect.stringMatching(/\p{Script=Han}/u)]);
      }
    }
  });
});

describe('the note to students', () => {
  it('is given when assigning, shown in the list and the detail, changed and removed; a too-long one is a Chinese 400', async () => {
    const maths = ((await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === '数学')!;
    const classes = (await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')) as { id: number }[];
    const bank = await c.data('teacher', '/api/minerva/v1.0/questions?gradeLevel=7&type=1&size=2&subjectId=2');
    const body = { courseId: maths.courseId, classIds: [classes[0].id, classes[1].id], dueAt: inAWeek(), questionIds: bank.records.map((q: { id: number }) => q.id) };
    const tooLong = await c.post('teacher', '/api/minerva/v1.0/homeworks', { ...body, note: '写'.repeat(201) });
    expect([tooLong.statusCode, tooLong.json().msg]).toEqual([400, '给学生的留言长度不能超过200个字符']);
    const note = '第 2 题写出完整过程。\n拍照时把整页拍清楚。';
    const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { ...body, note: `  ${note}  ` });
    // Every class of the batch carries it, trimmed.
    for (const h of created.homeworks as { id: number }[]) expect((await c.data('teacher', `/api/minerva/v1.0/homeworks/${h.id}`)).note).toBe(note);
    const listed = (await c.data('teacher', `/api/minerva/v1.0/homeworks?classId=${classes[0].id}&size=5`)).records as { id: number; note: string | null }[];
    expect(listed.find((r) => r.id === created.homeworks[0].id)!.note).toBe(note);

    const url = `/api/minerva/v1.0/homeworks/${created.homeworks[0].id}`;
    const put = async (payload: object) => t.call(await c.token('teacher'), { method: 'PUT', url, payload });
    // Changing only the note keeps the title and deadline; an empty note removes it.
    const before = await c.data('teacher', url);
    expect((await put({ note: '改为只做选择题' })).json().data).toMatchObject({ note: '改为只做选择题', title: before.title, dueAt: before.dueAt });
    expect((await put({ title: '新标题' })).json().data).toMatchObject({ note: '改为只做选择题', title: '新标题' });
    expect((await put({ note: '   ' })).json().data.note).toBeNull();
    // The other class's copy is its own.
    expect((await c.data('teacher', `/api/minerva/v1.0/homeworks/${created.homeworks[1].id}`)).note).toBe(note);
    expect((await t.call(await c.token('teacher2'), { method: 'PUT', url, payload: { note: '别人的留言' } })).json()).toMatchObject({ code: 404, msg: '作业不存在' });
  });
});

describe('scheduled publishing', () => {
  it('keeps a homework from students until its start time, which must come before the deadline', async () => {
    const maths = ((await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === '数学')!;
    const classes = (await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')) as { id: number }[];
    const bank = await c.data('teacher', '/api/minerva/v1.0/questions?gradeLevel=7&type=1&size=2&subjectId=2');
    const hours = (n: number) => new Date(Date.now() + n * 3600_000).toISOString();
    const body = { courseId: maths.courseId, classIds: [classes[0].id], dueAt: hours(48), questionIds: bank.records.map((q: { id: number }) => q.id) };
    const refusals: [object, string][] = [
      [{ startAt: hours(48) }, '发布时间必须早于截止时间'],
      [{ startAt: hours(72) }, '发布时间必须早于截止时间'],
      [{ startAt: '下周一早上' }, '发布时间格式不正确'],
      [{ startAt: 'x'.repeat(41) }, '发布时间长度不能超过40个字符'],
    ];
    const total = async () => (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).total as number;
    const before = await total();
    for (const [extra, msg] of refusals) {
      const res = await c.post('teacher', '/api/minerva/v1.0/homeworks', { ...body, ...extra });
      expect([res.statusCode, res.json().msg], JSON.stringify(extra)).toEqual([400, msg]);
    }
    expect(await total()).toBe(before);

    const start = hours(24);
    const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { ...body, startAt: start });
    const id = created.homeworks[0].id as number;
    const url = `/api/minerva/v1.0/homeworks/${id}`;
    const detail = await c.data('teacher', url);
    expect(detail).toMatchObject({ startAt: start, published: false });
    // What a student- or family-facing list sees: only published homework (PUBLISHED).
    const visible = async () =>
      (await query<{ id: number }>(t, sql`SELECT h.id FROM homeworks h WHERE h.id = ${id} AND ${PUBLISHED}`)).length === 1;
    expect(await visible()).toBe(false);
    // Its 未提交名单 says so too; a time already past publishes at once.
    expect((await c.data('teacher', `${url}/missing`)).published).toBe(false);
    const put = async (payload: object) => t.call(await c.token('teacher'), { method: 'PUT', url, payload });
    expect((await put({ startAt: hours(49) })).json()).toMatchObject({ code: 400, msg: '发布时间必须早于截止时间' });
    expect((await put({ dueAt: hours(12) })).json()).toMatchObject({ code: 400, msg: '发布时间必须早于截止时间' });
    const moved = hours(30);
    expect((await put({ startAt: moved })).json().data).toMatchObject({ startAt: moved, published: false });
    expect((await put({ title: '改个标题' })).json().data).toMatchObject({ published: false, title: '改个标题' });
    expect((await t.call(await c.token('teacher2'), { method: 'PUT', url, payload: { startAt: hours(1) } })).json()).toMatchObject({ code: 404, msg: '作业不存在' });
    expect(await visible()).toBe(false);
    // When the time comes (here: moved to the past), students see it, and the time stays as it was.
    await t.database.db.execute(sql`UPDATE homeworks SET start_at = now() - interval '1 minute' WHERE id = ${id}`);
    expect(await visible()).toBe(true);
    expect((await c.data('teacher', url)).published).toBe(true);
    expect((await put({ startAt: hours(5) })).json()).toMatchObject({ code: 409, msg: '作业已发布，不能修改发布时间' });
    const published = await c.data('teacher', url);
    expect((await put({ title: '再改标题' })).json().data.startAt).toBe(published.startAt);

    // Published now: a start time already past, when assigning or when changed.
    const now = await c.done('teacher', '/api/minerva/v1.0/homeworks', { ...body, startAt: hours(-1) });
    expect(await c.data('teacher', `/api/minerva/v1.0/homeworks/${now.homeworks[0].id}`)).toMatchObject({ startAt: null, published: true });
    const later = await c.done('teacher', '/api/minerva/v1.0/homeworks', { ...body, startAt: hours(3) });
    const laterUrl = `/api/minerva/v1.0/homeworks/${later.homeworks[0].id}`;
    const released = await t.call(await c.token('teacher'), { method: 'PUT', url: laterUrl, payload: { startAt: new Date().toISOString() } });
    expect(released.json().data).toMatchObject({ startAt: null, published: true });
  });
});

describe("the students' pages of a homework graded from photos", () => {
  it('lists per student the pages uploaded for her to an AI批改 task of this homework, viewable by its teacher only', async () => {
    const maths = ((await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === '数学')!;
    const classes = (await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')) as { id: number }[];
    const bank = await c.data('teacher', '/api/minerva/v1.0/questions?gradeLevel=7&type=1&size=2&subjectId=2');
    const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { courseId: maths.courseId, classIds: [classes[0].id], dueAt: inAWeek(), questionIds: bank.records.map((q: { id: number }) => q.id) });
    const id = created.homeworks[0].id as number;
    const url = `/api/minerva/v1.0/homeworks/${id}`;
    const before = await c.data('teacher', url);
    expect(before.students.every((s: { pages: unknown[] }) => s.pages.length === 0)).toBe(true);

    const CORRECT = '/api/wrongbook/v1.0/correct';
    const task = await c.done('teacher', `${CORRECT}/task/create`, { type: 1, title: '作业拍照批改', homeworkId: id, questions: [{ no: 1 }, { no: 2 }] });
    const [first, second] = before.students as { studentId: number; name: string }[];
    const upload = async (studentId: number | undefined, name: string, seed: number) => {
      const photo = await homeworkPhoto([{ text: '1. A', hand: true }, { text: '2. C', hand: true }], seed);
      const body = multipart(studentId === undefined ? { taskId: task.id } : { taskId: task.id, studentId }, { name, content: photo });
      const res = await c.upload('teacher', `${CORRECT}/task/upload`, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    const pageOne = await upload(first.studentId, '第1页.jpg', 3);
    const pageTwo = await upload(first.studentId, '第2页.jpg', 4);
    const theirs = await upload(second.studentId, '作业.jpg', 5);
    // A page not yet tied to a student is nobody's.
    await upload(undefined, '未指定.jpg', 6);

    const detail = await c.data('teacher', url);
    const pagesOf = (studentId: number) => detail.students.find((s: { studentId: number }) => s.studentId === studentId).pages as { fileId: number; name: string; taskId: number }[];
    expect(pagesOf(first.studentId).map((p) => [p.fileId, p.name, p.taskId])).toEqual([[pageOne, '第1页.jpg', task.id], [pageTwo, '第2页.jpg', task.id]]);
    expect(pagesOf(second.studentId).map((p) => p.fileId)).toEqual([theirs]);
    expect(detail.students.filter((s: { pages: unknown[] }) => s.pages.length > 0)).toHaveLength(2);
    // The page opens for her, not for another teacher; other homework shows none of them.
    const view = await c.get('teacher', `${CORRECT}/file/view?fileId=${pageOne}`);
    expect([view.statusCode, view.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect((await c.get('teacher2', `${CORRECT}/file/view?fileId=${pageOne}`)).json()).toMatchObject({ code: 404, msg: '文件不存在' });
    const listed = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=50')).records as Listed[];
    const seeded = await c.data('teacher', `/api/minerva/v1.0/homeworks/${listed.find((h) => h.id !== id)!.id}`);
    expect(seeded.students.flatMap((s: { pages: { fileId: number }[] }) => s.pages.map((p) => p.fileId))).not.toContain(pageOne);
  }, 120_000);
});
