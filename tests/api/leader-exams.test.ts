// The leaders' exam report beyond its figures (docs/api-content.md "Exams for leaders"): 临界生,
// 进退步, 学科均衡, knowledge points, one student's page with the scanned sheet, and 阅卷进度 of an
// exam marked online. Scopes hold (a grade leader their grade, a subject leader their subject),
// another tenant's ids are not found, other roles are refused, hostile ids are 4xx in Chinese, and
// every figure is recounted here from the answer records. Real HTTP, real grading worker and scans.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { SheetLayout } from '../../server/grading';
import { SCORE_BAND_LABELS, scoreBand } from '../../src/domain/content';
import type { ExamMarkingProgress, LeaderExamAnalysis, LeaderExamReport, LeaderExamStudent, LeaderExamSummary } from '../../src/domain/leaderExams';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, multipart, tempDataDir } from '../support/school';

const CORRECT = '/api/wrongbook/v1.0/correct';
const LEADER = '/api/minerva/v1.0/leader/exams';
let t: TestApp;
let c: ReturnType<typeof client>;
/** A fresh exam of 七(1)班 graded from scans: its id, the scans by student, the task. */
const scanned = { examId: 0, taskId: 0, classId: 0, manualNo: 0, scans: new Map<number, Buffer>() };
const teacherIds: Record<string, number> = {};

type Total = { studentId: number; classId: number; score: number };
/** Every student's total on an exam, summed here from the answer records (not the rollups). */
const totalsOf = (examId: number) =>
  rows<Total>(t.database.db, sql`
    SELECT student_id AS "studentId", class_id AS "classId", sum(score)::float8 AS score FROM answer_records
     WHERE source_type = 2 AND source_id = ${examId} GROUP BY student_id, class_id`);
const examRow = async (id: number) =>
  (await rows<{ fullMarks: number; gradeId: number; term: string; items: { questionId: number; points: number; no: string }[] }>(t.database.db, sql`
    SELECT full_marks AS "fullMarks", grade_id AS "gradeId", term, items FROM exams WHERE id = ${id}`))[0]!;
