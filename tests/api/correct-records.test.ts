// A grading task tied to an exam (or homework) writes the answer records that wrong-answer books
// and reports read: one row per student × question after grading (graded by the machine), which
// the teacher's review then overwrites (graded by the teacher). Links to work that is not the
// teacher's are not found. Real server app, real engine, scans rendered by the corpus generator.
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
/** A new exam of the teacher's grade and course, sat by their class, with four questions. */
let examId: number;
let examItems: { questionId: number; points: number; no: string }[];

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  const classes = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data;
  classId = classes[0].id;
  // The school's exam office sets an exam on four questions of the grade's first maths exam (there
  // is no API to create exams; the demo's are seeded the same way).
  const db = t.database.db;
  const [source] = await rows<{ id: number; tenantId: number; schoolId: number; gradeId: number; courseId: number; items: { questionId: number; points: number; no: string }[] }>(
    db,
    sql`SELECT id, tenant_id AS "tenantId", school_id AS "schoolId", grade_id AS "gradeId", course_id AS "courseId", items FROM exams WHERE title = '七年级数学第一次月考' ORDER BY id LIMIT 1`,
  );
  examItems = source.items.slice(0, 4).map((it, i) => ({ ...it, no: String(i + 1) }));
  const [exam] = await rows<{ id: number }>(db, sql`
    INSERT INTO exams (tenant_id, school_id, grade_id, course_id, title, exam_date, term, full_marks, items)
    VALUES (${source.tenantId}, ${source.schoolId}, ${source.gradeId}, ${source.courseId}, '七年级数学随堂小测', CURRENT_DATE, '202601',
            ${examItems.reduce((s, it) => s + it.points, 0)}, ${JSON.stringify(examItems)}::jsonb) RETURNING id`);
  examId = exam.id;
  await db.execute(sql`INSERT INTO exam_classes (tenant_id, exam_id, class_id) VALUES (${source.tenantId}, ${examId}, ${classId})`);
});
afterAll(() => t.close());

async function drain() {
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}

const records = () =>
  rows<{ studentId: number; questionId: number; score: number; maxScore: number; isCorrect: boolean; answer: string | null; gradedBy: number; reviewerId: number | null }>(
    t.database.db,
    sql`SELECT student_id AS "studentId", question_id AS "questionId", score, max_score AS "maxScore", is_correct AS "isCorrect", answer,
               graded_by AS "gradedBy", reviewer_id AS "reviewerId"
          FROM answer_records WHERE source_type = 2 AND source_id = ${examId} ORDER BY student_id, question_id`,
  );

