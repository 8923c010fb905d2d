// A grading task's report and its export, and removing a task never submitted: through HTTP with
// scans rendered by the engine's corpus generator, graded by a real queue worker. The report's
// numbers are checked against the task's own results (task/detail, result/detail).
import ExcelJS from 'exceljs';
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
let taskId: number;

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });
const upload = (token: string, id: number, name: string, content: Buffer) => {
  const body = multipart({ taskId: id }, { name, content });
  return t.call(token, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers });
};

const SECTIONS = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3, 4].map((no) => ({ no, type: 'single', options: 4 })) }];
const KEY = { items: { '1': { answer: 'A', points: 5 }, '2': { answer: 'B', points: 5 }, '3': { answer: 'C', points: 5 }, '4': { answer: 'D', points: 5 } } };
/** Three students: all right; item 2 answered C and item 4 answered A; item 2 answered C, item 3 blank. */
const ANSWERS = [
  { 1: 'A', 2: 'B', 3: 'C', 4: 'D' },
  { 1: 'A', 2: 'C', 3: 'C', 4: 'A' },
  { 1: 'A', 2: 'C', 4: 'D' },
] as Record<number, string>[];

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;

  const sheet = (await post(teacher, '/sheet/create', { title: '报告测试', paper: 'A4', identity: 'roster', classId, sections: SECTIONS })).json().data;
  const [row] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  const layout = row.layout;
  const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  taskId = (await post(teacher, '/task/create', { type: 3, title: '报告测试批改', classId, sheetId: sheet.sheetId, answerKey: KEY })).json().data.id;
  for (const [i, answers] of ANSWERS.entries()) {
    const filling: Filling = {
      copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id },
      objective: Object.fromEntries(Object.entries(answers).map(([no, label]) => [Number(no), [{ label, style: 'full' as const }]])),
    };
    expect((await upload(teacher, taskId, `扫描${i + 1}.jpg`, await makeScan(layout, filling, { noise: 3 }, 40 + i))).statusCode).toBe(200);
  }
  await post(teacher, '/task/submit', { taskId });
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
});
afterAll(() => t.close());

