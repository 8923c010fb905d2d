// An answer sheet taken from an exam instead of designed: POST /sheet/fromExam lays out the exam's
// paper for a class (a named copy per student) and derives the key from the exam's questions; a
// task made with it and the exam writes the exam's answer records when graded. Another teacher's
// exam and a class that did not sit it are not found. Real server app, engine and scans.
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
type Item = { questionId: number; points: number; no: string };
let demo: { id: number; paperId: number; items: Item[]; fullMarks: number };

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  const classes = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data;
  classId = classes[0].id;
  [demo] = await rows<typeof demo>(
    t.database.db,
    sql`SELECT id, paper_id AS "paperId", items, full_marks AS "fullMarks" FROM exams WHERE title = '七年级数学第一次月考' ORDER BY id LIMIT 1`,
  );
});
afterAll(() => t.close());

async function drain() {
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}

describe('a sheet from an exam', () => {
  it('lays out the teacher’s demo exam for their class, with the key from its questions', async () => {
    const res = await post(teacher, '/sheet/fromExam', { examId: demo.id, classId });
    expect(res.statusCode, res.body).toBe(200);
    const sheet = res.json().data;
    expect(sheet.questionCount).toBe(demo.items.length);
    expect(sheet.fullMarks).toBe(demo.fullMarks);
    expect(sheet.copies).toBeGreaterThan(1);
    expect(sheet.title).toBe('七年级数学第一次月考 答题卡');
    // Every item is keyed or left for review, with the exam's points.
    const keyed = Object.keys(sheet.answerKey.items).map(Number);
    expect([...keyed, ...sheet.manual].sort((a, b) => a - b)).toEqual(demo.items.map((_, i) => i + 1));
    for (const [no, key] of Object.entries(sheet.answerKey.items) as [string, { points: number }][]) expect(key.points).toBe(demo.items[Number(no) - 1].points);
    // Asking again reuses the stored sheet; its PDF downloads.
    expect((await post(teacher, '/sheet/fromExam', { examId: demo.id, classId })).json().data.sheetId).toBe(sheet.sheetId);
    const pdf = await get(teacher, `/sheet/pdf?sheetId=${sheet.sheetId}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
  });

  it('grades scans of it into the exam’s answer records', async () => {
    // A fresh exam of the same paper (the demo one already has records), on a few of its questions:
    // the objective ones, a fill-in and a worked answer.
    const db = t.database.db;
    const types = new Map(
      (await rows<{ id: number; type: number }>(db, sql`SELECT id, type FROM questions WHERE id = ANY(${`{${demo.items.map((i) => i.questionId).join(',')}}`}::int[])`)).map((q) => [q.id, q.type]),
    );
    const pick = [...demo.items.filter((i) => [1, 2, 3].includes(types.get(i.questionId)!)).slice(0, 4), ...demo.items.filter((i) => types.get(i.questionId) === 4).slice(0, 1), ...demo.items.filter((i) => types.get(i.questionId) === 5).slice(0, 1)];
    const items: Item[] = pick.map((it, i) => ({ ...it, no: String(i + 1) }));
    const [exam] = await rows<{ id: number }>(db, sql`
      INSERT INTO exams (tenant_id, school_id, grade_id, course_id, paper_id, title, exam_date, term, full_marks, items)
      SELECT tenant_id, school_id, grade_id, course_id, paper_id, '七年级数学周测', CURRENT_DATE, term, ${items.reduce((s, it) => s + it.points, 0)}, ${JSON.stringify(items)}::jsonb
        FROM exams WHERE id = ${demo.id} RETURNING id`);
    await db.execute(sql`INSERT INTO exam_classes (tenant_id, exam_id, class_id) SELECT tenant_id, ${exam.id}, ${classId} FROM exams WHERE id = ${exam.id}`);

    const sheet = (await post(teacher, '/sheet/fromExam', { examId: exam.id, classId })).json().data;
    expect(sheet).toMatchObject({ questionCount: items.length, fullMarks: items.reduce((s, it) => s + it.points, 0), pages: 1 });
    const key = sheet.answerKey.items as Record<string, { answer?: string; blanks?: string[][]; points: number }>;
    const created = await post(teacher, '/task/create', { type: 3, title: '七年级数学周测批改', classId, sheetId: sheet.sheetId, examId: exam.id, answerKey: sheet.answerKey });
    expect(created.statusCode, created.body).toBe(200);
    const task = created.json().data;

    const [{ layout }] = await rows<{ layout: SheetLayout }>(db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
    const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
    const objectiveNos = Object.keys(key).filter((no) => key[no].answer).map(Number);
    // The first student answers every objective item right, the second gets the first one wrong, the third leaves it blank.
    for (let s = 0; s < 3; s++) {
      const objective: Filling['objective'] = {};
      for (const no of objectiveNos) {
        const right = key[String(no)].answer!;
        const label = right === '√' || right === '×' ? (s === 1 && no === objectiveNos[0] ? (right === '√' ? '×' : '√') : right) : s === 1 && no === objectiveNos[0] ? (right[0] === 'A' ? 'B' : 'A') : right;
        if (s === 2 && no === objectiveNos[0]) continue;
        objective[no] = [...label].map((l) => ({ label: l, style: 'full' as const }));
      }
      const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[s].id }, objective }, { rotateDeg: s - 1, noise: 3 }, 70 + s);
      const body = multipart({ taskId: task.id }, { name: `扫描${s + 1}.jpg`, content: scan });
      expect((await t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
    }
    await post(teacher, '/task/submit', { taskId: task.id });
    await drain();

    const detail = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data;
    expect(detail.task.status).toBe(4);
    expect(detail.results).toHaveLength(3);
    // The worked answer (网上阅卷) counts in the full marks from the start, waiting for the teacher.
    expect(sheet.manual).toEqual([items.length]);
    const first = (await get(teacher, `/result/detail?resultId=${detail.results[0].id}`)).json().data;
    expect(first.result.items.find((i: { no: number }) => i.no === items.length)).toMatchObject({ score: null, max: items[items.length - 1].points, needsReview: true });
    expect(first.maxScore).toBe(sheet.fullMarks);
    const written = await rows<{ studentId: number; questionId: number; score: number; maxScore: number }>(db, sql`
      SELECT student_id AS "studentId", question_id AS "questionId", score, max_score AS "maxScore"
        FROM answer_records WHERE source_type = 2 AND source_id = ${exam.id}`);
    const objectivePoints = objectiveNos.reduce((s, no) => s + key[String(no)].points, 0);
    const byStudent = new Map(detail.results.map((r: { studentId: number; score: number }) => [r.studentId, r.score]));
    expect([...byStudent.values()].sort()).toEqual([objectivePoints - key[String(objectiveNos[0])].points, objectivePoints - key[String(objectiveNos[0])].points, objectivePoints].sort());
    for (const [studentId, score] of byStudent) {
      const mine = written.filter((w) => w.studentId === studentId);
      expect(mine.length).toBeGreaterThanOrEqual(objectiveNos.length);
      expect(mine.reduce((s, w) => s + w.score, 0)).toBe(score);
      for (const w of mine) expect(w.maxScore).toBe(items.find((it) => it.questionId === w.questionId)!.points);
    }
  }, 120_000); // three real scans through the grading engine

  it('does not find another teacher’s exam or a class that did not sit it', async () => {
    const db = t.database.db;
    const [english] = await rows<{ id: number }>(db, sql`SELECT id FROM exams WHERE title = '八年级英语期中考试' LIMIT 1`);
    const [otherTenant] = await rows<{ id: number }>(db, sql`
      SELECT id FROM exams WHERE tenant_id <> (SELECT te.tenant_id FROM teachers te JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher') LIMIT 1`);
    for (const id of [english.id, otherTenant.id, 999_999]) {
      const res = await post(teacher, '/sheet/fromExam', { examId: id, classId });
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('考试不存在');
    }
    const [foreignClass] = await rows<{ id: number }>(db, sql`SELECT id FROM classes WHERE id NOT IN (SELECT class_id FROM exam_classes WHERE exam_id = ${demo.id}) LIMIT 1`);
    const res = await post(teacher, '/sheet/fromExam', { examId: demo.id, classId: foreignClass.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('该班级没有参加这次考试');
    const bad = await post(teacher, '/sheet/fromExam', { examId: 'x', classId });
    expect(bad.statusCode).toBe(400);
  });
});
