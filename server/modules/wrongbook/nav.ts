// Menu badge statistics (SPEC §2.1, §7): what awaits the teacher, counted from real rows.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope';
import { rows } from '../../db/query';
import { allow } from '../../auth/plugin';
import { BADGE_ROLES } from '../../../src/domain/roles';
import { rangeStart } from '../../../src/domain/semester';

export default async function navRoutes(app: FastifyInstance) {
  app.get(
    '/api/wrongbook/v1.0/web/nav/getMenuBadge',
    {
      preHandler: allow({ roles: BADGE_ROLES }),
      schema: { querystring: Type.Object({ dateType: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])) }) },
    },
    async (request) => {
      const { dateType = 0 } = request.query as { dateType?: number };
      const since = rangeStart(dateType).toISOString();
      const [counts] = await rows<{ correctCount: number; homeworkCount: number; wrongCount: number }>(app.db, sql`
        WITH me AS (SELECT id FROM teachers WHERE user_id = ${request.principal.userId})
        SELECT
          (SELECT count(*)::int FROM grading_tasks g WHERE g.teacher_id IN (SELECT id FROM me)
              AND g.status IN (1, 3) AND g.created_at >= ${since}) AS "correctCount",
          (SELECT coalesce(sum(h.pending_review), 0)::int FROM homeworks h WHERE h.teacher_id IN (SELECT id FROM me)
              AND h.assigned_at >= ${since}) AS "homeworkCount",
          -- New wrong answers in the classes and subjects the teacher teaches (the class wrong-answer index).
          (SELECT count(*)::int FROM answer_records r
            WHERE r.tenant_id = ${request.principal.tenantId}::int AND NOT r.is_correct AND r.answered_at >= ${since}
              AND (r.class_id, r.subject_id) IN (SELECT ta.class_id, co.subject_id FROM teaching_assignments ta JOIN courses co ON co.id = ta.course_id
                                                  WHERE ta.teacher_id IN (SELECT id FROM me))) AS "wrongCount"`);
      return ok({ dateType, ...counts });
    },
  );
}