const setDisclosure = async (value: number) =>
  expect((await t.call(await c.token('schooladmin'), { method: 'PUT', url: '/api/vesta/school/settings', payload: { scoreDisclosure: value } })).statusCode).toBe(200);

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  c = client(t);
  const db = t.database.db;
  for (const name of ['teacher', 'teacher4']) {
    teacherIds[name] = (await rows<{ id: number }>(db, sql`SELECT t.id FROM teachers t JOIN users u ON u.id = t.user_id WHERE u.username = ${name}`))[0]!.id;
  }
  const teacher = await c.token('teacher');
  scanned.classId = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data[0].id;
  // A fresh 数学 exam of 七(1)班 on a few questions of the demo paper: objective ones and a worked answer.
  const [demo] = await rows<{ id: number; items: { questionId: number; points: number; no: string }[] }>(db, sql`
    SELECT id, items FROM exams WHERE title = '七年级数学第一次月考' ORDER BY id LIMIT 1`);
  const types = new Map((await rows<{ id: number; type: number }>(db, sql`SELECT id, type FROM questions WHERE id = ANY(${`{${demo!.items.map((i) => i.questionId).join(',')}}`}::int[])`)).map((q) => [q.id, q.type]));
  const pick = [...demo!.items.filter((i) => types.get(i.questionId) === 1).slice(0, 3), ...demo!.items.filter((i) => types.get(i.questionId) === 5).slice(0, 1)];
  const items = pick.map((it, i) => ({ ...it, no: String(i + 1) }));
  const [exam] = await rows<{ id: number }>(db, sql`
    INSERT INTO exams (tenant_id, school_id, grade_id, course_id, paper_id, title, exam_date, term, full_marks, items)
    SELECT tenant_id, school_id, grade_id, course_id, paper_id, '七年级数学扫描周测', CURRENT_DATE, term, ${items.reduce((s, it) => s + it.points, 0)}, ${JSON.stringify(items)}::jsonb
      FROM exams WHERE id = ${demo!.id} RETURNING id`);
  scanned.examId = exam!.id;
  await db.execute(sql`INSERT INTO exam_classes (tenant_id, exam_id, class_id) SELECT tenant_id, ${exam!.id}, ${scanned.classId} FROM exams WHERE id = ${exam!.id}`);
  const post = (url: string, payload: object) => t.call(teacher, { method: 'POST', url: `${CORRECT}${url}`, payload });
  const sheet = (await post('/sheet/fromExam', { examId: exam!.id, classId: scanned.classId })).json().data;
  scanned.manualNo = sheet.manual[0];
  const created = await post('/task/create', { type: 3, title: '七年级数学扫描周测批改', classId: scanned.classId, sheetId: sheet.sheetId, examId: exam!.id, answerKey: sheet.answerKey });
  expect(created.statusCode, created.body).toBe(200);
  scanned.taskId = created.json().data.id;
  const [{ layout }] = await rows<{ layout: SheetLayout }>(db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
  const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
  const key = sheet.answerKey.items as Record<string, { answer?: string }>;
  // Six students; the k-th gets the first k − 1 objective items wrong (some fewer), so totals differ.
  for (let s = 0; s < 6; s++) {
    const objective: Filling['objective'] = {};
    Object.entries(key)
      .filter(([, k]) => k.answer)
      .forEach(([no, k], i) => {
        const right = k.answer!;
        objective[Number(no)] = [{ label: i < s % 4 ? (right[0] === 'A' ? 'B' : 'A') : right[0]!, style: 'full' as const }];
      });
    const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: roster[s]!.id }, objective }, { rotateDeg: 0, noise: 2 }, 90 + s);
    scanned.scans.set(Number(String(roster[s]!.id).replace(/^s/, '')), scan);
    const body = multipart({ taskId: scanned.taskId }, { name: `扫描${s + 1}.jpg`, content: scan });
    expect((await t.call(teacher, { method: 'POST', url: `${CORRECT}/task/upload`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
  }
  await post('/task/submit', { taskId: scanned.taskId });
  const worker = createWorker(db, t.app.config);
  while (await worker.runOnce());
}, 240_000);
afterAll(() => t.close());

const list = async (user: string, role?: string) => (await c.data(user, `${LEADER}?size=100`, role)).records as LeaderExamSummary[];
const demoMath = async () => (await list('gradeleader')).filter((e) => e.title.startsWith('七年级数学') && e.id !== scanned.examId).sort((a, b) => a.examDate.localeCompare(b.examDate) || a.id - b.id);

describe('scopes', () => {
  it('a grade leader sees their grade only, a subject leader their subject only, the principal the school', async () => {
    const grade = await list('gradeleader');
    expect(grade.length).toBeGreaterThan(0);
    expect(new Set(grade.map((e) => e.gradeName))).toEqual(new Set(['七年级']));
    const subject = await list('subjectleader');
    expect(new Set(subject.map((e) => e.courseName))).toEqual(new Set(['数学']));
    const school = await list('principal');
    expect(school.some((e) => e.courseName === '英语' && e.gradeName === '八年级')).toBe(true);
    const english = school.find((e) => e.courseName === '英语')!;
    for (const path of ['analysis', 'marking', 'students/1']) {
      for (const user of ['gradeleader', 'subjectleader']) {
        const res = await c.get(user, `${LEADER}/${english.id}/${path}`);
        expect([res.statusCode, res.json().msg], `${user} ${path}`).toEqual([404, '考试不存在']);
      }
    }
    // The grade leader's report covers exactly the 七年级 classes of the exam.
    const report = (await c.data('gradeleader', `${LEADER}/${grade[0]!.id}/report`)) as LeaderExamReport;
    const classes = await rows<{ name: string }>(t.database.db, sql`
      SELECT c.name FROM exam_classes ec JOIN classes c ON c.id = ec.class_id JOIN grades g ON g.id = c.grade_id WHERE ec.exam_id = ${grade[0]!.id} AND g.name = '七年级' ORDER BY c.id`);
    expect(report.scope.classNames).toEqual(classes.map((r) => r.name));
  });

  it("refuses other roles, another tenant's principal and hostile ids, in Chinese", async () => {
    const exam = (await demoMath())[0]!;
    for (const path of [`${LEADER}/${exam.id}/analysis`, `${LEADER}/${exam.id}/students/1`, `${LEADER}/${exam.id}/marking`, `${LEADER}/${exam.id}/sheetFile?fileId=1`]) {
      for (const user of ['teacher', 'schooladmin', 'psych']) {
        const res = await c.get(user, path);
        expect(res.statusCode, `${user} ${path}`).toBe(403);
        expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
      }
    }
    await t.database.db.execute(sql`INSERT INTO user_roles (tenant_id, user_id, role_key) SELECT tenant_id, id, 'schoolMaster' FROM users WHERE username = 'teacher3' ON CONFLICT DO NOTHING`);
    for (const path of ['analysis', 'marking', 'students/1', 'sheetFile?fileId=1']) {
      const foreign = await c.get('teacher3', `${LEADER}/${exam.id}/${path}`, 'schoolMaster');
      expect([foreign.statusCode, foreign.json().msg], path).toEqual([404, '考试不存在']);
    }
    for (const bad of ['abc', '-1', '0', '1.5', '99999999999', "1'%20OR%201=1"]) {
      for (const path of [`${LEADER}/${bad}/analysis`, `${LEADER}/${exam.id}/students/${bad}`, `${LEADER}/${exam.id}/sheetFile?fileId=${bad}`, `${LEADER}/${exam.id}/analysis?classId=${bad}`]) {
        const res = await c.get('principal', path);
        expect(res.statusCode, path).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, path).toBeLessThan(500);
        expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
      }
    }
    const huge = await c.get('principal', `${LEADER}/${exam.id}/students/2147483647`);
    expect([huge.statusCode, huge.json().msg]).toEqual([404, '学生不存在']);
    // A student of 八年级 is not on a 七年级 exam's page.
    const [eighth] = await rows<{ id: number }>(t.database.db, sql`
      SELECT st.id FROM students st JOIN classes c ON c.id = st.class_id JOIN grades g ON g.id = c.grade_id JOIN users u ON u.tenant_id = st.tenant_id
       WHERE g.name = '八年级' AND u.username = 'principal' LIMIT 1`);
    const other = await c.get('principal', `${LEADER}/${exam.id}/students/${eighth!.id}`);
    expect([other.statusCode, other.json().msg]).toEqual([404, '学生不存在']);
    const notTheirs = await c.get('gradeleader', `${LEADER}/${exam.id}/analysis?classId=999999`);
    expect([notTheirs.statusCode, notTheirs.json().msg]).toEqual([404, '班级不存在']);
  });
});

