// Teachers of a school: accounts, jobs, class/course bindings, Excel import and password resets.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TEACHER_JOBS, isMobilePhone, PHONE_PATTERN } from '../../../src/domain/school';
import { TEACHER_STATUS_NAMES, TeacherStatus } from '../../../src/domain/roles';
import type { Principal } from '../../auth/principal';
import { generatePassword, hashPassword } from '../../auth/passwords';
import { clearAccount } from '../../auth/signInLimits';
import type { Db } from '../../db';
import { isUniqueViolation } from '../../db/errors';
import { rows } from '../../db/query';
import { sessions, teachers, teachingAssignments, userRoles, users } from '../../db/schema';
import { sendWorkbook } from '../../http/download';
import { badRequest, conflict, forbidden, notFound, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { buildWorkbook, readImport, sendImportErrors } from '../../files/xlsx';
import { adminOnly, adminOrTeacher, checkCourse, classesByName, checkSchoolId, cleanName, findClass, findGrade, findTeacher, idList, isAdmin, schoolOf, type SchoolRef } from './access';
import { Id } from '../../http/schemas';
import { unsafeCells } from '../../http/input';
import { recordAudit, someNames } from '../audit/record';

const Phone = Type.String({ maxLength: 11, pattern: PHONE_PATTERN.source });
const Job = Type.String({ maxLength: 50 });
const Binding = Type.Object({ classId: Id, courseId: Id });

/** Role keys that make a user a teacher; removing a teacher takes exactly these away. */
const TEACHER_ROLE_KEYS = ['xz:teacher', 'xz:teaching'];
/** A hash no password verifies against: imported accounts sign in after an admin resets the password. */
const LOCKED_PASSWORD = '!locked';

const CLASSES_OF_TEACHER = sql`COALESCE((
  SELECT json_agg(json_build_object('classId', c.id, 'className', c.name, 'gradeId', g.id, 'gradeName', g.name,
                                    'courseId', co.id, 'courseName', co.name) ORDER BY g.level, c.id, co.id)
    FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN grades g ON g.id = c.grade_id
    JOIN courses co ON co.id = ta.course_id
   WHERE ta.teacher_id = t.id), '[]'::json)`;

const SELECT_TEACHER = sql`
  SELECT t.id, t.id AS "teacherId", t.user_id AS "userId", u.username, t.name, t.phone, t.job, t.status, t.created_at AS "createdAt",
         ${CLASSES_OF_TEACHER} AS classes
    FROM teachers t JOIN users u ON u.id = t.user_id`;


async function jobsOf(db: Db, s: SchoolRef): Promise<string[]> {
  const used = await rows<{ job: string }>(db, sql`
    SELECT DISTINCT job FROM teachers WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId} AND job IS NOT NULL AND job <> '' ORDER BY job`);
  return [...new Set([...TEACHER_JOBS, ...used.map((u) => u.job)])];
}

/** A phone is one teacher's sign-in: refused when another account or another teacher of the tenant has it. */
async function checkPhoneFree(db: Db, s: SchoolRef, phone: string, exceptTeacherId?: number) {
  const [taken] = await rows(db, sql`
    SELECT 1 FROM users WHERE username = ${phone}
       AND id NOT IN (SELECT user_id FROM teachers WHERE id = ${exceptTeacherId ?? -1})
    UNION ALL
    SELECT 1 FROM teachers WHERE tenant_id = ${s.tenantId} AND phone = ${phone} AND id <> ${exceptTeacherId ?? -1}`);
  if (taken) throw conflict(`手机号${phone}已被其他账号使用`);
}

async function cleanJob(db: Db, s: SchoolRef, job: string | undefined): Promise<string | null> {
  const value = (job ?? '').trim();
  if (!value) return null;
  if (!(await jobsOf(db, s)).includes(value)) throw badRequest(`职务“${value}”不存在`);
  return value;
}

/** Checks every class and course of the bindings against the caller's school. */
async function checkBindings(db: Db, p: Principal, bindings: { classId: number; courseId: number }[]) {
  for (const b of bindings) {
    const c = await findClass(db, p, b.classId);
    if (c.graduatedYear !== null) throw conflict(`${c.gradeName}已毕业，不能绑定任教班级`);
    await checkCourse(db, p, b.courseId);
  }
}

const IMPORT_COLUMNS = ['姓名', '手机号', '职务', '年级', '班级', '任教课程'] as const;
const REQUIRED_COLUMNS = ['姓名', '手机号'];
const TEMPLATE_NOTE = [
  '带 * 的列必填。手机号即登录账号，在系统内唯一；重复导入同一手机号会更新该教师，不会新增重复账号。',
  '职务填写系统中已有的职务，如“任课教师”“班主任”，可不填。',
  '任教班级：填写年级、班级和任教课程，如“七年级”“七(1)班”“数学”；一行可填多个班级，用“、”隔开；同一教师可占多行。',
  '导入的账号需要由管理员在教师列表中“重置密码”后才能登录。',
  '单次最多导入5000条数据。',
].join('\n');

/** 七(1)班 数学, 七(2)班 数学…: the classes and courses of teaching assignments, for the log. */
async function bindingNames(db: Db, assignmentIds: number[]): Promise<string[]> {
  const list = await rows<{ label: string }>(db, sql`
    SELECT g.name || c.name || ' ' || co.name AS label
      FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN grades g ON g.id = c.grade_id JOIN courses co ON co.id = ta.course_id
     WHERE ta.id IN ${idList(assignmentIds)} ORDER BY g.level, c.id, co.id`);
  return list.map((r) => r.label);
}

/** 修改教师 李四 的职务（任课教师 → 班主任）、手机号: what changed; a job is the teacher's role at school, so it is named with its values. */
function teacherChanges(before: { name: string; job: string | null; phone: string | null }, after: { name: string; job: string | null; phone: string | null }): string {
  const parts: string[] = [];
  if (after.name !== before.name) parts.push(`姓名（${before.name} → ${after.name}）`);
  if (after.job !== before.job) parts.push(`职务（${before.job ?? '无'} → ${after.job ?? '无'}）`);
  if (after.phone !== before.phone) parts.push('手机号');
  return parts.length ? `修改教师 ${before.name} 的${parts.join('、')}` : `修改教师 ${before.name}（无变化）`;
}

const teacherRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/vesta/teacher/getTeacherSchoolByTeacherId',
    { preHandler: adminOrTeacher, schema: { querystring: Type.Object({ teacherId: Type.Optional(Id) }) } },
    async (request) => {
      const { teacherId } = request.query;
      const p = request.principal;
      const s = schoolOf(p);
      const [teacher] = await rows<{ teacherId: number; teacherName: string; userId: number; schoolId: number; schoolName: string; region: string; tenantId: number }>(db, sql`
        SELECT t.id AS "teacherId", t.name AS "teacherName", t.user_id AS "userId", s.id AS "schoolId", s.name AS "schoolName",
               s.region, s.tenant_id AS "tenantId"
          FROM teachers t JOIN schools s ON s.id = t.school_id
         WHERE t.tenant_id = ${s.tenantId} AND t.school_id = ${s.schoolId}
           AND ${teacherId !== undefined ? sql`t.id = ${teacherId}` : sql`t.user_id = ${p.userId}`}`);
      if (!teacher) throw notFound('教师不存在');
      if (!isAdmin(p) && teacher.userId !== p.userId) throw forbidden();
      const { userId: _userId, ...data } = teacher;
      return ok(data);
    },
  );

  app.get(
    '/api/vesta/teacher/pageByClassId',
    { preHandler: adminOrTeacher, schema: { querystring: Type.Object({ classId: Id, ...PagingQuery }) } },
    async (request) => {
      const q = request.query;
      const { current, size, offset } = pageWindow(q);
      const c = await findClass(db, request.principal, q.classId);
      const [{ total }] = await rows<{ total: number }>(db, sql`
        SELECT count(DISTINCT teacher_id)::int AS total FROM teaching_assignments WHERE class_id = ${c.id}`);
      const records = await rows(db, sql`
        SELECT t.id, t.id AS "teacherId", t.name, t.phone, t.job,
               json_agg(json_build_object('courseId', co.id, 'courseName', co.name) ORDER BY co.id) AS courses
          FROM teaching_assignments ta JOIN teachers t ON t.id = ta.teacher_id JOIN courses co ON co.id = ta.course_id
         WHERE ta.class_id = ${c.id}
         GROUP BY t.id ORDER BY min(co.id), t.id LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.get(
    '/api/vesta/teacher/getTeacherInSchool',
    { preHandler: adminOnly, schema: { querystring: Type.Object({ schoolId: Type.Optional(Id), keyword: Type.Optional(Type.String({ maxLength: 50 })) }) } },
    async (request) => {
      const q = request.query;
      const s = checkSchoolId(request.principal, q.schoolId);
      const keyword = q.keyword?.trim();
      const data = await rows(db, sql`
        SELECT t.id, t.id AS "teacherId", t.name, t.phone, t.job FROM teachers t
         WHERE t.tenant_id = ${s.tenantId} AND t.school_id = ${s.schoolId} AND t.status = ${TeacherStatus.active}
           ${keyword ? sql`AND (t.name LIKE ${`%${keyword}%`} OR t.phone LIKE ${`%${keyword}%`})` : sql``}
         ORDER BY t.id`);
      return ok(data);
    },
  );

  app.get(
    '/api/vesta/teacher/page',
    {
      preHandler: adminOnly,
      schema: {
        querystring: Type.Object({
          ...PagingQuery,
          keyword: Type.Optional(Type.String({ maxLength: 50 })),
          job: Type.Optional(Job),
          gradeId: Type.Optional(Id),
          classId: Type.Optional(Id),
          courseId: Type.Optional(Id),
          status: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const p = request.principal;
      const s = schoolOf(p);
      const { current, size, offset } = pageWindow(q);
      const parts: SQL[] = [sql`t.tenant_id = ${s.tenantId}`, sql`t.school_id = ${s.schoolId}`];
      const keyword = q.keyword?.trim();
      if (keyword) parts.push(sql`(t.name LIKE ${`%${keyword}%`} OR t.phone LIKE ${`%${keyword}%`})`);
      if (q.job) parts.push(sql`t.job = ${q.job}`);
      if (q.status !== undefined) parts.push(sql`t.status = ${q.status}`);
      const taught: SQL[] = [];
      if (q.classId !== undefined) taught.push(sql`ta.class_id = ${(await findClass(db, p, q.classId)).id}`);
      if (q.gradeId !== undefined) taught.push(sql`ta.class_id IN (SELECT id FROM classes WHERE grade_id = ${(await findGrade(db, p, q.gradeId)).id})`);
      if (q.courseId !== undefined) taught.push(sql`ta.course_id = ${(await checkCourse(db, p, q.courseId)).id}`);
      if (taught.length) parts.push(sql`t.id IN (SELECT ta.teacher_id FROM teaching_assignments ta WHERE ${sql.join(taught, sql` AND `)})`);
      const where = sql.join(parts, sql` AND `);
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM teachers t WHERE ${where}`);
      const records = await rows(db, sql`${SELECT_TEACHER} WHERE ${where} ORDER BY t.id LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.get(
    '/api/vesta/teacher/getJobInSchool',
    { preHandler: adminOnly, schema: { querystring: Type.Object({ schoolId: Type.Optional(Id) }) } },
    async (request) => {
      const { schoolId } = request.query;
      const s = checkSchoolId(request.principal, schoolId);
      return ok((await jobsOf(db, s)).map((job) => ({ id: job, name: job })));
    },
  );

  app.post(
    '/api/vesta/teacher/add',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object({
          name: Type.String({ maxLength: 200 }),
          phone: Phone,
          job: Type.Optional(Job),
          bindings: Type.Optional(Type.Array(Binding, { maxItems: 200 })),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const s = schoolOf(p);
      const name = cleanName(body.name, '姓名');
      const job = await cleanJob(db, s, body.job);
      await checkPhoneFree(db, s, body.phone);
      await checkBindings(db, p, body.bindings ?? []);
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      try {
        const teacher = await db.transaction(async (tx) => {
          // The admin knows this password: the teacher replaces it at first sign-in.
          const [user] = await tx.insert(users).values({ ...s, username: body.phone, name, phone: body.phone, passwordHash, mustChangePassword: true }).returning();
          await tx.insert(userRoles).values({ tenantId: s.tenantId, userId: user.id, roleKey: 'xz:teacher' });
          const [row] = await tx.insert(teachers).values({ ...s, userId: user.id, name, phone: body.phone, job }).returning();
          if (body.bindings?.length) {
            await tx.insert(teachingAssignments).values(body.bindings.map((b) => ({ tenantId: s.tenantId, teacherId: row.id, ...b }))).onConflictDoNothing();
          }
          await recordAudit(tx, request, { action: 'create', kind: 'teacher', recordId: row.id, summary: `新增教师 ${name}（${job ?? '未设职务'}${body.bindings?.length ? `，任教 ${body.bindings.length} 个班级课程` : ''}）` });
          return row;
        });
        return ok({ id: teacher.id, teacherId: teacher.id, username: body.phone, password }, '新增成功，请将初始密码告知教师');
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`手机号${body.phone}已被其他账号使用`);
        throw err;
      }
    },
  );

  app.post(
    '/api/vesta/teacher/update',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object({
          teacherId: Id,
          name: Type.Optional(Type.String({ maxLength: 200 })),
          phone: Type.Optional(Phone),
          job: Type.Optional(Type.Union([Job, Type.Null()])),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const s = schoolOf(p);
      const teacher = await findTeacher(db, p, body.teacherId);
      const name = body.name !== undefined ? cleanName(body.name, '姓名') : teacher.name;
      const job = body.job !== undefined ? await cleanJob(db, s, body.job ?? undefined) : teacher.job;
      const phone = body.phone ?? teacher.phone;
      if (body.phone !== undefined && body.phone !== teacher.phone) await checkPhoneFree(db, s, body.phone, teacher.id);
      try {
        await db.transaction(async (tx) => {
          await tx.update(teachers).set({ name, job, phone }).where(eq(teachers.id, teacher.id));
          const [user] = await tx.select().from(users).where(eq(users.id, teacher.userId));
          // The account name follows the phone when it was the phone (accounts made by add/import).
          const username = user.username === teacher.phone && phone ? phone : user.username;
          await tx.update(users).set({ name, phone, username }).where(eq(users.id, teacher.userId));
          await recordAudit(tx, request, { action: 'update', kind: 'teacher', recordId: teacher.id, summary: teacherChanges(teacher, { name, job, phone }) });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`手机号${phone}已被其他账号使用`);
        throw err;
      }
      return ok({ id: teacher.id, teacherId: teacher.id }, '修改成功');
    },
  );

  app.post(
    '/api/vesta/teacher/remove',
    { preHandler: adminOnly, schema: { body: Type.Object({ teacherId: Id }) } },
    async (request) => {
      const { teacherId } = request.body;
      const p = request.principal;
      const teacher = await findTeacher(db, p, teacherId);
      if (teacher.userId === p.userId) throw conflict('不能删除自己的账号');
      await db.transaction(async (tx) => {
        const [{ used }] = await rows<{ used: number }>(tx, sql`
          SELECT ((SELECT count(*) FROM homeworks WHERE teacher_id = ${teacher.id}) +
                  (SELECT count(*) FROM grading_tasks WHERE teacher_id = ${teacher.id}))::int AS used`);
        if (used > 0) throw conflict(`教师${teacher.name}已有作业或批改记录，不能删除；可将其设为“离职”，记录保留`);
        await tx.delete(teachers).where(eq(teachers.id, teacher.id));
        await tx.delete(userRoles).where(and(eq(userRoles.userId, teacher.userId), inArray(userRoles.roleKey, TEACHER_ROLE_KEYS)));
        const [{ roles: remaining, uploads }] = await rows<{ roles: number; uploads: number }>(tx, sql`
          SELECT (SELECT count(*) FROM user_roles WHERE user_id = ${teacher.userId})::int AS roles,
                 (SELECT count(*) FROM resources WHERE uploader_id = ${teacher.userId})::int AS uploads`);
        if (remaining > 0) {
          await tx.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.userId, teacher.userId));
        } else if (uploads > 0) {
          // Their uploads stay with the school; the account is closed and its phone freed.
          await tx.update(users).set({ username: sql`'removed:' || ${users.id} || ':' || ${users.username}`, passwordHash: LOCKED_PASSWORD }).where(eq(users.id, teacher.userId));
          await tx.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.userId, teacher.userId));
        } else {
          await tx.delete(users).where(eq(users.id, teacher.userId));
        }
        await recordAudit(tx, request, { action: 'delete', kind: 'teacher', recordId: teacher.id, summary: `删除教师 ${teacher.name}${remaining > 0 ? '（保留其其他角色）' : ''}` });
      });
      await app.principals.evictUser(teacher.userId);
      return ok(null, '删除成功');
    },
  );

  app.post(
    '/api/vesta/teaching/bindClassCourse',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object({
          teacherId: Id,
          classId: Type.Optional(Id),
          courseId: Type.Optional(Id),
          bindings: Type.Optional(Type.Array(Binding, { minItems: 1, maxItems: 200 })),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const teacher = await findTeacher(db, p, body.teacherId);
      if (teacher.status !== TeacherStatus.active) throw conflict(`教师${teacher.name}已${TEACHER_STATUS_NAMES[teacher.status as TeacherStatus]}，不能绑定任教班级`);
      const bindings = [...(body.bindings ?? [])];
      if (body.classId !== undefined || body.courseId !== undefined) {
        if (body.classId === undefined) throw badRequest('班级不能为空');
        if (body.courseId === undefined) throw badRequest('课程不能为空');
        bindings.push({ classId: body.classId, courseId: body.courseId });
      }
      if (!bindings.length) throw badRequest('任教班级不能为空');
      await checkBindings(db, p, bindings);
      const added = await db.transaction(async (tx) => {
        const rowsAdded = await tx
          .insert(teachingAssignments)
          .values(bindings.map((b) => ({ tenantId: schoolOf(p).tenantId, teacherId: teacher.id, ...b })))
          .onConflictDoNothing()
          .returning({ id: teachingAssignments.id });
        if (rowsAdded.length) {
          const taught = await bindingNames(tx, rowsAdded.map((r) => r.id));
          await recordAudit(tx, request, { action: 'assign', kind: 'role', recordId: teacher.id, summary: `为教师 ${teacher.name} 分配任教 ${someNames(taught)}` });
        }
        return rowsAdded;
      });
      return ok({ teacherId: teacher.id, added: added.length }, '绑定成功');
    },
  );

  app.post(
    '/api/vesta/teaching/removeTeacherFromClass',
    { preHandler: adminOnly, schema: { body: Type.Object({ teacherId: Id, classId: Id, courseId: Type.Optional(Id) }) } },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const teacher = await findTeacher(db, p, body.teacherId);
      const c = await findClass(db, p, body.classId);
      const removed = await db.transaction(async (tx) => {
        const gone = await tx
          .delete(teachingAssignments)
          .where(
            and(
              eq(teachingAssignments.teacherId, teacher.id),
              eq(teachingAssignments.classId, c.id),
              body.courseId !== undefined ? eq(teachingAssignments.courseId, body.courseId) : undefined,
            ),
          )
          .returning({ id: teachingAssignments.id });
        if (!gone.length) throw notFound('该教师未任教此班级');
        await recordAudit(tx, request, { action: 'unassign', kind: 'role', recordId: teacher.id, summary: `将教师 ${teacher.name} 移出 ${c.gradeName}${c.name} 的任教` });
        return gone;
      });
      return ok({ teacherId: teacher.id, classId: c.id, removed: removed.length }, '已移出班级');
    },
  );

  app.post(
    '/api/vesta/teacher/resetPassword',
    { preHandler: adminOnly, schema: { body: Type.Object({ teacherId: Id }) } },
    async (request) => {
      const { teacherId } = request.body;
      const teacher = await findTeacher(db, request.principal, teacherId);
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      const username = await db.transaction(async (tx) => {
        const [user] = await tx.update(users).set({ passwordHash }).where(eq(users.id, teacher.userId)).returning({ username: users.username });
        // Whoever held the old password is signed out.
        await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.userId, teacher.userId), sql`${sessions.revokedAt} IS NULL`));
        // A teacher locked out by wrong passwords signs in with the new one at once.
        await clearAccount(tx, user.username);
        // The new password is in the reply only, never in the log.
        await recordAudit(tx, request, { action: 'resetPassword', kind: 'teacher', recordId: teacher.id, summary: `重置教师 ${teacher.name} 的密码` });
        return user.username;
      });
      await app.principals.evictUser(teacher.userId);
      // Shown once: only the hash is stored.
      return ok({ teacherId: teacher.id, username, password }, '密码已重置，请将新密码告知教师');
    },
  );

  const subjects = (s: SchoolRef) =>
    rows(db, sql`
      SELECT co.id AS "courseId", co.name AS "courseName", co.subject_id AS "subjectId", su.name AS "subjectName"
        FROM courses co JOIN subjects su ON su.id = co.subject_id
       WHERE co.tenant_id = ${s.tenantId} AND co.school_id = ${s.schoolId}
       ORDER BY co.id`);

  app.get(
    '/api/vesta/teaching/getSubjectByGradeId',
    { preHandler: adminOrTeacher, schema: { querystring: Type.Object({ gradeId: Id }) } },
    async (request) => {
      const { gradeId } = request.query;
      await findGrade(db, request.principal, gradeId);
      // Courses belong to the school and every grade may take them.
      return ok(await subjects(schoolOf(request.principal)));
    },
  );

  app.get(
    '/api/vesta/teaching/getSubjectInSchool',
    { preHandler: adminOrTeacher, schema: { querystring: Type.Object({ schoolId: Type.Optional(Id), gradeId: Type.Optional(Id) }) } },
    async (request) => {
      const q = request.query;
      const s = checkSchoolId(request.principal, q.schoolId);
      if (q.gradeId !== undefined) await findGrade(db, request.principal, q.gradeId);
      return ok(await subjects(s));
    },
  );

  app.get('/api/vesta/teacher/importTemplate', { preHandler: adminOnly }, async (_request, reply) => {
    const bytes = await buildWorkbook(
      '教师',
      IMPORT_COLUMNS.map((c) => ({ header: REQUIRED_COLUMNS.includes(c) ? `${c}*` : c, width: c === '班级' ? 24 : 14 })),
      [],
      TEMPLATE_NOTE,
    );
    return sendWorkbook(reply, bytes, '教师导入模板.xlsx');
  });

  app.post('/api/vesta/teacher/importData', { preHandler: adminOnly }, async (request, reply) => {
    const p = request.principal;
    const s = schoolOf(p);
    const imported = await readImport(request, REQUIRED_COLUMNS);

    const classByName = await classesByName(db, s);
    const courseRows = await rows<{ id: number; name: string }>(db, sql`
      SELECT id, name FROM courses WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}`);
    const courseByName = new Map(courseRows.map((c) => [c.name, c.id]));
    const jobs = new Set(await jobsOf(db, s));

    interface TeacherLine {
      name: string;
      phone: string;
      job: string | null;
      bindings: { classId: number; courseId: number }[];
      firstRow: number;
    }
    const byPhone = new Map<string, TeacherLine>();
    const errors = new Map<number, string>();
    for (const { rowNumber, values } of imported.rows) {
      const problems: string[] = unsafeCells(values);
      const name = values['姓名'] ?? '';
      const phone = values['手机号'] ?? '';
      const job = values['职务'] ?? '';
      const gradeName = values['年级'] ?? '';
      const classNames = (values['班级'] ?? '').split(/[、,，;；\s]+/).filter(Boolean);
      const courseName = values['任教课程'] ?? '';
      if (!name) problems.push('姓名不能为空');
      else if ([...name].length > 50) problems.push('姓名长度不能超过50个字符');
      if (!phone) problems.push('手机号不能为空');
      else if (!isMobilePhone(phone)) problems.push('手机号格式不正确');
      if (job && !jobs.has(job)) problems.push(`职务“${job}”不存在`);
      const bindings: { classId: number; courseId: number }[] = [];
      if (classNames.length || courseName || gradeName) {
        const courseId = courseByName.get(courseName);
        if (!courseName) problems.push('填写任教班级时任教课程不能为空');
        else if (!courseId) problems.push(`本校没有课程“${courseName}”`);
        if (!gradeName || !classNames.length) problems.push('填写任教课程时年级和班级不能为空');
        for (const className of classNames) {
          const cls = classByName.get(`${gradeName}|${className}`);
          if (!cls) problems.push(`本校没有${gradeName}${className}`);
          else if (cls.graduatedYear !== null) problems.push(`${gradeName}已毕业`);
          else if (courseId) bindings.push({ classId: cls.id, courseId });
        }
      }
      const earlier = byPhone.get(phone);
      if (earlier && name && earlier.name !== name) problems.push(`手机号与第${earlier.firstRow}行相同但姓名不同`);
      if (problems.length) {
        errors.set(rowNumber, problems.join('；'));
        continue;
      }
      if (earlier) {
        earlier.bindings.push(...bindings);
        earlier.job ??= job || null;
      } else byPhone.set(phone, { name, phone, job: job || null, bindings, firstRow: rowNumber });
    }

    // Phones already taken by an account that is not a teacher of this school.
    const lines = [...byPhone.values()];
    const existing = lines.length
      ? await rows<{ userId: number; username: string; teacherId: number | null; schoolId: number | null }>(db, sql`
          SELECT u.id AS "userId", u.username, t.id AS "teacherId", t.school_id AS "schoolId"
            FROM users u LEFT JOIN teachers t ON t.user_id = u.id
           WHERE u.username IN ${idList(lines.map((l) => l.phone))}`)
      : [];
    const sameSchool = await rows<{ teacherId: number; phone: string }>(db, sql`
      SELECT id AS "teacherId", phone FROM teachers WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId} AND phone IS NOT NULL`);
    const teacherByPhone = new Map(sameSchool.map((t) => [t.phone, t.teacherId]));
    for (const e of existing) {
      const line = byPhone.get(e.username)!;
      if (e.schoolId === s.schoolId && e.teacherId !== null) teacherByPhone.set(line.phone, e.teacherId);
      else if (!teacherByPhone.has(line.phone)) errors.set(line.firstRow, '手机号已被其他账号使用');
    }

    if (errors.size) return sendImportErrors(reply, imported, errors, '教师导入结果.xlsx');

    const result = await db
      .transaction(async (tx) => {
        let created = 0;
        let updated = 0;
        for (const line of lines) {
          let teacherId = teacherByPhone.get(line.phone);
          if (teacherId !== undefined) {
            await tx.update(teachers).set({ name: line.name, ...(line.job ? { job: line.job } : {}) }).where(eq(teachers.id, teacherId));
            updated++;
          } else {
            const [user] = await tx.insert(users).values({ ...s, username: line.phone, name: line.name, phone: line.phone, passwordHash: LOCKED_PASSWORD }).returning();
            await tx.insert(userRoles).values({ tenantId: s.tenantId, userId: user.id, roleKey: 'xz:teacher' });
            const [row] = await tx.insert(teachers).values({ ...s, userId: user.id, name: line.name, phone: line.phone, job: line.job ?? '任课教师' }).returning();
            teacherId = row.id;
            created++;
          }
          if (line.bindings.length) {
            await tx.insert(teachingAssignments).values(line.bindings.map((b) => ({ tenantId: s.tenantId, teacherId: teacherId!, ...b }))).onConflictDoNothing();
          }
        }
        await recordAudit(tx, request, { action: 'import', kind: 'teacher', summary: `导入教师 ${lines.length} 名（新增 ${created} 名，更新 ${updated} 名）` });
        return { total: lines.length, created, updated };
      })
      .catch((err) => {
        // A phone became someone's sign-in while the file was being checked.
        if (isUniqueViolation(err)) throw conflict('导入期间手机号被占用，请重新导入');
        throw err;
      });
    reply.header('x-import-result', 'success');
    return ok(result, `导入成功：新增${result.created}名，更新${result.updated}名`);
  });
};
export default teacherRoutes;
