// Exercise books: the two calls of SPEC §7, the list and the page-by-page detail, and the
// editors' changes to a book's questions (add, edit, reorder, remove).
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Principal } from '../../auth/principal';
import { rows } from '../../db/query';
import { bookPageQuestions, questions } from '../../db/schema';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { page, PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { findClass, findGrade, isAdmin } from '../vesta/access';
import { BOOK_COLUMNS, contentReaders, editorsOnly, findBook, findEditableBook, mayEditBook, me, schoolStaff, visibleContent } from './access';
import { checkQuestion, QUESTION_COLUMNS, QuestionBody, writeChildren, type QuestionView } from './questions';

const AnswerArea = Type.Object({
  x: Type.Number({ minimum: 0, maximum: 420 }),
  y: Type.Number({ minimum: 0, maximum: 420 }),
  width: Type.Number({ minimum: 1, maximum: 420 }),
  height: Type.Number({ minimum: 1, maximum: 420 }),
});
const BookPage = Type.Object({ bookId: Id, pageId: Id });
const BookQuestion = Type.Object({ bookId: Id, questionId: Id });

const bookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/minerva/v1.0/exercisebook/getExerciseBooksByClassId',
    { preHandler: schoolStaff, schema: { querystring: Type.Object({ classId: Id, courseId: Type.Optional(Id) }) } },
    async (request) => {
      const { classId, courseId } = request.query;
      const p = request.principal;
      const target = await findClass(db, p, classId);
      // A teacher sees the books of the courses they teach in that class.
      const mine = isAdmin(p) ? sql`TRUE` : sql`cb.course_id IN (SELECT ta.course_id FROM teaching_assignments ta WHERE ta.class_id = cb.class_id AND ta.teacher_id = ${(await me(db, p)).teacherId})`;
      const books = await rows(db, sql`
        SELECT ${BOOK_COLUMNS}, cb.course_id AS "courseId", co.name AS "courseName"
          FROM class_books cb JOIN exercise_books b ON b.id = cb.book_id JOIN subjects su ON su.id = b.subject_id JOIN courses co ON co.id = cb.course_id
         WHERE cb.class_id = ${target.id} AND ${mine} ${courseId ? sql`AND cb.course_id = ${courseId}` : sql``}
         ORDER BY co.id, b.id`);
      return ok(books);
    },
  );

  app.get(
    '/api/minerva/v1.0/exercisebook/getAvailableExerciseBookByGrade',
    { preHandler: schoolStaff, schema: { querystring: Type.Object({ gradeId: Id, courseId: Type.Optional(Id) }) } },
    async (request) => {
      const { gradeId, courseId } = request.query;
      const p = request.principal;
      const grade = await findGrade(db, p, gradeId);
      // Books of the grade's level in the subjects the caller may assign there: a teacher's own
      // courses in that grade, every course of the school for an admin.
      const courses = isAdmin(p)
        ? sql`SELECT co.id, co.subject_id FROM courses co WHERE co.tenant_id = ${p.tenantId} AND co.school_id = ${p.schoolId}`
        : sql`SELECT DISTINCT co.id, co.subject_id FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN courses co ON co.id = ta.course_id
               WHERE ta.teacher_id = ${(await me(db, p)).teacherId} AND c.grade_id = ${grade.id}`;
      const books = await rows(db, sql`
        WITH allowed AS (${courses})
        SELECT ${BOOK_COLUMNS}, a.id AS "courseId",
               (SELECT coalesce(json_agg(cb.class_id ORDER BY cb.class_id), '[]'::json) FROM class_books cb JOIN classes c ON c.id = cb.class_id
                 WHERE cb.book_id = b.id AND c.grade_id = ${grade.id}) AS "classIds"
          FROM exercise_books b JOIN subjects su ON su.id = b.subject_id JOIN allowed a ON a.subject_id = b.subject_id
         WHERE b.grade_level = ${grade.level} AND ${visibleContent(p, 'b')} ${courseId ? sql`AND a.id = ${courseId}` : sql``}
         ORDER BY a.id, b.id`);
      return ok(books);
    },
  );

  app.get(
    '/api/minerva/v1.0/exercisebooks',
    {
      preHandler: contentReaders,
      schema: { querystring: Type.Object({ ...PagingQuery, subjectId: Type.Optional(Id), gradeLevel: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })), keyword: Type.Optional(Type.String({ maxLength: 100 })) }) },
    },
    async (request) => {
      const q = request.query;
      const { current, size, offset } = pageWindow(q);
      const keyword = q.keyword?.trim();
      const where = sql`${visibleContent(request.principal, 'b')}
        ${q.subjectId ? sql`AND b.subject_id = ${q.subjectId}` : sql``}
        ${q.gradeLevel ? sql`AND b.grade_level = ${q.gradeLevel}` : sql``}
        ${keyword ? sql`AND b.title ILIKE ${`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM exercise_books b WHERE ${where}`);
      const records = await rows<{ tenantId: number | null }>(db, sql`
        SELECT ${BOOK_COLUMNS},
               (SELECT count(*)::int FROM book_pages bp WHERE bp.book_id = b.id) AS "pageCount",
               (SELECT count(*)::int FROM book_pages bp JOIN book_page_questions pq ON pq.page_id = bp.id WHERE bp.book_id = b.id) AS "questionCount"
          FROM exercise_books b JOIN subjects su ON su.id = b.subject_id
         WHERE ${where} ORDER BY b.grade_level, b.subject_id, b.id LIMIT ${size} OFFSET ${offset}`);
      // Whether the caller may change each book, so the screens offer edits only where they would succeed.
      const withEditable = records.map((b) => ({ ...b, editable: mayEditBook(request.principal, b) }));
      return ok(page(withEditable, total, current, size));
    },
  );

  app.get('/api/minerva/v1.0/exercisebooks/:bookId', { preHandler: contentReaders, schema: { params: Type.Object({ bookId: Id }) } }, async (request) => {
    const { bookId } = request.params;
    const book = await findBook(db, request.principal, bookId);
    return ok({ ...(await bookDetail(book)), editable: mayEditBook(request.principal, book) });
  });

  async function bookDetail(book: Awaited<ReturnType<typeof findBook>>) {
    const chapters = await rows<{ id: number; title: string }>(db, sql`SELECT id, title FROM book_chapters WHERE book_id = ${book.id} ORDER BY sort_order`);
    const sections = await rows<{ id: number; chapterId: number; title: string; knowledgePointId: number | null }>(db, sql`
      SELECT id, chapter_id AS "chapterId", title, knowledge_point_id AS "knowledgePointId" FROM book_sections WHERE book_id = ${book.id} ORDER BY sort_order`);
    const pages = await rows<{ id: number; sectionId: number; pageNo: number }>(db, sql`
      SELECT id, section_id AS "sectionId", page_no AS "pageNo" FROM book_pages WHERE book_id = ${book.id} ORDER BY page_no`);
    const placed = await rows<QuestionView & { pageId: number; no: number; answerArea: unknown }>(db, sql`
      SELECT ${QUESTION_COLUMNS}, pq.page_id AS "pageId", pq.sort_order AS no, pq.answer_area AS "answerArea"
        FROM book_page_questions pq JOIN book_pages bp ON bp.id = pq.page_id JOIN questions q ON q.id = pq.question_id
       WHERE bp.book_id = ${book.id} ORDER BY bp.page_no, pq.sort_order`);
    return {
      ...book,
      chapters: chapters.map((c) => ({
        ...c,
        sections: sections
          .filter((s) => s.chapterId === c.id)
          .map((s) => ({
            ...s,
            pages: pages.filter((pg) => pg.sectionId === s.id).map((pg) => ({ ...pg, questions: placed.filter((q) => q.pageId === pg.id) })),
          })),
      })),
    };
  }

  /** A page of a book the caller may change, and the book's subject for the question rules. */
  async function editablePage(request: { principal: Principal }, bookId: number, pageId: number) {
    const book = await findEditableBook(db, request.principal, bookId);
    const [pg] = await rows<{ id: number }>(db, sql`SELECT id FROM book_pages WHERE id = ${pageId} AND book_id = ${book.id}`);
    if (!pg) throw notFound('页面不存在');
    return { book, pageId: pg.id };
  }

  /** A question placed in this book, which the caller may change, with its page. */
  async function placedQuestion(request: { principal: Principal }, bookId: number, questionId: number) {
    const book = await findEditableBook(db, request.principal, bookId);
    const [placement] = await rows<{ pageId: number; sortOrder: number }>(db, sql`
      SELECT pq.page_id AS "pageId", pq.sort_order AS "sortOrder" FROM book_page_questions pq JOIN book_pages bp ON bp.id = pq.page_id
       WHERE bp.book_id = ${book.id} AND pq.question_id = ${questionId}`);
    if (!placement) throw notFound('题目不存在');
    return { book, ...placement };
  }

  async function viewOf(questionId: number, pageId: number) {
    const [view] = await rows(db, sql`
      SELECT ${QUESTION_COLUMNS}, pq.page_id AS "pageId", pq.sort_order AS no, pq.answer_area AS "answerArea"
        FROM questions q JOIN book_page_questions pq ON pq.question_id = q.id AND pq.page_id = ${pageId} WHERE q.id = ${questionId}`);
    return view;
  }

  app.post(
    '/api/minerva/v1.0/exercisebooks/:bookId/pages/:pageId/questions',
    {
      preHandler: editorsOnly,
      schema: { params: BookPage, body: Type.Object({ question: QuestionBody, position: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })), answerArea: Type.Optional(AnswerArea) }) },
    },
    async (request) => {
      const { bookId, pageId } = request.params;
      const body = request.body;
      const { book } = await editablePage(request, bookId, pageId);
      const { children, ...values } = await checkQuestion(db, body.question, book.subjectId);
      const p = request.principal;
      const id = await db.transaction(async (tx) => {
        const [{ n }] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM book_page_questions WHERE page_id = ${pageId}`);
        const position = Math.min(body.position ?? n + 1, n + 1);
        const [created] = await tx
          .insert(questions)
          .values({ ...values, tenantId: book.tenantId, subjectId: book.subjectId, gradeLevel: book.gradeLevel, source: values.source ?? book.title, createdBy: p.userId })
          .returning({ id: questions.id });
        await writeChildren(tx, created.id, children);
        await tx.execute(sql`UPDATE book_page_questions SET sort_order = sort_order + 1 WHERE page_id = ${pageId} AND sort_order >= ${position}`);
        await tx.insert(bookPageQuestions).values({ pageId, questionId: created.id, sortOrder: position, answerArea: body.answerArea ?? { x: 20, y: 24 + (position - 1) * 60, width: 170, height: 40 } });
        return created.id;
      });
      return ok(await viewOf(id, pageId), '新增成功');
    },
  );

  app.put(
    '/api/minerva/v1.0/exercisebooks/:bookId/questions/:questionId',
    { preHandler: editorsOnly, schema: { params: BookQuestion, body: Type.Object({ question: QuestionBody, answerArea: Type.Optional(AnswerArea) }) } },
    async (request) => {
      const { bookId, questionId } = request.params;
      const body = request.body;
      const { book, pageId } = await placedQuestion(request, bookId, questionId);
      const { children, ...values } = await checkQuestion(db, body.question, book.subjectId);
      await db.transaction(async (tx) => {
        await tx.update(questions).set({ ...values, source: values.source ?? book.title, updatedAt: new Date() }).where(eq(questions.id, questionId));
        await writeChildren(tx, questionId, children);
        if (body.answerArea) {
          await tx.update(bookPageQuestions).set({ answerArea: body.answerArea }).where(and(eq(bookPageQuestions.pageId, pageId), eq(bookPageQuestions.questionId, questionId)));
        }
      });
      return ok(await viewOf(questionId, pageId), '修改成功');
    },
  );

  app.put(
    '/api/minerva/v1.0/exercisebooks/:bookId/pages/:pageId/order',
    { preHandler: editorsOnly, schema: { params: BookPage, body: Type.Object({ questionIds: Type.Array(Id, { minItems: 1, maxItems: 200 }) }) } },
    async (request) => {
      const { bookId, pageId } = request.params;
      const { questionIds } = request.body;
      await editablePage(request, bookId, pageId);
      await db.transaction(async (tx) => {
        const current = await rows<{ questionId: number }>(tx, sql`SELECT question_id AS "questionId" FROM book_page_questions WHERE page_id = ${pageId} FOR UPDATE`);
        const same = current.length === questionIds.length && new Set(questionIds).size === questionIds.length && current.every((c) => questionIds.includes(c.questionId));
        if (!same) throw badRequest('排序须包含本页的全部题目，且每题一次');
        for (const [k, id] of questionIds.entries()) {
          await tx.update(bookPageQuestions).set({ sortOrder: k + 1 }).where(and(eq(bookPageQuestions.pageId, pageId), eq(bookPageQuestions.questionId, id)));
        }
      });
      const order = await rows<{ questionId: number; no: number }>(db, sql`
        SELECT question_id AS "questionId", sort_order AS no FROM book_page_questions WHERE page_id = ${pageId} ORDER BY sort_order`);
      return ok(order, '排序已保存');
    },
  );

  app.delete('/api/minerva/v1.0/exercisebooks/:bookId/questions/:questionId', { preHandler: editorsOnly, schema: { params: BookQuestion } }, async (request) => {
    const { bookId, questionId } = request.params;
    const { pageId, sortOrder } = await placedQuestion(request, bookId, questionId);
    await db.transaction(async (tx) => {
      // Students' answers point at the question: the record of what they did must stay readable.
      const answered = await rows(tx, sql`SELECT 1 FROM work_question_stats WHERE question_id = ${questionId} AND answered > 0 LIMIT 1`);
      if (answered.length) throw conflict('该题已有学生作答记录，不能删除');
      await tx.delete(bookPageQuestions).where(and(eq(bookPageQuestions.pageId, pageId), eq(bookPageQuestions.questionId, questionId)));
      await tx.execute(sql`UPDATE book_page_questions SET sort_order = sort_order - 1 WHERE page_id = ${pageId} AND sort_order > ${sortOrder}`);
      // Kept in the bank while a paper or another page still uses it.
      await tx.execute(sql`
        DELETE FROM questions q WHERE (q.id = ${questionId} OR q.parent_id = ${questionId})
           AND NOT EXISTS (SELECT 1 FROM paper_questions pq WHERE pq.question_id = ${questionId})
           AND NOT EXISTS (SELECT 1 FROM book_page_questions bq WHERE bq.question_id = ${questionId})`);
    });
    return ok(null, '删除成功');
  });
};

export default bookRoutes;
