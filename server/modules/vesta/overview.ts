// The school data overview (/school-dashboard): counts of the caller's school, per grade, from the
// same tables the lists read, so the board never disagrees with the lists behind it.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../http/envelope';
import { StudentStatus } from '../../../src/domain/schoolYear';
import { rows } from '../../db/query';
import { adminOnly, checkSchoolId } from './access';
import { Id } from '../../http/schemas';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { SchoolOverviewSchema, type GradeOverview } from '../../../src/domain/school';

const overviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/vesta/school/overview',
    {
      preHandler: adminOnly,
      schema: { querystring: Type.Object({ schoolId: Type.Optional(Id) }), response: { 200: EnvelopeSchema(SchoolOverviewSchema) } },
    },
    async (request) => {
      const s = checkSchoolId(request.principal, request.query.schoolId);
      const perGrade = await rows<GradeOverview>(db, sql`
        SELECT g.id AS "gradeId", g.name AS "gradeName", g.level, g.graduated_year AS "graduatedYear",
               (SELECT count(*)::int FROM classes c WHERE c.grade_id = g.id) AS "classCount",
               count(st.id)::int AS "studentCount",
               count(st.id) FILTER (WHERE st.binding_status = 1)::int AS "boundCount",
               count(st.id) FILTER (WHERE st.binding_status = 0)::int AS "unboundCount"
          FROM grades g
          LEFT JOIN classes c ON c.grade_id = g.id
          LEFT JOIN students st ON st.class_id = c.id AND st.status IN (${StudentStatus.enrolled}, ${StudentStatus.graduated})
         WHERE g.tenant_id = ${s.tenantId} AND g.school_id = ${s.schoolId}
         GROUP BY g.id
         ORDER BY g.graduated_year DESC NULLS FIRST, g.level, g.id`);
      const [totals] = await rows<{ studentCount: number; boundCount: number; graduatedCount: number; teacherCount: number }>(db, sql`
        SELECT (SELECT count(*)::int FROM students WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId} AND status = 0) AS "studentCount",
               (SELECT count(*)::int FROM students WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId} AND status = 0 AND binding_status = 1) AS "boundCount",
               (SELECT count(*)::int FROM students WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId} AND status = 1) AS "graduatedCount",
               (SELECT count(*)::int FROM teachers WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}) AS "teacherCount"`);
      const current = perGrade.filter((g) => g.graduatedYear === null);
      return ok({
        gradeCount: current.length,
        classCount: current.reduce((n, g) => n + g.classCount, 0),
        studentCount: totals.studentCount,
        teacherCount: totals.teacherCount,
        boundCount: totals.boundCount,
        unboundCount: totals.studentCount - totals.boundCount,
        graduatedCount: totals.graduatedCount,
        grades: perGrade,
      });
    },
  );
};
export default overviewRoutes;
