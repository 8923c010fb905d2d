// 讲评 sample answers (GET/POST /correct/lecture/samples, GET /correct/lecture/candidates): the task
// owner picks graded papers for one question; the projector's reply is the crop of that question,
// labelled 样例A, B… in the order picked, with no student name or number anywhere in it; the
// choice is kept; another teacher's task, another task's paper and hostile bodies are refused in
// Chinese. Scans rendered by the engine's corpus generator, graded by a real queue worker.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import type { LectureSample, SampleCandidates } from '../../src/domain/lecture';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let taskId: number;
let otherTaskResult: number;
let roster: { id: string; name: string; studentNo?: string }[];

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });
const upload = (token: string, id: number, name: string, content: Buffer) => {
  const body = multipart({ taskId: id }, { name, content });
  return t.call(token, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers });
};

const SECTIONS = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3].map((no) => ({ no, type: 'single', options: 4 })) }];
const KEY = { items: { '1': { answer: 'A', points: 5 }, '2': { answer: 'B', points: 5 }, '3': { answer: 'C', points: 5 } } };
const ANSWERS = [
  { 1: 'A', 2: 'B', 3: 'C' },
  { 1: 'A', 2: 'C', 3: 'C' },
  { 1: 'B', 2: 'D', 3: 'C' },
] as Record<number, string>[];

