// The platform admin's way into any school's 班级错题本 (/without/common): the schools, a school's
// current classes and courses for the school → class → course picker, and the class lookup the
// class book uses for the admin. The platform admin belongs to no tenant, so every other lookup
// (vesta/access.ts) refuses it; these name the admin explicitly and serve no other role.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import type { ClassRow } from '../vesta/access';

export const isPlatformAdmin = (p: Principal) => p.activeRole === 'admin';
const platformOnly = allow({ roles: ['admin'] });
/** A picker lists at most this many schools; the platform serves far fewer. */
const MAX_SCHOOLS = 1000;

/** Any school's class with its course, for the platform admin: both must be of the same school. */
export async function findClassForPlatform(db: Db, classId: number, courseId: number): Promise<{ tenantId: number; cls: ClassRow }> {
  const [row] = await rows<ClassRow & { tenantId: number; schoolId: number }>(db, sql`
    SELECT c.id, c.name, c.grade_id AS "gradeId", g.name AS "gradeName", g.graduated_year AS "graduatedYear",
           c.tenant_id AS "tenantId", c.school_id AS "schoolId"
      FROM classes c JOIN grades g ON g.id = c.grade_id
     WHERE c.id = ${classId}`);
  if (!row) throw notFound('班级不存在');
  const [course] = await rows(db, sql`SELECT 1 FROM courses WHERE id = ${courseId} AND tenant_id = ${row.tenantId} AND school_id = ${row.schoolId}`);
  if (!course) throw notFound('课程不存在');
  const { tenantId, schoolId: _schoolId, ...cls } = row;
  return { tenantId, cls };
}

async function findSchool(db: Db, schoolId: number): Promise<void> {
  const [school] = await rows(db, sql`SELECT 1 FROM schools WHERE id = ${schoolId}`);
  if (!school) throw notFound('学校不存在');
}

const SchoolQuery = Type.Object({ schoolId: Id }, { additionalProperties: false });

const platformRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const BASE = '/api/wrongbook/v1.0/platform';

  app.get(`${BASE}/schools`, { preHandler: platformOnly }, async () =>
    ok(await rows(db, sql`SELECT id, name, region FROM schools ORDER BY region, name, id LIMIT ${MAX_SCHOOLS}`)),
  );

  // Current classes only: a graduated class's book is read from its school, not from the picker.
  app.get(`${BASE}/classes`, { preHandler: platformOnly, schema: { querystring: SchoolQuery } }, async (request) => {
    const { schoolId } = request.query;
    await findSchool(db, schoolId);
    return ok(
      await rows(db, sql`
        SELECT c.id, c.name AS "className", g.id AS "gradeId", g.name AS "gradeName"
          FROM classes c JOIN grades g ON g.id = c.grade_id
         WHERE c.school_id = ${schoolId} AND g.graduated_year IS NULL
         ORDER BY g.level, c.name, c.id`),
    );
  });

  app.get(`${BASE}/courses`, { preHandler: platformOnly, schema: { querystring: SchoolQuery } }, async (request) => {
    const { schoolId } = request.query;
    await findSchool(db, schoolId);
    return ok(await rows(db, sql`SELECT id AS "courseId", name AS "courseName" FROM courses WHERE school_id = ${schoolId} ORDER BY subject_id, id`));
  });
};
export default platformRoutes;
