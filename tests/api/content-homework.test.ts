// Homework (list with completion and accuracy, assigning to several classes, detail per student and
// question) and the answer records' one write path: a review overrides grading, only the latest
// review counts, and the rollups follow every write exactly as a rebuild from the records would.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { classSize, query, rawRecords, rollupSnapshot } from '../support/content';
import { rebuildRollups, recordAnswers } from '../../server/modules/minerva/answers';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

interface HomeworkItem {
  id: number;
  classId: number;
  className: string;
  courseName: string;
  sourceType: number;
  studentCount: number;
  submittedCount: number;
  gradedCount: number;
  accuracy: number | null;
  scoreRate: number | null;
  dueAt: string;
  batchId: number;
}

const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();

async function myClasses(user: string) {
  return (await c.data(user, '/api/vesta/teaching/getTeachClass?leaderType=1')) as { id: number; className: string; gradeId: number }[];
}
async function myCourse(user: string, name: string) {
  return ((await c.data(user, '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === name)!;
}

describe('homework list', () => {
  it('has a term of homework per class and course, with completion and accuracy from the answer records', async () => {
    const page = await c.data('teacher', '/api/minerva/v1.0/homeworks?size=500');
    const perClassCourse = new Map<string, number>();
    for (const h of page.records as HomeworkItem[]) perClassCourse.set(`${h.className}|${h.courseName}`, (perClassCourse.get(`${h.className}|${h.courseName}`) ?? 0) + 1);
    expect([...perClassCourse.keys()].sort()).toEqual(['七(1)班|数学', '七(2)班|数学', '八(1)班|物理', '八(2)班|物理']);
    for (const n of perClassCourse.values()) expect(n).toBeGreaterThanOrEqual(20);
    const sample = (page.records as HomeworkItem[]).slice(0, 6);
    for (const h of sample) {
      const records = await rawRecords(t, h.sourceType, h.id);
      const students = new Set(records.map((r) => r.studentId));
      expect(h.studentCount).toBe(await classSize(t, records[0].classId));
      expect(h.submittedCount).toBe(students.size);
      expect(h.accuracy).toBeCloseTo(records.filter((r) => r.isCorrect).length / records.length, 3);
      expect(h.scoreRate).toBeCloseTo(records.reduce((s, r) => s + r.score, 0) / records.reduce((s, r) => s + r.maxScore, 0), 3);
    }
    // Not uniform noise: some homeworks are clearly harder than others.
    const rates = (page.records as HomeworkItem[]).map((h) => h.accuracy!);
    expect(Math.max(...rates) - Math.min(...rates)).toBeGreaterThan(0.15);
  });

  it('filters by class, course and date, and refuses classes the teacher does not teach', async () => {
    const [first] = await myClasses('teacher');
    const maths = await myCourse('teacher', '数学');
    const page = await c.data('teacher', `/api/minerva/v1.0/homeworks?classId=${first.id}&courseId=${maths.courseId}&size=100`);
    expect(page.total).toBe(20);
    expect((page.records as HomeworkItem[]).every((h) => h.classId === first.id && h.courseName === '数学')).toBe(true);
    const week = await c.data('teacher', `/api/minerva/v1.0/homeworks?classId=${first.id}&courseId=${maths.courseId}&dateRange=week`);
    expect(week.total).toBeGreaterThan(0);
    expect(week.total).toBeLessThan(page.total);
    const foreignClass = (await myClasses('teacher3'))[0];
    expect((await c.get('teacher', `/api/minerva/v1.0/homeworks?classId=${foreignClass.id}`)).statusCode).toBe(404);
    // A class of the school the teacher does not teach (八(1)班 is theirs for 物理; 九年级 is not).
    const mine = new Set((await myClasses('teacher')).map((x) => x.id));
    const notMine = ((await c.data('schooladmin', '/api/vesta/class/treeClassBySchool')) as { children: { id: number }[] }[]).flatMap((g) => g.children).find((x) => !mine.has(x.id))!;
    expect((await c.get('teacher', `/api/minerva/v1.0/homeworks?classId=${notMine.id}`)).statusCode).toBe(404);
    for (const user of ['schooladmin', 'parttime', 'admin', 'partner1']) expect((await c.get(user, '/api/minerva/v1.0/homeworks')).statusCode, user).toBe(403);
  });
});

describe('assigning homework', () => {
  it('assigns book pages to two classes, lists both, and shows the detail per student and question', async () => {
    // The two classes the teacher teaches 数学 in (七年级; their 物理 classes are in 八年级).
    const classes = (await myClasses('teacher')).filter((x, _, all) => x.gradeId === all[0].gradeId);
    expect(classes).toHaveLength(2);
    const maths = await myCourse('teacher', '数学');
    const [book] = await c.data('teacher', `/api/minerva/v1.0/exercisebook/getExerciseBooksByClassId?classId=${classes[0].id}&courseId=${maths.courseId}`);
    const detail = await c.data('teacher', `/api/minerva/v1.0/exercisebooks/${book.id}`);
    const pages = detail.chapters[1].sections[0].pages;
    const assign = {
      courseId: maths.courseId,
      classIds: classes.map((x) => x.id),
      dueAt: inAWeek(),
      bookId: book.id,
      pageIds: pages.map((p: { id: number }) => p.id),
    };
    // The seeded term has given these pages already: the server asks first (409), then assigns.
    expect((await c.post('teacher', '/api/minerva/v1.0/homeworks', assign)).json()).toMatchObject({ code: 409, msg: expect.stringMatching(/已布置过「.+」中的页面，仍要再布置一次吗？$/) });
    const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { ...assign, confirmDuplicate: true });
    expect(created.homeworks).toHaveLength(2);
    expect(created.questionCount).toBe(8);
    expect(created.title).toBe(`${book.title} 第${pages[0].pageNo}–${pages[1].pageNo}页`);
    const listed = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=5')).records as HomeworkItem[];
    const mine = listed.filter((h) => h.batchId === created.batchId);
    expect(mine.map((h) => h.className).sort()).toEqual(['七(1)班', '七(2)班']);
    expect(mine.every((h) => h.submittedCount === 0 && h.accuracy === null && h.sourceType === 1)).toBe(true);
    const one = await c.data('teacher', `/api/minerva/v1.0/homeworks/${mine[0].id}`);
    const [{ classId: firstClass }] = await query<{ classId: number }>(t, sql`SELECT class_id AS "classId" FROM homeworks WHERE id = ${mine[0].id}`);
    expect(one.students).toHaveLength(await classSize(t, firstClass));
    expect(one.questions.map((q: { no: string }) => q.no)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(one.questions[0].question.stem).toBe(pages[0].questions[0].stem);

    // A custom list of bank questions, to one class.
    const bank = await c.data('teacher', `/api/minerva/v1.0/questions?subjectId=${book.subjectId}&gradeLevel=7&size=3`);
    const custom = await c.done('teacher', '/api/minerva/v1.0/homeworks', { courseId: maths.courseId, classIds: [classes[1].id], dueAt: inAWeek(), questionIds: bank.records.map((q: { id: number }) => q.id), title: '周末练习' });
    expect(custom).toMatchObject({ title: '周末练习', questionCount: 3 });
    expect((await c.data('teacher', `/api/minerva/v1.0/homeworks/${custom.batchId}`)).sourceType).toBe(0);
  });

  it('refuses what the teacher may not assign, and writes nothing', async () => {
    // The two classes the teacher teaches 数学 in (七年级; their 物理 classes are in 八年级).
    const classes = (await myClasses('teacher')).filter((x, _, all) => x.gradeId === all[0].gradeId);
    expect(classes).toHaveLength(2);
    const maths = await myCourse('teacher', '数学');
    const [book] = await c.data('teacher', `/api/minerva/v1.0/exercisebook/getExerciseBooksByClassId?classId=${classes[0].id}&courseId=${maths.courseId}`);
    const detail = await c.data('teacher', `/api/minerva/v1.0/exercisebooks/${book.id}`);
    const pageId = detail.chapters[0].sections[0].pages[0].id;
    const before = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).total;
    const notTaught = (await c.data('schooladmin', '/api/vesta/class/treeClassBySchool'))[0].children[3];
    const grade8Book = (await c.data('parttime', '/api/minerva/v1.0/exercisebooks?gradeLevel=8&size=50')).records.find((b: { subjectId: number }) => b.subjectId === book.subjectId);
    const foreignClass = (await myClasses('teacher3'))[0];
    const base = { courseId: maths.courseId, classIds: [classes[0].id], dueAt: inAWeek(), bookId: book.id, pageIds: [pageId] };
    const cases: [object, number, string][] = [
      [{ ...base, classIds: [classes[0].id, notTaught.id] }, 404, '班级不存在'],
      [{ ...base, classIds: [foreignClass.id] }, 404, '班级不存在'],
      [{ ...base, bookId: grade8Book.id, pageIds: [pageId] }, 400, '练习册与班级年级不符'],
      [{ ...base, pageIds: [pageId + 100000] }, 404, '练习册页面不存在'],
      [{ ...base, dueAt: '2020-01-01T00:00:00Z' }, 400, '截止时间必须晚于现在'],
      [{ ...base, dueAt: '下周五' }, 400, '截止时间格式不正确'],
      [{ ...base, questionIds: [1] }, 400, '请选择练习册页面、题目或上传作业原件（三选一）'],
      [{ ...base, classIds: [] }, 400, '班级不能为空'],
    ];
    for (const [body, status, msg] of cases) {
      const res = await c.post('teacher', '/api/minerva/v1.0/homeworks', body);
      expect([res.statusCode, res.json().msg], JSON.stringify(body)).toEqual([status, msg]);
    }
    expect((await c.post('teacher3', '/api/minerva/v1.0/homeworks', base)).statusCode).toBe(404);
    expect((await c.post('schooladmin', '/api/minerva/v1.0/homeworks', base)).statusCode).toBe(403);
    expect((await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).total).toBe(before);
  });

  it("hides another teacher's and another tenant's homework", async () => {
    const [own] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).records;
    expect((await c.get('teacher2', `/api/minerva/v1.0/homeworks/${own.id}`)).statusCode).toBe(404);
    expect((await c.get('teacher3', `/api/minerva/v1.0/homeworks/${own.id}`)).json()).toMatchObject({ code: 404, msg: '作业不存在' });
    expect((await c.get('parttime', `/api/minerva/v1.0/homeworks/${own.id}`)).statusCode).toBe(403);
  });
});

describe('answer records', () => {
  async function tenantOf(user: string): Promise<number> {
    return (await c.data(user, '/api/juno/personal/info')).tenantId;
  }

  it('a review overrides grading, grading never overrides a review, the latest review counts; rollups follow', async () => {
    const tenantId = await tenantOf('teacher');
    const [hw] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=30&dateRange=all')).records.filter((h: HomeworkItem) => h.submittedCount > 0);
    const records = await rawRecords(t, hw.sourceType, hw.id);
    const wrong = records.find((r) => !r.isCorrect)!;
    const key = { sourceType: hw.sourceType, sourceId: hw.id, studentId: wrong.studentId, questionId: wrong.questionId };
    const stat = async () =>
      (await query<{ correct: number; score: number }>(t, sql`
        SELECT correct, score FROM work_question_stats WHERE source_type = ${hw.sourceType} AND source_id = ${hw.id} AND question_id = ${wrong.questionId}`))[0];
    const before = await stat();
    const detailBefore = await c.data('teacher', `/api/minerva/v1.0/homeworks/${hw.id}`);

    const reviewed = await c.done('teacher', '/api/minerva/v1.0/answers/review', { ...key, score: wrong.maxScore, isCorrect: true });
    expect(reviewed).toMatchObject({ isCorrect: true, score: wrong.maxScore, gradedBy: 2 });
    expect(await stat()).toEqual({ correct: before.correct + 1, score: before.score + wrong.maxScore - wrong.score });
    const detailAfter = await c.data('teacher', `/api/minerva/v1.0/homeworks/${hw.id}`);
    const student = (d: { students: { studentId: number; correct: number }[] }) => d.students.find((s) => s.studentId === wrong.studentId)!;
    expect(student(detailAfter).correct).toBe(student(detailBefore).correct + 1);

    // Machine grading arriving later leaves the review in place.
    expect(await recordAnswers(t.database.db, tenantId, [{ ...key, score: 0, isCorrect: false }], { by: 'machine' })).toBe(0);
    expect((await c.data('teacher', `/api/minerva/v1.0/answers?sourceType=${key.sourceType}&sourceId=${key.sourceId}&studentId=${key.studentId}`)).find((r: { questionId: number }) => r.questionId === key.questionId)).toMatchObject({ isCorrect: true, gradedBy: 2 });
    // A second review is the latest and counts.
    await c.done('teacher', '/api/minerva/v1.0/answers/review', { ...key, score: 0, isCorrect: false });
    expect(await stat()).toEqual({ correct: before.correct, score: before.score - wrong.score });

    // Incremental upkeep equals a rebuild from the records.
    const kept = await rollupSnapshot(t, tenantId);
    await rebuildRollups(t.database.db, tenantId);
    expect(await rollupSnapshot(t, tenantId)).toBe(kept);
  });

  it('a first write inserts and counts once; a batch moves every rollup consistently', async () => {
    const tenantId = await tenantOf('teacher');
    const classes = await myClasses('teacher');
    const maths = await myCourse('teacher', '数学');
    const bank = await c.data('teacher', '/api/minerva/v1.0/questions?gradeLevel=7&type=1&size=2&subjectId=2');
    const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { courseId: maths.courseId, classIds: [classes[0].id], dueAt: inAWeek(), questionIds: bank.records.map((q: { id: number }) => q.id) });
    const students = (await c.data('teacher', `/api/minerva/v1.0/homeworks/${created.batchId}`)).students as { studentId: number }[];
    const rows = students.slice(0, 5).flatMap((s, k) =>
      bank.records.map((q: { id: number; points: number; answer: string }) => ({ sourceType: 0, sourceId: created.batchId, studentId: s.studentId, questionId: q.id, score: k % 2 ? q.points : 0, answer: k % 2 ? q.answer : 'Z' })),
    );
    expect(await recordAnswers(t.database.db, tenantId, rows, { by: 'machine' })).toBe(10);
    const list = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=3')).records.find((h: HomeworkItem) => h.id === created.batchId);
    expect(list).toMatchObject({ submittedCount: 5, accuracy: 0.4 });
    const kept = await rollupSnapshot(t, tenantId);
    await rebuildRollups(t.database.db, tenantId);
    expect(await rollupSnapshot(t, tenantId)).toBe(kept);
  });

  it('migration 0038 fills the class and school rollups as a rebuild from the records does', async () => {
    const tenantId = await tenantOf('teacher');
    const made = ['work_class_stats', 'class_participants', 'school_question_stats'];
    // The migration's own statements after its tables: the fill from the rollups already kept.
    const file = readFileSync(new URL('../../server/db/migrations/0038_class_rollups.sql', import.meta.url), 'utf8');
    const fill = file.split('--> statement-breakpoint').filter((s) => /^\s*(--[^\n]*\n\s*)*INSERT/.test(s));
    expect(fill.length).toBe(made.length);
    await rebuildRollups(t.database.db, tenantId);
    const rebuilt = await rollupSnapshot(t, tenantId);
    for (const table of made) await query(t, sql`DELETE FROM ${sql.identifier(table)}`);
    for (const statement of fill) await query(t, sql.raw(statement));
    expect(await rollupSnapshot(t, tenantId)).toBe(rebuilt);
  });

  it('refuses answers outside the tenant, the work or the points, writing nothing', async () => {
    const tenantId = await tenantOf('teacher');
    const [hw] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=30')).records.filter((h: HomeworkItem) => h.submittedCount > 0);
    const [record] = await rawRecords(t, hw.sourceType, hw.id);
    const key = { sourceType: hw.sourceType, sourceId: hw.id, studentId: record.studentId, questionId: record.questionId };
    const foreignTenant = await tenantOf('teacher3');
    await expect(recordAnswers(t.database.db, foreignTenant, [{ ...key, score: 0 }], { by: 'machine' })).rejects.toMatchObject({ code: 404 });
    const [outside] = await query<{ id: number }>(t, sql`
      SELECT q.id FROM questions q WHERE q.id NOT IN (SELECT (it->>'questionId')::int FROM homeworks h, jsonb_array_elements(h.items) it WHERE h.id = ${hw.id}) LIMIT 1`);
    await expect(recordAnswers(t.database.db, tenantId, [{ ...key, questionId: outside.id, score: 0 }], { by: 'machine' })).rejects.toMatchObject({ code: 404 });
    await expect(recordAnswers(t.database.db, tenantId, [{ ...key, score: record.maxScore + 1 }], { by: 'review' })).rejects.toMatchObject({ code: 400 });
    expect((await rawRecords(t, hw.sourceType, hw.id)).find((r) => r.studentId === key.studentId && r.questionId === key.questionId)).toEqual(record);

    const review = { ...key, score: 0 };
    expect((await c.post('teacher2', '/api/minerva/v1.0/answers/review', review)).statusCode).toBe(404);
    expect((await c.post('teacher3', '/api/minerva/v1.0/answers/review', review)).statusCode).toBe(404);
    expect((await c.post('schooladmin', '/api/minerva/v1.0/answers/review', review)).statusCode).toBe(403);
    const tooMuch = await c.post('teacher', '/api/minerva/v1.0/answers/review', { ...key, score: record.maxScore + 1 });
    expect([tooMuch.statusCode, tooMuch.json().msg]).toEqual([400, `得分须在 0 到 ${record.maxScore} 分之间`]);
  });

  it("keeps students with answers: removing them is refused", async () => {
    const [hw] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=30')).records.filter((h: HomeworkItem) => h.submittedCount > 0);
    const [record] = await rawRecords(t, hw.sourceType, hw.id);
    const res = await c.post('schooladmin', '/api/vesta/student/remove', { studentId: record.studentId });
    expect([res.statusCode, res.json().msg]).toEqual([409, '所选学生已有作业或错题记录，不能删除']);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('answer records under concurrent writers (PostgreSQL)', () => {
  it('counts an answer once when two graders write it at the same moment', async () => {
    const tenantId = (await c.data('teacher', '/api/juno/personal/info')).tenantId;
    const classes = await myClasses('teacher');
    const maths = await myCourse('teacher', '数学');
    const bank = await c.data('teacher', '/api/minerva/v1.0/questions?gradeLevel=7&type=1&size=3&subjectId=2');
    const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { courseId: maths.courseId, classIds: [classes[0].id], dueAt: inAWeek(), questionIds: bank.records.map((q: { id: number }) => q.id) });
    const students = (await c.data('teacher', `/api/minerva/v1.0/homeworks/${created.batchId}`)).students as { studentId: number }[];
    const write = (k: number) =>
      recordAnswers(
        t.database.db,
        tenantId,
        students.slice(0, 4).flatMap((s) => bank.records.map((q: { id: number; points: number }) => ({ sourceType: 0, sourceId: created.batchId, studentId: s.studentId, questionId: q.id, score: k % 2 ? q.points : 0 }))),
        { by: 'machine' },
      );
    await Promise.all([write(0), write(1), write(2), write(3)]);
    const [stats] = await query<{ answered: number; submitted: number }>(t, sql`
      SELECT (SELECT sum(answered)::int FROM work_question_stats WHERE source_type = 0 AND source_id = ${created.batchId}) AS answered,
             (SELECT count(*)::int FROM work_student_stats WHERE source_type = 0 AND source_id = ${created.batchId}) AS submitted`);
    expect(stats).toEqual({ answered: 12, submitted: 4 });
    const kept = await rollupSnapshot(t, tenantId);
    await rebuildRollups(t.database.db, tenantId);
    expect(await rollupSnapshot(t, tenantId)).toBe(kept);
  });
});
