// 错题组卷: the class's most-missed questions from the rollup, similar bank questions (same type,
// a shared knowledge point, never repeated), the personalised split and its PDF (a real PDF read
// back with poppler's pdftotext: one section per student with their name, the engine's named
// answer sheet after each), and the scope: other classes, other tenants, other roles, hostile input.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, multipart, tempDataDir } from '../support/school';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import { query } from '../support/content';

const BASE = '/api/wrongbook/v1.0/web/volumePaper';
let t: TestApp;
let c: ReturnType<typeof client>;
let classId: number;
let courseId: number;
let candidates: { id: number; answered: number; wrong: number; type: number }[];

const pdfText = (bytes: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), 'xz-volume-'));
  writeFileSync(join(dir, 'p.pdf'), bytes);
  const info = execFileSync('pdfinfo', [join(dir, 'p.pdf')]).toString();
  return { pages: Number(/Pages:\s+(\d+)/.exec(info)![1]), text: execFileSync('pdftotext', ['-layout', join(dir, 'p.pdf'), '-']).toString() };
};

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  c = client(t);
  // The demo teacher's math course in the first class they teach.
  [{ classId, courseId }] = await query<{ classId: number; courseId: number }>(t, sql`
    SELECT ta.class_id AS "classId", ta.course_id AS "courseId" FROM teaching_assignments ta
      JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id JOIN courses co ON co.id = ta.course_id
     WHERE u.username = 'teacher' AND co.name = '数学' ORDER BY ta.class_id LIMIT 1`);
  candidates = (await c.data('teacher', `${BASE}/candidates?classId=${classId}&courseId=${courseId}`)).list;
});
afterAll(() => t.close());

describe('choosing questions', () => {
  it('offers the class’s 20 most-missed questions, rates from the rollup’s counts', async () => {
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.length).toBeLessThanOrEqual(20);
    const rates = candidates.map((q) => q.wrong / q.answered);
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);
    const [top] = await query<{ answered: number; correct: number }>(t, sql`
      SELECT sum(answered)::int AS answered, sum(correct)::int AS correct FROM work_question_stats
       WHERE class_id = ${classId} AND question_id = ${candidates[0].id}`);
    expect([candidates[0].answered, candidates[0].wrong]).toEqual([top.answered, top.answered - top.correct]);
  });

  it('adds similar questions of the same type sharing a knowledge point, never repeated or already chosen', async () => {
    const ids = candidates.slice(0, 10).map((q) => q.id);
    const preview = await c.done('teacher', `${BASE}/preview`, { classId, courseId, questionIds: ids, mode: 'class', variants: 2 });
    const seen = new Set<number>(ids);
    let total = 0;
    for (const q of preview.questions as { id: number; type: number; difficulty: number; knowledgePointIds: number[]; similar: { id: number; type: number; difficulty: number; knowledgePointIds: number[] }[] }[]) {
      expect(q.similar.length).toBeLessThanOrEqual(2);
      for (const v of q.similar) {
        expect(v.type).toBe(q.type);
        expect(v.knowledgePointIds.some((k) => q.knowledgePointIds.includes(k))).toBe(true);
        expect(Math.abs(v.difficulty - q.difficulty)).toBeLessThanOrEqual(1);
        expect(seen.has(v.id)).toBe(false);
        seen.add(v.id);
        total++;
      }
    }
    expect(total).toBeGreaterThan(0);
    expect(preview.itemCount).toBe(ids.length + total);
    const none = await c.done('teacher', `${BASE}/preview`, { classId, courseId, questionIds: ids, mode: 'class', variants: 0 });
    expect(none.itemCount).toBe(ids.length);
  });
});

