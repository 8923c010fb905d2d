// 学生详情 (partner view): one student's sign-ins and print jobs on the subtree's terminals in the
// school, read by the user indexes of device_sign_ins and print_jobs. Name and class only: a
// reseller sees usage, not the student's phone numbers or scores; and days, not times (what a
// partner sees of students' use of the terminals: src/domain/devices.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { BoardRange } from '../../../src/domain/boardRange';
import { UserKind } from '../../../src/domain/partner';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { notFound } from '../../http/envelope';
import { page } from '../../http/paging';
import type { Page } from '../../../src/domain/envelope';
import type { StudentPrintJob, StudentSignInDay } from '../../../src/domain/devices';
import { bucketOf, chinaDayOf, fill, inRangeAt } from './boardQuery';
import { appName, line, NO_SUBJECT, subjectNames } from './boardOverview';
import { inSubtree, type PartnerScope } from './scope';

export interface Student {
  id: number;
  name: string;
  tenantId: number;
  className: string | null;
  gradeName: string | null;
}

/** A student of the school (current or graduated); another school's student is not found. */
export async function checkStudent(db: Db, schoolId: number, studentId: number): Promise<Student> {
  const [student] = await rows<Student>(db, sql`
    SELECT st.id, st.name, st.tenant_id AS "tenantId", c.name AS "className", g.name AS "gradeName"
      FROM students st LEFT JOIN classes c ON c.id = st.class_id LEFT JOIN grades g ON g.id = c.grade_id
     WHERE st.id = ${studentId} AND st.school_id = ${schoolId}`);
  if (!student) throw notFound('学生不存在');
  return student;
}

/** The student's rows of a raw usage table in the range, on the scope's terminals in the school. */
const theirs = (scope: PartnerScope, schoolId: number, student: Student, range: BoardRange, alias: SQL, time: SQL): SQL =>
  sql`${alias}.tenant_id = ${student.tenantId} AND ${alias}.user_kind = ${UserKind.student} AND ${alias}.user_id = ${student.id}
      AND ${inRangeAt(range, time)} AND ${alias}.school_id = ${schoolId} AND ${inSubtree(scope, sql`${alias}.partner_id`)}`;

export async function studentUsage(db: Db, scope: PartnerScope, schoolId: number, student: Student, range: BoardRange) {
  const jobs = theirs(scope, schoolId, student, range, sql`pj`, sql`pj.printed_at`);
  const signIns = theirs(scope, schoolId, student, range, sql`si`, sql`si.at`);
  const [totals] = await rows<{ pages: number; jobs: number; signIns: number; activeDays: number }>(db, sql`
    SELECT (SELECT coalesce(sum(pages), 0)::int FROM print_jobs pj WHERE ${jobs}) AS pages,
           (SELECT count(*)::int FROM print_jobs pj WHERE ${jobs}) AS jobs,
           (SELECT count(*)::int FROM device_sign_ins si WHERE ${signIns}) AS "signIns",
           (SELECT count(*)::int FROM (SELECT ${chinaDayOf(sql`pj.printed_at`)} FROM print_jobs pj WHERE ${jobs}
                                        UNION SELECT ${chinaDayOf(sql`si.at`)} FROM device_sign_ins si WHERE ${signIns}) d) AS "activeDays"`);
  const bySubject = await rows<{ b: string; g: number; v: number }>(db, sql`
    SELECT ${bucketOf(range.bucket, chinaDayOf(sql`pj.printed_at`))} AS b, coalesce(pj.subject_id, 0) AS g, sum(pj.pages)::int AS v
      FROM print_jobs pj WHERE ${jobs} GROUP BY 1, 2`);
  const byApp = await rows<{ g: number; pages: number; jobs: number }>(db, sql`
    SELECT pj.app AS g, sum(pj.pages)::int AS pages, count(*)::int AS jobs FROM print_jobs pj WHERE ${jobs} GROUP BY 1 ORDER BY 2 DESC, 1`);
  const subjectIds = [...new Set(bySubject.map((r) => r.g))];
  const names = await subjectNames(db, subjectIds);
  const subjects = subjectIds.map((id) => line(id, names.get(id) ?? NO_SUBJECT, fill(range, new Map(bySubject.filter((r) => r.g === id).map((r) => [r.b, r.v])))));
  return {
    range,
    student: { id: student.id, name: student.name, className: student.className, gradeName: student.gradeName },
    kpis: totals,
    bySubject: subjects.sort((a, b) => b.total - a.total || a.id - b.id),
    byApp: byApp.map((r) => ({ id: r.g, name: appName(r.g), pages: r.pages, jobs: r.jobs })),
  };
}

interface Paging {
  current: number;
  size: number;
  offset: number;
}

/** A timestamp's China day as YYYY-MM-DD. */
const dayText = (column: SQL) => sql`to_char(${chinaDayOf(column)}, 'YYYY-MM-DD')`;

/**
 * The student's print jobs, newest first, each with its day but not its time: with the minute
 * and the terminal, a job says the student stood at that terminal then — at the hour an anonymous
 * 学生心声 was written there, that names its writer (src/domain/devices.ts).
 */
export async function studentPrintJobs(db: Db, scope: PartnerScope, schoolId: number, student: Student, range: BoardRange, p: Paging): Promise<Page<StudentPrintJob>> {
  const jobs = theirs(scope, schoolId, student, range, sql`pj`, sql`pj.printed_at`);
  const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM print_jobs pj WHERE ${jobs}`);
  const records = await rows<{ id: number; day: string; app: number; subjectName: string | null; pages: number; deviceSerial: string }>(db, sql`
    SELECT pj.id, ${dayText(sql`pj.printed_at`)} AS day, pj.app, sub.name AS "subjectName", pj.pages, d.serial AS "deviceSerial"
      FROM print_jobs pj JOIN devices d ON d.id = pj.device_id LEFT JOIN subjects sub ON sub.id = pj.subject_id
     WHERE ${jobs} ORDER BY pj.printed_at DESC, pj.id DESC LIMIT ${p.size} OFFSET ${p.offset}`);
  return page(records.map((r) => ({ ...r, appName: appName(r.app), subjectName: r.subjectName ?? NO_SUBJECT })), total, p.current, p.size);
}

/** The student's sign-ins by China day, newest first: how many and on which terminals, never when. */
export async function studentSignIns(db: Db, scope: PartnerScope, schoolId: number, student: Student, range: BoardRange, p: Paging): Promise<Page<StudentSignInDay>> {
  const signIns = theirs(scope, schoolId, student, range, sql`si`, sql`si.at`);
  const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(DISTINCT ${chinaDayOf(sql`si.at`)})::int AS total FROM device_sign_ins si WHERE ${signIns}`);
  const records = await rows<StudentSignInDay>(db, sql`
    SELECT ${dayText(sql`si.at`)} AS day, count(*)::int AS "signIns", array_agg(DISTINCT d.serial ORDER BY d.serial) AS "deviceSerials"
      FROM device_sign_ins si JOIN devices d ON d.id = si.device_id
     WHERE ${signIns} GROUP BY 1 ORDER BY 1 DESC LIMIT ${p.size} OFFSET ${p.offset}`);
  return page(records, total, p.current, p.size);
}
