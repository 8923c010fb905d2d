// 错题卷 closes the loop: the grading task of a paper links to a custom homework (自定义作业) holding
// exactly the paper's items, variants included, so grading a scan writes answer records for them
// and the student wrong-answer book's mastery moves (未掌握 → 巩固中). On a personalised paper only a
// student's own items are recorded (their copy prints every item; the others stay blank). Another
// school's teacher can use neither the paper nor its sheet. Real server, real engine, scans
// rendered by the corpus generator and graded by the worker.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, multipart, tempDataDir } from '../support/school';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import { rosterKey } from '../../server/modules/correct/jobs';

const BASE = '/api/wrongbook/v1.0/web/volumePaper';
const CORRECT = '/api/wrongbook/v1.0/correct';
const BOOK = '/api/wrongbook/v1.0/web/student';
let t: TestApp;
let c: ReturnType<typeof client>;
let classId: number;
let courseId: number;

interface BookQuestion {
  questionId: number;
  mastery: number;
}
type Key = { items: Record<string, { answer?: string; points: number }> };

const bookOf = async (studentId: number): Promise<BookQuestion[]> =>
  (await c.data('teacher', `${BOOK}/detail?studentId=${studentId}&courseId=${courseId}`)).points.flatMap((p: { questions: BookQuestion[] }) => p.questions);

const records = (homeworkId: number, studentId?: number) =>
  rows<{ studentId: number; questionId: number; isCorrect: boolean; score: number }>(
    t.database.db,
    sql`SELECT student_id AS "studentId", question_id AS "questionId", is_correct AS "isCorrect", score FROM answer_records
         WHERE source_type = 0 AND source_id = ${homeworkId} ${studentId ? sql`AND student_id = ${studentId}` : sql``}
         ORDER BY student_id, question_id`,
  );

