// 角色任命: the school admin appoints 校长, 年级组长 (a grade), 学科组长 (a subject, in some or all
// grades), 心理教师 and 班主任 (a class), and takes them away. A role is a user_roles row, its scope
// leader_scopes rows; both are read on every request (auth/principal.ts, ./scope.ts), and the
// caller's cached session is evicted, so a change applies at the holder's next request.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { APPOINTED_ROLE_NAMES, APPOINTED_ROLES, SIGN_IN_APPOINTED_ROLES, TEACHER_STATUS_NAMES, TeacherStatus, type AppointedRole } from '../../../src/domain/roles';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { isUniqueViolation } from '../../db/errors';
import { rows } from '../../db/query';
import { leaderScopes, userRoles } from '../../db/schema';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { recordAudit } from '../audit/record';
import { adminOnly, findClass, findGrade, findTeacher, idList, schoolOf, type SchoolRef } from './access';

const RoleName = Type.Union(APPOINTED_ROLES.map((r) => Type.Literal(r)));

export const roleKey = (role: AppointedRole) => `xz:${role}`;

export interface ScopeRow {
  scopeId: number;
  userId: number;
  role: AppointedRole;
  gradeId: number | null;
  gradeName: string | null;
  subjectId: number | null;
  subjectName: string | null;
  classId: number | null;
  className: string | null;
}

/** 七年级 · 数学 · 全部年级 · 七(1)班: what one scope row covers, as the admin reads it. */
export function scopeLabel(s: Pick<ScopeRow, 'role' | 'gradeName' | 'subjectName' | 'className'>): string {
  if (s.role === 'gradeLeader') return s.gradeName ?? '';
  if (s.role === 'subjectleader') return `${s.subjectName ?? ''} · ${s.gradeName ?? '全部年级'}`;
  if (s.role === 'headTeacher') return s.className ?? '';
  return '全校';
}

/** Every scope row of the school's users (or of one user). */
export async function scopesOf(db: Db, s: SchoolRef, userId?: number): Promise<(ScopeRow & { label: string })[]> {
  const list = await rows<ScopeRow>(db, sql`
    SELECT ls.id AS "scopeId", ls.user_id AS "userId", ls.role, ls.grade_id AS "gradeId", g.name AS "gradeName",
           ls.subject_id AS "subjectId", su.name AS "subjectName", ls.class_id AS "classId", c.name AS "className"
      FROM leader_scopes ls JOIN users u ON u.id = ls.user_id
      LEFT JOIN grades g ON g.id = ls.grade_id LEFT JOIN subjects su ON su.id = ls.subject_id
      LEFT JOIN classes c ON c.id = ls.class_id LEFT JOIN grades cg ON cg.id = c.grade_id
     WHERE ls.tenant_id = ${s.tenantId} AND u.school_id = ${s.schoolId} ${userId !== undefined ? sql`AND ls.user_id = ${userId}` : sql``}
     ORDER BY ls.role, g.level NULLS FIRST, su.id, cg.level, c.id`);
  return list.map((r) => ({ ...r, label: scopeLabel(r) }));
}

/** The appointed sign-in roles of the school's users (or of one user). */
async function roleRowsOf(db: Db, s: SchoolRef, userId?: number) {
  return rows<{ userId: number; role: AppointedRole }>(db, sql`
    SELECT ur.user_id AS "userId", substr(ur.role_key, 4) AS role FROM user_roles ur JOIN users u ON u.id = ur.user_id
     WHERE u.tenant_id = ${s.tenantId} AND u.school_id = ${s.schoolId}
       AND ur.role_key IN ${idList(SIGN_IN_APPOINTED_ROLES.map(roleKey))}
       ${userId !== undefined ? sql`AND ur.user_id = ${userId}` : sql``}
     ORDER BY ur.id`);
}

export interface HeldRole {
  role: AppointedRole;
  roleName: string;
  scopes: { scopeId: number; label: string; gradeId: number | null; subjectId: number | null; classId: number | null }[];
}

