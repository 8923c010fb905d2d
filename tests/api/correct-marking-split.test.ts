// 网上阅卷 split marking and 双评 (docs/api-correct.md "Markers"): the task owner gives a 解答题 to
// teachers of the same course in the class (teacher and teacher4 teach 七(1)班 数学); each marker
// sees the task among their 阅卷任务 and only their own share of the papers, and progress shows per
// teacher. With 双评 every paper is marked by both, independently: marks within the threshold count
// at their mean, farther apart the paper waits for the owner's 仲裁. A teacher not given the
// question, another course's or another school's teacher, and unbounded input are refused in
// Chinese. Real HTTP, real grading worker.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import type { AssignedMarking, MarkerSetup, MarkingQuestion, MarkingSaved, MarkingSheet } from '../../src/domain/marking';
import type { TaskReport } from '../../src/domain/correct';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let owner: string;
let second: string;
let taskId: number;
const ids: Record<string, number> = {};

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });
const sheetOf = async (token: string, no: number) => (await get(token, `/marking/question?taskId=${taskId}&no=${no}`)).json().data as MarkingSheet;
const questionsOf = async (token: string) => (await get(token, `/marking/questions?taskId=${taskId}`)).json().data as MarkingQuestion[];
const report = async () => (await get(owner, `/task/report?taskId=${taskId}`)).json().data as TaskReport;
const score = async (token: string, no: number, resultId: number, points: number, arbitrate?: boolean) => {
  const res = await post(token, '/marking/score', { taskId, no, resultId, score: points, ...(arbitrate ? { arbitrate } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as MarkingSaved;
};
/** The points that count for question `no` of a result, from the database. */
const finalOf = async (resultId: number, no: number) =>
  (await rows<{ v: number | null }>(t.database.db, sql`SELECT (review ->> ${String(no)})::float8 AS v FROM grading_results WHERE id = ${resultId}`))[0]!.v;

const SECTIONS = [
  { kind: 'objective', title: '一、选择题', items: [{ no: 1, type: 'single', options: 4 }] },
  { kind: 'short', title: '二、解答题', items: [{ no: 2, heightMm: 30 }, { no: 3, heightMm: 30 }] },
];
const KEY = { items: { '1': { answer: 'A', points: 5 }, '2': { manual: true, points: 8 }, '3': { manual: true, points: 10 } } };

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  owner = await t.login('teacher');
  second = await t.login('teacher4');
  for (const name of ['teacher', 'teacher2', 'teacher3', 'teacher4']) {
    ids[name] = (await rows<{ id: number }>(t.database.db, sql`SELECT t.id FROM teachers t JOIN users u ON u.id = t.user_id WHERE u.username = ${name}`))[0]!.id;
  }
  // 七(1)班: the class both math teachers teach.
  const classId = (await t.call(second, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
  const sheet = (await post(owner, '/sheet/create', { title: '分评测试', paper: 'A4', identity: 'roster', classId, sections: SECTIONS })).json().data;
  const [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  const created = await post(owner, '/task/create', { type: 3, title: '分评测试批改', classId, sheetId: sheet.sheetId, answerKey: KEY });
  expect(created.statusCode, created.body).toBe(200);
  taskId = created.json().data.id;
  for (let i = 0; i < 4; i++) {
    const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id }, objective: { 1: [{ label: 'A', style: 'full' }] } }, { rotateDeg: 0, noise: 2 }, 40 + i);
    const body = multipart({ taskId }, { name: `扫描${i + 1}.jpg`, content: scan });
    expect((await t.call(owner, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
  }
  await post(owner, '/task/submit', { taskId });
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}, 240_000);
afterAll(() => t.close());

describe('网上阅卷 分评', () => {
  it('offers the teachers of the same course in the class, and refuses others in Chinese', async () => {
    const setup = (await get(owner, `/marking/markers?taskId=${taskId}`)).json().data as MarkerSetup;
    expect(setup.candidates.map((c) => c.teacherId)).toEqual([ids.teacher, ids.teacher4].sort((a, b) => a - b));
    expect(setup.questions).toEqual([
      { no: 2, teacherIds: [], double: null },
      { no: 3, teacherIds: [], double: null },
    ]);
    // Not yet given anything: the task does not exist for teacher4.
    const before = await get(second, `/marking/questions?taskId=${taskId}`);
    expect(before.statusCode).toBe(404);
    expect(before.json().msg).toBe('批改任务不存在');
    const refusals: [object, string][] = [
      [{ taskId, no: 2, teacherIds: [ids.teacher2], double: null }, '只能分配给在本班任教本课程的老师'],
      [{ taskId, no: 2, teacherIds: [ids.teacher3], double: null }, '只能分配给在本班任教本课程的老师'],
      [{ taskId, no: 2, teacherIds: [ids.teacher4], double: 1 }, '双评至少需要两位阅卷老师'],
      [{ taskId, no: 2, teacherIds: [ids.teacher, ids.teacher4], double: 9 }, '双评分差不能超过满分 8 分'],
      [{ taskId, no: 2, teacherIds: [ids.teacher, ids.teacher4], double: 0.3 }, '分数只能是整数或 0.5 分'],
      [{ taskId, no: 1, teacherIds: [ids.teacher4], double: null }, '第 1 题不是解答题或作文，不能网上阅卷'],
    ];
    for (const [body, msg] of refusals) {
      const res = await post(owner, '/marking/markers', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    for (const body of [
      { taskId, no: 2, teacherIds: Array.from({ length: 21 }, (_, i) => i + 1), double: null },
      { taskId, no: 2, teacherIds: [ids.teacher4, ids.teacher4], double: null },
      { taskId, no: 2, teacherIds: [ids.teacher4], double: -1 },
      { taskId, no: 2, teacherIds: ['x'], double: null },
    ]) {
      const res = await post(owner, '/marking/markers', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    // Only the owner gives questions away.
    const notOwner = await post(second, '/marking/markers', { taskId, no: 2, teacherIds: [ids.teacher4], double: null });
    expect(notOwner.statusCode).toBe(404);
    expect((await get(await t.login('schooladmin'), `/marking/markers?taskId=${taskId}`)).statusCode).toBe(403);
  });

  it('splits a question between its markers: each sees their own queue, the owner sees progress per teacher', async () => {
    const set = await post(owner, '/marking/markers', { taskId, no: 2, teacherIds: [ids.teacher4, ids.teacher], double: null });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().msg).toBe('第 2 题已分配给 2 位老师');

    const assigned = (await get(second, '/marking/assigned')).json().data as AssignedMarking[];
    expect(assigned).toEqual([{ taskId, title: '分评测试批改', owner: '陈静', questions: [{ no: 2, kind: 'short', double: false, marked: 0, total: 2 }] }]);
    expect((await get(owner, '/marking/assigned')).json().data).toEqual([]);

    // teacher4 sees question 2 only, and two of the four papers, without totals.
    expect((await questionsOf(second)).map((q) => [q.no, q.marked, q.total])).toEqual([[2, 0, 2]]);
    const mine = await sheetOf(second, 2);
    expect(mine.owner).toBe(false);
    expect(mine.papers).toHaveLength(2);
    expect(mine.papers.every((p) => p.total === null)).toBe(true);
    const all = await sheetOf(owner, 2);
    expect(all.papers).toHaveLength(4);
    const others = all.papers.filter((p) => !mine.papers.some((m) => m.resultId === p.resultId));
    expect(others).toHaveLength(2);

    // The scans of their own share show; another share's are not found.
    expect((await get(second, `/file/view?fileId=${mine.papers[0]!.crop!.fileId}`)).statusCode).toBe(200);
    const hidden = await get(second, `/file/view?fileId=${others[0]!.crop!.fileId}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().msg).toBe('文件不存在');

    const not = await get(second, `/marking/question?taskId=${taskId}&no=3`);
    expect(not.statusCode).toBe(403);
    expect(not.json().msg).toBe('您没有被分配阅第 3 题');
    const notMine = await post(second, '/marking/score', { taskId, no: 2, resultId: others[0]!.resultId, score: 3 });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().msg).toBe('这份试卷不是分给您阅的');
    // Their pen reaches their own share only.
    const pen = [{ kind: 'cross', x: 0.4, y: 0.4, w: 0, h: 0 }];
    const drawn = await post(second, '/marking/annotations', { taskId, no: 2, resultId: others[0]!.resultId, marks: pen });
    expect(drawn.statusCode).toBe(403);
    expect(drawn.json().msg).toBe('这份试卷不是分给您阅的');
    expect((await post(second, '/marking/annotations', { taskId, no: 3, resultId: mine.papers[0]!.resultId, marks: pen })).statusCode).toBe(403);
    const own = await post(second, '/marking/annotations', { taskId, no: 2, resultId: mine.papers[0]!.resultId, marks: pen });
    expect(own.statusCode, own.body).toBe(200);
    expect((await sheetOf(owner, 2)).papers.find((p) => p.resultId === mine.papers[0]!.resultId)!.annotations).toEqual(pen);
    await post(second, '/marking/annotations', { taskId, no: 2, resultId: mine.papers[0]!.resultId, marks: [] });
    // The rest of the task stays the owner's.
    for (const url of [`/task/report?taskId=${taskId}`, `/task/detail?taskId=${taskId}`]) expect((await get(second, url)).statusCode).toBe(404);
    expect((await post(second, '/marking/settings', { taskId, showNames: true })).statusCode).toBe(404);

    const saved = await score(second, 2, mine.papers[0]!.resultId, 6);
    expect(saved).toMatchObject({ score: 6, total: null, marked: 1, pending: false });
    await score(second, 2, mine.papers[1]!.resultId, 7);
    const q2 = (await questionsOf(owner)).find((q) => q.no === 2)!;
    expect(q2).toMatchObject({ marked: 2, total: 4, double: null, arbitration: 0 });
    expect(q2.markers).toEqual([
      { teacherId: Math.min(ids.teacher, ids.teacher4), name: ids.teacher < ids.teacher4 ? '陈静' : '方远', marked: ids.teacher < ids.teacher4 ? 0 : 2, total: 2 },
      { teacherId: Math.max(ids.teacher, ids.teacher4), name: ids.teacher < ids.teacher4 ? '方远' : '陈静', marked: ids.teacher < ids.teacher4 ? 2 : 0, total: 2 },
    ]);
    // The report follows at once: 5 for question 1, plus the marker's points.
    const scores = (await report()).students.map((s) => s.score).sort((x, y) => (x ?? 0) - (y ?? 0));
    expect(scores).toEqual([5, 5, 11, 12]);
  });

  it('双评: two independent marks count at their mean within the threshold, else the owner arbitrates', async () => {
    const set = await post(owner, '/marking/markers', { taskId, no: 3, teacherIds: [ids.teacher, ids.teacher4], double: 2 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().msg).toBe('第 3 题已分配给 2 位老师（双评）');
    // Two markers, 双评: both get every paper.
    const mine = await sheetOf(second, 3);
    expect(mine.papers).toHaveLength(4);
    const [a, b] = mine.papers;

    // Agreement: 6 and 7.5 → 6.75 → 7 (half points).
    await score(second, 3, a!.resultId, 6);
    expect(await finalOf(a!.resultId, 3)).toBeNull();
    // The owner, marking too, does not see teacher4's mark before giving their own.
    const ownerBefore = (await sheetOf(owner, 3)).papers.find((p) => p.resultId === a!.resultId)!;
    expect(ownerBefore).toMatchObject({ score: null, marks: [], pending: false });
    const agreed = await score(owner, 3, a!.resultId, 7.5);
    expect(agreed.pending).toBe(false);
    expect(agreed.marks.map((m) => m.score).sort()).toEqual([6, 7.5]);
    expect(await finalOf(a!.resultId, 3)).toBe(7);
    // teacher4 still sees only their own mark.
    const theirs = (await sheetOf(second, 3)).papers.find((p) => p.resultId === a!.resultId)!;
    expect(theirs).toMatchObject({ score: 6, marks: [], pending: false });

    // Disagreement: 2 and 9 → 待仲裁, nothing counts yet.
    await score(second, 3, b!.resultId, 2);
    const apart = await score(owner, 3, b!.resultId, 9);
    expect(apart.pending).toBe(true);
    expect(await finalOf(b!.resultId, 3)).toBeNull();
    let q3 = (await questionsOf(owner)).find((q) => q.no === 3)!;
    expect(q3).toMatchObject({ double: 2, arbitration: 1, marked: 1, total: 4 });
    expect(q3.markers.map((m) => [m.name, m.marked, m.total]).sort()).toEqual([['方远', 2, 4], ['陈静', 2, 4]].sort());
    // A marker cannot arbitrate.
    const notOwner = await post(second, '/marking/score', { taskId, no: 3, resultId: b!.resultId, score: 5, arbitrate: true });
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json().msg).toBe('这份试卷不是分给您阅的');

    // The owner's 仲裁 settles it, and stays when a marker later changes their mark.
    const settled = await score(owner, 3, b!.resultId, 5, true);
    expect(settled).toMatchObject({ score: 5, pending: false });
    expect(await finalOf(b!.resultId, 3)).toBe(5);
    await score(second, 3, b!.resultId, 3);
    expect(await finalOf(b!.resultId, 3)).toBe(5);
    q3 = (await questionsOf(owner)).find((q) => q.no === 3)!;
    expect(q3).toMatchObject({ arbitration: 0, marked: 2 });
    // Rubric items are one per paper: not for 双评 questions.
    const rubric = await post(owner, '/marking/rubric/save', { taskId, no: 3, label: '列式正确', points: 2 });
    expect(rubric.statusCode, rubric.body).toBe(200);
    const apply = await post(second, '/marking/rubric/apply', { taskId, resultId: a!.resultId, itemId: rubric.json().data.item.id, applied: true });
    expect(apply.statusCode).toBe(400);
    expect(apply.json().msg).toBe('双评的题请直接给分，不能使用评分细则');
  });

  it("refuses another school's teacher and a teacher given nothing", async () => {
    const other = await t.login('teacher3');
    for (const res of [
      await get(other, `/marking/questions?taskId=${taskId}`),
      await post(other, '/marking/score', { taskId, no: 2, resultId: 1, score: 1 }),
      await post(other, '/marking/annotations', { taskId, no: 2, resultId: 1, marks: [] }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('批改任务不存在');
    }
    expect((await get(other, '/marking/assigned')).json().data).toEqual([]);
    const chinese = await t.login('teacher2');
    expect((await get(chinese, `/marking/question?taskId=${taskId}&no=2`)).statusCode).toBe(404);
  });
});