async function gradedTask(title: string, answers: Record<number, string>[]) {
  const classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
  const sheet = (await post(teacher, '/sheet/create', { title, paper: 'A4', identity: 'roster', classId, sections: SECTIONS })).json().data;
  const [row] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  roster = row.layout.identity.mode === 'roster' ? (row.layout.identity.students as typeof roster) : [];
  const id = (await post(teacher, '/task/create', { type: 3, title, classId, sheetId: sheet.sheetId, answerKey: KEY })).json().data.id;
  for (const [i, a] of answers.entries()) {
    const filling: Filling = {
      copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id },
      objective: Object.fromEntries(Object.entries(a).map(([no, label]) => [Number(no), [{ label, style: 'full' as const }]])),
    };
    expect((await upload(teacher, id, `扫描${i + 1}.jpg`, await makeScan(row.layout, filling, { noise: 3 }, 60 + i))).statusCode).toBe(200);
  }
  await post(teacher, '/task/submit', { taskId: id });
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
  return id as number;
}

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  taskId = await gradedTask('讲评样例测试', ANSWERS);
  const other = await gradedTask('另一个任务', ANSWERS.slice(0, 1));
  [{ id: otherTaskResult }] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM grading_results WHERE task_id = ${other}`);
}, 300_000);
afterAll(() => t.close());

describe('讲评 samples', () => {
  it('offers every paper with a crop of the question, most points first, and no names', async () => {
    const res = await get(teacher, `/lecture/candidates?taskId=${taskId}&no=2`);
    expect(res.statusCode, res.body).toBe(200);
    const c: SampleCandidates = res.json().data;
    const results = await rows<{ id: number; review: Record<string, number> | null; items: { no: number; score: number }[] }>(t.database.db, sql`
      SELECT id, review, result -> 'items' AS items FROM grading_results WHERE task_id = ${taskId} ORDER BY id`);
    expect(c.papers.length).toBe(results.length);
    // Points as the results have them: 5 for the one who answered B, 0 for C and D.
    const points = results.map((r) => r.review?.['2'] ?? r.items.find((i) => i.no === 2)!.score).sort((a, b) => b - a);
    expect(c.papers.map((p) => p.score)).toEqual(points);
    expect(c.papers.map((p) => p.score)).toEqual([5, 0, 0]);
    for (const p of c.papers) {
      expect(p.page.fileId).not.toBeNull();
      expect(p.page.regions.map((r) => r.no)).toEqual([2]);
      expect(p.page.bubbles.every((b) => b.no === 2)).toBe(true);
    }
    for (const s of roster) expect(res.body).not.toContain(s.name);
  });

  it('keeps the teacher’s pick in order as 样例A, 样例B, and clears it', async () => {
    const c: SampleCandidates = (await get(teacher, `/lecture/candidates?taskId=${taskId}&no=2`)).json().data;
    const [right, wrong1] = c.papers;
    const saved = await post(teacher, '/lecture/samples', { taskId, no: 2, resultIds: [wrong1.resultId, right.resultId] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().msg).toBe('样例已保存');
    const [row] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM lecture_samples WHERE task_id = ${taskId} AND no = 2`);
    expect(row.n).toBe(2);
    const res = await get(teacher, `/lecture/samples?taskId=${taskId}`);
    const samples: LectureSample[] = res.json().data.samples;
    expect(samples.map((s) => [s.no, s.label, s.resultId, s.score])).toEqual([
      [2, '样例A', wrong1.resultId, 0],
      [2, '样例B', right.resultId, 5],
    ]);
    for (const s of roster) {
      expect(res.body).not.toContain(s.name);
      if (s.studentNo) expect(res.body).not.toContain(s.studentNo);
    }
    expect(res.body).not.toMatch(/studentName|studentNo|studentId/);
    // Another question keeps its own list.
    await post(teacher, '/lecture/samples', { taskId, no: 1, resultIds: [right.resultId] });
    expect((await get(teacher, `/lecture/samples?taskId=${taskId}`)).json().data.samples.map((s: LectureSample) => `${s.no}${s.label}`)).toEqual(['1样例A', '2样例A', '2样例B']);
    const cleared = await post(teacher, '/lecture/samples', { taskId, no: 1, resultIds: [] });
    expect(cleared.json().msg).toBe('已清除本题样例');
    expect((await get(teacher, `/lecture/samples?taskId=${taskId}`)).json().data.samples).toHaveLength(2);
  });

  it('refuses another teacher, another task’s paper, a wrong role and hostile bodies, in Chinese', async () => {
    const teacher4 = await t.login('teacher4');
    const c: SampleCandidates = (await get(teacher, `/lecture/candidates?taskId=${taskId}&no=2`)).json().data;
    for (const res of [await get(teacher4, `/lecture/samples?taskId=${taskId}`), await get(teacher4, `/lecture/candidates?taskId=${taskId}&no=2`), await post(teacher4, '/lecture/samples', { taskId, no: 2, resultIds: [] })]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('批改任务不存在');
    }
    const admin = await t.login('schooladmin');
    const refused = await get(admin, `/lecture/samples?taskId=${taskId}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    const foreign = await post(teacher, '/lecture/samples', { taskId, no: 2, resultIds: [otherTaskResult] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().msg).toBe('所选作答不属于本批改任务');
    const twice = await post(teacher, '/lecture/samples', { taskId, no: 2, resultIds: [c.papers[0].resultId, c.papers[0].resultId] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toBe('同一份作答不能重复选为样例');
    const noCrop = await post(teacher, '/lecture/samples', { taskId, no: 9, resultIds: [c.papers[0].resultId] });
    expect(noCrop.statusCode).toBe(400);
    expect(noCrop.json().msg).toBe('所选作答没有第 9 题的原图，无法作为样例');
    const bodies = [
      { taskId, no: 2, resultIds: [1, 2, 3, 4, 5] },
      { taskId, no: 0, resultIds: [] },
      { taskId, no: 2, resultIds: ['1; DROP TABLE lecture_samples'] },
      { taskId: -1, no: 2, resultIds: [] },
      { taskId, no: 2 },
      { taskId, no: 2, resultIds: [], studentName: '张三' },
      { taskId, no: 2, resultIds: [2 ** 40] },
    ];
    for (const body of bodies) {
      const res = await post(teacher, '/lecture/samples', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    for (const q of ['taskId=abc', 'taskId=1e300', `taskId=${taskId}&no=999`, `taskId=${taskId}&no=-1`]) {
      const res = await get(teacher, `/lecture/candidates?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    // Nothing of the refused calls was written.
    const [row] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM lecture_samples WHERE task_id = ${taskId}`);
    expect(row.n).toBe(2);
  });

  it('drops a pick with the task', async () => {
    await t.database.db.execute(sql`DELETE FROM grading_tasks WHERE id = ${taskId}`);
    const [row] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM lecture_samples WHERE task_id = ${taskId}`);
    expect(row.n).toBe(0);
  });
});