/** One user's appointed roles with their scopes (班主任 appears when they head a class). */
export async function heldRoles(db: Db, s: SchoolRef, userId: number): Promise<HeldRole[]> {
  const [roleRows, scopes] = await Promise.all([roleRowsOf(db, s, userId), scopesOf(db, s, userId)]);
  const roles = new Set<AppointedRole>([...roleRows.map((r) => r.role), ...scopes.map((x) => x.role)]);
  return APPOINTED_ROLES.filter((r) => roles.has(r)).map((role) => ({
    role,
    roleName: APPOINTED_ROLE_NAMES[role],
    scopes: scopes.filter((x) => x.role === role).map(({ scopeId, label, gradeId, subjectId, classId }) => ({ scopeId, label, gradeId, subjectId, classId })),
  }));
}

/** A user of the caller's school, by id; another school's user is not found. */
async function findSchoolUser(db: Db, p: Principal, userId: number) {
  const s = schoolOf(p);
  const [user] = await rows<{ id: number; name: string; teacherId: number | null }>(db, sql`
    SELECT u.id, u.name, t.id AS "teacherId" FROM users u LEFT JOIN teachers t ON t.user_id = u.id
     WHERE u.id = ${userId} AND u.tenant_id = ${s.tenantId} AND u.school_id = ${s.schoolId}`);
  if (!user) throw notFound('人员不存在');
  return user;
}

/** A subject the school teaches (a course of it exists). */
async function findSubject(db: Db, s: SchoolRef, subjectId: number) {
  const [subject] = await rows<{ id: number; name: string }>(db, sql`
    SELECT su.id, su.name FROM subjects su
     WHERE su.id = ${subjectId} AND EXISTS (SELECT 1 FROM courses co WHERE co.subject_id = su.id AND co.tenant_id = ${s.tenantId} AND co.school_id = ${s.schoolId})`);
  if (!subject) throw notFound('学科不存在');
  return subject;
}

const AppointBody = Type.Object({
  teacherId: Id,
  role: RoleName,
  gradeId: Type.Optional(Id),
  /** 学科组长: the grades led; none means every grade. */
  gradeIds: Type.Optional(Type.Array(Id, { maxItems: 20 })),
  subjectId: Type.Optional(Id),
  classId: Type.Optional(Id),
});

const DismissBody = Type.Object({
  userId: Id,
  role: RoleName,
  /** One scope of the role; without it the role is taken away with every scope. */
  scopeId: Type.Optional(Id),
});

