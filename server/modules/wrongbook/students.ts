// Student wrong-answer book (/studentTracking): each student's wrong questions of the running term
// in one class and subject, grouped by knowledge point, with how often each was wrong, a mastery
// state and the cause the teacher set. Mastery is derived at read from the student's own answer
// records (a class's work is a handful of PK lookups), starting from what the teacher last set:
// a wrong answer puts it at 未掌握, each later correct answer moves it one step, up to 已掌握.
// A teacher reaches only the classes they teach with that course; other schools' ids are 404.
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { ApiError, badRequest, forbidden, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { schoolCurrentTerm } from '../vesta/schoolTerm';
import { QuestionType, SourceType } from '../../../src/domain/content';
import { me, teachersOnly, teaches } from '../minerva/access';
import { fileReply } from '../../http/download';
import { callerZone } from '../../http/schoolZone';
import { termLabel } from '../../../src/domain/semester';
import { runHeavy } from './threadTasks';

/** The most questions one printed 错题本 holds (the most recently missed first); a bounded render. */
export const BOOK_MAX = 100;

interface Scope {
  tenantId: number;
  teacherId: number;
  classId: number;
  subjectId: number;
  courseName: string;
  term: string;
}

/** The class, checked against the caller: another school's class is unknown, a class not taught is refused. */
async function classScope(db: Db, p: Principal, classId: number, courseId: number): Promise<Scope> {
  const { tenantId, schoolId, teacherId } = await me(db, p);
  const [cls] = await rows<{ id: number }>(db, sql`SELECT id FROM classes WHERE id = ${classId} AND tenant_id = ${tenantId} AND school_id = ${schoolId}`);
  if (!cls) throw notFound('班级不存在');
  const [course] = await rows<{ subjectId: number; name: string }>(db, sql`
    SELECT subject_id AS "subjectId", name FROM courses WHERE id = ${courseId} AND tenant_id = ${tenantId} AND school_id = ${schoolId}`);
  if (!course) throw notFound('课程不存在');
  if (!(await teaches(db, teacherId, classId, courseId))) throw forbidden('您未任教该班级的这门课程');
  return { tenantId, teacherId, classId, subjectId: course.subjectId, courseName: course.name, term: (await schoolCurrentTerm(db, schoolId)).term };
}

interface StudentRow {
  id: number;
  name: string;
  studentNo: string;
  classId: number | null;
  className: string;
  gradeName: string;
}

/** A student of the caller's school whose class the caller teaches with the course. */
async function studentScope(db: Db, p: Principal, studentId: number, courseId: number): Promise<{ scope: Scope; student: StudentRow }> {
  const { tenantId, schoolId } = await me(db, p);
  const [student] = await rows<StudentRow>(db, sql`
    SELECT s.id, s.name, s.student_no AS "studentNo", s.class_id AS "classId", coalesce(c.name, '') AS "className", coalesce(g.name, '') AS "gradeName"
      FROM students s LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN grades g ON g.id = c.grade_id
     WHERE s.id = ${studentId} AND s.tenant_id = ${tenantId} AND s.school_id = ${schoolId}`);
  if (!student) throw notFound('学生不存在');
  if (!student.classId) throw forbidden('您未任教该学生所在班级');
  try {
    return { scope: await classScope(db, p, student.classId, courseId), student };
  } catch (err) {
    if (err instanceof ApiError && err.code === 403) throw forbidden('您未任教该学生所在班级的这门课程');
    throw err;
  }
}

/** What a wrong-answer book covers: a class's term, in one subject or (null) all of them. */
export type WrongScope = Pick<Scope, 'tenantId' | 'classId' | 'term'> & { subjectId: number | null };

/**
 * Each (student, question) the class's students got wrong this term in the subject, with the
 * derived mastery. `studentId` narrows to one student (then the records are exact PK lookups).
 */
export function wrongStates(s: WrongScope, studentId?: number): SQL {
  // A family page of all the child's courses reads every subject (subjectId null).
  const subject = (column: string) => (s.subjectId === null ? sql`` : sql`AND ${sql.raw(column)} = ${s.subjectId}`);
  return sql`
    works AS (
      SELECT h.source_type, h.id AS source_id FROM homeworks h JOIN courses co ON co.id = h.course_id
       WHERE h.tenant_id = ${s.tenantId} AND h.class_id = ${s.classId} ${subject('co.subject_id')} AND h.term = ${s.term}
      UNION ALL
      SELECT ${SourceType.exam}::smallint, e.id FROM exam_classes ec JOIN exams e ON e.id = ec.exam_id JOIN courses co ON co.id = e.course_id
       WHERE ec.tenant_id = ${s.tenantId} AND ec.class_id = ${s.classId} ${subject('co.subject_id')} AND e.term = ${s.term}
    ),
    -- Read by student (answer_records_student_term_idx: the class's students' records of the term
    -- and subject, from the index alone once the table is vacuumed), then kept if they belong to
    -- the class's works: a fraction of the cost of reading every work's records and looking up
    -- each record's student. An exam's records cover every class that sat it: read only this
    -- class's students (by student, not r.class_id, so a student who changed class keeps the
    -- exam's records).
    recs AS MATERIALIZED (
      SELECT r.student_id, r.question_id, r.is_correct, r.answered_at${studentId ? sql`, r.answer` : sql``}
        FROM answer_records r
       WHERE r.tenant_id = ${s.tenantId} AND r.term = ${s.term} ${subject('r.subject_id')}
         AND r.student_id ${studentId ? sql`= ${studentId}` : sql`IN (SELECT id FROM students WHERE tenant_id = ${s.tenantId} AND class_id = ${s.classId} AND status = 0)`}
         AND (r.source_type, r.source_id) IN (SELECT source_type, source_id FROM works)
    ),
    flagged AS (
      SELECT r.student_id, r.question_id, r.is_correct, r.answered_at,
             max(r.answered_at) FILTER (WHERE NOT r.is_correct) OVER (PARTITION BY r.student_id, r.question_id) AS last_wrong
        FROM recs r
    ),
    -- One pass over the records (no join of the records with themselves): the teacher's mastery
    -- counts if set after the last wrong answer, and correct answers after that move it on.
    states AS (
      SELECT f.student_id, f.question_id, count(*) FILTER (WHERE NOT f.is_correct)::int AS times, f.last_wrong, m.cause,
             least(2, CASE WHEN m.mastery_at > f.last_wrong THEN m.mastery ELSE 0 END
                      + count(*) FILTER (WHERE f.is_correct AND f.answered_at > CASE WHEN m.mastery_at > f.last_wrong THEN m.mastery_at ELSE f.last_wrong END))::int AS mastery
        FROM flagged f
        LEFT JOIN student_wrong_marks m ON m.tenant_id = ${s.tenantId} AND m.student_id = f.student_id AND m.question_id = f.question_id
       WHERE f.last_wrong IS NOT NULL
       GROUP BY f.student_id, f.question_id, f.last_wrong, m.cause, m.mastery, m.mastery_at
    )`;
}

const studentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/wrongbook/v1.0/web/student/list',
    { preHandler: teachersOnly, schema: { querystring: Type.Object({ classId: Id, courseId: Id }) } },
    async (request) => {
      const q = request.query;
      const s = await classScope(db, request.principal, q.classId, q.courseId);
      const students = await rows(db, sql`
        WITH ${wrongStates(s)},
        per_student AS (
          SELECT student_id, count(*)::int AS "wrongCount", sum(times)::int AS "wrongTimes",
                 count(*) FILTER (WHERE mastery = 0)::int AS "unmasteredCount",
                 count(*) FILTER (WHERE mastery = 1)::int AS "consolidatingCount",
                 count(*) FILTER (WHERE mastery = 2)::int AS "masteredCount"
            FROM states GROUP BY student_id
        )
        SELECT st.id AS "studentId", st.name, st.student_no AS "studentNo",
               coalesce(ps."wrongCount", 0) AS "wrongCount", coalesce(ps."wrongTimes", 0) AS "wrongTimes",
               coalesce(ps."unmasteredCount", 0) AS "unmasteredCount", coalesce(ps."consolidatingCount", 0) AS "consolidatingCount",
               coalesce(ps."masteredCount", 0) AS "masteredCount"
          FROM students st LEFT JOIN per_student ps ON ps.student_id = st.id
         WHERE st.tenant_id = ${s.tenantId} AND st.class_id = ${s.classId} AND st.status = 0
         ORDER BY coalesce(ps."unmasteredCount", 0) DESC, coalesce(ps."wrongCount", 0) DESC, st.student_no`);
      return ok({ term: s.term, courseName: s.courseName, students });
    },
  );

  app.get(
    '/api/wrongbook/v1.0/web/student/detail',
    { preHandler: teachersOnly, schema: { querystring: Type.Object({ studentId: Id, courseId: Id }) } },
    async (request) => {
      const q = request.query;
      const { scope: s, student } = await studentScope(db, request.principal, q.studentId, q.courseId);
      const questions = await rows<{ knowledgePointId: number | null; knowledgePointName: string | null; [k: string]: unknown }>(db, sql`
        WITH ${wrongStates(s, student.id)}
        SELECT st.question_id AS "questionId", q.type, q.stem, q.options, q.answer AS "correctAnswer",
               (SELECT r.answer FROM recs r WHERE r.question_id = st.question_id AND NOT r.is_correct ORDER BY r.answered_at DESC LIMIT 1) AS "studentAnswer",
               st.times AS "timesWrong", st.last_wrong AS "lastWrongAt", st.mastery, st.cause,
               kp.id AS "knowledgePointId", kp.name AS "knowledgePointName"
          FROM states st JOIN questions q ON q.id = st.question_id
          LEFT JOIN knowledge_points kp ON kp.id = q.knowledge_point_ids[1]
         ORDER BY kp.sort_order NULLS LAST, kp.id NULLS LAST, st.last_wrong DESC, st.question_id`);
      // Weekly figures (the school's clock, weeks from Monday): counts, so the rate's denominator is shown.
      const weeks = await rows(db, sql`
        WITH ${wrongStates(s, student.id)}
        SELECT to_char(date_trunc('week', answered_at AT TIME ZONE ${await callerZone(db, request.principal)}::text), 'YYYY-MM-DD') AS week,
               count(*)::int AS answered, count(*) FILTER (WHERE is_correct)::int AS correct,
               count(*) FILTER (WHERE NOT is_correct)::int AS wrong
          FROM recs GROUP BY 1 ORDER BY 1`);
      const points = new Map<string, { knowledgePointId: number | null; name: string; questions: unknown[] }>();
      for (const { knowledgePointId, knowledgePointName, ...question } of questions) {
        const key = String(knowledgePointId ?? 0);
        if (!points.has(key)) points.set(key, { knowledgePointId, name: knowledgePointName ?? '未标注知识点', questions: [] });
        points.get(key)!.questions.push(question);
      }
      const count = (m: number) => questions.filter((x) => x.mastery === m).length;
      return ok({
        student,
        courseName: s.courseName,
        term: s.term,
        summary: { wrongCount: questions.length, unmasteredCount: count(0), consolidatingCount: count(1), masteredCount: count(2) },
        weeks,
        points: [...points.values()],
      });
    },
  );

  app.post(
    '/api/wrongbook/v1.0/web/student/mark',
    {
      preHandler: teachersOnly,
      schema: {
        body: Type.Object(
          {
            studentId: Id,
            questionId: Id,
            courseId: Id,
            cause: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()])),
            mastery: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const b = request.body;
      if (b.cause === undefined && b.mastery === undefined) throw badRequest('请选择错因或掌握程度');
      const { scope: s } = await studentScope(db, request.principal, b.studentId, b.courseId);
      const [wrong] = await rows(db, sql`
        SELECT 1 FROM answer_records
         WHERE tenant_id = ${s.tenantId} AND student_id = ${b.studentId} AND question_id = ${b.questionId} AND NOT is_correct AND subject_id = ${s.subjectId}
         LIMIT 1`);
      if (!wrong) throw notFound('该学生没有这道错题');
      const setCause = b.cause !== undefined;
      const setMastery = b.mastery !== undefined;
      await db.execute(sql`
        INSERT INTO student_wrong_marks AS m (tenant_id, student_id, question_id, mastery, mastery_at, cause, updated_by, updated_at)
        VALUES (${s.tenantId}, ${b.studentId}, ${b.questionId}, ${setMastery ? b.mastery! : null}::smallint,
                ${setMastery ? sql`now()` : sql`NULL`}, ${setCause ? b.cause : null}::smallint, ${request.principal.userId}, now())
        ON CONFLICT (tenant_id, student_id, question_id) DO UPDATE SET
          ${setMastery ? sql`mastery = EXCLUDED.mastery, mastery_at = EXCLUDED.mastery_at,` : sql``}
          ${setCause ? sql`cause = EXCLUDED.cause,` : sql``}
          updated_by = EXCLUDED.updated_by, updated_at = now()`);
      const [state] = await rows(db, sql`
        WITH ${wrongStates(s, b.studentId)}
        SELECT question_id AS "questionId", times AS "timesWrong", mastery, cause FROM states WHERE question_id = ${b.questionId}`);
      // A wrong answer of another term or class is kept but not in this book's view.
      return ok(state ?? { questionId: b.questionId, cause: setCause ? b.cause : null, mastery: b.mastery ?? null }, '保存成功');
    },
  );
  // The student's 错题本 to print (A4 PDF): their 未掌握 questions with room to redo each, the
  // answers and 解析 on the last page. Same access as the detail page.
  app.get(
    '/api/wrongbook/v1.0/web/student/pdf',
    { preHandler: teachersOnly, schema: { querystring: Type.Object({ studentId: Id, courseId: Id }) } },
    async (request, reply) => {
      const q = request.query;
      const { scope: s, student } = await studentScope(db, request.principal, q.studentId, q.courseId);
      const items = await rows<{ type: number; stem: string; options: { key: string; text: string }[] | null; points: number; answer: string; analysis: string; wrongAnswer: string | null; children: { type: number; stem: string; options: { key: string; text: string }[] | null }[] }>(db, sql`
        WITH ${wrongStates(s, student.id)},
        picked AS (SELECT question_id, last_wrong FROM states WHERE mastery = 0 ORDER BY last_wrong DESC, question_id LIMIT ${BOOK_MAX})
        SELECT q.type, q.stem, q.options, q.points, q.answer, q.analysis,
               (SELECT r.answer FROM recs r WHERE r.question_id = p.question_id AND NOT r.is_correct ORDER BY r.answered_at DESC LIMIT 1) AS "wrongAnswer",
               coalesce((SELECT json_agg(json_build_object('type', c.type, 'stem', c.stem, 'options', c.options) ORDER BY c.sort_order, c.id)
                           FROM questions c WHERE c.parent_id = q.id), '[]'::json) AS children
          FROM picked p JOIN questions q ON q.id = p.question_id
          LEFT JOIN knowledge_points kp ON kp.id = q.knowledge_point_ids[1]
         ORDER BY kp.sort_order NULLS LAST, kp.id NULLS LAST, p.last_wrong DESC, p.question_id`);
      if (!items.length) throw badRequest('该学生本学期这门课没有未掌握的错题，无需打印');
      const className = `${student.gradeName}${student.className}`;
      const title = `${student.name}的${s.courseName}错题本`;
      const pdf = await runHeavy('requests', 'renderStudentBook', {
        title,
        header: [`姓名：${student.name}　学号：${student.studentNo}　班级：${className}`, `学科：${s.courseName}　学期：${termLabel(s.term)}`],
        items: items.map((it, i) => ({
          no: i + 1,
          points: it.points,
          question: { type: it.type, stem: it.stem, options: it.options, children: it.type === QuestionType.composite ? it.children : [] },
          wrongAnswer: it.wrongAnswer,
          answer: it.answer,
          analysis: it.analysis,
        })),
      });
      return fileReply(reply, 'application/pdf', 'attachment', `${title}.pdf`).send(Buffer.from(pdf));
    },
  );
};
export default studentRoutes;
