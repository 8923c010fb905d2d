// The printed 错题本 of one student (GET /wrongbook/v1.0/web/student/pdf): the PDF's text (read
// with poppler's pdftotext) holds the student's name and every 未掌握 question of theirs, and no
// question only a classmate got wrong; another school, a course not taught, a wrong role and bad
// ids are refused in Chinese.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../server/db/query';
import { printableText } from '../../server/modules/minerva/paperPdf';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

const BASE = '/api/wrongbook/v1.0/web/student';
let t: TestApp;
let c: ReturnType<typeof client>;
let courseId: number;
let students: { studentId: number; name: string; unmasteredCount: number }[];

interface Question { questionId: number; stem: string; mastery: number }
const questionsOf = (d: { points: { questions: Question[] }[] }) => d.points.flatMap((p) => p.questions);
/** A stem as the PDF prints it, spaces and line breaks aside. */
const flat = (text: string) => text.replace(/\s+/g, '');

function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'wbpdf-'));
  writeFileSync(join(dir, 'book.pdf'), bytes);
  // Kept for a look (pdftoppm) when PDF_OUT names a file.
  if (process.env.PDF_OUT) writeFileSync(process.env.PDF_OUT, bytes);
  return execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', join(dir, 'book.pdf'), '-'], { encoding: 'utf8' });
}

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const classes = await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
  const courses = await c.data('teacher', `/api/vesta/teaching/getCourseList?classId=${classes[0].id}&gradeId=${classes[0].gradeId}&leaderType=1`);
  courseId = courses.find((x: { courseName: string }) => x.courseName === '数学').courseId;
  students = (await c.data('teacher', `${BASE}/list?classId=${classes[0].id}&courseId=${courseId}`)).students;
});
afterAll(() => t.close());

describe('student 错题本 PDF', () => {
  it('prints the student’s own 未掌握 questions with their name, and none only a classmate got wrong', async () => {
    const [me, other] = students.filter((s) => s.unmasteredCount > 0);
    expect(other).toBeTruthy();
    const mine = questionsOf(await c.data('teacher', `${BASE}/detail?studentId=${me.studentId}&courseId=${courseId}`));
    const theirs = questionsOf(await c.data('teacher', `${BASE}/detail?studentId=${other.studentId}&courseId=${courseId}`));
    const res = await c.get('teacher', `${BASE}/pdf?studentId=${me.studentId}&courseId=${courseId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(`${me.name}的数学错题本.pdf`);
    const text = pdfText(res.rawPayload);
    const body = flat(text);
    expect(body).toContain(`姓名：${me.name}`);
    expect(body).toMatch(/学科：数学/);
    expect(body).toMatch(/学期：\d{4}-\d{4}学年/);
    const unmastered = mine.filter((q) => q.mastery === 0);
    expect(unmastered.length).toBe(me.unmasteredCount);
    expect(body).toContain(`共${unmastered.length}道未掌握的错题`);
    for (const q of unmastered) expect(body, q.stem).toContain(flat(printableText(q.stem)).slice(0, 12));
    // Answers and 解析 come after every question, on their own page.
    const pages = text.split('\f');
    expect(pages.findIndex((p) => flat(p).includes('1.正确答案：'))).toBe(pages.findLastIndex((p) => p.includes('重做：')) + 1);
    // A question only the classmate has wrong is not in this student's book.
    const mineIds = new Set(mine.map((q) => q.questionId));
    const onlyTheirs = theirs.filter((q) => !mineIds.has(q.questionId) && !mine.some((m) => flat(printableText(m.stem)).includes(flat(printableText(q.stem)).slice(0, 12))));
    expect(onlyTheirs.length).toBeGreaterThan(0);
    for (const q of onlyTheirs) expect(body, q.stem).not.toContain(flat(printableText(q.stem)).slice(0, 12));
  });

  it('refuses a student of another school, a course not taught, a wrong role and bad ids, in Chinese', async () => {
    const [foreign] = await rows<{ id: number }>(t.database.db, sql`
      SELECT s.id FROM students s WHERE s.school_id <> (SELECT school_id FROM students WHERE id = ${students[0].studentId}) LIMIT 1`);
    const away = await c.get('teacher', `${BASE}/pdf?studentId=${foreign.id}&courseId=${courseId}`);
    expect(away.statusCode).toBe(404);
    expect(away.json().msg).toBe('学生不存在');
    const [notTaught] = await rows<{ id: number }>(t.database.db, sql`
      SELECT co.id FROM courses co WHERE co.school_id = (SELECT school_id FROM students WHERE id = ${students[0].studentId})
         AND co.id NOT IN (SELECT ta.course_id FROM teaching_assignments ta JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id
                            WHERE u.username = 'teacher' AND ta.class_id = (SELECT class_id FROM students WHERE id = ${students[0].studentId})) LIMIT 1`);
    const other = await c.get('teacher', `${BASE}/pdf?studentId=${students[0].studentId}&courseId=${notTaught.id}`);
    expect(other.statusCode).toBe(403);
    expect(other.json().msg).toMatch(/未任教/);
    const admin = await c.get('schooladmin', `${BASE}/pdf?studentId=${students[0].studentId}&courseId=${courseId}`);
    expect(admin.statusCode).toBe(403);
    expect(admin.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    for (const q of ['studentId=abc&courseId=1', 'studentId=0&courseId=1', 'studentId=1e300&courseId=1', `studentId=${students[0].studentId}`, 'studentId=1;DROP TABLE students&courseId=1']) {
      const bad = await c.get('teacher', `${BASE}/pdf?${q}`);
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it('says so in Chinese when the student has nothing 未掌握 to print', async () => {
    // The teacher marks every wrong question of the student with the fewest 已掌握.
    const none = students.filter((s) => s.unmasteredCount > 0).sort((a, b) => a.unmasteredCount - b.unmasteredCount)[0];
    for (const q of questionsOf(await c.data('teacher', `${BASE}/detail?studentId=${none.studentId}&courseId=${courseId}`)))
      await c.done('teacher', `${BASE}/mark`, { studentId: none.studentId, questionId: q.questionId, courseId, mastery: 2 });
    const res = await c.get('teacher', `${BASE}/pdf?studentId=${none!.studentId}&courseId=${courseId}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('该学生本学期这门课没有未掌握的错题，无需打印');
  });
});
