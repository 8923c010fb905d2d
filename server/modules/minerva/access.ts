// Who may use teaching content, and the lookups that tie every id to the caller. Content (books,
// bank questions, knowledge points) is the platform's (tenant_id NULL) or a school's own; school
// work (homework, exams, papers, answers) belongs to a tenant and school, and a teacher reaches
// only the classes and courses they teach. Ids from elsewhere are "not found" (404).
import { sql, type SQL } from 'drizzle-orm';
import type { Role } from '../../../src/domain/roles';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { forbidden, notFound } from '../../http/envelope';
import { ADMIN_ROLES, TEACHER_ROLES } from '../vesta/access';

/** Content staff: the platform administrator and part-time editors (SPEC §2.4 /workbook). */
export const EDITOR_ROLES: readonly Role[] = ['admin', 'parttime'];

export const editorsOnly = allow({ roles: EDITOR_ROLES });
export const teachersOnly = allow({ roles: TEACHER_ROLES });
/** Reading content: editors, teachers (to assign and build papers) and school admins. */
export const contentReaders = allow({ roles: [...EDITOR_ROLES, ...TEACHER_ROLES, ...ADMIN_ROLES] });
/** The books of a class or grade: teachers and school admins. */
export const schoolStaff = allow({ roles: [...TEACHER_ROLES, ...ADMIN_ROLES] });

/** Content rows aliased `alias` the caller may see: the platform's and their own tenant's. */
export function visibleContent(p: Principal, alias: string): SQL {
  const column = sql.raw(`${alias}.tenant_id`);
  return p.tenantId === null ? sql`${column} IS NULL` : sql`(${column} IS NULL OR ${column} = ${p.tenantId})`;
}

export interface Me {
  tenantId: number;
  schoolId: number;
  teacherId: number;
}

/** The calling teacher's row; a teacher role without one (or without a school) has nothing here. */
export async function me(db: Db, p: Principal): Promise<Me> {
  if (p.tenantId === null || p.schoolId === null) throw forbidden();
  const [row] = await rows<{ id: number }>(db, sql`SELECT id FROM teachers WHERE user_id = ${p.userId} AND tenant_id = ${p.tenantId}`);
  if (!row) throw forbidden('仅任课教师可以使用');
  return { tenantId: p.tenantId, schoolId: p.schoolId, teacherId: row.id };
}

/** Whether the teacher teaches `courseId` in `classId`. */
export async function teaches(db: Db, teacherId: number, classId: number, courseId: number): Promise<boolean> {
  const found = await rows(db, sql`SELECT 1 FROM teaching_assignments WHERE teacher_id = ${teacherId} AND class_id = ${classId} AND course_id = ${courseId}`);
  return found.length > 0;
}

export interface BookRow {
  id: number;
  tenantId: number | null;
  title: string;
  subjectId: number;
  subjectName: string;
  gradeLevel: number;
  term: number;
  edition: string;
}

export const BOOK_COLUMNS = sql`b.id, b.tenant_id AS "tenantId", b.title, b.subject_id AS "subjectId", su.name AS "subjectName",
  b.grade_level AS "gradeLevel", b.term, b.edition`;

/**
 * Whether the caller, an editor, may change this book. The platform's shared books (no tenant) are
 * read by every school, so only the platform's own staff (editors without a tenant: the platform
 * administrator) change them; a school's editors (its part-timers) change only their school's books.
 */
export function mayEditBook(p: Principal, book: { tenantId: number | null }): boolean {
  return p.activeRole !== undefined && EDITOR_ROLES.includes(p.activeRole) && book.tenantId === p.tenantId;
}

/** A book the caller may change; one they cannot see is 404, a shared one they only read is 403. */
export async function findEditableBook(db: Db, p: Principal, bookId: number): Promise<BookRow> {
  const book = await findBook(db, p, bookId);
  if (!mayEditBook(p, book)) throw forbidden(book.tenantId === null ? '平台共享练习册只能由平台管理员修改' : '无权修改该练习册');
  return book;
}

export async function findBook(db: Db, p: Principal, bookId: number): Promise<BookRow> {
  const [book] = await rows<BookRow>(db, sql`
    SELECT ${BOOK_COLUMNS} FROM exercise_books b JOIN subjects su ON su.id = b.subject_id
     WHERE b.id = ${bookId} AND ${visibleContent(p, 'b')}`);
  if (!book) throw notFound('练习册不存在');
  return book;
}
