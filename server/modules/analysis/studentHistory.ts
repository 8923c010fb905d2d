// A student's 学情档案 (docs/api-student-history.md): the term's score-rate trend per subject from
// the per-work rollup (work_student_stats), knowledge-point mastery from student_knowledge_stats,
// the exams sat with their band and 临界 flags, and a one-page diagnostic PDF for parent meetings.
//
// Who sees what. A teacher sees the subjects they teach in the student's class; the class's 班主任
// sees every subject. Leaders (principal, grade and subject leaders) reach the students of the
// classes they oversee, but no student's score leaves the server for them (src/domain/content.ts,
// ScoreDisclosure): with the school's 只显示等级 they read each exam's band and the knowledge-point
// levels, otherwise nothing per student. A student of another school or tenant is unknown (404).
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ScoreDisclosure, SourceType } from '../../../src/domain/content';
import type { Role } from '../../../src/domain/roles';
import { termLabel } from '../../../src/domain/semester';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import {
  bandLabel,
  criticalGap,
  masteryLevel,
  plainSummary,
  StudentHistorySchema,
  type CriticalFlag,
  type HistoryExam,
  type HistoryPoint,
  type HistorySubject,
  type StudentHistory,
} from '../../../src/domain/studentHistory';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { forbidden, notFound, ok } from '../../http/envelope';
import { fileReply } from '../../http/download';
import { callerZone, schoolZone } from '../../http/schoolZone';
import { Id } from '../../http/schemas';
import { TEACHER_ROLES } from '../vesta/access';
import { classScope, courseScope } from '../vesta/scope';
import { schoolCurrentTerm } from '../vesta/schoolTerm';
import { me } from '../minerva/access';
import { runHistoryHeavy } from './threadTasks';

const LEADERS: readonly Role[] = ['schoolMaster', 'gradeLeader', 'subjectleader'];
export const HISTORY_ROLES: readonly Role[] = [...TEACHER_ROLES, ...LEADERS];

const Query = Type.Object({
  studentId: Id,
  /** SPEC term value: year + '01' | '02'; the school's current term when absent. */
  term: Type.Optional(Type.String({ pattern: '^20[0-9]{2}0[12]$', maxLength: 6 })),
});

interface Student {
  id: number;
  name: string;
  studentNo: string;
  classId: number | null;
  className: string;
  gradeName: string;
  schoolId: number;
  disclosure: number;
}

export interface HistoryScope {
  tenantId: number;
  student: Student;
  viewer: 'teacher' | 'leader';
  /** The subjects the caller may read; null: all of them. */
  subjectIds: number[] | null;
  term: string;
  /** The school's time zone: the day a homework counts on is the school's day. */
  zone: string;
}

/** The student, checked against the caller; see the file's comment for the rules. */
export async function historyScope(db: Db, p: Principal, studentId: number, term?: string): Promise<HistoryScope> {
  if (p.tenantId === null || p.schoolId === null) throw forbidden();
  const [student] = await rows<Student>(db, sql`
    SELECT s.id, s.name, s.student_no AS "studentNo", s.class_id AS "classId", coalesce(c.name, '') AS "className", coalesce(g.name, '') AS "gradeName",
           s.school_id AS "schoolId", sc.score_disclosure AS disclosure
      FROM students s JOIN schools sc ON sc.id = s.school_id LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN grades g ON g.id = c.grade_id
     WHERE s.id = ${studentId} AND s.tenant_id = ${p.tenantId} AND s.school_id = ${p.schoolId}`);
  if (!student) throw notFound('学生不存在');
  if (!student.classId) throw forbidden('该学生目前不在任何班级，无法查看学情');
  const resolved = term ?? (await schoolCurrentTerm(db, student.schoolId)).term;
  const base = { tenantId: p.tenantId, student, term: resolved, zone: await schoolZone(db, student.schoolId) };
  if (TEACHER_ROLES.includes(p.activeRole as Role)) {
    const { teacherId } = await me(db, p);
    // The 班主任 of the class reads every subject: they meet the family for all of them.
    const head = await rows(db, sql`SELECT 1 FROM leader_scopes WHERE user_id = ${p.userId} AND role = 'headTeacher' AND class_id = ${student.classId}`);
    if (head.length) return { ...base, viewer: 'teacher', subjectIds: null };
    const taught = await rows<{ subjectId: number }>(db, sql`
      SELECT DISTINCT co.subject_id AS "subjectId" FROM teaching_assignments ta JOIN courses co ON co.id = ta.course_id
       WHERE ta.teacher_id = ${teacherId} AND ta.class_id = ${student.classId} ORDER BY 1`);
    if (!taught.length) throw forbidden('您未任教该学生所在班级');
    return { ...base, viewer: 'teacher', subjectIds: taught.map((t) => t.subjectId) };
  }
  const inScope = await rows(db, sql`SELECT 1 FROM classes c WHERE c.id = ${student.classId} AND ${classScope(p)}`);
  if (!inScope.length) throw forbidden('该学生不在您负责的年级或班级');
  if (student.disclosure === ScoreDisclosure.none) throw forbidden('学校的成绩公开范围为“不显示学生个人结果”，无法查看学生个人学情');
  let subjectIds: number[] | null = null;
  if (p.activeRole === 'subjectleader') {
    const led = await rows<{ subjectId: number }>(db, sql`SELECT DISTINCT co.subject_id AS "subjectId" FROM courses co WHERE co.tenant_id = ${p.tenantId} AND co.school_id = ${p.schoolId} AND ${courseScope(p)}`);
    subjectIds = led.map((r) => r.subjectId);
  }
  return { ...base, viewer: 'leader', subjectIds };
}

