// School structure: the grade/class tree, class CRUD, class membership and graduation.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { rows } from '../../db/query';
import { classes, grades, students, teachingAssignments } from '../../db/schema';
import { adminOnly, adminOrTeacher, checkSchoolId, checkStudentIds, cleanName, findClass, findGrade, idList, schoolOf } from './access';
import { Id } from '../../http/schemas';
import { recordAudit, someNames } from '../audit/record';
import { dateOnly } from '../../../src/domain/format';
import { StatusChangeKind, StudentStatus, finalLevelOf, gradeNameOf } from '../../../src/domain/schoolYear';

const IdList = Type.Array(Id, { minItems: 1, maxItems: 5000 });

/** Students a class's counts include: in school, or graduated with it; not those who transferred out or are suspended. */
const IN_CLASS_LISTS = sql`st.status IN (${StudentStatus.enrolled}, ${StudentStatus.graduated})`;

const renamed = (before: string, after: string) => (before === after ? `修改班级 ${after}` : `修改班级 ${before} 为 ${after}`);

interface ClassNode {
  id: number;
  classId: number;
  className: string;
  gradeId: number;
  gradeName: string;
  studentCount: number;
}

const classRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/vesta/class/treeClassBySchool',
    {
      preHandler: adminOnly,
      schema: { querystring: Type.Object({ schoolId: Type.Optional(Id), includeGraduated: Type.Optional(Type.Boolean()) }) },
    },
    async (request) => {
      const q = request.query;
      const s = checkSchoolId(request.principal, q.schoolId);
      const gradeRows = await rows<{ gradeId: number; gradeName: string; level: number; graduatedYear: number | null }>(db, sql`
        SELECT id AS "gradeId", name AS "gradeName", level, graduated_year AS "graduatedYear" FROM grades
         WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}
           ${q.includeGraduated ? sql`` : sql`AND graduated_year IS NULL`}
         ORDER BY graduated_year DESC NULLS FIRST, level, id`);
      const classRows = await rows<ClassNode>(db, sql`
        SELECT c.id, c.id AS "classId", c.name AS "className", c.grade_id AS "gradeId", g.name AS "gradeName",
               (SELECT count(*)::int FROM students st WHERE st.class_id = c.id AND ${IN_CLASS_LISTS}) AS "studentCount"
          FROM classes c JOIN grades g ON g.id = c.grade_id
         WHERE c.tenant_id = ${s.tenantId} AND c.school_id = ${s.schoolId}
         ORDER BY c.grade_id, c.id`);
      return ok(gradeRows.map((g) => ({ ...g, children: classRows.filter((c) => c.gradeId === g.gradeId) })));
    },
  );

  app.post(
    '/api/vesta/class/add',
    { preHandler: adminOnly, schema: { body: Type.Object({ gradeId: Id, className: Type.String({ maxLength: 200 }) }) } },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const s = schoolOf(p);
      const name = cleanName(body.className, '班级名称');
      const grade = await findGrade(db, p, body.gradeId);
      if (grade.graduatedYear !== null) throw conflict('该年级已毕业，不能新增班级');
      const created = await db.transaction(async (tx) => {
        const [dup] = await tx.select({ id: classes.id }).from(classes).where(and(eq(classes.gradeId, grade.id), eq(classes.name, name)));
        if (dup) throw conflict(`${grade.name}已有班级“${name}”`);
        const [row] = await tx.insert(classes).values({ tenantId: s.tenantId, schoolId: s.schoolId, gradeId: grade.id, name }).returning();
        await recordAudit(tx, request, { action: 'create', kind: 'class', recordId: row.id, summary: `新增班级 ${grade.name}${name}` });
        return row;
      });
      return ok({ id: created.id, classId: created.id, className: created.name, gradeId: grade.id, gradeName: grade.name }, '新增成功');
    },
  );

  app.post(
    '/api/vesta/class/update',
    {
      preHandler: adminOnly,
      schema: { body: Type.Object({ classId: Id, className: Type.String({ maxLength: 200 }), gradeId: Type.Optional(Id) }) },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const name = cleanName(body.className, '班级名称');
      const current = await findClass(db, p, body.classId);
      const grade = await findGrade(db, p, body.gradeId ?? current.gradeId);
      if (grade.graduatedYear !== null && grade.id !== current.gradeId) throw conflict('不能将班级移入已毕业的年级');
      await db.transaction(async (tx) => {
        const [dup] = await tx
          .select({ id: classes.id })
          .from(classes)
          .where(and(eq(classes.gradeId, grade.id), eq(classes.name, name)));
        if (dup && dup.id !== current.id) throw conflict(`${grade.name}已有班级“${name}”`);
        await tx.update(classes).set({ name, gradeId: grade.id }).where(eq(classes.id, current.id));
        await recordAudit(tx, request, { action: 'update', kind: 'class', recordId: current.id, summary: renamed(`${current.gradeName}${current.name}`, `${grade.name}${name}`) });
      });
      return ok({ id: current.id, classId: current.id, className: name, gradeId: grade.id, gradeName: grade.name }, '修改成功');
    },
  );

  app.post(
    '/api/vesta/class/remove',
    { preHandler: adminOnly, schema: { body: Type.Object({ classId: Id }) } },
    async (request) => {
      const { classId } = request.body;
      const target = await findClass(db, request.principal, classId);
      await db.transaction(async (tx) => {
        const [{ n }] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM students WHERE class_id = ${target.id}`);
        if (n > 0) throw conflict(`班级“${target.name}”还有${n}名学生，请先移出学生后再删除`);
        const [{ used }] = await rows<{ used: number }>(tx, sql`
          SELECT ((SELECT count(*) FROM homeworks WHERE class_id = ${target.id}) +
                  (SELECT count(*) FROM grading_tasks WHERE class_id = ${target.id}))::int AS used`);
        if (used > 0) throw conflict(`班级“${target.name}”已有作业或批改记录，不能删除`);
        await tx.delete(teachingAssignments).where(eq(teachingAssignments.classId, target.id));
        await tx.delete(classes).where(eq(classes.id, target.id));
        await recordAudit(tx, request, { action: 'delete', kind: 'class', recordId: target.id, summary: `删除班级 ${target.gradeName}${target.name}` });
      });
      return ok(null, '删除成功');
    },
  );

  app.get(
    '/api/vesta/class/getClassInfo',
    { preHandler: adminOrTeacher, schema: { querystring: Type.Object({ classId: Id }) } },
    async (request) => {
      const { classId } = request.query;
      const p = request.principal;
      const c = await findClass(db, p, classId);
      const [counts] = await rows<{ studentCount: number; boundCount: number }>(db, sql`
        SELECT count(*)::int AS "studentCount", count(*) FILTER (WHERE binding_status = 1)::int AS "boundCount"
          FROM students st WHERE st.class_id = ${c.id} AND ${IN_CLASS_LISTS}`);
      const teachers = await rows(db, sql`
        SELECT t.id AS "teacherId", t.name AS "teacherName", co.id AS "courseId", co.name AS "courseName", co.subject_id AS "subjectId"
          FROM teaching_assignments ta JOIN teachers t ON t.id = ta.teacher_id JOIN courses co ON co.id = ta.course_id
         WHERE ta.class_id = ${c.id}
         ORDER BY co.id, t.id`);
      const [school] = await rows<{ schoolId: number; schoolName: string }>(db, sql`
        SELECT s.id AS "schoolId", s.name AS "schoolName" FROM schools s WHERE s.id = ${schoolOf(p).schoolId}`);
      return ok({
        id: c.id,
        classId: c.id,
        className: c.name,
        gradeId: c.gradeId,
        gradeName: c.gradeName,
        graduatedYear: c.graduatedYear,
        ...school,
        ...counts,
        teachers,
      });
    },
  );

  app.get('/api/vesta/school/getGraduatedYear', { preHandler: adminOnly }, async (request) => {
    const s = schoolOf(request.principal);
    const years = await rows<{ year: number }>(db, sql`
      SELECT DISTINCT y AS year FROM (
        SELECT graduated_year AS y FROM grades WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}
        UNION SELECT graduated_year FROM students WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId} AND status = 1
      ) x WHERE y IS NOT NULL ORDER BY y DESC`);
    return ok(years.map((y) => y.year));
  });

  app.post(
    '/api/vesta/class/graduateGrade',
    { preHandler: adminOnly, schema: { body: Type.Object({ gradeId: Id, year: Type.Integer({ minimum: 2000, maximum: 2100 }) }) } },
    async (request) => {
      const { gradeId, year } = request.body;
      const grade = await findGrade(db, request.principal, gradeId);
      if (grade.graduatedYear !== null) throw conflict(`${grade.name}已于${grade.graduatedYear}年毕业`);
      if (year > new Date().getFullYear() + 1) throw conflict('毕业年份不能晚于明年');
      // Only the last grade of its stage (九年级, 六年级, 高三) graduates; the others move up with 升年级.
      if (grade.level !== finalLevelOf(grade.level)) throw conflict(`只有最高年级（${gradeNameOf(finalLevelOf(grade.level))}）可以毕业，其他年级请使用升年级`);
      const graduated = await db.transaction(async (tx) => {
        await tx.update(grades).set({ graduatedYear: year }).where(eq(grades.id, grade.id));
        const changed = await tx
          .update(students)
          .set({ status: StudentStatus.graduated, graduatedYear: year, leftOn: dateOnly(new Date()) })
          .where(sql`${students.classId} IN (SELECT id FROM classes WHERE grade_id = ${grade.id}) AND ${students.status} = ${StudentStatus.enrolled}`)
          .returning({ id: students.id });
        if (changed.length) {
          await tx.execute(sql`
            INSERT INTO student_status_changes (tenant_id, school_id, student_id, kind, on_date, reason, class_name, recorded_by)
            SELECT st.tenant_id, st.school_id, st.id, ${StatusChangeKind.graduate}, st.left_on, ${`${year}年毕业`}, c.name, ${request.principal.userId}
              FROM students st JOIN classes c ON c.id = st.class_id WHERE st.id IN ${idList(changed.map((c) => c.id))}`);
        }
        await recordAudit(tx, request, { action: 'graduate', kind: 'grade', recordId: grade.id, summary: `${grade.name} ${year} 年毕业（${changed.length} 名学生）` });
        return changed.length;
      });
      return ok({ gradeId: grade.id, gradeName: grade.name, year, studentCount: graduated }, `${grade.name}已毕业`);
    },
  );

  app.post(
    '/api/vesta/teaching/addStudentToClass',
    { preHandler: adminOnly, schema: { body: Type.Object({ classId: Id, studentIds: IdList }) } },
    async (request) => {
      const { classId, studentIds } = request.body;
      const p = request.principal;
      const target = await findClass(db, p, classId);
      if (target.graduatedYear !== null) throw conflict('该班级已毕业，不能加入学生');
      await checkStudentIds(db, p, studentIds);
      const moved = await db.transaction(async (tx) => {
        const graduated = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM students WHERE id IN ${idList(studentIds)} AND status = 1`);
        if (graduated[0].n > 0) throw conflict(`有${graduated[0].n}名学生已毕业，不能加入班级`);
        const changed = await tx.update(students).set({ classId: target.id }).where(inArray(students.id, studentIds)).returning({ name: students.name });
        await recordAudit(tx, request, { action: 'update', kind: 'class', recordId: target.id, summary: `将学生 ${changed.length} 名（${someNames(changed.map((c) => c.name))}）加入 ${target.gradeName}${target.name}` });
        return changed.length;
      });
      return ok({ classId: target.id, count: moved }, '加入班级成功');
    },
  );

  app.post(
    '/api/vesta/teaching/removeStudentFromClass',
    {
      preHandler: adminOnly,
      schema: { body: Type.Object({ classId: Id, studentId: Type.Optional(Id), studentIds: Type.Optional(IdList) }) },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const ids = [...(body.studentIds ?? []), ...(body.studentId ? [body.studentId] : [])];
      if (!ids.length) throw badRequest('学生不能为空');
      const target = await findClass(db, p, body.classId);
      await checkStudentIds(db, p, ids);
      const changed = await db.transaction(async (tx) => {
        const moved = await tx
          .update(students)
          .set({ classId: null })
          .where(and(inArray(students.id, ids), eq(students.classId, target.id)))
          .returning({ name: students.name });
        if (!moved.length) throw notFound('学生不在该班级');
        await recordAudit(tx, request, { action: 'update', kind: 'class', recordId: target.id, summary: `将学生 ${moved.length} 名（${someNames(moved.map((m) => m.name))}）移出 ${target.gradeName}${target.name}` });
        return moved;
      });
      return ok({ classId: target.id, count: changed.length }, '已移出班级');
    },
  );
};
export default classRoutes;
