// 组卷: a teacher's papers (sections of bank questions with points, total, duration), in their school.
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { answerSheets, paperQuestions, papers, paperSections } from '../../db/schema';
import { ApiError, badRequest, conflict, forbidden, notFound, ok } from '../../http/envelope';
import { fileReply } from '../../http/download';
import { runHeavy } from './threadTasks';
import { page, PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { me, teachersOnly, visibleContent } from './access';
import { QUESTION_COLUMNS, type QuestionView } from './questions';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { PaperDetailSchema, PaperSummarySchema, type PaperDetail, type PaperSummary } from '../../../src/domain/questionBank';
import { studentNoDigits } from '../correct/studentNoDigits';

const PaperBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 100 }),
    subjectId: Id,
    gradeLevel: Type.Integer({ minimum: 1, maximum: 12 }),
    durationMinutes: Type.Integer({ minimum: 10, maximum: 300 }),
    sections: Type.Array(
      Type.Object({
        title: Type.String({ minLength: 1, maxLength: 50 }),
        questions: Type.Array(Type.Object({ questionId: Id, points: Type.Number({ minimum: 0.5, maximum: 100 }) }), { minItems: 1, maxItems: 100 }),
      }),
      { minItems: 1, maxItems: 10 },
    ),
  },
  { additionalProperties: false },
);
type PaperInput = Static<typeof PaperBody>;

/** A paper's title and questions, checked: the caller teaches the subject; questions are visible, of it, and once each. */
async function checkPaper(db: Db, p: Principal, teacherId: number, body: PaperInput) {
  const title = body.title.trim();
  if (!title) throw badRequest('试卷标题不能为空');
  const taught = await rows(db, sql`
    SELECT 1 FROM teaching_assignments ta JOIN courses co ON co.id = ta.course_id WHERE ta.teacher_id = ${teacherId} AND co.subject_id = ${body.subjectId} LIMIT 1`);
  if (!taught.length) throw forbidden('只能为任教学科组卷');
  const ids = body.sections.flatMap((s) => s.questions.map((q) => q.questionId));
  if (new Set(ids).size !== ids.length) throw badRequest('同一道题不能在试卷中出现两次');
  const found = await rows<{ id: number }>(db, sql`
    SELECT q.id FROM questions q WHERE q.id = ANY(${`{${ids.join(',')}}`}::int[]) AND q.parent_id IS NULL AND q.homework_batch_id IS NULL AND q.subject_id = ${body.subjectId} AND ${visibleContent(p, 'q')}`);
  if (found.length !== ids.length) throw notFound('题目不存在');
  const sections = body.sections.map((s) => ({ title: s.title.trim() || '未命名大题', questions: s.questions }));
  const totalPoints = sections.reduce((sum, s) => sum + s.questions.reduce((t, q) => t + q.points, 0), 0);
  return { title, sections, totalPoints };
}

const paperRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  async function findPaper(p: Principal, paperId: number) {
    const mine = await me(db, p);
    const [paper] = await db
      .select()
      .from(papers)
      .where(and(eq(papers.id, paperId), eq(papers.tenantId, mine.tenantId), eq(papers.schoolId, mine.schoolId), eq(papers.createdBy, p.userId)));
    if (!paper) throw notFound('试卷不存在');
    return { paper, mine };
  }

  async function detail(paper: typeof papers.$inferSelect): Promise<PaperDetail> {
    const sections = await rows<{ id: number; title: string }>(db, sql`SELECT id, title FROM paper_sections WHERE paper_id = ${paper.id} ORDER BY sort_order`);
    const items = await rows<QuestionView & { sectionId: number; paperPoints: number }>(db, sql`
      SELECT ${QUESTION_COLUMNS}, pq.section_id AS "sectionId", pq.points AS "paperPoints"
        FROM paper_questions pq JOIN questions q ON q.id = pq.question_id WHERE pq.paper_id = ${paper.id} ORDER BY pq.sort_order`);
    let no = 0;
    return {
      id: paper.id,
      title: paper.title,
      subjectId: paper.subjectId,
      gradeLevel: paper.gradeLevel,
      durationMinutes: paper.durationMinutes,
      totalPoints: paper.totalPoints,
      createdAt: paper.createdAt.toISOString(),
      updatedAt: paper.updatedAt.toISOString(),
      sections: sections.map((s) => ({
        ...s,
        questions: items.filter((i) => i.sectionId === s.id).map(({ sectionId: _, paperPoints, ...question }) => ({ no: ++no, points: paperPoints, question })),
      })),
    };
  }

  async function writeContent(tx: Db, tenantId: number, paperId: number, sections: { title: string; questions: { questionId: number; points: number }[] }[]) {
    const sectionRows = await tx
      .insert(paperSections)
      .values(sections.map((s, k) => ({ tenantId, paperId, title: s.title, sortOrder: k + 1 })))
      .returning({ id: paperSections.id });
    let order = 0;
    await tx.insert(paperQuestions).values(
      sections.flatMap((s, k) => s.questions.map((q) => ({ tenantId, paperId, sectionId: sectionRows[k].id, questionId: q.questionId, points: q.points, sortOrder: ++order }))),
    );
  }

  app.get(
    '/api/minerva/v1.0/papers',
    {
      preHandler: teachersOnly,
      schema: {
        querystring: Type.Object({ ...PagingQuery, subjectId: Type.Optional(Id), gradeLevel: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })) }),
        response: { 200: EnvelopeSchema(PageSchema(PaperSummarySchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const p = request.principal;
      const mine = await me(db, p);
      const { current, size, offset } = pageWindow(q);
      const where = sql`p.tenant_id = ${mine.tenantId} AND p.school_id = ${mine.schoolId} AND p.created_by = ${p.userId}
        ${q.subjectId ? sql`AND p.subject_id = ${q.subjectId}` : sql``} ${q.gradeLevel ? sql`AND p.grade_level = ${q.gradeLevel}` : sql``}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM papers p WHERE ${where}`);
      const records = await rows<PaperSummary>(db, sql`
        SELECT p.id, p.title, p.subject_id AS "subjectId", su.name AS "subjectName", p.grade_level AS "gradeLevel", p.duration_minutes AS "durationMinutes",
               p.total_points AS "totalPoints", p.updated_at AS "updatedAt",
               (SELECT count(*)::int FROM paper_questions pq WHERE pq.paper_id = p.id) AS "questionCount"
          FROM papers p JOIN subjects su ON su.id = p.subject_id WHERE ${where} ORDER BY p.updated_at DESC, p.id DESC LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.get('/api/minerva/v1.0/papers/:paperId', { preHandler: teachersOnly, schema: { params: Type.Object({ paperId: Id }), response: { 200: EnvelopeSchema(PaperDetailSchema) } } }, async (request) => {
    const { paperId } = request.params;
    return ok(await detail((await findPaper(request.principal, paperId)).paper));
  });

  // The printable paper with its answer sheet. The sheet's layout is stored as an answer sheet of
  // the author (id from the paper, its last revision and the paper size), so scans of the printed
  // sheets can be graded with it; printing the same version again reuses the same sheet.
  app.get(
    '/api/minerva/v1.0/papers/:paperId/pdf',
    { preHandler: teachersOnly, schema: { params: Type.Object({ paperId: Id }), querystring: Type.Object({ paper: Type.Optional(Type.Union([Type.Literal('A4'), Type.Literal('A3')])) }) } },
    async (request, reply) => {
      const { paperId } = request.params;
      const size = request.query.paper ?? 'A4';
      const { paper, mine } = await findPaper(request.principal, paperId);
      const full = await detail(paper);
      // A 综合 prints with its sub-questions, which the paper itself does not list.
      const parents = full.sections.flatMap((s) => s.questions.map((q) => q.question.id));
      const children = await rows<{ parentId: number; type: number; stem: string; options: { key: string; text: string }[] | null }>(db, sql`
        SELECT parent_id AS "parentId", type, stem, options FROM questions
         WHERE parent_id = ANY(${`{${parents.join(',')}}`}::int[]) ORDER BY sort_order, id`);
      const printable = {
        ...full,
        sections: full.sections.map((s) => ({
          ...s,
          questions: s.questions.map((q) => ({ ...q, question: { ...q.question, children: children.filter((c) => c.parentId === q.question.id) } })),
        })),
      };
      const version = createHash('sha256').update(`${paper.id}|${paper.updatedAt.toISOString()}|${size}`).digest('hex').slice(0, 10).toUpperCase();
      // The 考号 grid has as many digits as the school's 学号 (part of the id: a changed length is a new sheet).
      const digits = await studentNoDigits(db, request.principal.tenantId, request.principal.schoolId);
      const sheetId = `P${paper.id}${size}${digits === 8 ? '' : `D${digits}`}${version}`;
      // The engine and the PDF library load on first print, not with every API process.
      const [{ buildLayout }, { paperSheetSpec }] = await Promise.all([import('../../grading/layout/build.js'), import('./paperPdf')]);
      let layout;
      try {
        layout = buildLayout(paperSheetSpec(printable, size, sheetId, digits));
      } catch (error) {
        // The engine explains in Chinese what does not fit on a sheet (over 100 objective items…).
        throw new ApiError(422, `答题卡无法生成：${(error as Error).message}`);
      }
      await db
        .insert(answerSheets)
        .values({ id: sheetId, tenantId: mine.tenantId, teacherId: mine.teacherId, classId: null, title: layout.title, layout })
        .onConflictDoNothing();
      const pdf = await runHeavy('requests', 'renderPaper', { paper: printable, layout });
      return fileReply(reply, 'application/pdf', 'inline', `${paper.title}（${size}）.pdf`).send(Buffer.from(pdf));
    },
  );

  app.post('/api/minerva/v1.0/papers', { preHandler: teachersOnly, schema: { body: PaperBody } }, async (request) => {
    const body = request.body;
    const p = request.principal;
    const mine = await me(db, p);
    const { title, sections, totalPoints } = await checkPaper(db, p, mine.teacherId, body);
    const paper = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(papers)
        .values({ tenantId: mine.tenantId, schoolId: mine.schoolId, createdBy: p.userId, title, subjectId: body.subjectId, gradeLevel: body.gradeLevel, durationMinutes: body.durationMinutes, totalPoints })
        .returning();
      await writeContent(tx, mine.tenantId, row.id, sections);
      return row;
    });
    return ok(await detail(paper), '保存成功');
  });

  app.put('/api/minerva/v1.0/papers/:paperId', { preHandler: teachersOnly, schema: { params: Type.Object({ paperId: Id }), body: PaperBody } }, async (request) => {
    const { paperId } = request.params;
    const body = request.body;
    const p = request.principal;
    const { paper, mine } = await findPaper(p, paperId);
    const { title, sections, totalPoints } = await checkPaper(db, p, mine.teacherId, body);
    const updated = await db.transaction(async (tx) => {
      // Exams freeze their questions, so a paper already given may still be revised for next time.
      await tx.delete(paperSections).where(eq(paperSections.paperId, paper.id));
      const [row] = await tx
        .update(papers)
        .set({ title, subjectId: body.subjectId, gradeLevel: body.gradeLevel, durationMinutes: body.durationMinutes, totalPoints, updatedAt: new Date() })
        .where(eq(papers.id, paper.id))
        .returning();
      await writeContent(tx, mine.tenantId, paper.id, sections);
      return row;
    });
    return ok(await detail(updated), '保存成功');
  });

  app.delete('/api/minerva/v1.0/papers/:paperId', { preHandler: teachersOnly, schema: { params: Type.Object({ paperId: Id }) } }, async (request) => {
    const { paperId } = request.params;
    const { paper } = await findPaper(request.principal, paperId);
    await db.transaction(async (tx) => {
      const used = await rows(tx, sql`SELECT 1 FROM exams WHERE paper_id = ${paper.id} LIMIT 1`);
      if (used.length) throw conflict('该试卷已用于考试，不能删除');
      await tx.delete(papers).where(eq(papers.id, paper.id));
    });
    return ok(null, '删除成功');
  });
};

export default paperRoutes;
