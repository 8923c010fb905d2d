// Knowledge-point trees and the question bank: search (for 组卷 and editors) and one question.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { notFound, ok } from '../../http/envelope';
import { page, PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { contentReaders, visibleContent } from './access';
import { QUESTION_COLUMNS, type QuestionView } from './questions';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { QuestionViewSchema } from '../../../src/domain/questionBank';

interface PointRow {
  id: number;
  parentId: number | null;
  name: string;
  subjectId: number;
  stage: number;
}
type PointNode = PointRow & { children: PointNode[] };

const contentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/minerva/v1.0/knowledge-points',
    { preHandler: contentReaders, schema: { querystring: Type.Object({ subjectId: Id, stage: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })) }) } },
    async (request) => {
      const { subjectId, stage = 2 } = request.query;
      const points = await rows<PointRow>(db, sql`
        SELECT id, parent_id AS "parentId", name, subject_id AS "subjectId", stage FROM knowledge_points
         WHERE subject_id = ${subjectId} AND stage = ${stage} ORDER BY sort_order, id`);
      const nodes = new Map<number, PointNode>(points.map((p) => [p.id, { ...p, children: [] }]));
      const roots: PointNode[] = [];
      for (const node of nodes.values()) (node.parentId !== null && nodes.get(node.parentId) ? nodes.get(node.parentId)!.children : roots).push(node);
      return ok(roots);
    },
  );

  app.get(
    '/api/minerva/v1.0/questions',
    {
      preHandler: contentReaders,
      schema: {
        querystring: Type.Object({
          ...PagingQuery,
          subjectId: Type.Optional(Id),
          gradeLevel: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
          knowledgePointId: Type.Optional(Id),
          type: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 })),
          difficulty: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
          keyword: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: { 200: EnvelopeSchema(PageSchema(QuestionViewSchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const { current, size, offset } = pageWindow(q);
      const keyword = q.keyword?.trim();
      // A knowledge point stands for its whole subtree.
      const points = q.knowledgePointId
        ? sql`AND q.knowledge_point_ids && ARRAY(
              WITH RECURSIVE tree AS (SELECT id FROM knowledge_points WHERE id = ${q.knowledgePointId}
                                      UNION ALL SELECT k.id FROM knowledge_points k JOIN tree ON k.parent_id = tree.id)
              SELECT id FROM tree)::int[]`
        : sql``;
      const where = sql`q.parent_id IS NULL AND q.homework_batch_id IS NULL AND ${visibleContent(request.principal, 'q')}
        ${q.subjectId ? sql`AND q.subject_id = ${q.subjectId}` : sql``}
        ${q.gradeLevel ? sql`AND q.grade_level = ${q.gradeLevel}` : sql``}
        ${q.type ? sql`AND q.type = ${q.type}` : sql``}
        ${q.difficulty ? sql`AND q.difficulty = ${q.difficulty}` : sql``}
        ${keyword ? sql`AND q.stem ILIKE ${`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``}
        ${points}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM questions q WHERE ${where}`);
      const records = await rows<QuestionView>(db, sql`
        SELECT ${QUESTION_COLUMNS} FROM questions q WHERE ${where} ORDER BY q.id LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.get(
    '/api/minerva/v1.0/questions/:questionId',
    { preHandler: contentReaders, schema: { params: Type.Object({ questionId: Id }) } },
    async (request) => {
      const { questionId } = request.params;
      const [question] = await rows<QuestionView>(db, sql`
        SELECT ${QUESTION_COLUMNS} FROM questions q WHERE q.id = ${questionId} AND ${visibleContent(request.principal, 'q')}`);
      if (!question) throw notFound('题目不存在');
      const children = await rows<QuestionView>(db, sql`SELECT ${QUESTION_COLUMNS} FROM questions q WHERE q.parent_id = ${questionId} ORDER BY q.sort_order, q.id`);
      return ok({ ...question, children });
    },
  );
};

export default contentRoutes;
