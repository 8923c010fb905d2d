// What a teacher prints for AI批改, as the API lays it out: the demo's 24-item exam is one A4 side
// per student with the student named on it, and an anonymous sheet's 考号 grid has as many digits
// as the school's 学号 (9 in the demo school) when the teacher does not say, on the designer's
// sheet and on the classic paper's sheet alike. Real server app and database.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import type { SheetLayout } from '../../server/grading';
import { createTestApp, type TestApp } from '../support/testApp';
import { tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let classId: number;

const layoutOf = async (sheetId: string) => (await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheetId}`))[0]!.layout;

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
});
afterAll(() => t.close());

describe('answer sheets as printed', () => {
  it('lays the demo 24-item exam (12 choice, 8 fill-ins, 4 解答) on one A4 side, the student named on it', async () => {
    const [exam] = await rows<{ id: number; n: number }>(t.database.db, sql`SELECT id, jsonb_array_length(items) AS n FROM exams WHERE title = '七年级数学第一次月考' ORDER BY id LIMIT 1`);
    expect(exam.n).toBe(24);
    const res = await t.call(teacher, { method: 'POST', url: `${BASE}/sheet/fromExam`, payload: { examId: exam.id, classId } });
    expect(res.statusCode, res.body).toBe(200);
    const sheet = res.json().data;
    expect(sheet.pages).toBe(1);
    const layout = await layoutOf(sheet.sheetId);
    for (const page of layout.pages) expect(page.nameAt).toBeDefined();
    expect(layout.pages[0]!.short).toHaveLength(4);
  });

  it('gives an anonymous sheet a 考号 grid as long as the school’s 学号 (9 digits in the demo)', async () => {
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`SELECT max(length(student_no))::int AS n FROM students WHERE class_id = ${classId}`);
    expect(n).toBe(9);
    const sections = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3].map((no) => ({ no, type: 'single', options: 4 })) }];
    const res = await t.call(teacher, { method: 'POST', url: `${BASE}/sheet/create`, payload: { title: '随堂小测', paper: 'A4', identity: 'anonymous', sections } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await layoutOf(res.json().data.sheetId)).pages[0]!.studentNumber!.digits).toHaveLength(9);
    // A number the teacher types still wins.
    const eight = await t.call(teacher, { method: 'POST', url: `${BASE}/sheet/create`, payload: { title: '随堂小测', paper: 'A4', identity: 'anonymous', digits: 8, sections } });
    expect((await layoutOf(eight.json().data.sheetId)).pages[0]!.studentNumber!.digits).toHaveLength(8);
  });

  it('gives the classic paper’s printed sheet the same 考号 length', async () => {
    const [paper] = await rows<{ id: number }>(t.database.db, sql`
      SELECT p.id FROM papers p JOIN users u ON u.id = p.created_by WHERE u.username = 'teacher' ORDER BY p.id LIMIT 1`);
    const res = await t.call(teacher, { url: `/api/minerva/v1.0/papers/${paper.id}/pdf` });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const [sheet] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id LIKE ${`P${paper.id}A4%`} ORDER BY created_at DESC LIMIT 1`);
    expect(sheet.layout.pages[0]!.studentNumber!.digits).toHaveLength(9);
  });
});
