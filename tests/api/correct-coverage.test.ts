// Nobody lost between the upload and the report: a page that could not be read and the students
// of the class with no page at all show in the report and the task list; a graded task takes
// more pages (only they are graded), a failed page is replaced, and a page that named no student
// is handed to one by hand. Real scans from the engine's corpus generator, a real queue worker.
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let classId: number;
let sheetId: string;
let layout: SheetLayout;
let taskId: number;
let roster: { id: string; name: string }[];

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });
const upload = (token: string, fields: Record<string, string | number>, name: string, content: Buffer) => {
  const body = multipart(fields, { name, content });
  return t.call(token, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers });
};
async function drain() {
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}
const idOf = (key: string) => Number(key.slice(1));

const SECTIONS = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3].map((no) => ({ no, type: 'single', options: 4 })) }];
const KEY = { items: { '1': { answer: 'A', points: 5 }, '2': { answer: 'B', points: 5 }, '3': { answer: 'C', points: 5 } } };
const scan = (studentKey: string, seed: number) => {
  const filling: Filling = { copy: { sheetId, page: 1, studentId: studentKey }, objective: { 1: [{ label: 'A', style: 'full' }], 2: [{ label: 'B', style: 'full' }], 3: [{ label: 'D', style: 'full' }] } };
  // A copy printed for someone not on the roster (a spare from another printing) names nobody here.
  const printed = layout.identity.mode === 'roster' && !roster.some((s) => s.id === studentKey)
    ? { ...layout, identity: { ...layout.identity, students: [...layout.identity.students, { id: studentKey, name: '外人' }] } }
    : layout;
  return makeScan(printed as SheetLayout, filling, { noise: 3 }, seed);
};
const blank = () => sharp({ create: { width: 800, height: 1100, channels: 3, background: '#ffffff' } }).png().toBuffer();

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
  sheetId = (await post(teacher, '/sheet/create', { title: '交齐了吗', paper: 'A4', identity: 'roster', classId, sections: SECTIONS })).json().data.sheetId;
  [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheetId}`);
  roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  taskId = (await post(teacher, '/task/create', { type: 3, title: '交齐了吗批改', classId, sheetId, answerKey: KEY })).json().data.id;
  // Students 0 and 1 hand in; one page is a blank sheet of paper; one names a student not on the roster.
  expect((await upload(teacher, { taskId }, '扫描1.jpg', await scan(roster[0].id, 11))).statusCode).toBe(200);
  expect((await upload(teacher, { taskId }, '扫描2.jpg', await scan(roster[1].id, 12))).statusCode).toBe(200);
  expect((await upload(teacher, { taskId }, '拍糊了.png', await blank())).statusCode).toBe(200);
  expect((await upload(teacher, { taskId }, '扫描4.jpg', await scan('s999999', 14))).statusCode).toBe(200);
  await post(teacher, '/task/submit', { taskId });
  await drain();
}, 300_000);
afterAll(() => t.close());

describe('who a graded task accounts for', () => {
  it('the report names the page that failed (with its reason and file) and every roster student with no page', async () => {
    const report = (await get(teacher, `/task/report?taskId=${taskId}`)).json().data;
    expect(report.task.status).toBe(4);
    const { coverage } = report;
    expect(coverage.files).toBe(4);
    expect(coverage.graded + coverage.review).toBe(3);
    expect(coverage.unmatched).toBe(1);
    expect(coverage.failed).toEqual([expect.objectContaining({ fileName: '拍糊了.png', reason: expect.stringMatching(/[\u4e00-\u9fa5]/) })]);
    // The failed page can be looked at.
    const view = await get(teacher, `/file/view?fileId=${coverage.failed[0].fileId}`);
    expect(view.statusCode).toBe(200);
    expect(view.headers['content-type']).toContain('image/png');
    const absentNames = coverage.absent.map((s: { name: string }) => s.name);
    expect(absentNames).toEqual(roster.slice(2).map((s) => s.name));
    expect(absentNames).not.toContain(roster[0].name);

    const list = (await get(teacher, '/task/page')).json().data.records.find((r: { id: number }) => r.id === taskId);
    expect(list).toMatchObject({ fileCount: 4, failedCount: 1, absentCount: roster.length - 2 });
    expect(list.gradedCount + list.reviewCount).toBe(3);
  }, 240_000);

  it('hands the page that named no student to one of the class by hand, never to another class', async () => {
    const detail = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data;
    const unmatched = detail.results.find((r: { studentId: number | null }) => r.studentId === null);
    expect(unmatched).toBeDefined();
    // A student of the teacher's other class is not this task's.
    const [other] = await rows<{ id: number }>(t.database.db, sql`
      SELECT s.id FROM students s JOIN teaching_assignments ta ON ta.class_id = s.class_id JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id
       WHERE u.username = 'teacher' AND s.class_id <> ${classId} LIMIT 1`);
    if (other) expect((await post(teacher, '/result/assign', { resultId: unmatched.id, studentId: other.id })).json()).toMatchObject({ code: 400, msg: '该学生不在本任务的班级中' });
    // A student of another school, hostile input, another teacher: refused in Chinese or not found.
    expect((await post(teacher, '/result/assign', { resultId: unmatched.id, studentId: 'x' })).statusCode).toBe(400);
    expect((await post(teacher, '/result/assign', { resultId: unmatched.id, studentId: 'x' })).json().msg).toMatch(/^学生/);
    expect((await post(await t.login('teacher2'), '/result/assign', { resultId: unmatched.id, studentId: idOf(roster[2].id) })).statusCode).toBe(404);
    // A student who has a result already.
    expect((await post(teacher, '/result/assign', { resultId: unmatched.id, studentId: idOf(roster[0].id) })).statusCode).toBe(409);

    const res = await post(teacher, '/result/assign', { resultId: unmatched.id, studentId: idOf(roster[2].id) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ studentName: roster[2].name });
    const report = (await get(teacher, `/task/report?taskId=${taskId}`)).json().data;
    expect(report.coverage.unmatched).toBe(0);
    expect(report.coverage.absent.map((s: { name: string }) => s.name)).not.toContain(roster[2].name);
    expect(report.students.find((s: { resultId: number }) => s.resultId === unmatched.id).studentName).toBe(roster[2].name);
  }, 240_000);

  it('takes more pages into the graded task and grades only them: earlier results and reviews stay', async () => {
    const before = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data;
    const first = before.results.find((r: { studentId: number }) => r.studentId === idOf(roster[0].id));
    // The teacher reviewed student 0: item 3 given full marks.
    expect((await post(teacher, '/result/review', { resultId: first.id, items: [{ no: 3, score: 5 }] })).json().data.score).toBe(15);

    const res = await upload(teacher, { taskId, studentId: idOf(roster[3].id) }, '补交.jpg', await scan(roster[3].id, 21));
    expect(res.statusCode, res.body).toBe(200);
    // Uploaded for them but not graded yet: still 未交 (and the page waits).
    const waiting = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data.coverage;
    expect(waiting.absent.map((s: { name: string }) => s.name)).toContain(roster[3].name);
    expect(waiting.waiting).toBe(1);
    expect((await post(teacher, '/task/submit', { taskId })).json().data.status).toBe(3);
    expect((await get(teacher, `/task/detail?taskId=${taskId}`)).json().data.task.status).toBe(3);
    // Not while it grades.
    expect((await upload(teacher, { taskId }, '又一张.jpg', await blank())).statusCode).toBe(409);
    await drain();

    const after = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data;
    expect(after.task.status).toBe(4);
    expect(after.results).toHaveLength(before.results.length + 1);
    expect(after.results.find((r: { id: number }) => r.id === first.id)).toMatchObject({ score: 15 });
    for (const r of before.results) expect(after.results.some((a: { id: number }) => a.id === r.id)).toBe(true);
    expect(after.results.find((r: { studentId: number }) => r.studentId === idOf(roster[3].id))).toMatchObject({ score: 10 });
    expect(after.coverage.absent.map((s: { name: string }) => s.name)).not.toContain(roster[3].name);
  }, 240_000);

  it('replaces the failed page: it leaves the failures and the new page is graded', async () => {
    const failed = (await get(teacher, `/task/report?taskId=${taskId}`)).json().data.coverage.failed[0];
    // A file of another task, or of nobody, is not found.
    expect((await upload(teacher, { taskId, replaces: 99999999 }, '重拍.jpg', await scan(roster[4].id, 31))).json()).toMatchObject({ code: 404, msg: '要替换的文件不存在' });
    const hostile = await upload(teacher, { taskId, replaces: 'abc' }, '重拍.jpg', await scan(roster[4].id, 31));
    expect(hostile.statusCode).toBe(400);
    expect(hostile.json().msg).toMatch(/^要替换的文件/);
    const res = await upload(teacher, { taskId, replaces: failed.fileId }, '重拍.jpg', await scan(roster[4].id, 31));
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(teacher, `/task/report?taskId=${taskId}`)).json().data.coverage.failed).toEqual([]);
    await post(teacher, '/task/submit', { taskId });
    await drain();
    const report = (await get(teacher, `/task/report?taskId=${taskId}`)).json().data;
    expect(report.coverage).toMatchObject({ failed: [], files: 5 });
    expect(report.students.find((s: { studentName: string }) => s.studentName === roster[4].name)).toMatchObject({ score: 10 });
    expect(report.coverage.absent).toHaveLength(roster.length - 5);
  }, 240_000);

  it("a re-scanned page of a student graded before replaces their result, not a second one", async () => {
    const before = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data.results;
    await upload(teacher, { taskId }, '扫描2重扫.jpg', await scan(roster[1].id, 41));
    await post(teacher, '/task/submit', { taskId });
    await drain();
    const after = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data.results;
    expect(after).toHaveLength(before.length);
    expect(after.filter((r: { studentId: number }) => r.studentId === idOf(roster[1].id))).toHaveLength(1);
  }, 240_000);

  it("another teacher's task takes no pages", async () => {
    expect((await upload(await t.login('teacher2'), { taskId }, '外人.jpg', await blank())).statusCode).toBe(404);
  }, 240_000);
});

describe('an answer-sheet photo is checked at upload', () => {
  it('says at once which page will not be read and why: no sheet found, or blurred', async () => {
    const task = (await post(teacher, '/task/create', { type: 3, title: '上传检查', classId, sheetId, answerKey: KEY })).json().data;
    const good = await upload(teacher, { taskId: task.id }, '清楚.jpg', await scan(roster[0].id, 51));
    expect(good.json()).toMatchObject({ code: 200, msg: '上传成功', data: { error: null } });
    const empty = await upload(teacher, { taskId: task.id }, '白纸.png', await blank());
    expect(empty.statusCode).toBe(200);
    expect(empty.json().msg).toMatch(/^已上传，但这一页可能无法识别：未找到答题卡/);
    const blurred = await sharp(await scan(roster[1].id, 52)).blur(12).jpeg().toBuffer();
    const shaky = await upload(teacher, { taskId: task.id }, '拍虚了.jpg', blurred);
    expect(shaky.json().msg).toMatch(/^已上传，但这一页可能无法识别：照片模糊/);
    // The task's files say so before it is submitted.
    const files = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data.files;
    expect(files.map((f: { fileName: string; recognitionStatus: number; error: string | null }) => [f.fileName, f.recognitionStatus, f.error?.slice(0, 4) ?? null])).toEqual([
      ['清楚.jpg', 0, null],
      ['白纸.png', 0, '未找到答'],
      ['拍虚了.jpg', 0, '照片模糊'],
    ]);
  }, 240_000);
});