const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/vesta/role/holders', { preHandler: adminOnly }, async (request) => {
    const s = schoolOf(request.principal);
    const [roleRows, scopes, people] = await Promise.all([
      roleRowsOf(db, s),
      scopesOf(db, s),
      rows<{ userId: number; name: string; teacherId: number | null; phone: string | null; status: number | null }>(db, sql`
        SELECT u.id AS "userId", u.name, t.id AS "teacherId", t.phone, t.status FROM users u LEFT JOIN teachers t ON t.user_id = u.id
         WHERE u.tenant_id = ${s.tenantId} AND u.school_id = ${s.schoolId}
           AND (u.id IN (SELECT user_id FROM leader_scopes WHERE tenant_id = ${s.tenantId})
                OR u.id IN (SELECT user_id FROM user_roles WHERE role_key IN ${idList(SIGN_IN_APPOINTED_ROLES.map(roleKey))}))`),
    ]);
    const person = new Map(people.map((u) => [u.userId, u]));
    const data = APPOINTED_ROLES.map((role) => {
      const userIds = [...new Set([...roleRows.filter((r) => r.role === role).map((r) => r.userId), ...scopes.filter((x) => x.role === role).map((x) => x.userId)])];
      return {
        role,
        roleName: APPOINTED_ROLE_NAMES[role],
        holders: userIds
          .filter((id) => person.has(id))
          .map((id) => ({
            ...person.get(id)!,
            scopes: scopes.filter((x) => x.role === role && x.userId === id).map(({ scopeId, label, gradeId, subjectId, classId }) => ({ scopeId, label, gradeId, subjectId, classId })),
          })),
      };
    });
    return ok(data);
  });

  app.get('/api/vesta/role/ofTeacher', { preHandler: adminOnly, schema: { querystring: Type.Object({ teacherId: Id }) } }, async (request) => {
    const p = request.principal;
    const teacher = await findTeacher(db, p, request.query.teacherId);
    const classes = await rows(db, sql`
      SELECT c.id AS "classId", c.name AS "className", g.name AS "gradeName", co.id AS "courseId", co.name AS "courseName"
        FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN grades g ON g.id = c.grade_id JOIN courses co ON co.id = ta.course_id
       WHERE ta.teacher_id = ${teacher.id} ORDER BY g.level, c.id, co.id`);
    return ok({ teacherId: teacher.id, userId: teacher.userId, name: teacher.name, roles: await heldRoles(db, schoolOf(p), teacher.userId), classes });
  });

  app.post('/api/vesta/role/appoint', { preHandler: adminOnly, schema: { body: AppointBody } }, async (request) => {
    const body = request.body;
    const p = request.principal;
    const s = schoolOf(p);
    const teacher = await findTeacher(db, p, body.teacherId);
    if (teacher.status !== TeacherStatus.active) throw conflict(`教师${teacher.name}已${TEACHER_STATUS_NAMES[teacher.status as TeacherStatus]}，不能任命`);
    const roleName = APPOINTED_ROLE_NAMES[body.role];

    // What the appointment covers: one scope row each, none for a whole-school role.
    const scopes: { gradeId?: number; subjectId?: number; classId?: number; label: string }[] = [];
    if (body.role === 'gradeLeader') {
      if (body.gradeId === undefined) throw badRequest('请选择年级');
      const grade = await findGrade(db, p, body.gradeId);
      if (grade.graduatedYear !== null) throw conflict(`${grade.name}已毕业，不能任命年级组长`);
      scopes.push({ gradeId: grade.id, label: grade.name });
    } else if (body.role === 'subjectleader') {
      if (body.subjectId === undefined) throw badRequest('请选择学科');
      const subject = await findSubject(db, s, body.subjectId);
      const gradeIds = [...new Set(body.gradeIds ?? (body.gradeId !== undefined ? [body.gradeId] : []))];
      if (!gradeIds.length) scopes.push({ subjectId: subject.id, label: `${subject.name} · 全部年级` });
      for (const gradeId of gradeIds) {
        const grade = await findGrade(db, p, gradeId);
        scopes.push({ subjectId: subject.id, gradeId: grade.id, label: `${subject.name} · ${grade.name}` });
      }
    } else if (body.role === 'headTeacher') {
      if (body.classId === undefined) throw badRequest('请选择班级');
      const c = await findClass(db, p, body.classId);
      if (c.graduatedYear !== null) throw conflict(`${c.gradeName}已毕业，不能任命班主任`);
      scopes.push({ classId: c.id, label: c.name });
    }

    const summary = await db.transaction(async (tx) => {
      const existing = await scopesOf(tx, s, teacher.userId);
      let replaced = '';
      if (body.role === 'headTeacher') {
        // One 班主任 per class: appointing another hands the class over.
        const [previous] = await rows<{ id: number; userId: number; name: string }>(tx, sql`
          SELECT ls.id, ls.user_id AS "userId", u.name FROM leader_scopes ls JOIN users u ON u.id = ls.user_id
           WHERE ls.role = 'headTeacher' AND ls.class_id = ${scopes[0].classId!}`);
        if (previous?.userId === teacher.userId) throw conflict(`${teacher.name}已是${scopes[0].label}的班主任`);
        if (previous) {
          await tx.delete(leaderScopes).where(eq(leaderScopes.id, previous.id));
          replaced = `（原班主任 ${previous.name}）`;
        }
      } else {
        const [{ held }] = await rows<{ held: number }>(tx, sql`SELECT count(*)::int AS held FROM user_roles WHERE user_id = ${teacher.userId} AND role_key = ${roleKey(body.role)}`);
        const fresh = scopes.filter((x) => !existing.some((e) => e.role === body.role && e.gradeId === (x.gradeId ?? null) && e.subjectId === (x.subjectId ?? null)));
        if (held && (scopes.length === 0 || fresh.length === 0)) throw conflict(`${teacher.name}已是${scopes.length ? `${scopes.map((x) => x.label).join('、')}的` : ''}${roleName}`);
        scopes.splice(0, scopes.length, ...fresh);
        await tx.insert(userRoles).values({ tenantId: s.tenantId, userId: teacher.userId, roleKey: roleKey(body.role) }).onConflictDoNothing();
      }
      if (scopes.length) {
        await tx.insert(leaderScopes).values(scopes.map(({ label: _label, ...x }) => ({ tenantId: s.tenantId, userId: teacher.userId, role: body.role, createdBy: p.userId, ...x })));
      }
      const text = `任命 ${teacher.name} 为${scopes.length ? ` ${scopes.map((x) => x.label).join('、')} 的` : ''}${roleName}${replaced}`;
      await recordAudit(tx, request, { action: 'appoint', kind: 'role', recordId: teacher.id, summary: text });
      return text;
    }).catch((err) => {
      // Two admins appointing a 班主任 of the same class at once: the second is told, not failed.
      if (isUniqueViolation(err)) throw conflict(`${scopes[0]?.label ?? ''}的班主任刚刚已被任命，请刷新后重试`);
      throw err;
    });
    await app.principals.evictUser(teacher.userId);
    return ok({ teacherId: teacher.id, userId: teacher.userId, roles: await heldRoles(db, s, teacher.userId) }, summary.replace(/^任命/, '已任命'));
  });

  app.post('/api/vesta/role/dismiss', { preHandler: adminOnly, schema: { body: DismissBody } }, async (request) => {
    const body = request.body;
    const p = request.principal;
    const s = schoolOf(p);
    const user = await findSchoolUser(db, p, body.userId);
    const summary = await db.transaction(async (tx) => {
      const text = await dismiss(tx, s, user, body.role, body.scopeId);
      await recordAudit(tx, request, { action: 'dismiss', kind: 'role', recordId: user.teacherId ?? user.id, summary: text });
      return text;
    });
    await app.principals.evictUser(user.id);
    return ok({ userId: user.id, roles: await heldRoles(db, s, user.id) }, summary.replace(/^免去/, '已免去'));
  });
};

