// What the review screen draws (GET /result/detail `view`): each page of a student's answer sheet
// with the uploaded file it was read from, the transform from layout millimetres to the scan's
// pixels, every question's region and every bubble with how it was read. Through HTTP with scans
// rendered by the engine's corpus generator and graded by a real queue worker; another teacher's
// result answers 404, as do its file and its review.
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import type { MarkStyle } from '../../server/grading/corpus/marks';
import type { SheetLayout } from '../../server/grading';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let classId: number;
let taskId: number;
let layout: SheetLayout;
const scans: Buffer[] = [];

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });

const SECTIONS = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3].map((no) => ({ no, type: 'single', options: 4 })) }];
const KEY = { items: { '1': { answer: 'A', points: 5 }, '2': { answer: 'B', points: 5 }, '3': { answer: 'C', points: 5 } } };
/** Two students: all right; the second marked both B and D on item 2 (a double mark, flagged). */
const MARKS: Record<number, [string, MarkStyle][]>[] = [
  { 1: [['A', 'full']], 2: [['B', 'full']], 3: [['C', 'full']] },
  { 1: [['A', 'full']], 2: [['B', 'full'], ['D', 'full']], 3: [['C', 'full']] },
];

type Detail = {
  id: number;
  studentName: string | null;
  result: { items: { no: number; needsReview: boolean }[] };
  view: { pages: { page: number; fileId: number; h: number[]; size: { w: number; h: number }; regions: { no: number; kind: string; rect: { x: number; y: number; w: number; h: number } }[]; bubbles: { no: number; label: string; cx: number; cy: number; state: string }[] }[] };
};

const project = (h: number[], x: number, y: number) => {
  const w = h[6] * x + h[7] * y + 1;
  return { x: (h[0] * x + h[1] * y + h[2]) / w, y: (h[3] * x + h[4] * y + h[5]) / w };
};

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
  const sheet = (await post(teacher, '/sheet/create', { title: '复核测试', paper: 'A4', identity: 'roster', classId, sections: SECTIONS })).json().data;
  [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  taskId = (await post(teacher, '/task/create', { type: 3, title: '复核测试批改', classId, sheetId: sheet.sheetId, answerKey: KEY })).json().data.id;
  for (const [i, marks] of MARKS.entries()) {
    const filling: Filling = {
      copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id },
      objective: Object.fromEntries(Object.entries(marks).map(([no, m]) => [Number(no), m.map(([label, style]) => ({ label, style }))])),
    };
    // Tilted a little, so the drawing must follow the page transform rather than a plain scale.
    scans.push(await makeScan(layout, filling, { rotateDeg: i ? 2 : -1.5, noise: 3 }, 70 + i));
    const body = multipart({ taskId }, { name: `扫描${i + 1}.jpg`, content: scans[i] });
    expect((await t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
  }
  await post(teacher, '/task/submit', { taskId });
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
});
afterAll(() => t.close());

