// Student wrong-answer book: class list and student detail match the answer records, mastery moves
// with a correct re-practice recorded through recordAnswers, the teacher's cause is saved; other
// schools' ids, a wrong role and hostile input get Chinese 4xx; the menu badge counts wrong answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../server/db/query';
import { recordAnswers } from '../../server/modules/minerva/answers';
import { currentSemester, termStart } from '../../src/domain/semester';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

const BASE = '/api/wrongbook/v1.0/web/student';
let t: TestApp;
let c: ReturnType<typeof client>;
let classId: number;
let courseId: number;
let foreign: { classId: number; courseId: number; studentId: number };

interface ListRow {
  studentId: number;
  name: string;
  wrongCount: number;
  wrongTimes: number;
  unmasteredCount: number;
  consolidatingCount: number;
  masteredCount: number;
}
interface Question {
  questionId: number;
  stem: string;
  correctAnswer: string;
  studentAnswer: string | null;
  timesWrong: number;
  mastery: number;
  cause: number | null;
}
interface Detail {
  student: { id: number; name: string };
  summary: { wrongCount: number; unmasteredCount: number };
  weeks: { week: string; answered: number; correct: number; wrong: number }[];
  points: { name: string; questions: Question[] }[];
}

const questionsOf = (d: Detail) => d.points.flatMap((p) => p.questions);

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const classes = await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
  classId = classes[0].id;
  const courses = await c.data('teacher', `/api/vesta/teaching/getCourseList?classId=${classId}&gradeId=${classes[0].gradeId}&leaderType=1`);
  courseId = courses.find((x: { courseName: string }) => x.courseName === "数学").courseId;
  const other = await c.data('teacher3', '/api/vesta/teaching/getTeachClass?leaderType=1');
  const [row] = await rows<{ courseId: number; studentId: number }>(t.database.db, sql`
    SELECT ta.course_id AS "courseId", (SELECT id FROM students WHERE class_id = ${other[0].id} LIMIT 1) AS "studentId"
      FROM teaching_assignments ta WHERE ta.class_id = ${other[0].id} LIMIT 1`);
  foreign = { classId: other[0].id, ...row };
});
afterAll(() => t.close());

