// Homework for teachers (mini-program and classic): the list with completion and accuracy, assigning
// book pages, sections or a custom list of questions to one or more classes, and the detail per
// student and per question. Figures come from the answer-record rollups.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SourceType } from '../../../src/domain/content';
import { exportFileName } from '../../../src/domain/format';
import { rangeStart, currentSemester } from '../../../src/domain/semester';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { homeworks, type WorkItem } from '../../db/schema';
import { sendWorkbook } from '../../http/download';
import { badRequest, notFound, ok } from '../../http/envelope';
import { page, PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { checkCourse, findClass, type ClassRow } from '../vesta/access';
import { findBook, me, teachersOnly, teaches, visibleContent } from './access';
import { QUESTION_COLUMNS, type QuestionView } from './questions';
import { homeworkWorkbook, stamp } from './homeworkExport';

/** A homework as listed (docs/api-content.md "Homework"). */
export interface HomeworkRecord {
  id: number;
  batchId: number;
  title: string;
  classId: number;
  className: string;
  gradeId: number;
  gradeName: string;
  courseId: number;
  courseName: string;
  sourceType: number;
  bookId: number | null;
  bookTitle: string | null;
  assignedAt: string;
  dueAt: string;
  term: string;
  questionCount: number;
  studentCount: number;
  submittedCount: number;
  gradedCount: number;
  pendingReview: number;
  accuracy: number | null;
  scoreRate: number | null;
}

export interface HomeworkDetail extends HomeworkRecord {
  students: { studentId: number; name: string; studentNo: string; submitted: boolean; score: number | null; maxScore: number | null; answered: number | null; correct: number | null; accuracy: number | null }[];
  questions: { no: string; points: number; question: QuestionView; answered: number; correct: number; accuracy: number | null; scoreRate: number | null }[];
}

const IdList = (max: number) => Type.Array(Id, { minItems: 1, maxItems: max });

/** SPEC §9 homework date range (today, within a week, all) and §3 time range (week 1, month 2, term 0). */
function since(q: { dateRange?: string; dateType?: number }): Date | undefined {
  if (q.dateRange === 'today') {
    const now = new Date();
    return new Date(now.getFullYear(), now.getMonth(), now.getDate());
  }
  if (q.dateRange === 'week') return rangeStart(1);
  if (q.dateType !== undefined) return rangeStart(q.dateType);
  return undefined;
}

/** A homework's figures: class size, who handed in, how they did (rollups). */
const FIGURES = sql`
  (SELECT count(*)::int FROM students st WHERE st.class_id = h.class_id AND st.status = 0) AS "studentCount",
  coalesce(ws.submitted, 0) AS "submittedCount",
  greatest(coalesce(ws.submitted, 0) - h.pending_review, 0) AS "gradedCount",
  h.pending_review AS "pendingReview",
  CASE WHEN ws.answered > 0 THEN round((ws.correct::numeric / ws.answered), 4)::float8 END AS accuracy,
  CASE WHEN ws.max_score > 0 THEN round((ws.score / ws.max_score)::numeric, 4)::float8 END AS "scoreRate"`;
const FIGURES_JOIN = sql`
  LEFT JOIN LATERAL (SELECT count(*)::int AS submitted, sum(s.answered)::int AS answered, sum(s.correct)::int AS correct,
                            sum(s.score)::float8 AS score, sum(s.max_score)::float8 AS max_score
                       FROM work_student_stats s WHERE s.tenant_id = h.tenant_id AND s.source_type = h.source_type AND s.source_id = h.id) ws ON TRUE`;
const HOMEWORK_COLUMNS = sql`h.id, h.batch_id AS "batchId", h.title, h.class_id AS "classId", c.name AS "className", g.id AS "gradeId", g.name AS "gradeName",
  h.course_id AS "courseId", co.name AS "courseName", h.source_type AS "sourceType", h.book_id AS "bookId", b.title AS "bookTitle",
  ${isoTime(sql`h.assigned_at`)} AS "assignedAt", ${isoTime(sql`h.due_at`)} AS "dueAt", h.term, jsonb_array_length(h.items) AS "questionCount"`;
const HOMEWORK_FROM = sql`homeworks h JOIN classes c ON c.id = h.class_id JOIN grades g ON g.id = c.grade_id JOIN courses co ON co.id = h.course_id
  LEFT JOIN exercise_books b ON b.id = h.book_id`;

const homeworkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/minerva/v1.0/homeworks',
    {
      preHandler: teachersOnly,
      schema: {
        querystring: Type.Object({
          ...PagingQuery,
          classId: Type.Optional(Id),
          gradeId: Type.Optional(Id),
          courseId: Type.Optional(Id),
          dateRange: Type.Optional(Type.Union([Type.Literal('today'), Type.Literal('week'), Type.Literal('all')])),
          dateType: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const p = request.principal;
      const { tenantId, teacherId } = await me(db, p);
      if (q.classId) await findClass(db, p, q.classId);
      const { current, size, offset } = pageWindow(q);
      const from = since(q);
      const where = sql`h.tenant_id = ${tenantId} AND h.teacher_id = ${teacherId}
        ${q.classId ? sql`AND h.class_id = ${q.classId}` : sql``}
        ${q.gradeId ? sql`AND c.grade_id = ${q.gradeId}` : sql``}
        ${q.courseId ? sql`AND h.course_id = ${q.courseId}` : sql``}
        ${from ? sql`AND h.assigned_at >= ${from.toISOString()}` : sql``}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM homeworks h JOIN classes c ON c.id = h.class_id WHERE ${where}`);
      const records = await rows(db, sql`
        SELECT ${HOMEWORK_COLUMNS}, ${FIGURES} FROM ${HOMEWORK_FROM} ${FIGURES_JOIN}
         WHERE ${where} ORDER BY h.assigned_at DESC, h.id DESC LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.post(
    '/api/minerva/v1.0/homeworks',
    {
      preHandler: teachersOnly,
      schema: {
        body: Type.Object(
          {
            title: Type.Optional(Type.String({ maxLength: 100 })),
            courseId: Id,
            classIds: IdList(20),
            dueAt: Type.String({ minLength: 1, maxLength: 40 }),
            bookId: Type.Optional(Id),
            pageIds: Type.Optional(IdList(100)),
            sectionIds: Type.Optional(IdList(50)),
            questionIds: Type.Optional(IdList(100)),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const { tenantId, teacherId } = await me(db, p);
      const dueAt = new Date(body.dueAt);
      if (Number.isNaN(dueAt.getTime())) throw badRequest('截止时间格式不正确');
      if (dueAt.getTime() <= Date.now()) throw badRequest('截止时间必须晚于现在');
      const course = await checkCourse(db, p, body.courseId);
      const [{ subjectId }] = await rows<{ subjectId: number }>(db, sql`SELECT subject_id AS "subjectId" FROM courses WHERE id = ${course.id}`);
      const classIds = [...new Set(body.classIds)];
      const targets: ClassRow[] = [];
      for (const classId of classIds) {
        const target = await findClass(db, p, classId);
        if (!(await teaches(db, teacherId, target.id, course.id))) throw notFound('班级不存在');
        targets.push(target);
      }
      const [{ level }] = await rows<{ level: number }>(db, sql`SELECT level FROM grades WHERE id = ${targets[0].gradeId}`);
      if (targets.some((t) => t.gradeId !== targets[0].gradeId)) throw badRequest('一次只能布置给同一年级的班级');

      const fromBook = body.bookId !== undefined;
      if (fromBook === (body.questionIds !== undefined)) throw badRequest('请选择练习册页面或题目（二选一）');
      let items: WorkItem[];
      let title = body.title?.trim();
      let bookId: number | null = null;
      let selection: { pageIds?: number[]; sectionIds?: number[] } | null = null;
      if (fromBook) {
        const book = await findBook(db, p, body.bookId!);
        if (book.subjectId !== subjectId) throw badRequest('练习册与课程学科不符');
        if (book.gradeLevel !== level) throw badRequest('练习册与班级年级不符');
        if (!body.pageIds === !body.sectionIds) throw badRequest('请选择页面或章节（二选一）');
        const pageIds = body.pageIds
          ? [...new Set(body.pageIds)]
          : (await rows<{ id: number }>(db, sql`SELECT bp.id FROM book_pages bp JOIN book_sections bs ON bs.id = bp.section_id
               WHERE bp.book_id = ${book.id} AND bs.id = ANY(${`{${[...new Set(body.sectionIds!)].join(',')}}`}::int[])`)).map((r) => r.id);
        const pages = await rows<{ id: number; pageNo: number; sectionId: number }>(db, sql`
          SELECT id, page_no AS "pageNo", section_id AS "sectionId" FROM book_pages WHERE book_id = ${book.id} AND id = ANY(${`{${pageIds.join(',') || 0}}`}::int[]) ORDER BY page_no`);
        const wantedSections = body.sectionIds ? new Set(body.sectionIds) : undefined;
        if ((body.pageIds && pages.length !== pageIds.length) || (wantedSections && new Set(pages.map((pg) => pg.sectionId)).size !== wantedSections.size)) {
          throw notFound('练习册页面不存在');
        }
        const placed = await rows<{ questionId: number; points: number }>(db, sql`
          SELECT pq.question_id AS "questionId", q.points FROM book_page_questions pq JOIN book_pages bp ON bp.id = pq.page_id JOIN questions q ON q.id = pq.question_id
           WHERE bp.id = ANY(${`{${pages.map((pg) => pg.id).join(',')}}`}::int[]) ORDER BY bp.page_no, pq.sort_order`);
        if (!placed.length) throw badRequest('所选页面没有题目');
        items = placed.map((q, k) => ({ questionId: q.questionId, points: q.points, no: String(k + 1) }));
        title ||= `${book.title} 第${pages[0].pageNo}${pages.length > 1 ? `–${pages[pages.length - 1].pageNo}` : ''}页`;
        bookId = book.id;
        selection = body.pageIds ? { pageIds } : { sectionIds: [...wantedSections!] };
      } else {
        const ids = [...new Set(body.questionIds!)];
        const found = await rows<{ id: number; points: number }>(db, sql`
          SELECT q.id, q.points FROM questions q
           WHERE q.id = ANY(${`{${ids.join(',')}}`}::int[]) AND q.parent_id IS NULL AND q.subject_id = ${subjectId} AND ${visibleContent(p, 'q')}`);
        if (found.length !== ids.length) throw notFound('题目不存在');
        items = ids.map((id, k) => ({ questionId: id, points: found.find((f) => f.id === id)!.points, no: String(k + 1) }));
        title ||= '自定义作业';
      }
      if ([...title].length > 100) throw badRequest('标题长度不能超过100个字符');

      const assignedAt = new Date();
      const created = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(homeworks)
          .values(
            targets.map((target) => ({
              tenantId,
              teacherId,
              classId: target.id,
              courseId: course.id,
              title: title!,
              assignedAt,
              dueAt,
              sourceType: fromBook ? SourceType.bookHomework : SourceType.customHomework,
              bookId,
              selection,
              items,
              term: currentSemester(assignedAt),
            })),
          )
          .returning({ id: homeworks.id, classId: homeworks.classId });
        await tx.execute(sql`UPDATE homeworks SET batch_id = ${inserted[0].id} WHERE id = ANY(${`{${inserted.map((r) => r.id).join(',')}}`}::int[])`);
        return inserted;
      });
      return ok({ batchId: created[0].id, homeworks: created.map((r) => ({ id: r.id, classId: r.classId })), title, questionCount: items.length }, '布置成功');
    },
  );

  const HomeworkParams = { params: Type.Object({ homeworkId: Id }) };

  app.get('/api/minerva/v1.0/homeworks/:homeworkId', { preHandler: teachersOnly, schema: HomeworkParams }, async (request) => {
    const { homeworkId } = request.params;
    return ok(await homeworkDetail(db, request.principal, homeworkId));
  });

  // The same detail as a workbook (学生, 题目 sheets); only the homework's own teacher gets it.
  app.get('/api/minerva/v1.0/homeworks/:homeworkId/export', { preHandler: teachersOnly, schema: HomeworkParams }, async (request, reply) => {
    const { homeworkId } = request.params;
    const detail = await homeworkDetail(db, request.principal, homeworkId);
    const bytes = await homeworkWorkbook(detail);
    return sendWorkbook(reply, bytes, exportFileName(`作业详情_${detail.className}`, stamp(), 'xlsx'));
  });
};

export default homeworkRoutes;

/** A homework's record with its students and questions; another teacher's or tenant's is 404. */
export async function homeworkDetail(db: Db, p: Principal, homeworkId: number): Promise<HomeworkDetail> {
  const { tenantId, teacherId } = await me(db, p);
  const [homework] = await rows<HomeworkRecord & { items?: WorkItem[] }>(db, sql`
    SELECT ${HOMEWORK_COLUMNS}, h.items, ${FIGURES} FROM ${HOMEWORK_FROM} ${FIGURES_JOIN}
     WHERE h.id = ${homeworkId} AND h.tenant_id = ${tenantId} AND h.teacher_id = ${teacherId}`);
  if (!homework) throw notFound('作业不存在');
  const items = homework.items!;
  delete homework.items;
  const students = await rows<HomeworkDetail['students'][number]>(db, sql`
    SELECT st.id AS "studentId", st.name, st.student_no AS "studentNo", (s.student_id IS NOT NULL) AS submitted,
           s.score, s.max_score AS "maxScore", s.answered, s.correct,
           CASE WHEN s.answered > 0 THEN round(s.correct::numeric / s.answered, 4)::float8 END AS accuracy
      FROM students st
      LEFT JOIN work_student_stats s ON s.tenant_id = ${tenantId} AND s.source_type = ${homework.sourceType} AND s.source_id = ${homework.id} AND s.student_id = st.id
     WHERE st.class_id = ${homework.classId} AND st.status = 0
     ORDER BY st.student_no`);
  const questionRows = await rows<QuestionView & { answered: number | null; correct: number | null; score: number | null; maxScore: number | null }>(db, sql`
    SELECT ${QUESTION_COLUMNS}, s.answered, s.correct, s.score, s.max_score AS "maxScore"
      FROM questions q
      LEFT JOIN work_question_stats s ON s.tenant_id = ${tenantId} AND s.source_type = ${homework.sourceType} AND s.source_id = ${homework.id}
                                     AND s.class_id = ${homework.classId} AND s.question_id = q.id
     WHERE q.id = ANY(${`{${items.map((i) => i.questionId).join(',')}}`}::int[])`);
  const questions = items.map((item) => {
    const q = questionRows.find((r) => r.id === item.questionId)!;
    const { answered, correct, score, maxScore, ...question } = q;
    return {
      no: item.no,
      points: item.points,
      question,
      answered: answered ?? 0,
      correct: correct ?? 0,
      accuracy: answered ? Math.round((correct! / answered) * 10000) / 10000 : null,
      scoreRate: maxScore ? Math.round((score! / maxScore) * 10000) / 10000 : null,
    };
  });
  return { ...homework, students, questions };
}