const inSubjects = (ids: number[] | null, column: string): SQL =>
  ids === null ? sql`TRUE` : ids.length ? sql`${sql.raw(column)} IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})` : sql`FALSE`;

const rate = (score: number, max: number) => (max > 0 ? Math.round((score / max) * 10000) / 10000 : null);

/** The student's submissions of the term in the subjects in scope, with the day each counts on. */
function works(s: HistoryScope): SQL {
  return sql`works AS (
    SELECT w.source_type, w.source_id, w.class_id, w.score, w.max_score, co.subject_id, su.name AS subject_name,
           -- Homework counts on the day it was given, an exam on its date (as 学情分析's weekly trend).
           CASE WHEN w.source_type = ${SourceType.exam} THEN e.exam_date ELSE (h.assigned_at AT TIME ZONE ${s.zone}::text)::date END AS day
      FROM work_student_stats w
      LEFT JOIN homeworks h ON w.source_type <> ${SourceType.exam} AND h.id = w.source_id AND h.tenant_id = w.tenant_id
      LEFT JOIN exams e ON w.source_type = ${SourceType.exam} AND e.id = w.source_id AND e.tenant_id = w.tenant_id
      JOIN courses co ON co.id = coalesce(h.course_id, e.course_id)
      JOIN subjects su ON su.id = co.subject_id
     WHERE w.tenant_id = ${s.tenantId} AND w.student_id = ${s.student.id}
       AND coalesce(h.term, e.term) = ${s.term} AND ${inSubjects(s.subjectIds, 'co.subject_id')}
  )`;
}

