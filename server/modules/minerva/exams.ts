// Exams for teachers: the list, and the report of one class or of the whole exam (the grade).
// Totals and item sums come from the rollups kept on write; only the upper/lower groups and the
// option rates read answer records, and only those of this exam (a prefix of their key).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OBJECTIVE_TYPES, SourceType } from '../../../src/domain/content';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { ExamSummarySchema, type ExamSummary } from '../../../src/domain/exams';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import type { WorkItem } from '../../db/schema';
import { notFound, ok } from '../../http/envelope';
import { page, PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { me, teachersOnly } from './access';
import { QUESTION_COLUMNS, type QuestionView } from './questions';
import { bands, cronbachAlpha, distribution, extremeGroups, rank, round, summary, varianceOf } from './statistics';

const EXAM = SourceType.exam;
const idArray = (ids: number[]) => `{${ids.join(',')}}`;

interface ExamRow {
  id: number;
  title: string;
  examDate: string;
  term: string;
  fullMarks: number;
  gradeId: number;
  gradeName: string;
  courseId: number;
  courseName: string;
  items: WorkItem[];
}

/** Exam classes the teacher teaches with the exam's course: what they may open. */
const MY_EXAM_CLASSES = (teacherId: number) => sql`
  SELECT ec.class_id FROM exam_classes ec JOIN teaching_assignments ta ON ta.class_id = ec.class_id AND ta.course_id = e.course_id
   WHERE ec.exam_id = e.id AND ta.teacher_id = ${teacherId}`;

export async function findExam(db: Db, tenantId: number, teacherId: number, examId: number): Promise<ExamRow & { myClassIds: number[] }> {
  const [exam] = await rows<ExamRow & { myClassIds: number[] }>(db, sql`
    SELECT e.id, e.title, e.exam_date::text AS "examDate", e.term, e.full_marks AS "fullMarks", e.grade_id AS "gradeId", g.name AS "gradeName",
           e.course_id AS "courseId", co.name AS "courseName", e.items,
           ARRAY(${MY_EXAM_CLASSES(teacherId)} ORDER BY 1) AS "myClassIds"
      FROM exams e JOIN grades g ON g.id = e.grade_id JOIN courses co ON co.id = e.course_id
     WHERE e.id = ${examId} AND e.tenant_id = ${tenantId}`);
  // Tested here rather than with a second EXISTS subquery, which costs PGlite's planner some 15 ms.
  if (!exam || !exam.myClassIds.length) throw notFound('考试不存在');
  return exam;
}

/**
 * The report a teacher may read: one of their classes of the exam, or (no class) every class of it.
 * Another teacher's or tenant's exam and a class they do not teach are "not found".
 */
export async function reportFor(db: Db, principal: Principal, examId: number, classId?: number) {
  const { tenantId, teacherId } = await me(db, principal);
  const exam = await findExam(db, tenantId, teacherId, examId);
  let classIds: number[];
  if (classId !== undefined) {
    if (!exam.myClassIds.includes(classId)) throw notFound('班级不存在');
    classIds = [classId];
  } else {
    classIds = (await rows<{ id: number }>(db, sql`SELECT class_id AS id FROM exam_classes WHERE exam_id = ${exam.id} ORDER BY class_id`)).map((r) => r.id);
  }
  return examReport(db, tenantId, exam, classIds);
}

export type ExamReport = Awaited<ReturnType<typeof examReport>>;

export async function examReport(db: Db, tenantId: number, exam: ExamRow, classIds: number[]) {
  // Independent reads go out together (PostgreSQL answers them on parallel connections): the
  // report waits for the slowest, not for their sum.
  const [classes, totals, [{ enrolled }], itemSums, questionRows] = await Promise.all([
    rows<{ classId: number; className: string }>(db, sql`
      SELECT c.id AS "classId", c.name AS "className" FROM exam_classes ec JOIN classes c ON c.id = ec.class_id
       WHERE ec.exam_id = ${exam.id} ORDER BY c.id`),
    rows<{ studentId: number; name: string; studentNo: string; classId: number; score: number }>(db, sql`
      SELECT s.student_id AS "studentId", st.name, st.student_no AS "studentNo", s.class_id AS "classId", s.score
        FROM work_student_stats s JOIN students st ON st.id = s.student_id AND st.tenant_id = ${tenantId}
       WHERE s.tenant_id = ${tenantId} AND s.source_type = ${EXAM} AND s.source_id = ${exam.id}`),
    rows<{ enrolled: number }>(db, sql`
      SELECT count(*)::int AS enrolled FROM students WHERE tenant_id = ${tenantId} AND class_id = ANY(${idArray(classIds)}::int[]) AND status = 0`),
    rows<{ questionId: number; answered: number; correct: number; score: number; squares: number }>(db, sql`
      SELECT question_id AS "questionId", sum(answered)::int AS answered, sum(correct)::int AS correct, sum(score)::float8 AS score, sum(score_squares)::float8 AS squares
        FROM work_question_stats WHERE tenant_id = ${tenantId} AND source_type = ${EXAM} AND source_id = ${exam.id} AND class_id = ANY(${idArray(classIds)}::int[])
       GROUP BY question_id`),
    rows<QuestionView>(db, sql`SELECT ${QUESTION_COLUMNS} FROM questions q WHERE q.id = ANY(${idArray(exam.items.map((i) => i.questionId))}::int[])`),
  ]);
  const inScope = totals.filter((t) => classIds.includes(t.classId));
  const scores = inScope.map((t) => t.score);

  const { upper, lower } = extremeGroups(inScope);
  // One pass over the exam's records (a prefix of their key) gives both the answers chosen in scope
  // (option rates) and the upper and lower groups' scores (discrimination). A filter on question_id
  // or student_id instead would make the key's index probe once per value. Answers group by their
  // bytes (COLLATE "C"): the same grouping, without locale-aware comparisons in the sort.
  const answerRows = upper.length
    ? await rows<{ questionId: number; answer: string | null; n: number; upperSum: number; upperN: number; lowerSum: number; lowerN: number }>(db, sql`
        SELECT question_id AS "questionId", answer COLLATE "C" AS answer,
               count(*) FILTER (WHERE class_id = ANY(${idArray(classIds)}::int[]))::int AS n,
               coalesce(sum(score::float8) FILTER (WHERE student_id = ANY(${idArray(upper)}::int[])), 0) AS "upperSum",
               count(*) FILTER (WHERE student_id = ANY(${idArray(upper)}::int[]))::int AS "upperN",
               coalesce(sum(score::float8) FILTER (WHERE student_id = ANY(${idArray(lower)}::int[])), 0) AS "lowerSum",
               count(*) FILTER (WHERE student_id = ANY(${idArray(lower)}::int[]))::int AS "lowerN"
          FROM answer_records
         WHERE tenant_id = ${tenantId} AND source_type = ${EXAM} AND source_id = ${exam.id}
         GROUP BY question_id, answer COLLATE "C"`)
    : [];
  const groupMean = (group: 'upper' | 'lower', questionId: number) => {
    const picked = answerRows.filter((r) => r.questionId === questionId);
    const n = picked.reduce((s, r) => s + r[`${group}N`], 0);
    return n ? picked.reduce((s, r) => s + r[`${group}Sum`], 0) / n : 0;
  };
  const itemVariances: number[] = [];
  const questions = exam.items.map((item) => {
    const q = questionRows.find((r) => r.id === item.questionId)!;
    const sums = itemSums.find((s) => s.questionId === item.questionId) ?? { answered: 0, correct: 0, score: 0, squares: 0 };
    itemVariances.push(varianceOf(sums.answered, sums.score, sums.squares));
    const average = sums.answered ? sums.score / sums.answered : null;
    const optionRates = OBJECTIVE_TYPES.includes(q.type)
      ? (q.options ?? []).map((o) => {
          const chosen = answerRows.filter((c) => c.questionId === q.id && c.answer?.includes(o.key)).reduce((s, c) => s + c.n, 0);
          return { key: o.key, count: chosen, rate: sums.answered ? round(chosen / sums.answered) : 0, correct: q.answer.includes(o.key) };
        })
      : null;
    return {
      no: item.no,
      questionId: q.id,
      type: q.type,
      points: item.points,
      knowledgePoints: q.knowledgePoints,
      answered: sums.answered,
      correct: sums.correct,
      average: average === null ? null : round(average, 2),
      scoreRate: average === null ? null : round(average / item.points),
      // Classical difficulty index: the score rate (higher is easier).
      difficulty: average === null ? null : round(average / item.points),
      discrimination: upper.length ? round((groupMean('upper', q.id) - groupMean('lower', q.id)) / item.points) : null,
      optionRates,
    };
  });

  const totalVariance = scores.length ? varianceOf(scores.length, scores.reduce((s, x) => s + x, 0), scores.reduce((s, x) => s + x * x, 0)) : 0;
  const className = new Map(classes.map((c) => [c.classId, c.className]));
  return {
    exam: { id: exam.id, title: exam.title, examDate: exam.examDate, term: exam.term, fullMarks: exam.fullMarks, gradeId: exam.gradeId, gradeName: exam.gradeName, courseId: exam.courseId, courseName: exam.courseName },
    scope: { classIds, classNames: classIds.map((id) => className.get(id) ?? '') },
    ...summary(scores),
    absent: Math.max(0, enrolled - scores.length),
    bands: bands(scores, exam.fullMarks),
    distribution: distribution(scores, exam.fullMarks),
    reliability: cronbachAlpha(itemVariances, totalVariance),
    ranking: rank(inScope).map((t) => ({ rank: t.rank, studentId: t.studentId, name: t.name, studentNo: t.studentNo, classId: t.classId, className: className.get(t.classId), score: t.score })),
    questions,
    // Every class of the exam side by side, whatever the scope: how this class stands in its grade.
    classes: classes.map((c) => {
      const own = totals.filter((t) => t.classId === c.classId).map((t) => t.score);
      const b = bands(own, exam.fullMarks);
      return { ...c, ...summary(own), excellentRate: b.excellent.rate, passRate: round(own.length ? (b.excellent.count + b.good.count + b.pass.count) / own.length : 0) };
    }),
  };
}

const examRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/minerva/v1.0/exams',
    {
      preHandler: teachersOnly,
      schema: {
        querystring: Type.Object({ ...PagingQuery, gradeId: Type.Optional(Id), courseId: Type.Optional(Id), classId: Type.Optional(Id) }),
        response: { 200: EnvelopeSchema(PageSchema(ExamSummarySchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const { tenantId, teacherId } = await me(db, request.principal);
      const { current, size, offset } = pageWindow(q);
      const where = sql`e.tenant_id = ${tenantId} AND EXISTS (${MY_EXAM_CLASSES(teacherId)})
        ${q.gradeId ? sql`AND e.grade_id = ${q.gradeId}` : sql``}
        ${q.courseId ? sql`AND e.course_id = ${q.courseId}` : sql``}
        ${q.classId ? sql`AND ${q.classId} IN (${MY_EXAM_CLASSES(teacherId)})` : sql``}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM exams e WHERE ${where}`);
      const records = await rows<ExamSummary>(db, sql`
        SELECT e.id, e.title, e.exam_date::text AS "examDate", e.term, e.full_marks AS "fullMarks", e.grade_id AS "gradeId", g.name AS "gradeName",
               e.course_id AS "courseId", co.name AS "courseName", jsonb_array_length(e.items) AS "questionCount", e.paper_id AS "paperId",
               (SELECT json_agg(json_build_object('classId', c.id, 'className', c.name) ORDER BY c.id) FROM classes c WHERE c.id IN (${MY_EXAM_CLASSES(teacherId)})) AS classes,
               (SELECT count(*)::int FROM work_student_stats s WHERE s.tenant_id = e.tenant_id AND s.source_type = ${EXAM} AND s.source_id = e.id
                   AND s.class_id IN (${MY_EXAM_CLASSES(teacherId)})) AS participants,
               (SELECT round(avg(s.score)::numeric, 2)::float8 FROM work_student_stats s WHERE s.tenant_id = e.tenant_id AND s.source_type = ${EXAM} AND s.source_id = e.id
                   AND s.class_id IN (${MY_EXAM_CLASSES(teacherId)})) AS average
          FROM exams e JOIN grades g ON g.id = e.grade_id JOIN courses co ON co.id = e.course_id
         WHERE ${where} ORDER BY e.exam_date DESC, e.id DESC LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.get(
    '/api/minerva/v1.0/exams/:examId/report',
    { preHandler: teachersOnly, schema: { params: Type.Object({ examId: Id }), querystring: Type.Object({ classId: Type.Optional(Id) }) } },
    async (request) => {
      const { examId } = request.params;
      const { classId } = request.query;
      return ok(await reportFor(db, request.principal, examId, classId));
    },
  );
};

export default examRoutes;
