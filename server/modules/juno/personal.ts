// The signed-in user: role list (SPEC §7 myRoles), general user info (SPEC §3), and the app flags.
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope';
import { partners, schools, teachers } from '../../db/schema';
import { DEFAULT_ZONE, isTimeZone } from '../../../src/domain/format';
import { ROLE_NAMES, isRole, roleFromKey } from '../../../src/domain/roles';

export default async function personalRoutes(app: FastifyInstance) {
  app.get('/api/app/config', { config: { public: true } }, async () =>
    ok({ classicTeacher: app.config.classicTeacher, classicAdmin: app.config.classicAdmin }),
  );

  app.get('/api/juno/personal/myRoles', async (request) => {
    const data = request.principal.roleKeys.map((roleKey) => {
      const role = roleFromKey(roleKey);
      return { roleKey, roleName: isRole(role) ? ROLE_NAMES[role] : role };
    });
    return ok(data);
  });

  app.get('/api/juno/personal/info', async (request) => {
    const p = request.principal;
    const [school] = p.schoolId ? await app.db.select().from(schools).where(eq(schools.id, p.schoolId)) : [];
    const [partner] = p.partnerId ? await app.db.select().from(partners).where(eq(partners.id, p.partnerId)) : [];
    const [teacher] = await app.db.select({ id: teachers.id }).from(teachers).where(eq(teachers.userId, p.userId));
    const { rows: courseRows } = (await app.db.execute(sql`
      SELECT DISTINCT c.id AS "courseId", c.name AS "courseName", c.subject_id AS "subjectId"
        FROM teaching_assignments ta JOIN courses c ON c.id = ta.course_id
       WHERE ta.teacher_id = ${teacher?.id ?? -1}
       ORDER BY c.id`)) as unknown as { rows: { courseId: number; courseName: string; subjectId: number }[] };
    const { rows: gradeRows } = (await app.db.execute(sql`
      SELECT id AS "gradeId", name AS "gradeName" FROM grades
       WHERE school_id = ${p.schoolId ?? -1} AND graduated_year IS NULL ORDER BY level`)) as unknown as {
      rows: { gradeId: number; gradeName: string }[];
    };
    return ok({
      id: p.userId,
      userId: p.userId,
      teacherId: teacher?.id ?? null,
      name: p.name,
      userName: p.username,
      full_name: p.name,
      nick_name: null,
      user_name: p.username,
      account_name: p.username,
      tenantId: p.tenantId,
      schoolId: school?.id ?? null,
      schoolName: school?.name ?? null,
      // The clock the web app shows times on: the school's zone, China time without a school.
      timeZone: isTimeZone(school?.timeZone) ? school.timeZone : DEFAULT_ZONE,
      schoolArea: school?.region ?? p.region,
      regionName: p.region,
      schoolGrade: gradeRows,
      courses: courseRows,
      ancestors: partner?.ancestors ?? null,
      partnerName: partner?.name ?? null,
    });
  });
}
