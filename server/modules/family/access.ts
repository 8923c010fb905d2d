// Who may issue, list and revoke a student's family links, and answer the family's regrade
// requests. A school admin reaches every student of their school (any course, or all of them); a
// teacher reaches the students of the classes they teach, for the courses they teach there. Another
// school's or tenant's student is "not found"; a student the teacher does not teach is refused.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { forbidden, notFound } from '../../http/envelope';
import { isAdmin, schoolOf } from '../vesta/access';

export interface StaffStudent {
  tenantId: number;
  schoolId: number;
  id: number;
  name: string;
  studentNo: string;
  classId: number | null;
  /** The courses the caller may issue links for; null: any (a school admin). */
  courseIds: number[] | null;
}

export async function staffStudent(db: Db, p: Principal, studentId: number): Promise<StaffStudent> {
  const { tenantId, schoolId } = schoolOf(p);
  const [student] = await rows<{ id: number; name: string; studentNo: string; classId: number | null }>(db, sql`
    SELECT id, name, student_no AS "studentNo", class_id AS "classId" FROM students
     WHERE id = ${studentId} AND tenant_id = ${tenantId} AND school_id = ${schoolId}`);
  if (!student) throw notFound('学生不存在');
  if (isAdmin(p)) return { tenantId, schoolId, ...student, courseIds: null };
  const courses = await rows<{ courseId: number }>(db, sql`
    SELECT DISTINCT ta.course_id AS "courseId" FROM teaching_assignments ta JOIN teachers t ON t.id = ta.teacher_id
     WHERE t.user_id = ${p.userId} AND t.tenant_id = ${tenantId} AND ta.class_id = ${student.classId ?? -1}`);
  if (!courses.length) throw forbidden('您未任教该学生所在班级');
  return { tenantId, schoolId, ...student, courseIds: courses.map((c) => c.courseId) };
}

/** The token's digest, the only form the database keeps (as sessions keep no password). */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** 32 random bytes, base64url: 43 characters. Anything else is not a token. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The public page of a token. */
export const familyPath = (token: string) => `/f/${token}`;