describe('class list', () => {
  it('lists every student of the class with counts that match the answer records', async () => {
    const data = await c.data('teacher', `${BASE}/list?classId=${classId}&courseId=${courseId}`);
    expect(data.term).toBe(currentSemester());
    const list = data.students as ListRow[];
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM students WHERE class_id = ${classId} AND status = 0`);
    expect(list).toHaveLength(n);
    const [db] = await rows<{ questions: number; times: number }>(t.database.db, sql`
      SELECT count(DISTINCT (r.student_id, r.question_id))::int AS questions, count(*)::int AS times
        FROM answer_records r JOIN courses co ON co.id = ${courseId}
       WHERE r.class_id = ${classId} AND NOT r.is_correct AND r.subject_id = co.subject_id AND r.term = ${currentSemester()}`);
    expect(db.questions).toBeGreaterThan(0);
    expect(list.reduce((s, r) => s + r.wrongCount, 0)).toBe(db.questions);
    expect(list.reduce((s, r) => s + r.wrongTimes, 0)).toBe(db.times);
    for (const r of list) expect(r.unmasteredCount + r.consolidatingCount + r.masteredCount).toBe(r.wrongCount);
  });

  it('refuses another school’s class, a class not taught, a wrong role and hostile input, in Chinese', async () => {
    const foreignRes = await c.get('teacher', `${BASE}/list?classId=${foreign.classId}&courseId=${courseId}`);
    expect(foreignRes.statusCode).toBe(404);
    expect(foreignRes.json().msg).toBe('班级不存在');
    const [notTaught] = await rows<{ id: number }>(t.database.db, sql`
      SELECT c.id FROM classes c WHERE c.school_id = (SELECT school_id FROM classes WHERE id = ${classId})
         AND c.id NOT IN (SELECT class_id FROM teaching_assignments ta JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher') LIMIT 1`);
    const res = await c.get('teacher', `${BASE}/list?classId=${notTaught.id}&courseId=${courseId}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toMatch(/未任教/);
    const admin = await c.get('schooladmin', `${BASE}/list?classId=${classId}&courseId=${courseId}`);
    expect(admin.statusCode).toBe(403);
    expect(admin.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    for (const q of ['classId=abc&courseId=1', 'classId=1e300&courseId=1', `classId=${classId}`, "classId=1;DROP TABLE students&courseId=1", 'classId=-1&courseId=1']) {
      const bad = await c.get('teacher', `${BASE}/list?${q}`);
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});

describe('student detail and marks', () => {
  let studentId: number;
  let question: Question;

  beforeAll(async () => {
    const list = (await c.data('teacher', `${BASE}/list?classId=${classId}&courseId=${courseId}`)).students as ListRow[];
    studentId = list.find((r) => r.unmasteredCount > 0)!.studentId;
  });

  it('groups the student’s wrong questions by knowledge point with answers, times wrong and weekly figures', async () => {
    const d: Detail = await c.data('teacher', `${BASE}/detail?studentId=${studentId}&courseId=${courseId}`);
    const qs = questionsOf(d);
    expect(qs.length).toBe(d.summary.wrongCount);
    const [db] = await rows<{ n: number; times: number }>(t.database.db, sql`
      SELECT count(DISTINCT question_id)::int AS n, count(*)::int AS times FROM answer_records r JOIN courses co ON co.id = ${courseId}
       WHERE r.student_id = ${studentId} AND NOT r.is_correct AND r.subject_id = co.subject_id AND r.term = ${currentSemester()}`);
    expect(qs.length).toBe(db.n);
    expect(qs.reduce((s, q) => s + q.timesWrong, 0)).toBe(db.times);
    expect(d.points[0].name).toMatch(/[\u4e00-\u9fa5]/);
    expect(qs[0].stem.length).toBeGreaterThan(0);
    expect(d.weeks.reduce((s, w) => s + w.wrong, 0)).toBe(db.times);
    for (const w of d.weeks) expect(w.correct + w.wrong).toBe(w.answered);
    question = qs.find((q) => q.mastery === 0)!;
    expect(question).toBeTruthy();
  });

  it('saves the teacher’s cause, and refuses a bad cause or a question the student never got wrong', async () => {
    const saved = await c.done('teacher', `${BASE}/mark`, { studentId, questionId: question.questionId, courseId, cause: 2 });
    expect(saved).toMatchObject({ questionId: question.questionId, cause: 2, mastery: 0 });
    const d: Detail = await c.data('teacher', `${BASE}/detail?studentId=${studentId}&courseId=${courseId}`);
    expect(questionsOf(d).find((q) => q.questionId === question.questionId)!.cause).toBe(2);
    const [mark] = await rows<{ cause: number; updatedBy: number }>(t.database.db, sql`
      SELECT cause, updated_by AS "updatedBy" FROM student_wrong_marks WHERE student_id = ${studentId} AND question_id = ${question.questionId}`);
    expect(mark.cause).toBe(2);
    expect(mark.updatedBy).toBeGreaterThan(0);

    for (const body of [{ cause: 9 }, { cause: 'x' }, {}, { cause: 1, extra: "'; DROP TABLE x" }, { mastery: 3 }]) {
      const res = await c.post('teacher', `${BASE}/mark`, { studentId, questionId: question.questionId, courseId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const [never] = await rows<{ id: number }>(t.database.db, sql`
      SELECT id FROM questions WHERE id NOT IN (SELECT question_id FROM answer_records WHERE student_id = ${studentId} AND NOT is_correct) LIMIT 1`);
    const none = await c.post('teacher', `${BASE}/mark`, { studentId, questionId: never.id, courseId, cause: 1 });
    expect(none.statusCode).toBe(404);
    expect(none.json().msg).toBe('该学生没有这道错题');
  });

  it('refuses another school’s student and a wrong role', async () => {
    const res = await c.get('teacher', `${BASE}/detail?studentId=${foreign.studentId}&courseId=${courseId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('学生不存在');
    const mark = await c.post('teacher', `${BASE}/mark`, { studentId: foreign.studentId, questionId: question.questionId, courseId, cause: 1 });
    expect(mark.statusCode).toBe(404);
    const theirs = await c.get('teacher3', `${BASE}/detail?studentId=${studentId}&courseId=${foreign.courseId}`);
    expect(theirs.statusCode).toBe(404);
    const admin = await c.get('schooladmin', `${BASE}/detail?studentId=${studentId}&courseId=${courseId}`);
    expect(admin.statusCode).toBe(403);
  });

  it('moves mastery one step per correct re-practice recorded via recordAnswers, and back on a new wrong answer', async () => {
    const db = t.database.db;
    const [ctx] = await rows<{ tenantId: number; teacherId: number; points: number }>(db, sql`
      SELECT s.tenant_id AS "tenantId", (SELECT te.id FROM teachers te JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher') AS "teacherId",
             q.points FROM students s, questions q WHERE s.id = ${studentId} AND q.id = ${question.questionId}`);
    // A re-practice: a custom homework of the class with just this question.
    const practice = async (title: string) => {
      const [hw] = await rows<{ id: number }>(db, sql`
        INSERT INTO homeworks (tenant_id, teacher_id, class_id, course_id, title, source_type, items, term)
        VALUES (${ctx.tenantId}, ${ctx.teacherId}, ${classId}, ${courseId}, ${title}, 0,
                ${JSON.stringify([{ questionId: question.questionId, points: ctx.points, no: '1' }])}::jsonb, ${currentSemester()}) RETURNING id`);
      return hw.id;
    };
    const masteryNow = async () => {
      const d: Detail = await c.data('teacher', `${BASE}/detail?studentId=${studentId}&courseId=${courseId}`);
      return questionsOf(d).find((q) => q.questionId === question.questionId)!;
    };
    const answer = async (isCorrect: boolean) => {
      const id = await practice(isCorrect ? '错题重练' : '错题再练');
      await recordAnswers(db, ctx.tenantId, [{ sourceType: 0, sourceId: id, studentId, questionId: question.questionId, score: isCorrect ? ctx.points : 0, isCorrect }], { by: 'machine' });
    };
    await answer(true);
    expect((await masteryNow()).mastery).toBe(1);
    await answer(true);
    expect((await masteryNow()).mastery).toBe(2);
    await answer(false);
    const after = await masteryNow();
    expect(after.mastery).toBe(0);
    expect(after.timesWrong).toBe(question.timesWrong + 1);
    expect(after.cause).toBe(2);
    // The teacher may set it too; later answers move on from there.
    expect((await c.done('teacher', `${BASE}/mark`, { studentId, questionId: question.questionId, courseId, mastery: 1 })).mastery).toBe(1);
    await answer(true);
    expect((await masteryNow()).mastery).toBe(2);
  });
});

describe('menu badge', () => {
  it('counts the wrong answers on work given this term in the teacher’s classes and courses', async () => {
    const badge = await c.data('teacher', '/api/wrongbook/v1.0/web/nav/getMenuBadge?dateType=0');
    const since = termStart().toISOString();
    // Recounted from the answer records themselves (the badge reads the rollup).
    const [db] = await rows<{ n: number }>(t.database.db, sql`
      WITH taught AS (SELECT ta.class_id, ta.course_id FROM teaching_assignments ta JOIN teachers te ON te.id = ta.teacher_id
                        JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher'),
      work AS (
        SELECT h.source_type, h.id AS source_id, h.class_id FROM homeworks h JOIN taught t ON t.class_id = h.class_id AND t.course_id = h.course_id
         WHERE h.assigned_at >= ${since}
        UNION ALL
        SELECT 2::smallint, e.id, ec.class_id FROM exam_classes ec JOIN exams e ON e.id = ec.exam_id
          JOIN taught t ON t.class_id = ec.class_id AND t.course_id = e.course_id WHERE e.exam_date >= ${since}::timestamptz)
      SELECT count(*)::int AS n FROM work w JOIN answer_records r
          ON r.source_type = w.source_type AND r.source_id = w.source_id AND r.class_id = w.class_id
       WHERE NOT r.is_correct`);
    expect(badge.wrongCount).toBe(db.n);
    expect(badge.wrongCount).toBeGreaterThan(0);
  });
});