describe('the personalised paper', () => {
  it('gives each student only their own wrong questions, one section per student, with their named answer sheet', async () => {
    // The class's five most-missed short items (choice, 判断, fill-in): the paper the page target is for.
    const short = candidates.filter((q) => q.type <= 4).slice(0, 5);
    expect(short).toHaveLength(5);
    const ids = short.map((q) => q.id);
    const body = { classId, courseId, questionIds: ids, mode: 'personal', variants: 1, scanIds: ids.slice(0, 1) };
    const preview = await c.done('teacher', `${BASE}/preview`, body);
    const wrong = await query<{ studentId: number; n: number }>(t, sql`
      SELECT student_id AS "studentId", count(DISTINCT question_id)::int AS n FROM answer_records
       WHERE class_id = ${classId} AND NOT is_correct AND question_id = ANY(${`{${ids.join(',')}}`}::int[]) GROUP BY student_id`);
    expect(preview.students.length).toBe(wrong.length);
    expect(preview.students.length).toBeGreaterThan(1);
    const res = await c.post('teacher', `${BASE}/pdf`, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { pages, text } = pdfText(bytes);
    // Every student's name is on their questions' header and on their answer sheet.
    for (const s of preview.students as { name: string; studentNo: string }[]) {
      expect(text).toContain(`姓名：${s.name}　学号：${s.studentNo}`.replace(/　/g, ' ').split(' ')[0]);
      expect(text).toContain(s.studentNo);
    }
    // A section starts on a new page with the student's own answer sheet, their questions in its
    // free foot: the demo paper averages at most 1.5 pages a student (it took 3 when every
    // student's sheet carried boxes for the class's questions).
    const sheet = await c.done('teacher', `${BASE}/sheet`, body);
    expect(pages).toBeGreaterThanOrEqual(preview.students.length);
    expect(pages / preview.students.length).toBeLessThanOrEqual(1.5);
    // Each student's sheet pages carry only their own questions: as many as the preview counts.
    const [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
    const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
    for (const s of preview.students as { studentNo: string; count: number }[]) {
      const id = roster.find((r) => r.studentNo === s.studentNo)!.id;
      const mine = layout.pages.filter((p) => p.studentId === id);
      const nos = mine.flatMap((p) => [...p.objective.map((o) => o.no), ...p.fill.map((f) => f.no), ...p.short.map((b) => b.no), ...p.essay.map((e) => e.no)]);
      expect(new Set(nos).size).toBe(s.count);
    }
    const sectionStarts = text.split('\f').filter((page) => page.includes('共') && page.includes('含举一反三')).length;
    expect(sectionStarts).toBe(preview.students.length);
    // The demo has no graded scans of these questions: they print re-typeset, as the preview says.
    expect(preview.questions[0].scanStudents).toBe(0);
  });

  it('keeps a paper of worked problems to one sheet, both sides, per student', async () => {
    // The class's five most-missed questions, whatever their type: in the demo mostly 解答题, each
    // with its 32 mm box, so a student redoing eight of them turns the page.
    const ids = candidates.slice(0, 5).map((q) => q.id);
    const body = { classId, courseId, questionIds: ids, mode: 'personal', variants: 1 };
    const preview = await c.done('teacher', `${BASE}/preview`, body);
    const res = await c.post('teacher', `${BASE}/pdf`, body);
    expect(res.statusCode, res.body).toBe(200);
    const { pages, text } = pdfText(res.rawPayload);
    expect(pages / preview.students.length).toBeLessThanOrEqual(2);
    // Each section is at most two pages: its sheet with questions in the foot, and one more.
    const perSection = text.split('\f').filter((page) => page.trim()).reduce<number[]>((acc, page) => (page.includes('含举一反三') ? [...acc, 1] : acc.length ? [...acc.slice(0, -1), acc[acc.length - 1] + 1] : acc), []);
    expect(perSection).toHaveLength(preview.students.length);
    expect(Math.max(...perSection)).toBeLessThanOrEqual(2);
  });

  it('stores the answer sheet with its key, so AI批改 can grade the re-practice', async () => {
    const ids = candidates.slice(0, 3).map((q) => q.id);
    const sheet = await c.done('teacher', `${BASE}/sheet`, { classId, courseId, questionIds: ids, mode: 'class', variants: 1 });
    expect(sheet.sheetId).toMatch(/^V/);
    expect(Object.keys(sheet.answerKey.items).length + sheet.manual.length).toBe(sheet.questionCount);
    const pdf = await c.get('teacher', `/api/wrongbook/v1.0/correct/sheet/pdf?sheetId=${sheet.sheetId}`);
    expect(pdf.statusCode).toBe(200);
  });
});

describe('the student’s own scan', () => {
  it('prints the question cut out of the graded scan of a student who got it wrong', async () => {
    const db = t.database.db;
    const CORRECT = '/api/wrongbook/v1.0/correct';
    // A short exam of the teacher's class on two objective questions of the demo paper, graded from scans.
    const [demo] = await rows<{ id: number; items: { questionId: number; points: number }[] }>(db, sql`SELECT id, items FROM exams WHERE title = '七年级数学第一次月考' ORDER BY id LIMIT 1`);
    const objective = await rows<{ id: number }>(db, sql`SELECT id FROM questions WHERE id = ANY(${`{${demo.items.map((i) => i.questionId).join(',')}}`}::int[]) AND type = 1 ORDER BY id LIMIT 2`);
    const items = objective.map((q, i) => ({ questionId: q.id, points: 3, no: String(i + 1) }));
    const [exam] = await rows<{ id: number }>(db, sql`
      INSERT INTO exams (tenant_id, school_id, grade_id, course_id, paper_id, title, exam_date, term, full_marks, items)
      SELECT tenant_id, school_id, grade_id, course_id, paper_id, '错题卷扫描测验', CURRENT_DATE, term, 6, ${JSON.stringify(items)}::jsonb FROM exams WHERE id = ${demo.id} RETURNING id`);
    await db.execute(sql`INSERT INTO exam_classes (tenant_id, exam_id, class_id) SELECT tenant_id, ${exam.id}, ${classId} FROM exams WHERE id = ${exam.id}`);
    const sheet = await c.done('teacher', `${CORRECT}/sheet/fromExam`, { examId: exam.id, classId });
    const task = await c.done('teacher', `${CORRECT}/task/create`, { type: 3, title: '错题卷扫描测验', classId, sheetId: sheet.sheetId, examId: exam.id, answerKey: sheet.answerKey });
    const [{ layout }] = await rows<{ layout: SheetLayout }>(db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
    const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
    const right = (sheet.answerKey.items['1'] as { answer: string }).answer;
    const fill: Filling['objective'] = { 1: [{ label: right[0] === 'A' ? 'B' : 'A', style: 'full' }], 2: [{ label: (sheet.answerKey.items['2'] as { answer: string }).answer[0], style: 'full' }] };
    const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[0].id }, objective: fill }, { rotateDeg: 1, noise: 3 }, 91);
    const upload = multipart({ taskId: task.id }, { name: '扫描.jpg', content: scan });
    expect((await c.upload('teacher', `${CORRECT}/task/upload`, upload)).statusCode).toBe(200);
    await c.done('teacher', `${CORRECT}/task/submit`, { taskId: task.id });
    const worker = createWorker(db, t.app.config);
    while (await worker.runOnce());

    const body = { classId, courseId, questionIds: [items[0].questionId], mode: 'personal', variants: 0, scanIds: [items[0].questionId] };
    const preview = await c.done('teacher', `${BASE}/preview`, body);
    expect(preview.questions[0].scanStudents).toBeGreaterThanOrEqual(1);
    const res = await c.post('teacher', `${BASE}/pdf`, body);
    expect(res.statusCode, res.body).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'xz-volume-'));
    writeFileSync(join(dir, 's.pdf'), res.rawPayload);
    // Kept for looking at, as the screenshots are.
    mkdirSync('.tmp/screenshots', { recursive: true });
    writeFileSync('.tmp/screenshots/volume-paper-scan.pdf', res.rawPayload);
    const images = execFileSync('pdfimages', ['-list', join(dir, 's.pdf')]).toString().trim().split('\n').slice(2);
    expect(images.length).toBeGreaterThanOrEqual(1);
    expect(pdfText(res.rawPayload).text).toContain('原题（你的作答，请订正）');
    // Re-typeset, the same paper carries no picture.
    const plain = await c.post('teacher', `${BASE}/pdf`, { ...body, scanIds: [] });
    writeFileSync(join(dir, 'p.pdf'), plain.rawPayload);
    expect(execFileSync('pdfimages', ['-list', join(dir, 'p.pdf')]).toString().trim().split('\n').slice(2)).toHaveLength(0);
  });
});

