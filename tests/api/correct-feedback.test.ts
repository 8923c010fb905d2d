// 反馈单 (docs/api-correct.md "Feedback"): the class PDF of an answer-sheet task has one A4 page per
// student with the name, class, score over the total, each question's points, the 解答题 crop with the
// marker's pen (a text mark reads back from the PDF), the rubric items applied and the comment; one
// student's alone is one page. Another teacher's task 404, a result of another task 404, a school
// admin 403, a homework task 400. Real HTTP, real grading worker, poppler's pdfinfo and pdftotext.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import type { MarkingSheet } from '../../src/domain/marking';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let taskId: number;
let className: string;
let names: string[] = [];

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });

function pdfTool(tool: 'pdftotext' | 'pdfinfo', bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-'));
  writeFileSync(join(dir, 'f.pdf'), bytes);
  if (process.env.PDF_OUT) writeFileSync(process.env.PDF_OUT, bytes);
  return execFileSync(tool, tool === 'pdftotext' ? ['-enc', 'UTF-8', join(dir, 'f.pdf'), '-'] : [join(dir, 'f.pdf')], { encoding: 'utf8' });
}
const pagesOf = (bytes: Buffer) => Number(/Pages:\s+(\d+)/.exec(pdfTool('pdfinfo', bytes))![1]);

const SECTIONS = [
  { kind: 'objective', title: '一、选择题', items: [1, 2].map((no) => ({ no, type: 'single', options: 4 })) },
  { kind: 'short', title: '二、解答题', items: [{ no: 3, heightMm: 40 }] },
];
const KEY = { items: { '1': { answer: 'A', points: 5 }, '2': { answer: 'B', points: 5 }, '3': { manual: true, points: 8 } } };

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  const klass = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0];
  className = klass.className;
  const sheet = (await post(teacher, '/sheet/create', { title: '反馈测试', paper: 'A4', identity: 'roster', classId: klass.id, sections: SECTIONS })).json().data;
  const [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  names = roster.slice(0, 3).map((s) => s.name);
  taskId = (await post(teacher, '/task/create', { type: 3, title: '反馈测试批改', classId: klass.id, sheetId: sheet.sheetId, answerKey: KEY })).json().data.id;
  for (let i = 0; i < 3; i++) {
    // The third student chose C for question 2: 5 of 10 on the choices.
    const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id }, objective: { 1: [{ label: 'A', style: 'full' }], 2: [{ label: i === 2 ? 'C' : 'B', style: 'full' }] } }, { rotateDeg: i - 1, noise: 2 }, 40 + i);
    const body = multipart({ taskId }, { name: `扫描${i + 1}.jpg`, content: scan });
    expect((await t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
  }
  await post(teacher, '/task/submit', { taskId });
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}, 240_000);
afterAll(() => t.close());