describe('the analysis, recounted from the answer records', () => {
  it('临界生, 进退步 and knowledge points of the later 七年级数学 exam', async () => {
    const [first, second] = await demoMath();
    expect(second, 'the demo has two 七年级数学 exams').toBeTruthy();
    const exam = await examRow(second!.id);
    const before = await examRow(first!.id);
    const report = (await c.data('gradeleader', `${LEADER}/${second!.id}/report`)) as LeaderExamReport;
    const scope = new Set(report.scope.classIds);
    const now = (await totalsOf(second!.id)).filter((r) => scope.has(r.classId));
    const then = (await totalsOf(first!.id)).filter((r) => scope.has(r.classId));
    const a = (await c.data('gradeleader', `${LEADER}/${second!.id}/analysis`)) as LeaderExamAnalysis;

    const margin = Math.round(exam.fullMarks * 0.05 * 100) / 100;
    for (const [band, share] of [['excellent', 0.9], ['pass', 0.6]] as const) {
      const line = exam.fullMarks * share;
      const near = now.filter((r) => r.score < line && r.score >= line - margin);
      const got = a.critical.lines.find((l) => l.band === band)!;
      expect(got.count, band).toBe(near.length);
      expect(new Set(got.students.map((s) => s.studentId))).toEqual(new Set(near.map((r) => r.studentId)));
    }

    expect(a.progress.previous?.id).toBe(first!.id);
    const thenBy = new Map(then.map((r) => [r.studentId, r.score]));
    const both = now.filter((r) => thenBy.has(r.studentId));
    const change = (r: Total) => r.score / exam.fullMarks - thenBy.get(r.studentId)! / before.fullMarks;
    expect(a.progress.both).toBe(both.length);
    expect(a.progress.improved).toBe(both.filter((r) => change(r) >= 0.05).length);
    expect(a.progress.declined).toBe(both.filter((r) => change(r) <= -0.05).length);
    expect(a.progress.improved + a.progress.declined).toBeGreaterThan(0);
    for (const cls of a.progress.classes) {
      const own = now.filter((r) => r.classId === cls.classId);
      expect(cls.rate, cls.className).toBeCloseTo(own.reduce((s, r) => s + r.score, 0) / own.length / exam.fullMarks, 3);
    }
    // Bands per student (the school's default): now and then, from the recounted totals.
    expect(a.disclosure).toBe(1);
    for (const s of a.progress.students.slice(0, 40)) {
      const own = now.find((r) => r.studentId === s.studentId)!;
      expect(s.band).toBe(SCORE_BAND_LABELS[scoreBand(own.score, exam.fullMarks)]);
      expect(s.previousBand).toBe(SCORE_BAND_LABELS[scoreBand(thenBy.get(s.studentId)!, before.fullMarks)]);
      expect(s).not.toHaveProperty('rank');
    }
    expect(JSON.stringify(a)).not.toMatch(/"score"/);

    // Knowledge points: the points and averages of the questions that test them.
    const perQuestion = await rows<{ questionId: number; average: number }>(t.database.db, sql`
      SELECT question_id AS "questionId", avg(score)::float8 AS average FROM answer_records
       WHERE source_type = 2 AND source_id = ${second!.id} AND class_id = ANY(${`{${[...scope].join(',')}}`}::int[]) GROUP BY question_id`);
    const kp = await rows<{ questionId: number; kp: number }>(t.database.db, sql`
      SELECT id AS "questionId", unnest(knowledge_point_ids) AS kp FROM questions WHERE id = ANY(${`{${exam.items.map((i) => i.questionId).join(',')}}`}::int[])`);
    expect(a.knowledgePoints.length).toBe(new Set(kp.map((k) => k.kp)).size);
    for (const point of a.knowledgePoints) {
      const tested = exam.items.filter((i) => kp.some((k) => k.kp === point.id && k.questionId === i.questionId));
      const points = tested.reduce((s, i) => s + i.points, 0);
      const average = tested.reduce((s, i) => s + (perQuestion.find((q) => q.questionId === i.questionId)?.average ?? 0), 0);
      expect(point.points, point.name).toBeCloseTo(points, 2);
      expect(point.scoreRate!, point.name).toBeCloseTo(average / points, 3);
    }
  });

  it('学科均衡 sets each class against the grade per subject of the term', async () => {
    const [, second] = await demoMath();
    const a = (await c.data('principal', `${LEADER}/${second!.id}/analysis`)) as LeaderExamAnalysis;
    const exam = await examRow(second!.id);
    // Every course of 七年级 with an exam this term, once each; this exam for its own course.
    const courses = await rows<{ courseId: number }>(t.database.db, sql`SELECT DISTINCT course_id AS "courseId" FROM exams WHERE grade_id = ${exam.gradeId} AND term = ${exam.term}`);
    expect(a.balance.exams.map((e) => e.courseId).sort()).toEqual(courses.map((r) => r.courseId).sort());
    expect(a.balance.exams.map((e) => e.id)).toContain(second!.id);
    const at = a.balance.exams.findIndex((e) => e.id === second!.id);
    const totals = await totalsOf(second!.id);
    const gradeRate = totals.reduce((s, r) => s + r.score, 0) / totals.length / exam.fullMarks;
    for (const cls of a.balance.classes) {
      const own = totals.filter((r) => r.classId === cls.classId);
      const rate = own.reduce((s, r) => s + r.score, 0) / own.length / exam.fullMarks;
      expect(cls.subjects[at]!.relative!, cls.className).toBeCloseTo(rate / gradeRate, 3);
    }
  });

  it('a student: a band, a rank or nothing as the school decides, with their exams of the course', async () => {
    const [first, second] = await demoMath();
    const totals = await totalsOf(second!.id);
    const student = totals[0]!;
    const exam = await examRow(second!.id);
    const url = `${LEADER}/${second!.id}/students/${student.studentId}`;
    const banded = (await c.data('principal', url)) as LeaderExamStudent;
    expect(banded.band).toBe(SCORE_BAND_LABELS[scoreBand(student.score, exam.fullMarks)]);
    expect(banded).not.toHaveProperty('rank');
    // Their exams of the course (the demo's two, and the scanned one if they were among its six), oldest first.
    const sat = await rows<{ id: number }>(t.database.db, sql`
      SELECT e.id FROM exams e WHERE e.course_id = (SELECT course_id FROM exams WHERE id = ${second!.id}) AND e.grade_id = ${exam.gradeId}
         AND EXISTS (SELECT 1 FROM answer_records r WHERE r.source_type = 2 AND r.source_id = e.id AND r.student_id = ${student.studentId})
       ORDER BY e.exam_date, e.id`);
    expect(banded.history.map((h) => h.examId)).toEqual(sat.map((r) => r.id));
    expect(banded.history.slice(0, 2).map((h) => h.examId)).toEqual([first!.id, second!.id]);
    expect(banded.sheets).toEqual([]);
    expect(banded.sheetNote).toContain('不是通过 AI批改');

    await setDisclosure(2);
    const ranked = (await c.data('principal', url)) as LeaderExamStudent;
    const [{ gradeId }] = [exam];
    const gradeClasses = new Set((await rows<{ id: number }>(t.database.db, sql`SELECT id FROM classes WHERE grade_id = ${gradeId}`)).map((r) => r.id));
    const inGrade = totals.filter((r) => gradeClasses.has(r.classId));
    expect(ranked.rank).toBe(inGrade.filter((r) => r.score > student.score).length + 1);
    expect(ranked.ranked).toBe(inGrade.length);
    expect(ranked).not.toHaveProperty('band');

    await setDisclosure(0);
    const hidden = (await c.data('principal', url)) as LeaderExamStudent;
    expect(hidden).not.toHaveProperty('rank');
    expect(hidden).not.toHaveProperty('band');
    expect(hidden.history.every((h) => h.rank === undefined && h.band === undefined)).toBe(true);
    expect(JSON.stringify(hidden)).not.toMatch(/score/i);
    await setDisclosure(1);
  });
});