/** One student's roster copy of the sheet, page 1, with the given objective answers, graded by the worker. */
async function gradeScan(taskId: number, sheetId: string, studentId: number, answers: Record<number, string>, seed: number) {
  const [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheetId}`);
  const objective = Object.fromEntries(Object.entries(answers).map(([no, label]) => [Number(no), [{ label, style: 'full' as const }]]));
  const scan = await makeScan(layout, { copy: { sheetId, page: 1, studentId: rosterKey(studentId) }, objective }, { rotateDeg: 1, noise: 3 }, seed);
  const upload = await c.upload('teacher', `${CORRECT}/task/upload`, multipart({ taskId }, { name: '错题卷扫描.jpg', content: scan }));
  expect(upload.statusCode, upload.body).toBe(200);
  await c.done('teacher', `${CORRECT}/task/submit`, { taskId });
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}

const wrongLetter = (right: string) => (right[0] === 'A' ? 'B' : 'A');

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  c = client(t);
  [{ classId, courseId }] = await rows<{ classId: number; courseId: number }>(t.database.db, sql`
    SELECT ta.class_id AS "classId", ta.course_id AS "courseId" FROM teaching_assignments ta
      JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id JOIN courses co ON co.id = ta.course_id
     WHERE u.username = 'teacher' AND co.name = '数学' ORDER BY ta.class_id LIMIT 1`);
});
afterAll(() => t.close());

describe('a class paper graded in AI批改', () => {
  let body: object;
  let studentId: number;
  let question: number;
  let homeworkId: number;

  it('links its task to a custom homework of exactly the paper’s items, reused for the same paper', async () => {
    // A student with single-choice questions still 未掌握 in their book this term.
    const wrong = await rows<{ studentId: number; ids: number[] }>(t.database.db, sql`
      SELECT r.student_id AS "studentId", array_agg(DISTINCT r.question_id ORDER BY r.question_id) AS ids
        FROM answer_records r JOIN questions q ON q.id = r.question_id AND q.type = 1 AND q.parent_id IS NULL
       WHERE r.class_id = ${classId} AND NOT r.is_correct AND q.subject_id = (SELECT subject_id FROM courses WHERE id = ${courseId})
       GROUP BY r.student_id ORDER BY count(DISTINCT r.question_id) DESC LIMIT 5`);
    for (const w of wrong) {
      const open = (await bookOf(w.studentId)).filter((q) => q.mastery === 0 && w.ids.includes(q.questionId));
      if (open.length >= 2) {
        studentId = w.studentId;
        body = { classId, courseId, questionIds: open.slice(0, 2).map((q) => q.questionId), mode: 'class', variants: 1 };
        question = open[0].questionId;
        break;
      }
    }
    expect(studentId).toBeDefined();
    const preview = await c.done('teacher', `${BASE}/preview`, body);
    const work = await c.done('teacher', `${BASE}/homework`, body);
    homeworkId = work.homeworkId;
    expect(work.homeworkTitle).toMatch(/^错题卷·\d{4}-\d{2}-\d{2}$/);
    expect(work.sheetId).toBe((await c.done('teacher', `${BASE}/sheet`, body)).sheetId);
    const [homework] = await rows<{ sourceType: number; classId: number; courseId: number; items: { questionId: number; no: string; studentIds?: number[] }[]; dueAt: Date }>(t.database.db, sql`
      SELECT source_type AS "sourceType", class_id AS "classId", course_id AS "courseId", items, due_at AS "dueAt" FROM homeworks WHERE id = ${homeworkId}`);
    expect(homework).toMatchObject({ sourceType: 0, classId, courseId });
    // Every item of the paper, the similar questions too, numbered as on the sheet.
    const paperIds = (preview.questions as { id: number; no: number; similar: { id: number; no: number }[] }[]).flatMap((q) => [[q.no, q.id], ...q.similar.map((v) => [v.no, v.id])]);
    expect(homework.items.map((it) => [Number(it.no), it.questionId]).sort((a, b) => a[0] - b[0])).toEqual(paperIds.sort((a, b) => a[0] - b[0]));
    expect(homework.items.length).toBeGreaterThan(2);
    expect(homework.items.every((it) => it.studentIds === undefined)).toBe(true);
    expect(new Date(homework.dueAt).getTime()).toBeGreaterThan(Date.now());
    // The same paper again: the same homework, not a second one.
    const again = await c.done('teacher', `${BASE}/homework`, body);
    expect([again.homeworkId, again.reused]).toEqual([homeworkId, true]);
    // It shows in the teacher's homework list like any custom homework.
    const detail = await c.data('teacher', `/api/minerva/v1.0/homeworks/${homeworkId}`);
    expect(detail.questions).toHaveLength(homework.items.length);
  });

  it('writes answer records for the paper’s questions on grading, and the student’s book moves to 巩固中', async () => {
    const work = await c.done('teacher', `${BASE}/homework`, body);
    const task = await c.done('teacher', `${CORRECT}/task/create`, { type: 3, title: '错题卷批改', classId, sheetId: work.sheetId, homeworkId, answerKey: work.answerKey });
    expect(task.answerKey.work).toMatchObject({ sourceType: 0, sourceId: homeworkId });
    const key = work.answerKey as Key;
    const numbers = Object.keys(key.items).map(Number).sort((a, b) => a - b);
    const last = numbers[numbers.length - 1];
    // Right on every item but the last one.
    const answers = Object.fromEntries(numbers.map((no) => [no, no === last ? wrongLetter(key.items[no].answer!) : key.items[no].answer![0]]));
    await gradeScan(task.id, work.sheetId, studentId, answers, 17);

    const [{ items }] = await rows<{ items: { questionId: number; no: string }[] }>(t.database.db, sql`SELECT items FROM homeworks WHERE id = ${homeworkId}`);
    const recorded = await records(homeworkId, studentId);
    expect(recorded.map((r) => r.questionId).sort((a, b) => a - b)).toEqual(items.map((it) => it.questionId).sort((a, b) => a - b));
    const lastQuestion = items.find((it) => it.no === String(last))!.questionId;
    for (const r of recorded) expect([r.questionId, r.isCorrect]).toEqual([r.questionId, r.questionId !== lastQuestion]);
    // The rollups moved with them: the homework's figures count this student.
    const [stats] = await rows<{ answered: number; correct: number }>(t.database.db, sql`
      SELECT answered, correct FROM work_student_stats WHERE source_type = 0 AND source_id = ${homeworkId} AND student_id = ${studentId}`);
    expect(stats).toEqual({ answered: items.length, correct: items.length - 1 });

    // The re-practised question answered right: 未掌握 → 巩固中 in the student's book.
    const after = (await bookOf(studentId)).find((q) => q.questionId === question)!;
    expect(after.mastery).toBe(1);
  });
});

describe('a personalised paper', () => {
  it('records only the items given to the student, not the blank ones of other students', async () => {
    const [top] = await rows<{ ids: number[] }>(t.database.db, sql`
      SELECT array_agg(question_id ORDER BY n DESC, question_id) AS ids FROM (
        SELECT r.question_id, count(DISTINCT r.student_id) AS n FROM answer_records r JOIN questions q ON q.id = r.question_id AND q.type = 1 AND q.parent_id IS NULL
         WHERE r.class_id = ${classId} AND NOT r.is_correct AND q.subject_id = (SELECT subject_id FROM courses WHERE id = ${courseId})
         GROUP BY r.question_id ORDER BY n DESC LIMIT 4) x`);
    const body = { classId, courseId, questionIds: top.ids, mode: 'personal', variants: 0 };
    const preview = await c.done('teacher', `${BASE}/preview`, body);
    const student = (preview.students as { id: number; count: number }[]).find((s) => s.count < preview.itemCount)!;
    expect(student).toBeDefined();
    const work = await c.done('teacher', `${BASE}/homework`, body);
    const [{ items }] = await rows<{ items: { questionId: number; no: string; studentIds: number[] }[] }>(t.database.db, sql`SELECT items FROM homeworks WHERE id = ${work.homeworkId}`);
    const mine = items.filter((it) => it.studentIds.includes(student.id));
    expect(mine).toHaveLength(student.count);
    const task = await c.done('teacher', `${CORRECT}/task/create`, { type: 3, title: '个性化错题卷批改', classId, sheetId: work.sheetId, homeworkId: work.homeworkId, answerKey: work.answerKey });
    const key = work.answerKey as Key;
    // The student answers their own items right and leaves the others blank.
    await gradeScan(task.id, work.sheetId, student.id, Object.fromEntries(mine.map((it) => [Number(it.no), key.items[it.no].answer![0]])), 23);
    const recorded = await records(work.homeworkId);
    expect(recorded.map((r) => r.questionId).sort((a, b) => a - b)).toEqual(mine.map((it) => it.questionId).sort((a, b) => a - b));
    expect(recorded.every((r) => r.studentId === student.id && r.isCorrect)).toBe(true);
  });
});

describe('another school', () => {
  it('cannot make the paper’s homework nor create a task on its sheet or homework', async () => {
    const ids = (await c.data('teacher', `${BASE}/candidates?classId=${classId}&courseId=${courseId}`)).list.slice(0, 2).map((q: { id: number }) => q.id);
    const body = { classId, courseId, questionIds: ids, mode: 'class', variants: 0 };
    const refused = await c.post('teacher3', `${BASE}/homework`, body);
    expect([refused.statusCode, refused.json().msg]).toEqual([404, '班级或课程不存在，或您不是该班级的任课老师']);
    const work = await c.done('teacher', `${BASE}/homework`, body);
    const foreign = await c.post('teacher3', `${CORRECT}/task/create`, { type: 3, title: '错题卷批改', sheetId: work.sheetId, homeworkId: work.homeworkId, answerKey: work.answerKey });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    // Another school's homework id with their own sheet is not found either.
    const own = await c.post('teacher3', `${CORRECT}/task/create`, { type: 1, title: '错题卷批改', homeworkId: work.homeworkId });
    expect([own.statusCode, own.json().msg]).toEqual([404, '作业不存在']);
    for (const user of ['schooladmin', 'psych']) expect((await c.post(user, `${BASE}/homework`, body)).statusCode, user).toBe(403);
    const hostile = await c.post('teacher', `${BASE}/homework`, { ...body, questionIds: ["1'; DROP TABLE homeworks;--"] });
    expect(hostile.statusCode).toBe(400);
    expect(hostile.json().msg).toMatch(/[\u4e00-\u9fa5]/);
  });
});
