// Menu badge statistics (SPEC §2.1, §7): what awaits the teacher (or the psychology teacher),
// counted from real rows.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../http/envelope';
import { rows } from '../../db/query';
import { allow } from '../../auth/plugin';
import { BADGE_ROLES } from '../../../src/domain/roles';
import { schoolRangeStart } from '../vesta/schoolTerm';
import { pinnedCount } from '../heartVoices/scope';

const navRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/wrongbook/v1.0/web/nav/getMenuBadge',
    {
      preHandler: allow({ roles: BADGE_ROLES }),
      schema: { querystring: Type.Object({ dateType: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])) }) },
    },
    async (request) => {
      const { dateType = 0 } = request.query;
      // The psychology teacher's badge: 学生心声 pinned as 高危 and not yet handled.
      if (request.principal.activeRole === 'psychologyteacher') {
        return ok({ dateType, heartCount: request.principal.schoolId ? await pinnedCount(app.db, request.principal.schoolId) : 0 });
      }
      const since = (await schoolRangeStart(app.db, request.principal.schoolId, dateType)).toISOString();
      const tenantId = request.principal.tenantId;
      const [counts] = await rows<{ correctCount: number; homeworkCount: number; wrongCount: number }>(app.db, sql`
        WITH me AS (SELECT id FROM teachers WHERE user_id = ${request.principal.userId}),
        taught AS (SELECT ta.class_id, ta.course_id FROM teaching_assignments ta WHERE ta.teacher_id IN (SELECT id FROM me)),
        -- The work given since the start of the range in the classes and courses the teacher teaches.
        work AS (
          SELECT h.source_type, h.id AS source_id, h.class_id FROM homeworks h
            JOIN taught t ON t.class_id = h.class_id AND t.course_id = h.course_id
           WHERE h.tenant_id = ${tenantId}::int AND h.assigned_at >= ${since}
          UNION ALL
          SELECT 2::smallint, e.id, ec.class_id FROM exam_classes ec JOIN exams e ON e.id = ec.exam_id
            JOIN taught t ON t.class_id = ec.class_id AND t.course_id = e.course_id
           WHERE ec.tenant_id = ${tenantId}::int AND e.exam_date >= ${since}::timestamptz
        )
        SELECT
          (SELECT count(*)::int FROM grading_tasks g WHERE g.teacher_id IN (SELECT id FROM me)
              AND g.status IN (1, 3) AND g.created_at >= ${since}) AS "correctCount",
          (SELECT coalesce(sum(h.pending_review), 0)::int FROM homeworks h WHERE h.teacher_id IN (SELECT id FROM me)
              AND h.assigned_at >= ${since}) AS "homeworkCount",
          -- Wrong answers on that work, from the per-class rollup (never a scan of the records).
          (SELECT coalesce(sum(s.answered - s.correct), 0)::int FROM work w JOIN work_question_stats s
              ON s.tenant_id = ${tenantId}::int AND s.source_type = w.source_type AND s.source_id = w.source_id AND s.class_id = w.class_id) AS "wrongCount"`);
      return ok({ dateType, ...counts });
    },
  );
};
export default navRoutes;