describe('an exam graded from scans', () => {
  it("shows the student's own scanned sheet to their leaders, not when the school discloses nothing", async () => {
    const [studentId, scan] = [...scanned.scans.entries()][1]!;
    const page = (await c.data('gradeleader', `${LEADER}/${scanned.examId}/students/${studentId}`)) as LeaderExamStudent;
    expect(page.sat).toBe(true);
    expect(page.sheets).toHaveLength(1);
    expect(page.sheets[0]!.taskTitle).toBe('七年级数学扫描周测批改');
    const fileId = page.sheets[0]!.pages[0]!.fileId;
    for (const user of ['gradeleader', 'subjectleader', 'principal']) {
      const image = await c.get(user, `${LEADER}/${scanned.examId}/sheetFile?fileId=${fileId}`);
      expect(image.statusCode, user).toBe(200);
      expect(image.headers['content-type']).toContain('image/jpeg');
      expect(image.rawPayload.equals(scan), 'the very scan that was uploaded').toBe(true);
    }
    // The file is this exam's: asked for under another exam, it is not found.
    const [, other] = await demoMath();
    const elsewhere = await c.get('principal', `${LEADER}/${other!.id}/sheetFile?fileId=${fileId}`);
    expect([elsewhere.statusCode, elsewhere.json().msg]).toEqual([404, '原卷不存在']);
    await setDisclosure(0);
    const refused = await c.get('principal', `${LEADER}/${scanned.examId}/sheetFile?fileId=${fileId}`);
    expect([refused.statusCode, refused.json().msg]).toEqual([403, '学校未公开学生个人结果，不能查看原卷']);
    expect(((await c.data('principal', `${LEADER}/${scanned.examId}/students/${studentId}`)) as LeaderExamStudent).sheets).toEqual([]);
    await setDisclosure(1);
  });

  it('阅卷进度: per question and marker, for the leaders and the teachers of the exam', async () => {
    const progress = async (user: string, url = `${LEADER}/${scanned.examId}/marking`) => (await c.data(user, url)) as ExamMarkingProgress;
    const papers = (await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM grading_results WHERE task_id = ${scanned.taskId}`))[0]!.n;
    expect(papers).toBe(6);
    const start = await progress('gradeleader');
    expect(start.tasks).toHaveLength(1);
    expect(start.tasks[0]).toMatchObject({ taskId: scanned.taskId, papers, owner: '陈静', className: '七(1)班' });
    expect(start.tasks[0]!.questions.map((q) => [q.no, q.marked, q.total])).toEqual([[scanned.manualNo, 0, papers]]);
    expect(start.tasks[0]!.questions[0]!.markers).toEqual([{ teacherId: teacherIds.teacher, name: '陈静', marked: 0, total: papers }]);

    // The owner splits the worked answer with teacher4, who marks two of their papers.
    const teacher = await c.token('teacher');
    const teacher4 = await c.token('teacher4');
    const set = await t.call(teacher, { method: 'POST', url: `${CORRECT}/marking/markers`, payload: { taskId: scanned.taskId, no: scanned.manualNo, teacherIds: [teacherIds.teacher, teacherIds.teacher4], double: null } });
    expect(set.statusCode, set.body).toBe(200);
    const share = (await t.call(teacher4, { url: `${CORRECT}/marking/question?taskId=${scanned.taskId}&no=${scanned.manualNo}` })).json().data.papers as { resultId: number }[];
    for (const p of share.slice(0, 2)) {
      const res = await t.call(teacher4, { method: 'POST', url: `${CORRECT}/marking/score`, payload: { taskId: scanned.taskId, no: scanned.manualNo, resultId: p.resultId, score: 1 } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const marked = (await rows<{ n: number }>(t.database.db, sql`
      SELECT count(*)::int AS n FROM grading_results WHERE task_id = ${scanned.taskId} AND review ->> ${String(scanned.manualNo)} IS NOT NULL`))[0]!.n;
    const after = await progress('principal');
    const q = after.tasks[0]!.questions[0]!;
    expect([q.marked, q.total]).toEqual([marked, papers]);
    const byName = Object.fromEntries(q.markers.map((m) => [m.name, [m.marked, m.total]]));
    expect(byName).toEqual({ 陈静: [0, papers - share.length], 方远: [2, share.length] });
    // The teachers of the exam read the same; a teacher of another course does not find it; the subject leader does.
    expect(await progress('teacher', `/api/minerva/v1.0/exams/${scanned.examId}/marking`)).toEqual(after);
    expect(await progress('teacher4', `/api/minerva/v1.0/exams/${scanned.examId}/marking`)).toEqual(after);
    const teacher2 = await c.get('teacher2', `/api/minerva/v1.0/exams/${scanned.examId}/marking`);
    expect([teacher2.statusCode, teacher2.json().msg]).toEqual([404, '考试不存在']);
    expect(await progress('subjectleader')).toEqual(after);
  });
});