describe('反馈单', () => {
  it('prints the class: one page per student, names, class, totals, the pen and rubric of 解答题 and the comment', async () => {
    await post(teacher, '/marking/settings', { taskId, showNames: true });
    const sheet = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    const first = sheet.papers.find((p) => p.studentName === names[0])!;
    const rubric = (await post(teacher, '/marking/rubric/save', { taskId, no: 3, label: '列式正确', points: 6 })).json().data.item;
    expect((await post(teacher, '/marking/rubric/apply', { taskId, resultId: first.resultId, itemId: rubric.id, applied: true })).statusCode).toBe(200);
    const pen = [
      { kind: 'check', x: 0.2, y: 0.3, w: 0, h: 0 },
      { kind: 'circle', x: 0.4, y: 0.4, w: 0.2, h: 0.2 },
      { kind: 'underline', x: 0.1, y: 0.7, w: 0.5, h: 0.02 },
      { kind: 'text', x: 0.6, y: 0.2, w: 0, h: 0, text: '步骤完整' },
    ];
    expect((await post(teacher, '/marking/annotations', { taskId, no: 3, resultId: first.resultId, marks: pen })).statusCode).toBe(200);
    const second = sheet.papers.find((p) => p.studentName === names[1])!;
    await post(teacher, '/marking/score', { taskId, no: 3, resultId: second.resultId, score: 3 });
    expect((await post(teacher, '/result/review', { resultId: first.resultId, items: [{ no: 1, score: 5 }], comment: '思路清楚，继续保持' })).statusCode).toBe(200);

    const res = await get(teacher, `/task/feedback?taskId=${taskId}`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('反馈单_反馈测试批改.pdf');
    expect(pagesOf(res.rawPayload)).toBe(3);
    const pages = pdfTool('pdftotext', res.rawPayload).split('\f');
    const pageOf = (name: string) => pages.find((p) => p.includes(name))!;
    for (const name of names) expect(pageOf(name), name).toBeTruthy();
    const one = pageOf(names[0]!).replace(/\s+/g, '');
    expect(one).toContain(className);
    expect(one).toContain('16/18分');
    expect(one).toContain('第3题6/8分');
    expect(one).toContain('步骤完整');
    expect(one).toContain('列式正确（+6）');
    expect(one).toContain('思路清楚，继续保持');
    expect(pageOf(names[1]!).replace(/\s+/g, '')).toContain('13/18分');
    const three = pageOf(names[2]!).replace(/\s+/g, '');
    expect(three).toContain('第2题');
    expect(three).toContain('0/5');
    expect(three).not.toContain('步骤完整');
  });

  it("prints one student's page alone", async () => {
    const detail = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data;
    const result = detail.results.find((r: { studentName: string }) => r.studentName === names[1]);
    const res = await get(teacher, `/task/feedback?taskId=${taskId}&resultId=${result.id}`);
    expect(res.statusCode).toBe(200);
    expect(pagesOf(res.rawPayload)).toBe(1);
    expect(pdfTool('pdftotext', res.rawPayload)).toContain(names[1]);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(`${names[1]}_反馈单`);
  });

  it('附家长查看二维码: each page carries a fresh family link of its own student, as a QR code a phone reads', async () => {
    const before = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM family_links`);
    const res = await post(teacher, '/task/feedback', { taskId, familyQr: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(pagesOf(res.rawPayload)).toBe(3);
    const text = pdfTool('pdftotext', res.rawPayload);
    expect(text.split('家长扫码查看（30 天内有效）').length - 1).toBe(3);
    const after = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM family_links`);
    expect(after[0].n - before[0].n).toBe(3);
    // Read page 1's QR code as a phone would, and open the page it names: that student's own.
    const dir = mkdtempSync(join(tmpdir(), 'feedback-qr-'));
    writeFileSync(join(dir, 'f.pdf'), res.rawPayload);
    execFileSync('pdftoppm', ['-r', '150', '-f', '1', '-l', '1', '-png', join(dir, 'f.pdf'), join(dir, 'p')]);
    const png = readdirSync(dir).find((f) => f.endsWith('.png'))!;
    const { data, info } = await sharp(join(dir, png)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
    expect(code?.data).toMatch(/\/f\/[A-Za-z0-9_-]+$/);
    const page = await t.app.inject({ url: new URL(code!.data).pathname });
    expect(page.statusCode).toBe(200);
    const firstName = names.find((n) => text.split('\f')[0]!.includes(n))!;
    expect(page.body).toContain(firstName);
    for (const other of names.filter((n) => n !== firstName)) expect(page.body).not.toContain(other);
    // Only the task's owner issues them; hostile bodies are refused in Chinese.
    expect((await post(await t.login('teacher2'), '/task/feedback', { taskId, familyQr: true })).statusCode).toBe(404);
    for (const body of [{ taskId, familyQr: 'yes' }, { taskId, familyQr: true, days: 0 }, { taskId, familyQr: true, extra: 1 }, { taskId: -1, familyQr: true }]) {
      const bad = await post(teacher, '/task/feedback', body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
  }, 120_000);

  it("refuses another teacher's task, a result of another task, a school admin, a homework task and hostile ids", async () => {
    const other = await t.login('teacher2');
    expect((await get(other, `/task/feedback?taskId=${taskId}`)).statusCode).toBe(404);
    expect((await get(await t.login('schooladmin'), `/task/feedback?taskId=${taskId}`)).statusCode).toBe(403);
    const missing = await get(teacher, `/task/feedback?taskId=${taskId}&resultId=${2 ** 31 - 1}`);
    expect([missing.statusCode, missing.json().msg]).toEqual([404, '批改结果不存在']);
    for (const q of ['taskId=abc', 'taskId=-1', `taskId=${taskId}&resultId=0`, `taskId=${taskId}&resultId=1e99`]) {
      const res = await get(teacher, `/task/feedback?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const homework = (await post(teacher, '/task/create', { type: 1, title: '作业反馈' })).json().data;
    const res = await get(teacher, `/task/feedback?taskId=${homework.id}`);
    expect([res.statusCode, res.json().msg]).toEqual([400, '只有答题卡批改任务可以打印反馈单']);
  });
});
