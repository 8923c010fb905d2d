// Who reads 学生心声: only the psychology teachers of the message's school (PIPL art. 28: sensitive
// personal information of minors). A message, grade or class of another school is 404, as if it
// did not exist; every other role is 403.
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { allow } from '../../auth/plugin';
import { forbidden, notFound } from '../../http/envelope';
import { RiskLevel, VoiceStatus } from '../../../src/domain/heartVoices';

export const psychologists = allow({ roles: ['psychologyteacher'] });
export const schoolAdmins = allow({ roles: ['schoolAdmin', 'mpSchoolAdmin'] });

/** The caller's school; an account without one reads nothing. */
export function schoolOf(request: FastifyRequest): number {
  const schoolId = request.principal.schoolId;
  if (!schoolId) throw forbidden('当前账号未关联学校');
  return schoolId;
}

export interface VoiceRow {
  id: number;
  anonymous: boolean;
  studentId: number | null;
  confirmedLevel: number | null;
  status: number;
}

/** A message of the caller's school, or 404. */
export async function voiceOf(db: Db, schoolId: number, id: number): Promise<VoiceRow> {
  const [voice] = await rows<VoiceRow>(
    db,
    sql`SELECT id, anonymous, student_id AS "studentId", confirmed_level AS "confirmedLevel", status
          FROM heart_voices WHERE id = ${id} AND school_id = ${schoolId}`,
  );
  if (!voice) throw notFound('该心声不存在');
  return voice;
}

export interface PlaceFilter {
  gradeId?: number;
  classId?: number;
}

/** Checks the header's grade and class belong to the school (404 otherwise) and returns the SQL filter on `v`. */
export async function placeFilter(db: Db, schoolId: number, q: PlaceFilter): Promise<SQL> {
  if (q.gradeId) {
    const [g] = await rows(db, sql`SELECT 1 FROM grades WHERE id = ${q.gradeId} AND school_id = ${schoolId}`);
    if (!g) throw notFound('年级不存在');
  }
  if (q.classId) {
    const [c] = await rows(db, sql`SELECT 1 FROM classes WHERE id = ${q.classId} AND school_id = ${schoolId}`);
    if (!c) throw notFound('班级不存在');
  }
  return sql`v.school_id = ${schoolId}
    ${q.gradeId ? sql`AND v.grade_id = ${q.gradeId}` : sql``}
    ${q.classId ? sql`AND v.class_id = ${q.classId}` : sql``}`;
}

/** Still needs the teacher: not handled, and 高危 as confirmed or, before confirmation, as suggested. */
export const PINNED = sql`(v.status <> ${VoiceStatus.handled} AND coalesce(v.confirmed_level, v.suggested_level) = ${RiskLevel.high})`;

/** The psychology teacher's menu badge: the school's messages pinned as 高危 and not yet handled. */
export async function pinnedCount(db: Db, schoolId: number): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM heart_voices v WHERE v.school_id = ${schoolId} AND ${PINNED}`);
  return row.n;
}