describe('scope and hostile input', () => {
  const body = () => ({ classId, courseId, questionIds: candidates.slice(0, 2).map((q) => q.id), mode: 'class', variants: 1 });

  it('refuses classes not taught, other tenants and other roles', async () => {
    const [other] = await query<{ id: number }>(t, sql`
      SELECT c.id FROM classes c WHERE c.tenant_id = (SELECT tenant_id FROM classes WHERE id = ${classId})
         AND c.id NOT IN (SELECT ta.class_id FROM teaching_assignments ta JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher')
       LIMIT 1`);
    const notMine = await c.post('teacher', `${BASE}/preview`, { ...body(), classId: other.id });
    expect([notMine.statusCode, notMine.json().msg]).toEqual([404, '班级或课程不存在，或您不是该班级的任课老师']);
    expect((await c.get('teacher3', `${BASE}/candidates?classId=${classId}&courseId=${courseId}`)).statusCode).toBe(404);
    expect((await c.post('teacher3', `${BASE}/pdf`, body())).statusCode).toBe(404);
    for (const user of ['schooladmin', 'partner1', 'psych']) expect((await c.post(user, `${BASE}/preview`, body())).statusCode, user).toBe(403);
  });

  it('refuses another subject’s or a foreign tenant’s question ids and out-of-bounds input, in Chinese', async () => {
    const [foreign] = await query<{ id: number }>(t, sql`
      SELECT q.id FROM questions q JOIN courses co ON co.id = ${courseId} WHERE q.subject_id <> co.subject_id AND q.parent_id IS NULL LIMIT 1`);
    const wrongSubject = await c.post('teacher', `${BASE}/preview`, { ...body(), questionIds: [foreign.id] });
    expect(wrongSubject.statusCode).toBe(404);
    expect(wrongSubject.json().msg).toContain('题目不存在');
    const cases: object[] = [
      { ...body(), questionIds: Array.from({ length: 51 }, (_, i) => i + 1) },
      { ...body(), questionIds: [] },
      { ...body(), variants: 3 },
      { ...body(), mode: 'all' },
      { ...body(), questionIds: ["1'; DROP TABLE questions;--"] },
      { ...body(), classId: -1 },
      { ...body(), title: 'x'.repeat(41) },
      { ...body(), extra: 1 },
    ];
    for (const payload of cases) {
      const res = await c.post('teacher', `${BASE}/pdf`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().msg, JSON.stringify(payload)).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await c.get('teacher', `${BASE}/candidates?classId=abc&courseId=1`)).json().msg).toMatch(/[\u4e00-\u9fa5]/);
  });
});
