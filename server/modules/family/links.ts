// 家长查看链接, the staff side: issue (the link is answered once, with its token), list and revoke a
// student's links. Issuing and revoking are written to 操作日志 in the same transaction.
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FAMILY_LIMITS, type FamilyLinkOptions, type FamilyLinkRow, type IssuedFamilyLink } from '../../../src/domain/family';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { badRequest, conflict, forbidden, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { recordAudit, someNames } from '../audit/record';
import { adminOrTeacher } from '../vesta/access';
import { familyPath, staffStudent, tokenHash, type StaffStudent } from './access';

export const FAMILY_BASE = '/api/family/v1.0';

const LINK_COLUMNS = sql`l.id, l.student_id AS "studentId", l.course_id AS "courseId", coalesce(co.name, '全部课程') AS "scopeName", l.label,
  l.created_by_name AS "createdByName", ${isoTime(sql`l.created_at`)} AS "createdAt", ${isoTime(sql`l.expires_at`)} AS "expiresAt",
  ${isoTime(sql`l.revoked_at`)} AS "revokedAt",
  CASE WHEN l.revoked_at IS NOT NULL THEN 'revoked' WHEN l.expires_at <= now() THEN 'expired' ELSE 'live' END AS state,
  (SELECT count(*)::int FROM family_link_views v WHERE v.link_id = l.id) AS views,
  ${isoTime(sql`(SELECT max(v.viewed_at) FROM family_link_views v WHERE v.link_id = l.id)`)} AS "lastViewedAt"`;

/** The links of a student the caller may see: an admin all, a teacher those of their courses or their own. */
const visibleLinks = (s: StaffStudent, userId: number) =>
  s.courseIds === null ? sql`TRUE` : sql`(l.course_id IN (${sql.join(s.courseIds.map((id) => sql`${id}`), sql`, `)}) OR l.created_by = ${userId})`;

async function linkRows(db: Db, where: SQL): Promise<FamilyLinkRow[]> {
  return rows<FamilyLinkRow>(db, sql`
    SELECT ${LINK_COLUMNS} FROM family_links l LEFT JOIN courses co ON co.id = l.course_id
     WHERE ${where} ORDER BY l.created_at DESC, l.id DESC`);
}

/**
 * Issues one link per student (a student at the live-link limit is refused, in the same
 * transaction), with one 操作日志 entry, and answers their tokens. Also used when a 错题卷 is printed
 * with each student's QR code (wrongbook/volumePaper.ts).
 */
export async function issueFamilyLinks(
  db: Db,
  request: FastifyRequest,
  o: { tenantId: number; schoolId: number; courseId: number | null; courseName: string; label: string; days: number; students: { id: number; name: string; studentNo: string }[] },
): Promise<{ studentId: number; id: number; token: string }[]> {
  const ids = o.students.map((st) => sql`${st.id}`);
  const [full] = await rows<{ name: string; live: number }>(db, sql`
    SELECT st.name, count(*)::int AS live FROM family_links l JOIN students st ON st.id = l.student_id
     WHERE l.tenant_id = ${o.tenantId} AND l.student_id IN (${sql.join(ids, sql`, `)}) AND l.revoked_at IS NULL AND l.expires_at > now()
     GROUP BY st.id, st.name HAVING count(*) >= ${FAMILY_LIMITS.livePerStudent} LIMIT 1`);
  if (full) throw conflict(`${o.students.length > 1 ? `学生 ${full.name} ` : '该学生'}已有 ${full.live} 个有效链接，请先撤销不用的链接`);
  const made = o.students.map((st) => ({ studentId: st.id, token: randomBytes(32).toString('base64url') }));
  return db.transaction(async (tx) => {
    const inserted = await rows<{ id: number; studentId: number }>(tx, sql`
      INSERT INTO family_links (tenant_id, school_id, student_id, course_id, label, token_hash, created_by, created_by_name, expires_at)
      VALUES ${sql.join(
        made.map((m) => sql`(${o.tenantId}, ${o.schoolId}, ${m.studentId}, ${o.courseId}, ${o.label}, ${tokenHash(m.token)}, ${request.principal.userId}, ${request.principal.name}, now() + make_interval(days => ${o.days}))`),
        sql`, `,
      )}
      RETURNING id, student_id AS "studentId"`);
    const one = o.students.length === 1 ? o.students[0] : null;
    const extra = `${o.courseName}，${o.days} 天有效${o.label ? `，${o.label}` : ''}`;
    await recordAudit(tx, request, {
      action: 'issue',
      kind: 'familyLink',
      recordId: one ? inserted[0].id : null,
      summary: one
        ? `为学生 ${one.name}（${one.studentNo}）生成家长查看链接（${extra}）`
        : `为学生 ${o.students.length} 名生成家长查看链接（${extra}）：${someNames(o.students.map((st) => st.name))}`,
    });
    return made.map((m) => ({ ...m, id: inserted.find((r) => r.studentId === m.studentId)!.id }));
  });
}

const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post(
    `${FAMILY_BASE}/links`,
    {
      preHandler: adminOrTeacher,
      schema: {
        body: Type.Object(
          {
            studentId: Id,
            courseId: Type.Optional(Id),
            label: Type.Optional(Type.String({ maxLength: FAMILY_LIMITS.labelMax })),
            days: Type.Optional(Type.Integer({ minimum: 1, maximum: FAMILY_LIMITS.maxDays })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const b = request.body;
      const p = request.principal;
      const s = await staffStudent(db, p, b.studentId);
      if (s.classId === null) throw badRequest('该学生未分班，无法生成家长查看链接');
      let courseName = '全部课程';
      if (b.courseId === undefined) {
        if (s.courseIds !== null) throw forbidden('任课教师只能为自己任教的课程生成链接，请选择课程');
      } else {
        if (s.courseIds !== null && !s.courseIds.includes(b.courseId)) throw forbidden('您未在该学生所在班级任教这门课程');
        const [course] = await rows<{ name: string }>(db, sql`SELECT name FROM courses WHERE id = ${b.courseId} AND tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}`);
        if (!course) throw notFound('课程不存在');
        courseName = course.name;
      }
      const [{ token, id }] = await issueFamilyLinks(db, request, {
        tenantId: s.tenantId,
        schoolId: s.schoolId,
        courseId: b.courseId ?? null,
        courseName,
        label: (b.label ?? '').trim(),
        days: b.days ?? FAMILY_LIMITS.defaultDays,
        students: [s],
      });
      const [link] = await linkRows(db, sql`l.id = ${id}`);
      const issued: IssuedFamilyLink = { ...link, path: familyPath(token) };
      return ok(issued, '链接已生成');
    },
  );

  app.get(
    `${FAMILY_BASE}/links`,
    { preHandler: adminOrTeacher, schema: { querystring: Type.Object({ studentId: Id }, { additionalProperties: false }) } },
    async (request) => {
      const s = await staffStudent(db, request.principal, request.query.studentId);
      // The courses a link may cover: those taught in the student's class, a teacher's own only.
      const courses = await rows<{ courseId: number; courseName: string }>(db, sql`
        SELECT DISTINCT co.id AS "courseId", co.name AS "courseName", co.subject_id FROM teaching_assignments ta JOIN courses co ON co.id = ta.course_id
         WHERE ta.tenant_id = ${s.tenantId} AND ta.class_id = ${s.classId ?? -1}
           ${s.courseIds === null ? sql`` : sql`AND co.id IN (${sql.join(s.courseIds.map((id) => sql`${id}`), sql`, `)})`}
         ORDER BY co.subject_id, co.id`);
      const links = await linkRows(db, sql`l.tenant_id = ${s.tenantId} AND l.student_id = ${s.id} AND ${visibleLinks(s, request.principal.userId)}`);
      const options: FamilyLinkOptions = {
        student: { name: s.name, studentNo: s.studentNo },
        courses: courses.map(({ courseId, courseName }) => ({ courseId, courseName })),
        allCourses: s.courseIds === null,
        defaultDays: FAMILY_LIMITS.defaultDays,
        links,
      };
      return ok(options);
    },
  );

  app.post(
    `${FAMILY_BASE}/links/:linkId/revoke`,
    { preHandler: adminOrTeacher, schema: { params: Type.Object({ linkId: Id }) } },
    async (request) => {
      const p = request.principal;
      const [found] = await rows<{ studentId: number }>(db, sql`
        SELECT student_id AS "studentId" FROM family_links WHERE id = ${request.params.linkId} AND tenant_id = ${p.tenantId ?? -1}`);
      if (!found) throw notFound('链接不存在');
      const s = await staffStudent(db, p, found.studentId);
      const [link] = await linkRows(db, sql`l.id = ${request.params.linkId} AND ${visibleLinks(s, p.userId)}`);
      if (!link) throw notFound('链接不存在');
      if (link.revokedAt) return ok(link, '链接已撤销');
      await db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE family_links SET revoked_at = now(), revoked_by = ${p.userId} WHERE id = ${link.id} AND revoked_at IS NULL`);
        await recordAudit(tx, request, {
          action: 'revoke',
          kind: 'familyLink',
          recordId: link.id,
          summary: `撤销学生 ${s.name}（${s.studentNo}）的家长查看链接（${link.scopeName}${link.label ? `，${link.label}` : ''}）`,
        });
      });
      const [after] = await linkRows(db, sql`l.id = ${link.id}`);
      return ok(after, '链接已撤销');
    },
  );
};
export default linkRoutes;
