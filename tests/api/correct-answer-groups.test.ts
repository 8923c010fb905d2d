// Answer groups (相同作答, docs/api-correct.md "Answer groups"): a fill-in task graded by the real
// worker from rendered scans; the students who wrote the same answer get one decision in one call —
// every paper's points, its total and the report follow — and one paper is put back (undo per paper).
// Papers that read differently answer 409, another teacher's task 404, a school admin 403, a choice
// item and hostile bodies 400. Real HTTP, real database.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import type { TaskReport } from '../../src/domain/correct';
import type { GroupDecision } from '../../src/domain/answerGroups';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let taskId: number;
/** Result id by what the student wrote for question 2. */
const byWritten = new Map<string, number[]>();

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });

const SECTIONS = [
  { kind: 'objective', title: '一、选择题', items: [{ no: 1, type: 'single', options: 4 }] },
  { kind: 'fill', title: '二、填空题', items: [{ no: 2, blanks: 1 }] },
];
/** The key says 4 for question 2; three students wrote 3, one wrote 5. */
const KEY = { items: { '1': { answer: 'A', points: 2 }, '2': { blanks: [['4']], points: 3 } } };
const WRITTEN = ['3', '5', '3', '3'];

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  const classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
  const sheet = (await post(teacher, '/sheet/create', { title: '分组测试', paper: 'A4', identity: 'roster', classId, sections: SECTIONS })).json().data;
  const [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  taskId = (await post(teacher, '/task/create', { type: 3, title: '分组测试批改', classId, sheetId: sheet.sheetId, answerKey: KEY })).json().data.id;
  for (const [i, written] of WRITTEN.entries()) {
    const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id }, objective: { 1: [{ label: 'A', style: 'full' }] }, fill: { 2: [written] } }, { noise: 3 }, 300 + i);
    const body = multipart({ taskId }, { name: `扫描${i + 1}.jpg`, content: scan });
    expect((await t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
  }
  await post(teacher, '/task/submit', { taskId });
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
  const detail = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data;
  for (const r of detail.results as { id: number }[]) {
    const d = (await get(teacher, `/result/detail?resultId=${r.id}`)).json().data as { result: { items: { no: number; given: string }[] } };
    const given = d.result.items.find((i) => i.no === 2)!.given.trim();
    byWritten.set(given, [...(byWritten.get(given) ?? []), r.id]);
  }
}, 240_000);
afterAll(() => t.close());

const report = async () => (await get(teacher, `/task/report?taskId=${taskId}`)).json().data as TaskReport;

describe('answer groups', () => {
  it('reads the class into groups as the screen shows them: 「3」 ×3 and 「5」 ×1, all scored 2 of 5 by the machine', async () => {
    expect(byWritten.get('3')).toHaveLength(3);
    expect(byWritten.get('5')).toHaveLength(1);
    const r = await report();
    expect(r.students.map((s) => s.score)).toEqual([2, 2, 2, 2]);
  });

  it('one decision gives every paper of the group its points, and the report follows', async () => {
    const three = byWritten.get('3')!;
    const res = await post(teacher, '/answerGroups/decide', { taskId, no: 2, resultIds: three, score: 3 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('已给 3 名学生判分');
    const decision = res.json().data as GroupDecision;
    expect(decision.papers.map((p) => p.resultId).sort()).toEqual([...three].sort());
    expect(decision.papers.every((p) => p.previous === null && p.score === 3 && p.total === 5)).toBe(true);
    const r = await report();
    expect(r.students.map((s) => s.score).sort()).toEqual([2, 5, 5, 5]);
    expect(r.questions.find((q) => q.no === 2)).toMatchObject({ max: 3 });
    for (const id of three) {
      const d = (await get(teacher, `/result/detail?resultId=${id}`)).json().data;
      expect(d.review).toEqual({ '2': 3 });
      expect(d.score).toBe(5);
    }
  });

  it('undo puts one paper back to the points it had (the machine’s), the others keep the decision', async () => {
    const [first] = byWritten.get('3')!;
    const res = await post(teacher, '/answerGroups/restore', { taskId, no: 2, resultId: first, score: null });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().data as GroupDecision).papers).toMatchObject([{ resultId: first, previous: 3, score: null, total: 2 }]);
    expect((await report()).students.map((s) => s.score).sort()).toEqual([2, 2, 5, 5]);
    const d = (await get(teacher, `/result/detail?resultId=${first}`)).json().data;
    expect(d.review).toEqual({});
  });

  it('refuses papers that do not read the same, points above full marks or not in halves, and a choice item', async () => {
    const mixed = await post(teacher, '/answerGroups/decide', { taskId, no: 2, resultIds: [...byWritten.get('3')!, ...byWritten.get('5')!], score: 0 });
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json().msg).toBe('这些学生的作答不相同，请刷新后重试');
    const over = await post(teacher, '/answerGroups/decide', { taskId, no: 2, resultIds: byWritten.get('5')!, score: 4 });
    expect([over.statusCode, over.json().msg]).toEqual([400, '第 2 题得分不能超过满分 3 分']);
    const odd = await post(teacher, '/answerGroups/decide', { taskId, no: 2, resultIds: byWritten.get('5')!, score: 1.3 });
    expect([odd.statusCode, odd.json().msg]).toEqual([400, '分数只能是整数或 0.5 分']);
    const choice = await post(teacher, '/answerGroups/decide', { taskId, no: 1, resultIds: byWritten.get('5')!, score: 0 });
    expect(choice.statusCode).toBe(400);
    expect(choice.json().msg).toContain('选择题');
    for (const body of [
      { taskId, no: 2, resultIds: [], score: 1 },
      { taskId, no: 2, resultIds: Array.from({ length: 301 }, (_, i) => i + 1), score: 1 },
      { taskId, no: 0, resultIds: byWritten.get('5')!, score: 1 },
      { taskId, no: 2, resultIds: byWritten.get('5')!, score: -1 },
      { taskId, no: 2, resultIds: ['x'], score: 1 },
      { taskId: 'x', no: 2, resultIds: byWritten.get('5')!, score: 1 },
    ]) {
      const res = await post(teacher, '/answerGroups/decide', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    // A result id of no paper of this task is not found; nothing was written.
    const foreign = await post(teacher, '/answerGroups/decide', { taskId, no: 2, resultIds: [...byWritten.get('5')!, 2 ** 31 - 1], score: 0 });
    expect(foreign.statusCode).toBe(404);
    expect((await report()).students.map((s) => s.score).sort()).toEqual([2, 2, 5, 5]);
  });

  it("another teacher's task is not found, and a school admin may not call it", async () => {
    const other = await t.login('teacher2');
    const res = await post(other, '/answerGroups/decide', { taskId, no: 2, resultIds: byWritten.get('5')!, score: 0 });
    expect([res.statusCode, res.json().msg]).toEqual([404, '批改任务不存在']);
    const undo = await post(other, '/answerGroups/restore', { taskId, no: 2, resultId: byWritten.get('5')![0], score: null });
    expect(undo.statusCode).toBe(404);
    expect((await post(await t.login('schooladmin'), '/answerGroups/decide', { taskId, no: 2, resultIds: byWritten.get('5')!, score: 0 })).statusCode).toBe(403);
    expect((await report()).students.map((s) => s.score).sort()).toEqual([2, 2, 5, 5]);
  });
});
