// A class's essays uploaded at once: photos without a student, each given to the student whose
// name heads the essay, or to the one the teacher picks before submitting (task/fileStudent).
// Only the task's owner may pick, only students of the task's class, only before submission,
// and every refusal is a Chinese 4xx.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let classId: number;
let roster: { id: number; name: string }[];
let otherClassStudent: number;

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  const classes = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data;
  classId = classes[0].id;
  roster = await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM students WHERE class_id = ${classId} AND status = 0 ORDER BY student_no`);
  const [other] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM students WHERE class_id IS NOT NULL AND class_id <> ${classId} ORDER BY id LIMIT 1`);
  otherClassStudent = other!.id;
});
afterAll(() => t.close());

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });
const upload = (taskId: number, name: string, content: Buffer) => {
  const body = multipart({ taskId }, { name, content });
  return t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers });
};

describe('a class of essays uploaded at once', () => {
  it('gives each photo to the student named on it or picked by the teacher, and refuses everyone else in Chinese', async () => {
    const prompt = '以“我的家乡”为题，写一篇记叙文，写出家乡的特点，不少于300字。';
    const task = (await post(teacher, '/task/create', { type: 2, title: '作文：我的家乡', classId, essayBrief: { title: '我的家乡（记叙文）', prompt, minChars: 300, fullMarks: 50 } })).json().data;
    expect((await get(teacher, `/task/detail?taskId=${task.id}`)).json().data.task.essayBrief.prompt).toBe(prompt);
    const named = roster[1]!;
    const picked = roster[2]!;
    // Two short lines each: the OCR of a whole page is not what this test is about.
    const lines = (first: string) => [first, '我爱我的家乡'].map((text) => ({ text, hand: true }));
    const a = (await upload(task.id, 'IMG_0001.jpg', await homeworkPhoto(lines(named.name), 3))).json().data;
    const b = (await upload(task.id, 'IMG_0002.jpg', await homeworkPhoto(lines('我的家乡'), 4))).json().data;
    expect([a.studentId, b.studentId]).toEqual([null, null]);

    // Refusals: another teacher, another role, a student outside the class, a malformed id.
    const stranger = await post(await t.login('teacher2'), '/task/fileStudent', { fileId: b.id, studentId: picked.id });
    expect([stranger.statusCode, stranger.json().msg]).toEqual([404, '文件不存在']);
    const admin = await post(await t.login('schooladmin'), '/task/fileStudent', { fileId: b.id, studentId: picked.id });
    expect(admin.statusCode).toBe(403);
    expect(admin.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    const outside = await post(teacher, '/task/fileStudent', { fileId: b.id, studentId: otherClassStudent });
    expect([400, 404]).toContain(outside.statusCode);
    expect(outside.json().msg).toMatch(/学生/);
    const malformed = await post(teacher, '/task/fileStudent', { fileId: 'abc', studentId: picked.id });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().msg).toMatch(/^文件/);

    const set = await post(teacher, '/task/fileStudent', { fileId: b.id, studentId: picked.id });
    expect(set.json()).toMatchObject({ data: { id: b.id, studentId: picked.id }, msg: '已指定学生' });
    const files = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data.files as { id: number; studentId: number | null }[];
    expect(files.map((f) => f.studentId)).toEqual([null, picked.id]);

    await post(teacher, '/task/submit', { taskId: task.id });
    const late = await post(teacher, '/task/fileStudent', { fileId: a.id, studentId: picked.id });
    expect([late.statusCode, late.json().msg]).toEqual([409, '文件已提交批改，请在批改报告中为结果指定学生']);
    const worker = createWorker(t.database.db, t.app.config);
    while (await worker.runOnce());
    const results = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data.results as { studentId: number | null; fileId?: number }[];
    expect(results.map((r) => r.studentId).sort()).toEqual([named.id, picked.id].sort());
  });
});
