// The report follows the teacher's reviews: an answer reviewed to full marks leaves 常见错误, the
// export names the key of fill-ins (正确答案), and a homework task linked to a homework shows the
// homework's full marks. Through HTTP with a real queue worker.
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import type { SheetLayout } from '../../server/grading';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let classId: number;
let taskId: number;

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });
const upload = (fields: Record<string, number>, name: string, content: Buffer) => {
  const body = multipart(fields, { name, content });
  return t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers });
};
async function drain() {
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}

const SECTIONS = [
  { kind: 'objective', title: '一、多选题', items: [{ no: 1, type: 'multiple', options: 4 }] },
  { kind: 'fill', title: '二、填空题', items: [{ no: 2, blanks: 1 }] },
];
const KEY = { multipleRule: { missing: 0, wrong: 0 }, items: { '1': { answer: 'AC', points: 5 }, '2': { blanks: [['3', '三']], points: 4 } } };

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
  const sheet = (await post(teacher, '/sheet/create', { title: '复核跟随', paper: 'A4', identity: 'roster', classId, sections: SECTIONS })).json().data;
  const [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  taskId = (await post(teacher, '/task/create', { type: 3, title: '复核跟随批改', classId, sheetId: sheet.sheetId, answerKey: KEY })).json().data.id;
  // Both students answer AB to item 1 (the key is AC); the teacher will accept one of them.
  for (const i of [0, 1]) {
    const filling: Filling = { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id }, objective: { 1: [{ label: 'A', style: 'full' }, { label: 'B', style: 'full' }] }, fill: { 2: ['3'] } };
    expect((await upload({ taskId }, `扫描${i}.jpg`, await makeScan(layout, filling, { noise: 3 }, 60 + i))).statusCode).toBe(200);
  }
  await post(teacher, '/task/submit', { taskId });
  await drain();
}, 300_000);
afterAll(() => t.close());

describe('the report follows the reviews', () => {
  it('an answer the teacher gave full marks leaves 常见错误', async () => {
    const before = (await get(teacher, `/task/report?taskId=${taskId}`)).json().data;
    expect(before.questions.find((q: { no: number }) => q.no === 1).wrongAnswers).toEqual([{ answer: 'AB', count: 2 }]);
    const [first] = before.students;
    expect((await post(teacher, '/result/review', { resultId: first.resultId, items: [{ no: 1, score: 5 }] })).statusCode).toBe(200);
    const after = (await get(teacher, `/task/report?taskId=${taskId}`)).json().data;
    expect(after.questions.find((q: { no: number }) => q.no === 1).wrongAnswers).toEqual([{ answer: 'AB', count: 1 }]);
  }, 120_000);

  it('the export gives the key of a fill-in as 正确答案', async () => {
    const res = await get(teacher, `/task/report/export?taskId=${taskId}`);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const questions = book.getWorksheet('小题分析')!;
    expect(questions.getRow(1).getCell(5).value).toBe('正确答案');
    expect(questions.getRow(2).getCell(5).value).toBe('AC');
    expect(questions.getRow(3).getCell(1).value).toBe(2);
    expect(questions.getRow(3).getCell(5).value).toBe('3');
  }, 120_000);

  it("a homework photo task linked to a homework shows the homework's full marks", async () => {
    const [own] = await rows<{ id: number; classId: number; items: { points: number; no?: string }[] }>(t.database.db, sql`
      SELECT h.id, h.class_id AS "classId", h.items FROM homeworks h JOIN teachers te ON te.id = h.teacher_id JOIN users u ON u.id = te.user_id
       WHERE u.username = 'teacher' AND h.source_type IN (0, 1) ORDER BY h.id LIMIT 1`);
    const task = (await post(teacher, '/task/create', { type: 1, title: '作业满分', homeworkId: own.id, questions: [{ no: 1 }, { no: 2 }] })).json().data;
    const link = task.answerKey.work.items as Record<string, { points: number }>;
    expect(link['1']).toBeDefined();
    const photo = await homeworkPhoto([{ text: '1. 三分之二', hand: true }, { text: '2. 长方形的面积是十二', hand: true }], 11);
    const [student] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM students WHERE class_id = ${own.classId} ORDER BY student_no LIMIT 1`);
    expect((await upload({ taskId: task.id, studentId: student.id }, '作业.jpg', photo)).statusCode).toBe(200);
    await post(teacher, '/task/submit', { taskId: task.id });
    await drain();
    const report = (await get(teacher, `/task/report?taskId=${task.id}`)).json().data;
    expect(report.task.status).toBe(4);
    for (const q of report.questions) if (link[String(q.no)]) expect(q.max).toBe(link[String(q.no)].points);
    const full = report.questions.reduce((s: number, q: { no: number }) => s + (link[String(q.no)]?.points ?? NaN), 0);
    if (report.questions.every((q: { no: number }) => link[String(q.no)])) {
      expect(report.students[0].maxScore).toBe(full);
      expect(report.summary.maxScore).toBe(full);
    }
    expect(report.questions.some((q: { max: number | null }) => q.max !== null)).toBe(true);
  }, 180_000);
});
