// A teacher's account over time: initial passwords for a batch of new accounts (printed one sheet
// per class, changed at first sign-in), and 停用 / 离职 / 恢复在职. A teacher who stops or leaves
// cannot sign in; one who leaves hands every class and course over, and the records that name her
// (homework, grading, logs) keep her name, because her teachers row stays.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TEACHER_STATUS_NAMES, TeacherStatus } from '../../../src/domain/roles';
import { generatePassword, hashPassword } from '../../auth/passwords';
import { clearAccount } from '../../auth/signInLimits';
import { isUniqueViolation } from '../../db/errors';
import { rows } from '../../db/query';
import { leaderScopes, sessions, teachers, teachingAssignments, users } from '../../db/schema';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { recordAudit, someNames } from '../audit/record';
import { adminOnly, findTeacher, idList, schoolOf } from './access';
import { dismiss, heldRoles } from './roles';

/** Most accounts one batch opens: each password is hashed with argon2, slow on purpose. */
export const PASSWORD_BATCH_MAX = 200;

const Handover = Type.Object({ classId: Id, courseId: Id, toTeacherId: Id });
const HeadTeacherHandover = Type.Object({ classId: Id, toTeacherId: Type.Union([Id, Type.Null()]) });

const StatusBody = Type.Object({
  teacherId: Id,
  status: Type.Union([Type.Literal(TeacherStatus.active), Type.Literal(TeacherStatus.disabled), Type.Literal(TeacherStatus.left)]),
  /** Who takes each class and course over; 离职 needs one for every class and course she teaches. */
  handovers: Type.Optional(Type.Array(Handover, { maxItems: 200 })),
  /** Who becomes 班主任 of each class she heads (null: nobody for now). */
  headTeachers: Type.Optional(Type.Array(HeadTeacherHandover, { maxItems: 50 })),
});

interface Binding {
  id: number;
  classId: number;
  courseId: number;
  label: string;
}

const teacherAccountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  /** Every teacher of the school with whether the account was ever opened, and their classes: the batch's choices. */
  app.get('/api/vesta/teacher/accounts', { preHandler: adminOnly }, async (request) => {
    const s = schoolOf(request.principal);
    const data = await rows(db, sql`
      SELECT t.id AS "teacherId", t.name, t.phone, u.username,
             -- Imported accounts have no password until one is given (teachers.ts LOCKED_PASSWORD).
             (u.password_hash = '!locked') AS "awaitingPassword", u.must_change_password AS "mustChangePassword",
             COALESCE((SELECT json_agg(DISTINCT g.name || c.name) FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id
                        JOIN grades g ON g.id = c.grade_id WHERE ta.teacher_id = t.id), '[]'::json) AS classes
        FROM teachers t JOIN users u ON u.id = t.user_id
       WHERE t.tenant_id = ${s.tenantId} AND t.school_id = ${s.schoolId} AND t.status = ${TeacherStatus.active}
       ORDER BY (u.password_hash = '!locked') DESC, t.id`);
    return ok(data);
  });

  app.post(
    '/api/vesta/teacher/initialPasswords',
    {
      preHandler: adminOnly,
      config: { fieldLabels: { teacherIds: '教师' } },
      schema: { body: Type.Object({ teacherIds: Type.Array(Id, { minItems: 1, maxItems: PASSWORD_BATCH_MAX }) }) },
    },
    async (request) => {
      const p = request.principal;
      const s = schoolOf(p);
      const ids = [...new Set(request.body.teacherIds)];
      const found = await rows<{ id: number; userId: number; name: string; username: string; status: number }>(db, sql`
        SELECT t.id, t.user_id AS "userId", t.name, u.username, t.status FROM teachers t JOIN users u ON u.id = t.user_id
         WHERE t.id IN ${idList(ids)} AND t.tenant_id = ${s.tenantId} AND t.school_id = ${s.schoolId} ORDER BY t.id`);
      if (found.length !== ids.length) throw notFound('教师不存在');
      const inactive = found.find((t) => t.status !== TeacherStatus.active);
      if (inactive) throw conflict(`教师${inactive.name}已${TEACHER_STATUS_NAMES[inactive.status as TeacherStatus]}，不能生成初始密码`);
      if (found.some((t) => t.userId === p.userId)) throw conflict('不能为自己的账号生成初始密码');
      // argon2 runs on libuv's pool: a few at a time keeps the other requests moving.
      const issued: { teacher: (typeof found)[number]; password: string; hash: string }[] = [];
      for (let i = 0; i < found.length; i += 4) {
        issued.push(...(await Promise.all(found.slice(i, i + 4).map(async (teacher) => {
          const password = generatePassword();
          return { teacher, password, hash: await hashPassword(password) };
        }))));
      }
      await db.transaction(async (tx) => {
        for (const { teacher, hash } of issued) {
          await tx.update(users).set({ passwordHash: hash, mustChangePassword: true }).where(eq(users.id, teacher.userId));
          await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.userId, teacher.userId), sql`${sessions.revokedAt} IS NULL`));
          await clearAccount(tx, teacher.username);
        }
        // The passwords are in the reply only, never in the log.
        await recordAudit(tx, request, { action: 'issuePasswords', kind: 'teacher', summary: `生成教师 ${someNames(found.map((t) => t.name))} ${found.length} 名的初始密码` });
      });
      for (const { teacher } of issued) await app.principals.evictUser(teacher.userId);
      const classes = await rows<{ teacherId: number; classId: number; className: string; gradeName: string; level: number; courseName: string }>(db, sql`
        SELECT ta.teacher_id AS "teacherId", c.id AS "classId", c.name AS "className", g.name AS "gradeName", g.level, co.name AS "courseName"
          FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN grades g ON g.id = c.grade_id JOIN courses co ON co.id = ta.course_id
         WHERE ta.teacher_id IN ${idList(ids)} ORDER BY g.level, c.id, co.id`);
      const data = issued.map(({ teacher, password }) => ({
        teacherId: teacher.id,
        name: teacher.name,
        username: teacher.username,
        password,
        classes: classes.filter((c) => c.teacherId === teacher.id).map(({ teacherId: _t, ...c }) => c),
      }));
      return ok(data, `已生成 ${data.length} 名教师的初始密码，首次登录须修改`);
    },
  );

  app.post('/api/vesta/teacher/setStatus', { preHandler: adminOnly, schema: { body: StatusBody } }, async (request) => {
    const body = request.body;
    const p = request.principal;
    const s = schoolOf(p);
    const teacher = await findTeacher(db, p, body.teacherId);
    if (teacher.userId === p.userId) throw conflict('不能更改自己账号的状态');
    if (teacher.status === body.status) throw conflict(`教师${teacher.name}已是“${TEACHER_STATUS_NAMES[body.status]}”状态`);

    const bindings = await rows<Binding>(db, sql`
      SELECT ta.id, ta.class_id AS "classId", ta.course_id AS "courseId", g.name || c.name || ' ' || co.name AS label
        FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN grades g ON g.id = c.grade_id JOIN courses co ON co.id = ta.course_id
       WHERE ta.teacher_id = ${teacher.id} ORDER BY g.level, c.id, co.id`);
    const handovers = body.handovers ?? [];
    for (const h of handovers) {
      if (!bindings.some((b) => b.classId === h.classId && b.courseId === h.courseId)) throw notFound(`教师${teacher.name}未任教该班级课程`);
    }
    if (body.status === TeacherStatus.active && handovers.length) throw badRequest('恢复在职时无需交接班级');
    const headed = (await heldRoles(db, s, teacher.userId)).find((r) => r.role === 'headTeacher')?.scopes ?? [];
    for (const h of body.headTeachers ?? []) {
      if (!headed.some((x) => x.classId === h.classId)) throw notFound(`教师${teacher.name}不是该班级的班主任`);
    }
    // Successors: teachers of this school, in post, other than her.
    const successorIds = [...new Set([...handovers.map((h) => h.toTeacherId), ...(body.headTeachers ?? []).flatMap((h) => (h.toTeacherId === null ? [] : [h.toTeacherId]))])];
    const successors = new Map<number, Awaited<ReturnType<typeof findTeacher>>>();
    for (const id of successorIds) {
      if (id === teacher.id) throw badRequest('接任教师不能是其本人');
      const successor = await findTeacher(db, p, id);
      if (successor.status !== TeacherStatus.active) throw conflict(`接任教师${successor.name}已${TEACHER_STATUS_NAMES[successor.status as TeacherStatus]}`);
      successors.set(id, successor);
    }
    if (body.status === TeacherStatus.left) {
      const missing = bindings.find((b) => !handovers.some((h) => h.classId === b.classId && h.courseId === b.courseId));
      if (missing) throw badRequest(`请为${missing.label}选择接任教师`);
    }

    await db.transaction(async (tx) => {
      await tx.update(teachers).set({ status: body.status, statusAt: body.status === TeacherStatus.active ? null : sql`now()` }).where(eq(teachers.id, teacher.id));
      const parts: string[] = [];
      const handed: string[] = [];
      for (const h of handovers) {
        const b = bindings.find((x) => x.classId === h.classId && x.courseId === h.courseId)!;
        await tx.delete(teachingAssignments).where(eq(teachingAssignments.id, b.id));
        await tx.insert(teachingAssignments).values({ tenantId: s.tenantId, teacherId: h.toTeacherId, classId: h.classId, courseId: h.courseId }).onConflictDoNothing();
        handed.push(`${b.label} 交给 ${successors.get(h.toTeacherId)!.name}`);
      }
      if (handed.length) parts.push(someNames(handed, 4));
      for (const h of body.headTeachers ?? []) {
        const scope = headed.find((x) => x.classId === h.classId)!;
        await tx.delete(leaderScopes).where(eq(leaderScopes.id, scope.scopeId));
        if (h.toTeacherId !== null) {
          const successor = successors.get(h.toTeacherId)!;
          await tx.delete(leaderScopes).where(and(eq(leaderScopes.role, 'headTeacher'), eq(leaderScopes.classId, h.classId)));
          await tx.insert(leaderScopes).values({ tenantId: s.tenantId, userId: successor.userId, role: 'headTeacher', classId: h.classId, createdBy: p.userId });
          parts.push(`${scope.label}班主任交给 ${successor.name}`);
        }
      }
      if (body.status === TeacherStatus.left) {
        // Someone who has left holds no post: every appointment goes, and the log says which.
        for (const r of await heldRoles(tx, s, teacher.userId)) parts.push(await dismiss(tx, s, { id: teacher.userId, name: teacher.name }, r.role));
      }
      if (body.status !== TeacherStatus.active) {
        await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.userId, teacher.userId), sql`${sessions.revokedAt} IS NULL`));
      }
      const action = body.status === TeacherStatus.left ? 'leave' : body.status === TeacherStatus.disabled ? 'disable' : 'enable';
      const verb = { leave: '设为离职', disable: '停用', enable: '恢复在职' }[action];
      await recordAudit(tx, request, { action, kind: 'teacher', recordId: teacher.id, summary: `将教师 ${teacher.name} ${verb}${parts.length ? `：${parts.join('；')}` : ''}` });
    }).catch((err) => {
      // A 班主任 appointed to one of her classes meanwhile by another admin.
      if (isUniqueViolation(err)) throw conflict('交接期间班主任有变动，请刷新后重试');
      throw err;
    });
    await app.principals.evictUser(teacher.userId);
    const message = { [TeacherStatus.active]: '已恢复在职，该教师可以登录', [TeacherStatus.disabled]: '已停用，该教师不能登录', [TeacherStatus.left]: '已设为离职，班级已交接' }[body.status];
    return ok({ teacherId: teacher.id, status: body.status, handedOver: handovers.length }, message);
  });
};
export default teacherAccountRoutes;