/**
 * Takes a role (or one scope of it) away from a user, inside the caller's transaction; the role
 * row goes with its last scope. Returns the log's sentence. Refuses a role the user does not hold.
 */
export async function dismiss(tx: Db, s: SchoolRef, user: { id: number; name: string }, role: AppointedRole, scopeId?: number): Promise<string> {
  const roleName = APPOINTED_ROLE_NAMES[role];
  const scopes = (await scopesOf(tx, s, user.id)).filter((x) => x.role === role && (scopeId === undefined || x.scopeId === scopeId));
  if (scopeId !== undefined && !scopes.length) throw notFound('该任命不存在');
  if (scopes.length) await tx.delete(leaderScopes).where(inArray(leaderScopes.id, scopes.map((x) => x.scopeId)));
  let roleRemoved = false;
  if (role !== 'headTeacher') {
    const [{ left }] = await rows<{ left: number }>(tx, sql`SELECT count(*)::int AS left FROM leader_scopes WHERE user_id = ${user.id} AND role = ${role}`);
    if (left === 0) {
      const gone = await tx.delete(userRoles).where(and(eq(userRoles.userId, user.id), eq(userRoles.roleKey, roleKey(role)))).returning({ id: userRoles.id });
      roleRemoved = gone.length > 0;
    }
  }
  if (!scopes.length && !roleRemoved) throw notFound(`${user.name}不是${roleName}`);
  return `免去 ${user.name} ${scopes.length ? `${scopes.map((x) => x.label).join('、')} 的` : '的'}${roleName}`;
}

export default roleRoutes;