export async function studentHistory(db: Db, s: HistoryScope): Promise<StudentHistory> {
  const leader = s.viewer === 'leader';
  const weekRows = await rows<{ subjectId: number; name: string; week: string; works: number; score: number; maxScore: number }>(db, sql`
    WITH ${works(s)}
    SELECT subject_id AS "subjectId", subject_name AS name, to_char(date_trunc('week', day::timestamp), 'YYYY-MM-DD') AS week,
           count(*)::int AS works, sum(score)::float8 AS score, sum(max_score)::float8 AS "maxScore"
      FROM works GROUP BY 1, 2, 3 ORDER BY 1, 3`);
  // The class on the same work: every submission of the class the work was given to.
  const classRows = await rows<{ subjectId: number; score: number; maxScore: number }>(db, sql`
    WITH ${works(s)}
    SELECT wk.subject_id AS "subjectId", sum(o.score)::float8 AS score, sum(o.max_score)::float8 AS "maxScore"
      FROM works wk JOIN work_student_stats o ON o.tenant_id = ${s.tenantId} AND o.source_type = wk.source_type AND o.source_id = wk.source_id AND o.class_id = wk.class_id
     GROUP BY 1`);
  const subjects = new Map<number, HistorySubject>();
  for (const w of weekRows) {
    let subject = subjects.get(w.subjectId);
    if (!subject) {
      const cls = classRows.find((c) => c.subjectId === w.subjectId);
      subject = { subjectId: w.subjectId, name: w.name, works: 0, score: 0, maxScore: 0, scoreRate: null, classRate: cls ? rate(cls.score, cls.maxScore) : null, weeks: [] };
      subjects.set(w.subjectId, subject);
    }
    subject.works += w.works;
    subject.score += w.score;
    subject.maxScore += w.maxScore;
    subject.weeks.push({ week: w.week, works: w.works, score: w.score, maxScore: w.maxScore, scoreRate: rate(w.score, w.maxScore) });
  }
  for (const subject of subjects.values()) subject.scoreRate = rate(subject.score, subject.maxScore);

  const pointRows = await rows<{ knowledgePointId: number; name: string; subjectName: string; items: number; correct: number; score: number; maxScore: number }>(db, sql`
    SELECT k.knowledge_point_id AS "knowledgePointId", kp.name, su.name AS "subjectName", k.answered AS items, k.correct,
           k.score::float8 AS score, k.max_score::float8 AS "maxScore"
      FROM student_knowledge_stats k JOIN knowledge_points kp ON kp.id = k.knowledge_point_id JOIN subjects su ON su.id = k.subject_id
     WHERE k.tenant_id = ${s.tenantId} AND k.student_id = ${s.student.id} AND k.term = ${s.term} AND k.answered > 0
       AND ${inSubjects(s.subjectIds, 'k.subject_id')}
     ORDER BY su.id, kp.sort_order, kp.id`);
  const points: HistoryPoint[] = pointRows.map((r) => {
    const scoreRate = rate(r.score, r.maxScore);
    return { knowledgePointId: r.knowledgePointId, name: r.name, subjectName: r.subjectName, items: r.items, correct: leader ? 0 : r.correct, scoreRate: leader ? null : scoreRate, level: masteryLevel(r.items, scoreRate) };
  });

  const examRows = await rows<{ examId: number; title: string; examDate: string; subjectName: string; score: number; fullMarks: number; classAverage: number | null }>(db, sql`
    WITH ${works(s)}
    SELECT e.id AS "examId", e.title, to_char(e.exam_date, 'YYYY-MM-DD') AS "examDate", wk.subject_name AS "subjectName", wk.score::float8 AS score,
           e.full_marks::float8 AS "fullMarks",
           (SELECT avg(o.score)::float8 FROM work_student_stats o WHERE o.tenant_id = ${s.tenantId} AND o.source_type = ${SourceType.exam} AND o.source_id = e.id AND o.class_id = wk.class_id) AS "classAverage"
      FROM works wk JOIN exams e ON e.id = wk.source_id
     WHERE wk.source_type = ${SourceType.exam}
     ORDER BY e.exam_date DESC, e.id DESC`);
  const exams: HistoryExam[] = examRows.map((e) => ({
    examId: e.examId,
    title: e.title,
    examDate: e.examDate,
    subjectName: e.subjectName,
    score: leader ? null : e.score,
    fullMarks: e.fullMarks,
    scoreRate: leader ? null : rate(e.score, e.fullMarks),
    band: !leader || s.student.disclosure === ScoreDisclosure.band ? bandLabel(e.score, e.fullMarks) : null,
    classAverage: leader || e.classAverage === null ? null : Math.round(e.classAverage * 10) / 10,
  }));
  const critical: CriticalFlag[] = leader
    ? []
    : examRows.flatMap((e) => {
        const gap = criticalGap(e.score, e.fullMarks);
        return gap ? [{ examId: e.examId, title: e.title, examDate: e.examDate, subjectName: e.subjectName, ...gap }] : [];
      });
  const subjectNames = s.subjectIds === null
    ? (await rows<{ name: string }>(db, sql`SELECT DISTINCT su.name, su.id FROM courses co JOIN subjects su ON su.id = co.subject_id WHERE co.tenant_id = ${s.tenantId} AND co.school_id = ${s.student.schoolId} ORDER BY su.id`)).map((r) => r.name)
    : (await rows<{ name: string }>(db, sql`SELECT name FROM subjects WHERE ${inSubjects(s.subjectIds, 'id')} ORDER BY id`)).map((r) => r.name);
  const { schoolId: _school, disclosure: _disclosure, classId: _class, ...student } = s.student;
  const history: StudentHistory = {
    student,
    term: s.term,
    termLabel: termLabel(s.term),
    viewer: s.viewer,
    subjectNames,
    // No per-student rate for a leader: a rate is a score.
    subjects: leader ? [] : [...subjects.values()],
    points,
    exams,
    critical,
    summary: [],
  };
  history.summary = leader ? [] : plainSummary(history);
  return history;
}

const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/analysis/v1.0/student/history',
    { preHandler: allow({ roles: HISTORY_ROLES }), schema: { querystring: Query, response: { 200: EnvelopeSchema(StudentHistorySchema) } } },
    async (request) => {
      const q = request.query;
      return ok(await studentHistory(db, await historyScope(db, request.principal, q.studentId, q.term)));
    },
  );

  // The one-page diagnostic for a parent meeting: the teacher's (a leader sees no scores).
  app.get('/api/analysis/v1.0/student/diagnostic', { preHandler: allow({ roles: TEACHER_ROLES }), schema: { querystring: Query } }, async (request, reply) => {
    const q = request.query;
    const history = await studentHistory(db, await historyScope(db, request.principal, q.studentId, q.term));
    const pdf = await runHistoryHeavy('requests', 'renderDiagnostic', { history, printedOn: new Date().toISOString(), zone: await callerZone(db, request.principal) });
    return fileReply(reply, 'application/pdf', 'attachment', `${history.student.name}_学情诊断_${history.termLabel}.pdf`)
      .header('access-control-expose-headers', 'content-disposition')
      .send(Buffer.from(pdf));
  });
};
export default historyRoutes;
