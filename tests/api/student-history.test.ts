// A student's 学情档案 (GET /api/analysis/v1.0/student/history) and its one-page diagnostic PDF:
// every figure recounted here from the answer records; who may read it (a teacher for the subjects
// taught in the student's class, the 班主任 every subject, leaders within their scope and without
// scores, another tenant's student 404, a wrong role 403); hostile input 400 in Chinese; the PDF is
// one page with the student's name (poppler's pdfinfo and pdftotext).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../server/db/query';
import type { StudentHistory } from '../../src/domain/studentHistory';
import { classLabel } from '../../src/domain/school';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

const URL = '/api/analysis/v1.0/student/history';
const PDF = '/api/analysis/v1.0/student/diagnostic';
let t: TestApp;
let c: ReturnType<typeof client>;
let classStudents: { id: number; name: string }[];
/** Students of a class 陈静 teaches 物理 in (her 数学 classes are 七年级, 物理 starts in 八年级). */
let physicsStudents: { id: number; name: string }[];
let term: string;

const db = () => t.database.db;

function pdfTool(tool: 'pdftotext' | 'pdfinfo', bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'diag-'));
  writeFileSync(join(dir, 'd.pdf'), bytes);
  if (process.env.PDF_OUT) writeFileSync(process.env.PDF_OUT, bytes);
  const args = tool === 'pdftotext' ? ['-layout', '-enc', 'UTF-8', join(dir, 'd.pdf'), '-'] : [join(dir, 'd.pdf')];
  return execFileSync(tool, args, { encoding: 'utf8' });
}

/** The student's records of the term per subject, straight from answer_records. */
async function recount(studentId: number, subjects: string[]) {
  return rows<{ name: string; score: number; maxScore: number; works: number }>(db(), sql`
    SELECT su.name, sum(r.score)::float8 AS score, sum(r.max_score)::float8 AS "maxScore", count(DISTINCT (r.source_type, r.source_id))::int AS works
      FROM answer_records r JOIN subjects su ON su.id = r.subject_id
     WHERE r.student_id = ${studentId} AND r.term = ${term} AND su.name IN (${sql.join(subjects.map((s) => sql`${s}`), sql`, `)})
     GROUP BY su.name ORDER BY su.name`);
}

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const classes: { id: number; gradeId: number; className?: string; name?: string }[] = await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
  // The (1)班 of each subject first: 林晓 teaches 七(1)班 语文 (the scope test below).
  const first = (x: { className?: string; name?: string }) => (`${x.className ?? x.name}`.includes('1') ? 0 : 1);
  const teaching = async (courseName: string) => {
    for (const cls of [...classes].sort((a, b) => first(a) - first(b))) {
      const courses: { courseName: string }[] = await c.data('teacher', `/api/vesta/teaching/getCourseList?classId=${cls.id}&gradeId=${cls.gradeId}&leaderType=1`);
      if (courses.some((x) => x.courseName === courseName)) return cls;
    }
    throw new Error(`teacher teaches no ${courseName}`);
  };
  const studentsOf = async (classId: number) => rows<{ id: number; name: string }>(db(), sql`SELECT id, name FROM students WHERE class_id = ${classId} AND status = 0 ORDER BY student_no`);
  // 七(1)班, which 陈静 teaches 数学 and 林晓 语文.
  classStudents = await studentsOf((await teaching('数学')).id);
  physicsStudents = await studentsOf((await teaching('物理')).id);
  const history: StudentHistory = await c.data('teacher', `${URL}?studentId=${classStudents[0].id}`);
  term = history.term;
}, 300_000);
afterAll(() => t.close());

