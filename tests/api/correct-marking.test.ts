// 网上阅卷 (docs/api-correct.md "Marking"): a designed sheet's 解答题 have full marks from the key
// and count in every student's total from the start; the teacher marks one question for the class,
// one student at a time, and each saved score shows at once in the student's total and the report.
// An older sheet's 解答题 without points gets its full marks on the marking screen. Papers come
// without names unless the task owner shows them. Scores are
// bounded; another teacher's task answers 404, a school admin 403. Real HTTP, real grading worker.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import type { MarkingQuestion, MarkingSheet, RubricItem } from '../../src/domain/marking';
import type { TaskReport } from '../../src/domain/correct';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let taskId: number;
let layout: SheetLayout;
let sheetId: string;

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });

const SECTIONS = [
  { kind: 'objective', title: '一、选择题', items: [1, 2].map((no) => ({ no, type: 'single', options: 4 })) },
  { kind: 'short', title: '二、解答题', items: [{ no: 3, heightMm: 40 }, { no: 4, heightMm: 30 }] },
];
/** Question 3 has full marks from the designer; question 4 none, as on sheets designed before. */
const KEY = { items: { '1': { answer: 'A', points: 5 }, '2': { answer: 'B', points: 5 }, '3': { manual: true, points: 8 } } };

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  const classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
  const sheet = (await post(teacher, '/sheet/create', { title: '阅卷测试', paper: 'A4', identity: 'roster', classId, sections: SECTIONS })).json().data;
  sheetId = sheet.sheetId;
  [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  const created = await post(teacher, '/task/create', { type: 3, title: '阅卷测试批改', classId, sheetId: sheet.sheetId, answerKey: KEY });
  expect(created.statusCode, created.body).toBe(200);
  taskId = created.json().data.id;
  for (let i = 0; i < 3; i++) {
    const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id }, objective: { 1: [{ label: 'A', style: 'full' }], 2: [{ label: 'B', style: 'full' }] } }, { rotateDeg: 0, noise: 2 }, 90 + i);
    const body = multipart({ taskId }, { name: `扫描${i + 1}.jpg`, content: scan });
    expect((await t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
  }
  await post(teacher, '/task/submit', { taskId });
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}, 240_000);
afterAll(() => t.close());

const report = async () => (await get(teacher, `/task/report?taskId=${taskId}`)).json().data as TaskReport;

