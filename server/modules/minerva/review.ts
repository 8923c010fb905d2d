// A teacher reads a student's answers on a piece of work and corrects their grading. The review
// goes through recordAnswers like any grading, and wins over it from then on.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SourceType } from '../../../src/domain/content';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { me, teachersOnly } from './access';
import { recordAnswers } from './answers';

const SourceTypeSchema = Type.Union([Type.Literal(SourceType.customHomework), Type.Literal(SourceType.bookHomework), Type.Literal(SourceType.exam)]);
const Work = { sourceType: SourceTypeSchema, sourceId: Id, studentId: Id };

/** The student's work must be the caller's: their own homework, or an exam class they teach. */
async function checkWork(db: Db, tenantId: number, teacherId: number, w: { sourceType: number; sourceId: number; studentId: number }) {
  const found =
    w.sourceType === SourceType.exam
      ? await rows(db, sql`
          SELECT 1 FROM exams e JOIN students st ON st.id = ${w.studentId} AND st.tenant_id = ${tenantId}
            JOIN exam_classes ec ON ec.exam_id = e.id
            JOIN teaching_assignments ta ON ta.class_id = ec.class_id AND ta.course_id = e.course_id AND ta.teacher_id = ${teacherId}
           WHERE e.id = ${w.sourceId} AND e.tenant_id = ${tenantId}
             AND ec.class_id = coalesce((SELECT class_id FROM answer_records r WHERE r.tenant_id = ${tenantId} AND r.source_type = ${SourceType.exam}
                                          AND r.source_id = e.id AND r.student_id = st.id LIMIT 1), st.class_id)`)
      : await rows(db, sql`
          SELECT 1 FROM homeworks h JOIN students st ON st.id = ${w.studentId} AND st.tenant_id = ${tenantId}
           WHERE h.id = ${w.sourceId} AND h.source_type = ${w.sourceType} AND h.tenant_id = ${tenantId} AND h.teacher_id = ${teacherId}
             AND h.class_id = coalesce((SELECT class_id FROM answer_records r WHERE r.tenant_id = ${tenantId} AND r.source_type = h.source_type
                                          AND r.source_id = h.id AND r.student_id = st.id LIMIT 1), st.class_id)`);
  if (!found.length) throw notFound('作业或考试不存在');
}

const RECORD_COLUMNS = sql`question_id AS "questionId", is_correct AS "isCorrect", score, max_score AS "maxScore", answer,
  graded_by AS "gradedBy", reviewer_id AS "reviewerId", ${isoTime(sql`answered_at`)} AS "answeredAt", ${isoTime(sql`updated_at`)} AS "updatedAt"`;

const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/minerva/v1.0/answers', { preHandler: teachersOnly, schema: { querystring: Type.Object(Work) } }, async (request) => {
    const w = request.query;
    const { tenantId, teacherId } = await me(db, request.principal);
    await checkWork(db, tenantId, teacherId, w);
    return ok(
      await rows(db, sql`
        SELECT ${RECORD_COLUMNS} FROM answer_records
         WHERE tenant_id = ${tenantId} AND source_type = ${w.sourceType} AND source_id = ${w.sourceId} AND student_id = ${w.studentId}
         ORDER BY question_id`),
    );
  });

  app.post(
    '/api/minerva/v1.0/answers/review',
    {
      preHandler: teachersOnly,
      schema: { body: Type.Object({ ...Work, questionId: Id, score: Type.Number({ minimum: 0, maximum: 1000 }), isCorrect: Type.Optional(Type.Boolean()) }, { additionalProperties: false }) },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const { tenantId, teacherId } = await me(db, p);
      await checkWork(db, tenantId, teacherId, body);
      await recordAnswers(db, tenantId, [body], { by: 'review', reviewerId: p.userId });
      const [record] = await rows(db, sql`
        SELECT ${RECORD_COLUMNS} FROM answer_records
         WHERE tenant_id = ${tenantId} AND source_type = ${body.sourceType} AND source_id = ${body.sourceId}
           AND student_id = ${body.studentId} AND question_id = ${body.questionId}`);
      return ok(record, '批改已更正');
    },
  );
};

export default reviewRoutes;