/** The history 陈静 reads of one student of hers: the one subject she teaches them, recounted. */
async function countsSubject(student: { id: number; name: string }, subject: string) {
  const h: StudentHistory = await c.data('teacher', `${URL}?studentId=${student.id}`);
  expect(h.viewer).toBe('teacher');
  expect(h.student.name).toBe(student.name);
  expect(h.subjectNames).toEqual([subject]);
  expect(h.subjects.map((s) => s.name).every((n) => n === subject)).toBe(true);
  const counted = await recount(student.id, [subject]);
  expect(counted.length).toBeGreaterThan(0);
  for (const r of counted) {
    const s = h.subjects.find((x) => x.name === r.name)!;
    expect(s, r.name).toBeTruthy();
    expect(s.works).toBe(r.works);
    expect(s.score).toBeCloseTo(r.score, 3);
    expect(s.maxScore).toBeCloseTo(r.maxScore, 3);
    expect(s.scoreRate).toBeCloseTo(r.score / r.maxScore, 3);
    // The weeks add up to the term.
    expect(s.weeks.reduce((n, w) => n + w.works, 0)).toBe(r.works);
    expect(s.weeks.reduce((n, w) => n + w.score, 0)).toBeCloseTo(r.score, 3);
  }
  // The class rate: every classmate's records on the same work.
  const [rate] = await rows<{ score: number; maxScore: number }>(db(), sql`
    SELECT sum(o.score)::float8 AS score, sum(o.max_score)::float8 AS "maxScore"
      FROM answer_records o JOIN subjects su ON su.id = o.subject_id
     WHERE su.name = ${subject} AND o.term = ${term} AND o.class_id = (SELECT class_id FROM students WHERE id = ${student.id})
       AND (o.source_type, o.source_id) IN (SELECT DISTINCT source_type, source_id FROM answer_records WHERE student_id = ${student.id} AND term = ${term})`);
  expect(h.subjects.find((s) => s.name === subject)!.classRate).toBeCloseTo(rate.score / rate.maxScore, 3);
  // Knowledge points: items and correct answers per point from the records' copied points.
  const kp = await rows<{ id: number; items: number; correct: number }>(db(), sql`
    SELECT k AS id, count(*)::int AS items, count(*) FILTER (WHERE r.is_correct)::int AS correct
      FROM answer_records r JOIN subjects su ON su.id = r.subject_id, unnest(r.knowledge_point_ids) k
     WHERE r.student_id = ${student.id} AND r.term = ${term} AND su.name = ${subject} GROUP BY k`);
  expect(h.points.length).toBe(kp.length);
  for (const k of kp) {
    const p = h.points.find((x) => x.knowledgePointId === k.id)!;
    expect(p.items).toBe(k.items);
    expect(p.correct).toBe(k.correct);
    expect(p.level).toBe(k.items < 3 ? 'few' : p.scoreRate! >= 0.85 ? 'strong' : p.scoreRate! >= 0.6 ? 'fair' : 'weak');
  }
  expect(h.summary.join('')).toContain(`${subject}：本学期得分率`);
}

describe('student history figures', () => {
  it('counts each subject taught, its weeks, the class rate and the knowledge points from the records', async () => {
    // teacher teaches 数学 in 七(1)班 and 物理 in 八(1)班: each student shows that subject only, no 语文 or 英语.
    for (const [student, subject] of [[classStudents[3], '数学'], [physicsStudents[3], '物理']] as const) {
      await countsSubject(student, subject);
    }
  });

  it('lists the exams sat with score, band and class average, and flags results just below 及格 or 优秀', async () => {
    // Every student of the class, so that some exam result falls near a line.
    let flagged = 0;
    for (const student of classStudents.slice(0, 40)) {
      const h: StudentHistory = await c.data('teacher', `${URL}?studentId=${student.id}`);
      const exams = await rows<{ id: number; score: number; fullMarks: number; classAverage: number }>(db(), sql`
        SELECT e.id, sum(r.score)::float8 AS score, e.full_marks::float8 AS "fullMarks",
               (SELECT sum(o.score)::float8 / count(DISTINCT o.student_id) FROM answer_records o WHERE o.source_type = 2 AND o.source_id = e.id AND o.class_id = min(r.class_id)) AS "classAverage"
          FROM answer_records r JOIN exams e ON e.id = r.source_id
         WHERE r.source_type = 2 AND r.student_id = ${student.id} AND r.term = ${term}
           AND e.course_id IN (SELECT id FROM courses WHERE subject_id IN (SELECT id FROM subjects WHERE name IN ('数学', '物理')))
         GROUP BY e.id ORDER BY e.id`);
      expect(h.exams.map((e) => e.examId).sort()).toEqual(exams.map((e) => e.id).sort());
      for (const e of exams) {
        const shown = h.exams.find((x) => x.examId === e.id)!;
        expect(shown.score).toBeCloseTo(e.score, 3);
        expect(shown.classAverage).toBeCloseTo(e.classAverage, 0);
        const rate = e.score / e.fullMarks;
        expect(shown.band).toBe(rate >= 0.9 ? '优秀' : rate >= 0.7 ? '良好' : rate >= 0.6 ? '及格' : '不及格');
        // 临界: below a line by at most 5 % of full marks.
        const line = [0.9, 0.6].find((l) => rate < l && (l - rate) * e.fullMarks <= 0.05 * e.fullMarks + 1e-9);
        const flag = h.critical.find((f) => f.examId === e.id);
        if (line === undefined) expect(flag, `${student.name} ${e.id}`).toBeUndefined();
        else {
          flagged++;
          expect(flag!.boundary).toBe(line === 0.9 ? '优秀' : '及格');
          expect(flag!.gap).toBeCloseTo(line * e.fullMarks - e.score, 1);
        }
      }
    }
    expect(flagged).toBeGreaterThan(0);
  }, 180_000);
});