describe('网上阅卷', () => {
  it('lists the hand-marked questions with their full marks, counted in every total from the start', async () => {
    const res = await get(teacher, `/marking/questions?taskId=${taskId}`);
    expect(res.statusCode, res.body).toBe(200);
    const questions = res.json().data as MarkingQuestion[];
    expect(questions).toEqual([
      { no: 3, kind: 'short', fullMarks: 8, marked: 0, total: 3, double: null, arbitration: 0, markers: [] },
      { no: 4, kind: 'short', fullMarks: null, marked: 0, total: 3, double: null, arbitration: 0, markers: [] },
    ]);
    const r = await report();
    expect(r.summary.maxScore).toBe(18);
    expect(r.students.every((s) => s.score === 10 && s.needsReview)).toBe(true);
    expect(r.questions.find((q) => q.no === 3)).toMatchObject({ max: 8, objective: false, flaggedCount: 3 });
  });

  it("gives one question's papers anonymously until the owner shows names: crop of the region on each scan, and points", async () => {
    const anonymous = await get(teacher, `/marking/question?taskId=${taskId}&no=3`);
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    const hidden = anonymous.json().data as MarkingSheet;
    expect(hidden.showNames).toBe(false);
    for (const p of hidden.papers) expect([p.studentName, p.studentNo, p.studentKey]).toEqual([null, null, null]);
    expect(JSON.stringify(hidden)).not.toMatch(/"s\d+"/);
    const set = await post(teacher, '/marking/settings', { taskId, showNames: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().msg).toBe('阅卷时显示学生姓名');
    const res = await get(teacher, `/marking/question?taskId=${taskId}&no=3`);
    const sheet = res.json().data as MarkingSheet;
    expect(sheet.showNames).toBe(true);
    expect(sheet.question).toMatchObject({ no: 3, fullMarks: 8, marked: 0, total: 3 });
    expect(sheet.papers).toHaveLength(3);
    for (const p of sheet.papers) {
      expect(p.studentName).toBeTruthy();
      expect(p.score).toBeNull();
      expect(p.crop?.fileId).toBeGreaterThan(0);
      expect(p.crop?.h).toHaveLength(9);
      expect(p.crop?.rect.h).toBeCloseTo(40, 0);
    }
  });

  it('saves a score: the student total and the report follow at once', async () => {
    const { papers } = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    const saved = await post(teacher, '/marking/score', { taskId, no: 3, resultId: papers[0].resultId, score: 6.5 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({ resultId: papers[0].resultId, no: 3, score: 6.5, applied: [], total: 16.5, maxScore: 18, marked: 1, marks: [], pending: false });
    // Changed again: the last score counts.
    await post(teacher, '/marking/score', { taskId, no: 3, resultId: papers[1].resultId, score: 8 });
    await post(teacher, '/marking/score', { taskId, no: 3, resultId: papers[1].resultId, score: 2 });
    const r = await report();
    const row = (id: number) => r.students.find((s) => s.resultId === id)!;
    expect(row(papers[0].resultId)).toMatchObject({ score: 16.5, points: { '3': 6.5 } });
    expect(row(papers[1].resultId)).toMatchObject({ score: 12, points: { '3': 2 } });
    expect(r.questions.find((q) => q.no === 3)).toMatchObject({ flaggedCount: 1, average: 4.25 });
    const again = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    expect(again.question.marked).toBe(2);
    expect(again.papers[0]).toMatchObject({ score: 6.5, total: 16.5 });
    const detail = (await get(teacher, `/result/detail?resultId=${papers[1].resultId}`)).json().data;
    expect(detail.review['3']).toBe(2);
  });

  it('refuses scores out of bounds, a question that is not hand-marked, and marking before full marks are set, in Chinese', async () => {
    const { papers } = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    const cases: [object, string][] = [
      [{ taskId, no: 3, resultId: papers[2].resultId, score: 9 }, '第 3 题得分不能超过满分 8 分'],
      [{ taskId, no: 3, resultId: papers[2].resultId, score: 1.3 }, '分数只能是整数或 0.5 分'],
      [{ taskId, no: 1, resultId: papers[2].resultId, score: 1 }, '第 1 题不是解答题或作文，不能网上阅卷'],
      [{ taskId, no: 4, resultId: papers[2].resultId, score: 1 }, '请先设置第 4 题的满分'],
    ];
    for (const [body, msg] of cases) {
      const res = await post(teacher, '/marking/score', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    for (const body of [{ taskId, no: 3, resultId: papers[2].resultId, score: -1 }, { taskId, no: 3, resultId: papers[2].resultId, score: 'x' }, { taskId, no: 999, resultId: 1, score: 1 }]) {
      const res = await post(teacher, '/marking/score', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await post(teacher, '/marking/score', { taskId, no: 3, resultId: 999_999, score: 1 })).statusCode).toBe(404);
  });

  it("sets an older sheet's full marks for a 解答题, then marks it", async () => {
    expect((await post(teacher, '/marking/fullMarks', { taskId, no: 4, points: 0.3 })).statusCode).toBe(400);
    const set = await post(teacher, '/marking/fullMarks', { taskId, no: 4, points: 5 });
    expect(set.statusCode, set.body).toBe(200);
    expect((await report()).summary.maxScore).toBe(23);
    const { papers, question } = (await get(teacher, `/marking/question?taskId=${taskId}&no=4`)).json().data as MarkingSheet;
    expect(question.fullMarks).toBe(5);
    expect((await post(teacher, '/marking/score', { taskId, no: 4, resultId: papers[0].resultId, score: 5 })).json().data).toMatchObject({ total: 21.5, maxScore: 23 });
    const lower = await post(teacher, '/marking/fullMarks', { taskId, no: 4, points: 4 });
    expect(lower.statusCode).toBe(400);
    expect(lower.json().msg).toBe('已有学生第 4 题得 5 分，满分不能低于它');
  });

  it('scores papers from rubric items; changing or removing an item re-scores every paper it marks', async () => {
    const { papers } = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    const [p1, p2] = [papers[1].resultId, papers[2].resultId];
    const add = async (label: string, points: number) => {
      const res = await post(teacher, '/marking/rubric/save', { taskId, no: 3, label, points });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.item as RubricItem;
    };
    const method = await add('列式正确', 3);
    const answer = await add('结果正确', 4);
    const slip = await add('计算错误', -2);
    const apply = async (resultId: number, item: RubricItem, applied = true) => {
      const res = await post(teacher, '/marking/rubric/apply', { taskId, resultId, itemId: item.id, applied });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    expect(await apply(p2, method)).toMatchObject({ score: 3, total: 13, applied: [method.id] });
    expect(await apply(p2, answer)).toMatchObject({ score: 7, total: 17 });
    expect(await apply(p2, slip)).toMatchObject({ score: 5, total: 15, applied: [method.id, answer.id, slip.id] });
    // Applied to a paper scored by hand, the rubric decides.
    expect(await apply(p1, method)).toMatchObject({ score: 3, total: 13 });

    // 列式正确 now worth 5: both papers follow, and the report with them.
    const changed = await post(teacher, '/marking/rubric/save', { taskId, no: 3, id: method.id, label: '列式正确', points: 5 });
    expect(changed.json().data).toEqual({ item: { id: method.id, label: '列式正确', points: 5 }, rescored: 2 });
    let r = await report();
    const row = (id: number) => r.students.find((s) => s.resultId === id)!;
    expect(row(p2)).toMatchObject({ score: 17, points: { '3': 7 } });
    expect(row(p1)).toMatchObject({ score: 15, points: { '3': 5 } });
    // Bounded to full marks (8).
    await post(teacher, '/marking/rubric/save', { taskId, no: 3, id: answer.id, label: '结果正确', points: 8 });
    r = await report();
    expect(row(p2).points['3']).toBe(8);
    // Removed: gone from every paper.
    expect((await post(teacher, '/marking/rubric/remove', { taskId, id: slip.id })).json().data).toEqual({ id: slip.id, rescored: 1 });
    const sheet = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    expect(sheet.rubric.map((i) => [i.label, i.points])).toEqual([['列式正确', 5], ['结果正确', 8]]);
    expect(sheet.papers[2]).toMatchObject({ score: 8, applied: [method.id, answer.id] });
    // Every item taken off: the paper is unmarked again.
    await apply(p2, method, false);
    expect(await apply(p2, answer, false)).toMatchObject({ score: null, applied: [], total: 10, marked: 2 });
    // A typed score replaces the items: the paper no longer follows them.
    expect((await post(teacher, '/marking/score', { taskId, no: 3, resultId: p1, score: 4 })).json().data).toMatchObject({ score: 4, applied: [] });
    await post(teacher, '/marking/rubric/save', { taskId, no: 3, id: method.id, label: '列式正确', points: 6 });
    expect((await report()).students.find((s) => s.resultId === p1)!.points['3']).toBe(4);

    // Bounds, in Chinese.
    const refusals: [object, string][] = [
      [{ taskId, no: 3, label: '多了', points: 9 }, '细则分值在 -8 到 8 之间且不为 0'],
      [{ taskId, no: 3, label: '零分', points: 0 }, '细则分值在 -8 到 8 之间且不为 0'],
      [{ taskId, no: 3, label: '   ', points: 1 }, '请填写评分细则'],
      [{ taskId, no: 3, label: '半点', points: 0.2 }, '分数只能是整数或 0.5 分'],
      [{ taskId, no: 1, label: '选择', points: 1 }, '第 1 题不是解答题或作文，不能网上阅卷'],
    ];
    for (const [body, msg] of refusals) {
      const res = await post(teacher, '/marking/rubric/save', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    const long = await post(teacher, '/marking/rubric/save', { taskId, no: 3, label: '长'.repeat(31), points: 1 });
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    expect((await post(teacher, '/marking/rubric/apply', { taskId, resultId: 999_999, itemId: method.id, applied: true })).statusCode).toBe(404);
    expect((await post(teacher, '/marking/rubric/remove', { taskId, id: 999_999 })).statusCode).toBe(404);

    const other = await t.login('teacher2');
    for (const res of [
      await post(other, '/marking/rubric/save', { taskId, no: 3, label: '别人的', points: 1 }),
      await post(other, '/marking/rubric/save', { taskId, no: 3, id: method.id, label: '别人的', points: 1 }),
      await post(other, '/marking/rubric/apply', { taskId, resultId: p1, itemId: method.id, applied: true }),
      await post(other, '/marking/rubric/remove', { taskId, id: method.id }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('批改任务不存在');
    }
  });

  it('keeps the rubric items of a paper whose page is replaced: its points follow them on the new scan', async () => {
    const sheet = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    const paper = sheet.papers[2]!;
    const method = sheet.rubric.find((i) => i.label === '列式正确')!;
    expect((await post(teacher, '/marking/rubric/apply', { taskId, resultId: paper.resultId, itemId: method.id, applied: true })).json().data).toMatchObject({ score: 6 });
    const [{ studentId }] = await rows<{ studentId: number }>(t.database.db, sql`SELECT student_id AS "studentId" FROM grading_results WHERE id = ${paper.resultId}`);
    const scan = await makeScan(layout, { copy: { sheetId, page: 1, studentId: `s${studentId}` }, objective: { 1: [{ label: 'A', style: 'full' }], 2: [{ label: 'B', style: 'full' }] } }, { rotateDeg: 1, noise: 2 }, 190);
    const body = multipart({ taskId }, { name: '重扫.jpg', content: scan });
    expect((await t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
    await post(teacher, '/task/submit', { taskId });
    const worker = createWorker(t.database.db, t.app.config);
    while (await worker.runOnce());
    const after = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    expect(after.papers.find((p) => p.resultId === paper.resultId)).toMatchObject({ score: 6, applied: [method.id] });
    expect((await report()).students.find((s) => s.resultId === paper.resultId)!.points['3']).toBe(6);
  }, 120_000);

  it("keeps the marker's pen on a paper: the marks come back on the marking screen and in the student's view, an undo saves the shorter list", async () => {
    const { papers } = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    const paper = papers[1];
    expect(paper.annotations).toEqual([]);
    const marks = [
      { kind: 'check', x: 0.2, y: 0.3, w: 0, h: 0 },
      { kind: 'circle', x: 0.5, y: 0.4, w: 0.2, h: 0.3 },
      { kind: 'text', x: 0.1, y: 0.8, w: 0, h: 0, text: ' 步骤完整 ' },
    ];
    const saved = await post(teacher, '/marking/annotations', { taskId, no: 3, resultId: paper.resultId, marks });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().msg).toBe('批注已保存');
    const kept = [marks[0], marks[1], { ...marks[2], text: '步骤完整' }];
    const again = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    expect(again.papers.find((p) => p.resultId === paper.resultId)!.annotations).toEqual(kept);
    // Only that paper carries them.
    expect(again.papers.filter((p) => p.resultId !== paper.resultId).every((p) => p.annotations.length === 0)).toBe(true);
    // The student's view (/correctDetail) draws them over question 3.
    const detail = (await get(teacher, `/result/detail?resultId=${paper.resultId}`)).json().data as { annotations: Record<string, unknown[]> };
    expect(detail.annotations).toEqual({ '3': kept });
    // 撤销: the list without its last mark; 清除: none, and the row is gone.
    await post(teacher, '/marking/annotations', { taskId, no: 3, resultId: paper.resultId, marks: kept.slice(0, 2) });
    expect(((await get(teacher, `/result/detail?resultId=${paper.resultId}`)).json().data as { annotations: Record<string, unknown[]> }).annotations['3']).toHaveLength(2);
    const cleared = await post(teacher, '/marking/annotations', { taskId, no: 3, resultId: paper.resultId, marks: [] });
    expect(cleared.json().msg).toBe('批注已清除');
    expect(((await get(teacher, `/result/detail?resultId=${paper.resultId}`)).json().data as { annotations: Record<string, unknown[]> }).annotations).toEqual({});
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM grading_annotations WHERE result_id = ${paper.resultId}`);
    expect(n).toBe(0);
  });

  it('refuses a pen mark off the region, too many marks, long or empty text, and an unknown kind, in Chinese', async () => {
    const { papers } = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    const resultId = papers[0].resultId;
    const check = { kind: 'check', x: 0.5, y: 0.5, w: 0, h: 0 };
    for (const marks of [
      [{ ...check, x: 1.5 }],
      [{ ...check, y: -0.1 }],
      Array.from({ length: 41 }, () => check),
      [{ kind: 'text', x: 0.1, y: 0.1, w: 0, h: 0, text: '很'.repeat(21) }],
      [{ kind: 'text', x: 0.1, y: 0.1, w: 0, h: 0, text: '   ' }],
      [{ kind: 'text', x: 0.1, y: 0.1, w: 0, h: 0 }],
      [{ ...check, text: '对' }],
      [{ ...check, kind: 'star' }],
      [{ ...check, extra: 1 }],
    ]) {
      const res = await post(teacher, '/marking/annotations', { taskId, no: 3, resultId, marks });
      expect(res.statusCode, JSON.stringify(marks).slice(0, 80)).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    // A result of another task, and a question that is not hand-marked.
    expect((await post(teacher, '/marking/annotations', { taskId, no: 3, resultId: 2_000_000, marks: [check] })).statusCode).toBe(404);
    expect((await post(teacher, '/marking/annotations', { taskId, no: 1, resultId, marks: [check] })).statusCode).toBe(400);
  });

  it("answers 404 for another teacher's task and 403 for a school admin", async () => {
    const { papers } = (await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet;
    const other = await t.login('teacher2');
    for (const res of [
      await get(other, `/marking/questions?taskId=${taskId}`),
      await get(other, `/marking/question?taskId=${taskId}&no=3`),
      await post(other, '/marking/score', { taskId, no: 3, resultId: papers[0].resultId, score: 1 }),
      await post(other, '/marking/fullMarks', { taskId, no: 4, points: 6 }),
      await post(other, '/marking/settings', { taskId, showNames: false }),
      await post(other, '/marking/annotations', { taskId, no: 3, resultId: papers[0].resultId, marks: [] }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('批改任务不存在');
    }
    expect((await get(await t.login('schooladmin'), `/marking/questions?taskId=${taskId}`)).statusCode).toBe(403);
    expect(((await get(teacher, `/marking/question?taskId=${taskId}&no=3`)).json().data as MarkingSheet).papers[0].score).toBe(6.5);
  });
});