describe('a task linked to an exam', () => {
  it('writes the answer records from grading, and the review overwrites them', async () => {
    const sections = [{ kind: 'objective', title: '一、选择题', items: examItems.map((_, i) => ({ no: i + 1, type: 'single', options: 4 })) }];
    const sheet = (await post(teacher, '/sheet/create', { title: '随堂小测', paper: 'A4', identity: 'roster', classId, sections })).json().data;
    const [{ layout }] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
    const letters = ['A', 'B', 'C', 'D'];
    const key = { items: Object.fromEntries(examItems.map((it, i) => [String(i + 1), { answer: letters[i], points: it.points }])) };

    // Points other than the exam's are refused: the records would not add up to the exam.
    const wrongPoints = { items: { ...key.items, '1': { answer: 'A', points: examItems[0].points + 1 } } };
    const refused = await post(teacher, '/task/create', { type: 3, title: '随堂小测批改', classId, sheetId: sheet.sheetId, examId, answerKey: wrongPoints });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe(`第 1 题的分值（${examItems[0].points + 1} 分）与考试中的分值（${examItems[0].points} 分）不一致`);

    const created = await post(teacher, '/task/create', { type: 3, title: '随堂小测批改', classId, sheetId: sheet.sheetId, examId, answerKey: key });
    expect(created.statusCode, created.body).toBe(200);
    const task = created.json().data;
    expect(task.answerKey.work).toMatchObject({ sourceType: 2, sourceId: examId });

    const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
    const answers = ['ABCD', 'ABDD', 'CBCA'];
    for (const [i, given] of answers.entries()) {
      const objective: Filling['objective'] = Object.fromEntries([...given].map((label, n) => [n + 1, [{ label, style: 'full' as const }]]));
      const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[i].id }, objective }, { rotateDeg: i - 1, noise: 3 }, 40 + i);
      const body = multipart({ taskId: task.id }, { name: `扫描${i + 1}.jpg`, content: scan });
      expect((await t.call(teacher, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
    }
    await post(teacher, '/task/submit', { taskId: task.id });
    await drain();

    const detail = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data;
    expect(detail.task.status).toBe(4);
    expect(detail.results).toHaveLength(3);
    // One record per student × question, with the points and answers of the results.
    const written = await records();
    expect(written).toHaveLength(3 * examItems.length);
    for (const r of detail.results) {
      const full = (await get(teacher, `/result/detail?resultId=${r.id}`)).json().data;
      const mine = written.filter((w) => w.studentId === r.studentId);
      expect(mine.reduce((s, w) => s + w.score, 0)).toBe(r.score);
      for (const item of full.result.items) {
        const record = mine.find((w) => w.questionId === examItems[item.no - 1].questionId)!;
        expect(record).toMatchObject({ score: item.score, maxScore: examItems[item.no - 1].points, answer: item.given, gradedBy: 1, reviewerId: null });
        expect(record.isCorrect).toBe(item.score === item.max);
      }
    }
    // The exam report reads the same records: the class's average is the results' average.
    const report = (await t.call(teacher, { url: `/api/minerva/v1.0/exams/${examId}/report?classId=${classId}` })).json().data;
    const scores: number[] = detail.results.map((r: { score: number }) => r.score);
    expect(report.participants).toBe(3);
    expect(report.average).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 1);

    // The teacher gives the third student full points on item 1: the record is now the teacher's.
    const third = detail.results.find((r: { studentId: number }) => r.studentId === Number(roster[2].id.slice(1)));
    const reviewed = await post(teacher, '/result/review', { resultId: third.id, items: [{ no: 1, score: examItems[0].points }] });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const after = (await records()).find((w) => w.studentId === third.studentId && w.questionId === examItems[0].questionId)!;
    expect(after).toMatchObject({ score: examItems[0].points, isCorrect: true, gradedBy: 2 });
    expect(after.reviewerId).not.toBeNull();
    expect(await records()).toHaveLength(3 * examItems.length);
  });
});

describe('links to work that is not the teacher’s', () => {
  it('refuses another teacher’s homework, an exam of a course they do not teach and another tenant’s exam', async () => {
    const db = t.database.db;
    const [foreignHomework] = await rows<{ id: number }>(db, sql`
      SELECT h.id FROM homeworks h JOIN teachers te ON te.id = h.teacher_id JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher2' LIMIT 1`);
    const homework = await post(teacher, '/task/create', { type: 1, title: '作业批改', homeworkId: foreignHomework.id });
    expect(homework.statusCode).toBe(404);
    expect(homework.json().msg).toBe('作业不存在');

    const [english] = await rows<{ id: number }>(db, sql`SELECT id FROM exams WHERE title = '八年级英语期中考试' LIMIT 1`);
    const [otherTenant] = await rows<{ id: number }>(db, sql`SELECT id FROM exams WHERE tenant_id <> (SELECT te.tenant_id FROM teachers te JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher') LIMIT 1`);
    const sheet = (await post(teacher, '/sheet/create', { title: '小测', paper: 'A4', identity: 'anonymous', sections: [{ kind: 'objective', title: '一、选择题', items: [{ no: 1, type: 'single', options: 4 }] }] })).json().data;
    for (const id of [english.id, otherTenant.id, 999_999]) {
      const res = await post(teacher, '/task/create', { type: 3, title: '考试批改', sheetId: sheet.sheetId, examId: id });
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('考试不存在');
    }
    // The teacher's own homework links, and the task takes its class.
    const [own] = await rows<{ id: number; classId: number }>(db, sql`
      SELECT h.id, h.class_id AS "classId" FROM homeworks h JOIN teachers te ON te.id = h.teacher_id JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher' LIMIT 1`);
    const linked = await post(teacher, '/task/create', { type: 1, title: '作业批改', homeworkId: own.id });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().data).toMatchObject({ classId: own.classId, answerKey: { work: { sourceId: own.id } } });
  });
});
