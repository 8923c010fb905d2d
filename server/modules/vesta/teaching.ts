// The shell's lookups: classes, grades and courses a caller may pick in the header filters.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { forbidden, notFound, ok } from '../../http/envelope';
import { rows } from '../../db/query';
import { classScope, courseScope, tenantScope } from './scope';
import { Id } from '../../http/schemas';

const LeaderType = Type.Integer({ minimum: 0, maximum: 99 });

interface CourseRow {
  courseId: number;
  courseName: string;
  subjectId: number;
}

/**
 * Answers from the lookup cache (per user, role and query), or computes and keeps the answer.
 * A refusal (403/404) is thrown before anything is kept, so only answers the caller was allowed
 * to see are served again, and only to the same user in the same role.
 */
async function cachedLookup<T>(request: FastifyRequest, compute: () => Promise<T>): Promise<T> {
  const p = request.principal;
  if (p.tenantId === null) return compute();
  const key = `${p.userId}|${p.activeRole}|${request.url}`;
  const hit = request.server.lookups.get(p.tenantId, key);
  if (hit !== undefined) return hit as T;
  const data = await compute();
  request.server.lookups.set(p.tenantId, key, data);
  return data;
}

const teachingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/vesta/teaching/getTeachClass',
    { schema: { querystring: Type.Object({ leaderType: Type.Optional(LeaderType) }) } },
    async (request) => {
      const data = await cachedLookup(request, async () => {
        const { leaderType } = request.query;
        return rows(db, sql`
          SELECT c.id, c.grade_id AS "gradeId", c.name AS "className", g.name AS "gradeName"
            FROM classes c JOIN grades g ON g.id = c.grade_id
           WHERE ${classScope(request.principal, leaderType)} AND g.graduated_year IS NULL
           ORDER BY g.level, c.id`);
      });
      return ok(data);
    },
  );

  app.get(
    '/api/vesta/teaching/getGradeInSchool',
    { schema: { querystring: Type.Object({ schoolId: Type.Optional(Id), leaderType: Type.Optional(LeaderType) }) } },
    async (request) => {
      const data = await cachedLookup(request, async () => {
        const { schoolId, leaderType } = request.query;
        const p = request.principal;
        if (schoolId !== undefined && schoolId !== p.schoolId && p.activeRole !== 'regionResearcher') throw notFound('学校不存在');
        return rows(db, sql`
          SELECT g.id, g.name FROM grades g
           WHERE g.graduated_year IS NULL
             AND g.id IN (SELECT c.grade_id FROM classes c WHERE ${classScope(p, leaderType)})
             ${schoolId !== undefined ? sql`AND g.school_id = ${schoolId}` : sql``}
           ORDER BY g.level, g.id`);
      });
      return ok(data);
    },
  );

  app.get(
    '/api/vesta/class/getClassInSchool',
    { schema: { querystring: Type.Object({ schoolId: Type.Optional(Id), gradeId: Type.Optional(Id) }) } },
    async (request) => {
      const data = await cachedLookup(request, async () => {
        const { schoolId, gradeId } = request.query;
        const p = request.principal;
        if (schoolId !== undefined && schoolId !== p.schoolId) throw notFound('学校不存在');
        return rows(db, sql`
          SELECT c.id, c.name AS "className" FROM classes c
           WHERE ${classScope(p)} ${gradeId !== undefined ? sql`AND c.grade_id = ${gradeId}` : sql``}
           ORDER BY c.id`);
      });
      return ok(data);
    },
  );

  app.get(
    '/api/vesta/teaching/getCourseList',
    {
      schema: {
        querystring: Type.Object({
          // SPEC §7: classId is empty text when no class is chosen.
          classId: Type.Optional(Type.Union([Id, Type.Literal('')])),
          gradeId: Type.Optional(Type.Union([Id, Type.Literal('')])),
          leaderType: Type.Optional(LeaderType),
        }),
      },
    },
    async (request) => {
      const data = await cachedLookup(request, async () => {
        const q = request.query;
        const p = request.principal;
        const scope = classScope(p, q.leaderType);
        const classId = q.classId === '' ? undefined : q.classId;
        const gradeId = q.gradeId === '' ? undefined : q.gradeId;
        if (classId !== undefined) {
          const found = await rows(db, sql`SELECT 1 FROM classes c WHERE c.id = ${classId} AND ${scope}`);
          if (!found.length) throw notFound('班级不存在');
        }
        const ownOnly = ['teacher', 'mpTeacher', 'teaching'].includes(p.activeRole ?? '');
        return rows<CourseRow>(db, sql`
          SELECT DISTINCT co.id AS "courseId", co.name AS "courseName", co.subject_id AS "subjectId"
            FROM teaching_assignments ta
            JOIN classes c ON c.id = ta.class_id
            JOIN courses co ON co.id = ta.course_id
            ${ownOnly ? sql`JOIN teachers t ON t.id = ta.teacher_id AND t.user_id = ${p.userId}` : sql``}
           WHERE ${scope} AND ${courseScope(p)}
             ${classId !== undefined ? sql`AND c.id = ${classId}` : sql``}
             ${gradeId !== undefined ? sql`AND c.grade_id = ${gradeId}` : sql``}
           ORDER BY co.id`);
      });
      return ok(data);
    },
  );

  app.get('/api/vesta/teaching/getTeacherCourse', async (request) => {
    const data = await cachedLookup(request, () =>
      rows<CourseRow>(db, sql`
        SELECT DISTINCT co.id AS "courseId", co.name AS "courseName", co.subject_id AS "subjectId"
          FROM teaching_assignments ta
          JOIN teachers t ON t.id = ta.teacher_id
          JOIN courses co ON co.id = ta.course_id
         WHERE t.user_id = ${request.principal.userId}
         ORDER BY co.id`),
    );
    return ok(data);
  });

  app.get(
    '/api/vesta/teaching/getTeachCourse',
    { schema: { querystring: Type.Object({ teacherId: Type.Optional(Id), gradeId: Type.Optional(Id) }) } },
    async (request) => {
      const data = await cachedLookup(request, async () => {
        const { teacherId, gradeId } = request.query;
        const p = request.principal;
        const [teacher] = await rows<{ id: number; user_id: number; tenant_id: number; school_id: number }>(
          db,
          teacherId !== undefined
            ? sql`SELECT id, user_id, tenant_id, school_id FROM teachers WHERE id = ${teacherId} AND tenant_id = ${p.tenantId ?? -1}`
            : sql`SELECT id, user_id, tenant_id, school_id FROM teachers WHERE user_id = ${p.userId}`,
        );
        if (!teacher) throw notFound('教师不存在');
        const isAdmin = ['schoolAdmin', 'mpSchoolAdmin'].includes(p.activeRole ?? '') && teacher.school_id === p.schoolId;
        if (teacher.user_id !== p.userId && !isAdmin) throw forbidden();
        return rows<CourseRow>(db, sql`
          SELECT DISTINCT co.id AS "courseId", co.name AS "courseName", co.subject_id AS "subjectId"
            FROM teaching_assignments ta
            JOIN classes c ON c.id = ta.class_id
            JOIN courses co ON co.id = ta.course_id
           WHERE ta.teacher_id = ${teacher.id} ${gradeId !== undefined ? sql`AND c.grade_id = ${gradeId}` : sql``}
           ORDER BY co.id`);
      });
      return ok(data);
    },
  );

  app.get(
    '/api/vesta/teaching/getCourseByGradeId',
    { schema: { querystring: Type.Object({ gradeId: Id }) } },
    async (request) => {
      const data = await cachedLookup(request, async () => {
        const { gradeId } = request.query;
        const p = request.principal;
        // A researcher's grades are those of their region's schools, each in its own tenant.
        const grade = await rows(db, sql`SELECT 1 FROM grades WHERE id = ${gradeId} AND ${tenantScope(p, sql`tenant_id`)}`);
        if (!grade.length) throw notFound('年级不存在');
        return rows<CourseRow>(db, sql`
          SELECT DISTINCT co.id AS "courseId", co.name AS "courseName", co.subject_id AS "subjectId"
            FROM teaching_assignments ta
            JOIN classes c ON c.id = ta.class_id
            JOIN courses co ON co.id = ta.course_id
           WHERE ${classScope(p)} AND c.grade_id = ${gradeId} AND ${courseScope(p)}
           ORDER BY co.id`);
      });
      return ok(data);
    },
  );
};
export default teachingRoutes;