describe('task report', () => {
  it("equals the task's own results: average, highest, lowest, per-question score rate and wrong answers", async () => {
    const detail = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data;
    expect(detail.task.status).toBe(4);
    const res = await get(teacher, `/task/report?taskId=${taskId}`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json().data;
    const scores: number[] = detail.results.map((r: { score: number }) => r.score);
    expect(scores.sort((a, b) => a - b)).toEqual([10, 10, 20]);
    expect(report.task).toMatchObject({ id: taskId, title: '报告测试批改', type: 3, status: 4, className: '七(1)班' });
    expect(report.summary).toMatchObject({ students: 3, maxScore: 20, highest: 20, lowest: 10, average: Math.round((40 / 3) * 100) / 100 });
    expect(report.distribution.find((d: { label: string }) => d.label === '50%-60%').count).toBe(2);
    expect(report.distribution.find((d: { label: string }) => d.label === '90%-100%').count).toBe(1);

    // Per question, from each result's items.
    const items = [];
    for (const r of detail.results) items.push(...(await get(teacher, `/result/detail?resultId=${r.id}`)).json().data.result.items);
    for (const q of report.questions) {
      const mine = items.filter((i: { no: number }) => i.no === q.no);
      const earned = mine.reduce((s: number, i: { score: number }) => s + i.score, 0);
      expect(q.scoreRate).toBeCloseTo(earned / (5 * mine.length), 4);
    }
    const q2 = report.questions.find((q: { no: number }) => q.no === 2);
    expect(q2).toMatchObject({ objective: true, expected: 'B', scoreRate: 0.3333, wrongAnswers: [{ answer: 'C', count: 2 }], wrongCount: 2 });
    expect(report.questions.find((q: { no: number }) => q.no === 3).wrongAnswers).toEqual([{ answer: '未作答', count: 1 }]);
    expect(report.questions.find((q: { no: number }) => q.no === 4).wrongAnswers).toEqual([{ answer: 'A', count: 1 }]);

    // The teacher's corrected points count in the report at once.
    const low = detail.results.find((r: { score: number }) => r.score === 10);
    await post(teacher, '/result/review', { resultId: low.id, items: [{ no: 2, score: 5 }] });
    const after = (await get(teacher, `/task/report?taskId=${taskId}`)).json().data;
    expect(after.summary.average).toBe(Math.round((45 / 3) * 100) / 100);
    expect(after.questions.find((q: { no: number }) => q.no === 2).scoreRate).toBe(0.6667);
  });

  it('exports the report as a workbook: a row per student with each question, and the questions', async () => {
    const res = await get(teacher, `/task/report/export?taskId=${taskId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('批改报告_报告测试批改.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const students = book.getWorksheet('学生成绩')!;
    expect(students.getRow(1).values).toEqual([undefined, '学号', '姓名', '得分', '满分', '待复核题数', '第1题', '第2题', '第3题', '第4题']);
    expect(students.rowCount).toBe(4);
    const report = (await get(teacher, `/task/report?taskId=${taskId}`)).json().data;
    const exported = new Map<string, number>();
    students.eachRow((row, n) => n > 1 && exported.set(String(row.getCell(2).value), Number(row.getCell(3).value)));
    for (const s of report.students) expect(exported.get(s.studentName)).toBe(s.score);
    const questions = book.getWorksheet('小题分析')!;
    expect(questions.getRow(3).values).toEqual([undefined, 2, 5, report.questions[1].average, '66.7%', 'B', expect.stringContaining('C（'), 0]);
  });

  it('answers 404 for another teacher or tenant, 403 for another role, 400 without a number', async () => {
    for (const user of ['teacher2', 'teacher3']) {
      const other = await t.login(user);
      for (const url of [`/task/report?taskId=${taskId}`, `/task/report/export?taskId=${taskId}`]) {
        const res = await get(other, url);
        expect(res.statusCode).toBe(404);
        expect(res.json().msg).toBe('批改任务不存在');
      }
      const removed = await post(other, '/task/remove', { taskId });
      expect(removed.statusCode).toBe(404);
      expect(removed.json().msg).toBe('批改任务不存在');
    }
    const admin = await t.login('schooladmin');
    for (const res of [await get(admin, `/task/report?taskId=${taskId}`), await get(admin, `/task/report/export?taskId=${taskId}`), await post(admin, '/task/remove', { taskId })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const bad = await get(teacher, '/task/report?taskId=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toMatch(/^批改任务/);
  });

  it('a task without results reports nothing and refuses to export', async () => {
    const task = (await post(teacher, '/task/create', { type: 2, title: '空任务' })).json().data;
    const report = (await get(teacher, `/task/report?taskId=${task.id}`)).json().data;
    expect(report.summary).toMatchObject({ students: 0, average: null, highest: null, lowest: null });
    const res = await get(teacher, `/task/report/export?taskId=${task.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('该任务还没有批改结果，无法导出');
  });
});

describe('removing a task', () => {
  it('removes a task never submitted with its files; a submitted one stays', async () => {
    const task = (await post(teacher, '/task/create', { type: 2, title: '要删除的任务' })).json().data;
    const png = await sharp({ create: { width: 200, height: 300, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect((await upload(teacher, task.id, '作文.png', png)).statusCode).toBe(200);
    const res = await post(teacher, '/task/remove', { taskId: task.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe('已删除');
    expect((await get(teacher, `/task/detail?taskId=${task.id}`)).statusCode).toBe(404);
    const [{ files }] = await rows<{ files: number }>(t.database.db, sql`SELECT count(*)::int AS files FROM grading_files WHERE task_id = ${task.id}`);
    expect(files).toBe(0);
    expect((await post(teacher, '/task/remove', { taskId: task.id })).statusCode).toBe(404);

    const submitted = await post(teacher, '/task/remove', { taskId });
    expect(submitted.statusCode).toBe(409);
    expect(submitted.json().msg).toBe('任务已提交批改，不能删除');
    expect((await get(teacher, `/task/detail?taskId=${taskId}`)).statusCode).toBe(200);
  });
});