describe('student history scope', () => {
  it('gives the 班主任 every subject and a plain teacher of another class nothing', async () => {
    // classic is 班主任 of 八(3)班 and teaches it 英语 only.
    const [s83] = await rows<{ id: number }>(db(), sql`
      SELECT s.id FROM students s JOIN classes c ON c.id = s.class_id JOIN grades g ON g.id = c.grade_id
       WHERE c.name = '八(3)班' AND s.school_id = (SELECT school_id FROM students WHERE id = ${classStudents[0].id}) ORDER BY s.student_no LIMIT 1`);
    expect(s83).toBeTruthy();
    const h: StudentHistory = await c.data('classic', `${URL}?studentId=${s83.id}`);
    expect(h.subjectNames).toEqual(expect.arrayContaining(['语文', '数学', '英语']));
    expect(h.subjects.map((s) => s.name)).toEqual(expect.arrayContaining(['语文', '数学', '英语']));
    const refused = await c.get('teacher', `${URL}?studentId=${s83.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe('您未任教该学生所在班级');
    // teacher2 teaches 七(1)班 语文 only: 语文, never 数学.
    const h2: StudentHistory = await c.data('teacher2', `${URL}?studentId=${classStudents[0].id}`);
    expect(h2.subjectNames).toEqual(['语文']);
    expect(h2.subjects.every((s) => s.name === '语文')).toBe(true);
  });

  it('gives leaders in scope bands and levels but no score, and refuses outside their scope', async () => {
    const student = classStudents[1];
    const h: StudentHistory = await c.data('principal', `${URL}?studentId=${student.id}`);
    expect(h.viewer).toBe('leader');
    expect(h.subjects).toEqual([]);
    expect(h.critical).toEqual([]);
    expect(h.exams.length).toBeGreaterThan(0);
    for (const e of h.exams) {
      expect(e.score).toBeNull();
      expect(e.classAverage).toBeNull();
      expect(['优秀', '良好', '及格', '不及格']).toContain(e.band);
    }
    expect(h.points.every((p) => p.scoreRate === null && p.correct === 0)).toBe(true);
    // The subject leader of 数学 reads 数学 only.
    const sl: StudentHistory = await c.data('subjectleader', `${URL}?studentId=${student.id}`);
    expect(sl.subjectNames).toEqual(['数学']);
    expect(sl.exams.every((e) => e.subjectName === '数学')).toBe(true);
    // The grade leader of 七年级 cannot read a 九年级 student.
    const [s9] = await rows<{ id: number }>(db(), sql`
      SELECT s.id FROM students s JOIN classes c ON c.id = s.class_id JOIN grades g ON g.id = c.grade_id WHERE g.name = '九年级' AND s.school_id = (SELECT school_id FROM students WHERE id = ${student.id}) LIMIT 1`);
    const out = await c.get('gradeleader', `${URL}?studentId=${s9.id}`, 'gradeLeader');
    expect(out.statusCode).toBe(403);
    expect(out.json().msg).toBe('该学生不在您负责的年级或班级');
    // A school that shows leaders nothing per student: refused, in words.
    await t.database.db.execute(sql`UPDATE schools SET score_disclosure = 0 WHERE id = (SELECT school_id FROM students WHERE id = ${student.id})`);
    try {
      const none = await c.get('principal', `${URL}?studentId=${student.id}`);
      expect(none.statusCode).toBe(403);
      expect(none.json().msg).toMatch(/不显示学生个人结果/);
    } finally {
      await t.database.db.execute(sql`UPDATE schools SET score_disclosure = 1 WHERE id = (SELECT school_id FROM students WHERE id = ${student.id})`);
    }
  });

  it('answers another tenant’s student 404, a wrong role 403 and hostile input 400, in Chinese', async () => {
    const [foreign] = await rows<{ id: number }>(db(), sql`
      SELECT id FROM students WHERE tenant_id <> (SELECT tenant_id FROM students WHERE id = ${classStudents[0].id}) LIMIT 1`);
    for (const url of [`${URL}?studentId=${foreign.id}`, `${PDF}?studentId=${foreign.id}`]) {
      const away = await c.get('teacher', url);
      expect(away.statusCode, url).toBe(404);
      expect(away.json().msg).toBe('学生不存在');
    }
    // The other tenant's own teacher and principal do not reach this school's student either.
    const theirs = await c.get('teacher3', `${URL}?studentId=${classStudents[0].id}`);
    expect(theirs.statusCode).toBe(404);
    for (const user of ['schooladmin', 'psych', 'partner1', 'admin', 'researcher']) {
      const res = await c.get(user, `${URL}?studentId=${classStudents[0].id}`);
      expect(res.statusCode, user).toBe(403);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    // Leaders read the history but print no diagnostic (it carries scores).
    const leaderPdf = await c.get('principal', `${PDF}?studentId=${classStudents[0].id}`);
    expect(leaderPdf.statusCode).toBe(403);
    for (const q of ['studentId=abc', 'studentId=0', 'studentId=-3', 'studentId=1e300', '', 'studentId=1;DROP TABLE students', `studentId=${classStudents[0].id}&term=2026`, `studentId=${classStudents[0].id}&term=' OR 1=1`, `studentId=${classStudents[0].id}&term=${'9'.repeat(5000)}`]) {
      const bad = await c.get('teacher', `${URL}?${q}`);
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    // A term with nothing in it: empty figures, not an error.
    const empty: StudentHistory = await c.data('teacher', `${URL}?studentId=${classStudents[0].id}&term=201901`);
    expect(empty.subjects).toEqual([]);
    expect(empty.summary[0]).toMatch(/还没有已批改的作业或考试/);
  });
});

describe('diagnostic PDF', () => {
  it('is one A4 page with the student’s name, class, term, exams and summary', async () => {
    const student = classStudents[5];
    const h: StudentHistory = await c.data('teacher', `${URL}?studentId=${student.id}`);
    const res = await c.get('teacher', `${PDF}?studentId=${student.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(`${student.name}_学情诊断_`);
    const info = pdfTool('pdfinfo', res.rawPayload);
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);
    const text = pdfTool('pdftotext', res.rawPayload).replace(/[ \t]+/g, ' ');
    expect(text).toContain(`姓名：${student.name}`);
    expect(text).toContain(`班级：${classLabel(h.student.gradeName, h.student.className)}`);
    expect(text).toContain(h.termLabel);
    for (const e of h.exams.slice(0, 5)) expect(text, e.title).toContain(e.examDate);
    expect(text.replace(/\s+/g, '')).toContain(h.summary[0].replace(/\s+/g, '').slice(0, 16));
    for (const f of h.critical.slice(0, 3)) expect(text).toContain(`差 ${f.gap} 分达到${f.boundary}`);
  });

  it('stays one page for the 班主任’s every subject', async () => {
    const [s83] = await rows<{ id: number; name: string }>(db(), sql`
      SELECT s.id, s.name FROM students s JOIN classes c ON c.id = s.class_id JOIN grades g ON g.id = c.grade_id
       WHERE c.name = '八(3)班' AND s.school_id = (SELECT school_id FROM students WHERE id = ${classStudents[0].id}) ORDER BY s.student_no LIMIT 1`);
    const res = await c.get('classic', `${PDF}?studentId=${s83.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(pdfTool('pdfinfo', res.rawPayload)).toMatch(/Pages:\s+1\n/);
    expect(pdfTool('pdftotext', res.rawPayload)).toContain(s83.name);
  });
});