describe('result detail for the review screen', () => {
  it("gives each page's file, transform, question regions and bubbles as read", async () => {
    const task = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data;
    expect(task.task.status).toBe(4);
    expect(task.results).toHaveLength(2);
    const fileOf = new Map<number, number>(task.files.map((f: { id: number }, i: number) => [f.id, i]));
    for (const r of task.results) {
      const res = await get(teacher, `/result/detail?resultId=${r.id}`);
      expect(res.statusCode, res.body).toBe(200);
      const detail = res.json().data as Detail;
      expect(detail.studentName).toBe(r.studentName);
      expect(detail.view.pages).toHaveLength(1);
      const [page] = detail.view.pages;
      expect(page.page).toBe(1);
      expect(fileOf.has(page.fileId)).toBe(true);
      expect(page.h).toHaveLength(9);
      expect(page.size).toEqual({ w: layout.widthMm, h: layout.heightMm });
      expect(page.regions.map((g) => [g.no, g.kind])).toEqual([[1, 'objective'], [2, 'objective'], [3, 'objective']]);
      expect(page.bubbles).toHaveLength(12);
      const marked = page.bubbles.filter((b) => b.state === 'marked').map((b) => `${b.no}${b.label}`);
      const scan = fileOf.get(page.fileId)!;
      const expected = Object.entries(MARKS[scan]).flatMap(([no, m]) => m.map(([label]) => `${no}${label}`));
      expect(marked.sort()).toEqual(expected.sort());
      // The double mark is flagged.
      expect(detail.result.items.find((i) => i.no === 2)!.needsReview).toBe(scan === 1);

      // Carried through the transform, every bubble lands on the scan, at a dark spot where it was marked.
      const { data, info } = await sharp(scans[scan]).greyscale().raw().toBuffer({ resolveWithObject: true });
      for (const b of page.bubbles) {
        const p = project(page.h, b.cx, b.cy);
        expect(p.x).toBeGreaterThan(0);
        expect(p.x).toBeLessThan(info.width);
        expect(p.y).toBeGreaterThan(0);
        expect(p.y).toBeLessThan(info.height);
        const ink = data[Math.round(p.y) * info.width + Math.round(p.x)];
        if (b.state === 'marked') expect(ink).toBeLessThan(128);
      }
      // The file the page names is the scan itself.
      const file = await get(teacher, `/file/view?fileId=${page.fileId}`);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(scans[scan])).toBe(true);
    }
  });

  it('gives a homework photo and the lines of each answer on it, in its pixels', async () => {
    const task = (await post(teacher, '/task/create', { type: 1, title: '作业复核', classId, questions: [{ no: 1 }, { no: 2 }] })).json().data;
    const photo = await homeworkPhoto(
      [
        { text: '1. 三分之二', hand: true },
        { text: '2. 长方形的面积是十二', hand: true },
      ],
      11,
    );
    const [student] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM students WHERE class_id = ${classId} ORDER BY student_no LIMIT 1`);
    const body = multipart({ taskId: task.id, studentId: student.id }, { name: '作业.jpg', content: photo });
    expect((await t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
    await post(teacher, '/task/submit', { taskId: task.id });
    const worker = createWorker(t.database.db, t.app.config);
    while (await worker.runOnce());
    const detail = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data;
    expect(detail.task.status).toBe(4);
    const res = (await get(teacher, `/result/detail?resultId=${detail.results[0].id}`)).json().data as Detail;
    expect(res.view.pages).toHaveLength(1);
    const [page] = res.view.pages;
    expect(page).toMatchObject({ page: 1, fileId: detail.files[0].id, h: null, size: null, bubbles: [] });
    const { width, height } = await sharp(photo).metadata();
    const found = res.result.items.filter((i) => res.view.pages[0].regions.some((r) => r.no === i.no));
    expect(found.length).toBeGreaterThan(0);
    for (const r of page.regions) {
      expect(r.kind).toBe('answer');
      expect(r.rect.x).toBeGreaterThanOrEqual(0);
      expect(r.rect.x + r.rect.w).toBeLessThanOrEqual(width! + 1);
      expect(r.rect.y + r.rect.h).toBeLessThanOrEqual(height! + 1);
    }
  });

  it("answers 404 for another teacher's result, its file and its review", async () => {
    const task = (await get(teacher, `/task/detail?taskId=${taskId}`)).json().data;
    const resultId = task.results[0].id;
    const other = await t.login('teacher2');
    const res = await get(other, `/result/detail?resultId=${resultId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('批改结果不存在');
    const review = await post(other, '/result/review', { resultId, items: [{ no: 1, score: 0 }] });
    expect(review.statusCode).toBe(404);
    expect(review.json().msg).toBe('批改结果不存在');
    const file = await get(other, `/file/view?fileId=${task.files[0].id}`);
    expect(file.statusCode).toBe(404);
    expect(file.json().msg).toBe('文件不存在');
  });
});
