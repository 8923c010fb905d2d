// Who may manage a school, and the lookups that tie every id in a request to the caller's
// tenant and school. An id from elsewhere is "not found" (404), never "forbidden": its
// existence is not the caller's business.
import { sql } from 'drizzle-orm';
import type { Role } from '../../../src/domain/roles';
import { NAME_MAX_LENGTH } from '../../../src/domain/school';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { badRequest, forbidden, notFound } from '../../http/envelope';
import { classScope } from './scope';

/** School admins, on the classic web (`schoolAdmin`) or the mini-program variant (`mpSchoolAdmin`). */
export const ADMIN_ROLES: readonly Role[] = ['schoolAdmin', 'mpSchoolAdmin'];
/** Teachers read their own classes and students. */
export const TEACHER_ROLES: readonly Role[] = ['teacher', 'mpTeacher', 'teaching'];
/** School resources: admins, teachers and part-time staff (SPEC §2.4 /resource, /schoolResource). */
export const RESOURCE_ROLES: readonly Role[] = [...ADMIN_ROLES, ...TEACHER_ROLES, 'parttime'];

export const adminOnly = allow({ roles: ADMIN_ROLES });
export const adminOrTeacher = allow({ roles: [...ADMIN_ROLES, ...TEACHER_ROLES] });
export const resourceUsers = allow({ roles: RESOURCE_ROLES });

export const isAdmin = (p: Principal) => ADMIN_ROLES.includes(p.activeRole as Role);

export interface SchoolRef {
  tenantId: number;
  schoolId: number;
}

/** The caller's school; callers without one (partners, researchers) have nothing to manage here. */
export function schoolOf(p: Principal): SchoolRef {
  if (p.tenantId === null || p.schoolId === null) throw forbidden();
  return { tenantId: p.tenantId, schoolId: p.schoolId };
}

/** A schoolId parameter must be the caller's own school. */
export function checkSchoolId(p: Principal, schoolId: number | undefined): SchoolRef {
  const school = schoolOf(p);
  if (schoolId !== undefined && schoolId !== school.schoolId) throw notFound('学校不存在');
  return school;
}

export interface GradeRow {
  id: number;
  name: string;
  level: number;
  graduatedYear: number | null;
}

export async function findGrade(db: Db, p: Principal, gradeId: number): Promise<GradeRow> {
  const s = schoolOf(p);
  const [grade] = await rows<GradeRow>(db, sql`
    SELECT id, name, level, graduated_year AS "graduatedYear" FROM grades
     WHERE id = ${gradeId} AND tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}`);
  if (!grade) throw notFound('年级不存在');
  return grade;
}

export interface ClassRow {
  id: number;
  name: string;
  gradeId: number;
  gradeName: string;
  graduatedYear: number | null;
}

/** A class the caller may see: any class of the school for admins, their own classes for teachers. */
export async function findClass(db: Db, p: Principal, classId: number): Promise<ClassRow> {
  const scope = isAdmin(p) ? sql`c.tenant_id = ${schoolOf(p).tenantId} AND c.school_id = ${schoolOf(p).schoolId}` : classScope(p);
  const [row] = await rows<ClassRow>(db, sql`
    SELECT c.id, c.name, c.grade_id AS "gradeId", g.name AS "gradeName", g.graduated_year AS "graduatedYear"
      FROM classes c JOIN grades g ON g.id = c.grade_id
     WHERE c.id = ${classId} AND ${scope}`);
  if (!row) throw notFound('班级不存在');
  return row;
}

export interface TeacherRow {
  id: number;
  userId: number;
  name: string;
  phone: string | null;
  job: string | null;
  /** TeacherStatus: 0 在职, 1 停用, 2 离职. */
  status: number;
}

export async function findTeacher(db: Db, p: Principal, teacherId: number): Promise<TeacherRow> {
  const s = schoolOf(p);
  const [row] = await rows<TeacherRow>(db, sql`
    SELECT id, user_id AS "userId", name, phone, job, status FROM teachers
     WHERE id = ${teacherId} AND tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}`);
  if (!row) throw notFound('教师不存在');
  return row;
}

/** Every id must be a student of the caller's school, else the whole request is refused. */
export async function checkStudentIds(db: Db, p: Principal, studentIds: number[]): Promise<void> {
  const s = schoolOf(p);
  const unique = [...new Set(studentIds)];
  const [{ n }] = await rows<{ n: number }>(db, sql`
    SELECT count(*)::int AS n FROM students
     WHERE id IN ${idList(unique)}
       AND tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}`);
  if (n !== unique.length) throw notFound('学生不存在');
}

export async function checkCourse(db: Db, p: Principal, courseId: number): Promise<{ id: number; name: string }> {
  const s = schoolOf(p);
  const [row] = await rows<{ id: number; name: string }>(db, sql`
    SELECT id, name FROM courses WHERE id = ${courseId} AND tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}`);
  if (!row) throw notFound('课程不存在');
  return row;
}

/** Trims a name and enforces the shared limits with a message naming the field. */
export function cleanName(value: string | undefined, label: string): string {
  const name = (value ?? '').trim();
  if (!name) throw badRequest(`${label}不能为空`);
  if ([...name].length > NAME_MAX_LENGTH) throw badRequest(`${label}长度不能超过${NAME_MAX_LENGTH}个字符`);
  return name;
}

/** `IN (...)` for a non-empty list of ids or keys. */
export const idList = (ids: readonly (number | string)[]) => sql`(${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`;

export interface NamedClass {
  id: number;
  className: string;
  gradeName: string;
  graduatedYear: number | null;
}

/** The school's classes by "年级|班级", the way import workbooks name them. */
export async function classesByName(db: Db, s: SchoolRef): Promise<Map<string, NamedClass>> {
  const classRows = await rows<NamedClass>(db, sql`
    SELECT c.id, c.name AS "className", g.name AS "gradeName", g.graduated_year AS "graduatedYear"
      FROM classes c JOIN grades g ON g.id = c.grade_id
     WHERE c.tenant_id = ${s.tenantId} AND c.school_id = ${s.schoolId}
     -- After 升年级 a graduated 九年级 and the current one share names: the current class comes last and wins.
     ORDER BY g.graduated_year IS NULL, g.graduated_year, c.id`);
  return new Map(classRows.map((c) => [`${c.gradeName}|${c.className}`, c]));
}
