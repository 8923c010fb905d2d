// Which classes a caller may see, by active role (SPEC §6 leader types). Every condition is
// bounded by the caller's tenant, so another tenant's ids simply are not there (404).
import { sql, type SQL } from 'drizzle-orm';
import { LEADER_TYPES } from '../../../src/domain/roles';
import type { Principal } from '../../auth/principal';
import { forbidden } from '../../http/envelope';

/** Roles that see every class of their school. */
const WHOLE_SCHOOL = ['schoolMaster', 'psychologyteacher', 'schoolAdmin', 'mpSchoolAdmin'];
const OWN_CLASSES = ['teacher', 'mpTeacher', 'teaching'];

/**
 * A condition on a `classes` row aliased `c`. A leaderType that does not belong to the active
 * role is refused: a teacher may not ask for a grade leader's view.
 */
export function classScope(p: Principal, leaderType?: number): SQL {
  const role = p.activeRole;
  if (!role || p.tenantId === null) throw forbidden();
  if (leaderType !== undefined && LEADER_TYPES[role] !== leaderType) throw forbidden('无权查看该角色的数据');
  const tenant = sql`c.tenant_id = ${p.tenantId}`;
  if (OWN_CLASSES.includes(role)) {
    return sql`${tenant} AND c.id IN (SELECT ta.class_id FROM teaching_assignments ta JOIN teachers t ON t.id = ta.teacher_id WHERE t.user_id = ${p.userId})`;
  }
  // Appointments (leader_scopes) are read here on every request, so a change applies at once.
  if (role === 'gradeLeader') {
    return sql`${tenant} AND c.school_id = ${p.schoolId ?? -1} AND c.grade_id IN (SELECT ls.grade_id FROM leader_scopes ls WHERE ls.user_id = ${p.userId} AND ls.role = 'gradeLeader')`;
  }
  if (role === 'subjectleader') {
    // The grades of their appointments; one without a grade covers every grade of the school.
    return sql`${tenant} AND c.school_id = ${p.schoolId ?? -1} AND EXISTS (SELECT 1 FROM leader_scopes ls
      WHERE ls.user_id = ${p.userId} AND ls.role = 'subjectleader' AND (ls.grade_id IS NULL OR ls.grade_id = c.grade_id))`;
  }
  if (role === 'regionResearcher') {
    // A region spans schools that are tenants of their own: its schools are read whatever their
    // tenant, and only they (docs/api-analysis.md, "Region scope").
    return sql`c.school_id IN ${regionSchoolIds(p)}`;
  }
  if (WHOLE_SCHOOL.includes(role)) return sql`${tenant} AND c.school_id = ${p.schoolId ?? -1}`;
  throw forbidden();
}

/**
 * Whether the classes in scope are every class of their schools: a researcher's region or one of
 * its schools, or a whole-school role, not narrowed to a grade or a class. School rollups then
 * stand for the classes' sums.
 */
export function wholeSchools(p: Principal, q: { gradeId?: number; classId?: number }): boolean {
  const role = p.activeRole ?? '';
  return (role === 'regionResearcher' || WHOLE_SCHOOL.includes(role)) && !q.gradeId && !q.classId;
}

/** Whether courseScope limits the caller's courses (a subject leader sees their subjects only). */
export function coursesNarrowed(p: Principal): boolean {
  return p.activeRole === 'subjectleader';
}

/** For subject leaders: only courses of the subjects they lead. */
export function courseScope(p: Principal): SQL {
  if (!coursesNarrowed(p)) return sql`TRUE`;
  return sql`co.subject_id IN (SELECT ls.subject_id FROM leader_scopes ls WHERE ls.user_id = ${p.userId} AND ls.role = 'subjectleader')`;
}

/**
 * The ids of the schools of a researcher's region (`schools.region` = `users.region`), across
 * tenants. Only the platform sets either value (seed, 区域教研员 appointment), so a school cannot
 * put itself into a region. Nothing for any other role, or a researcher without a region.
 */
export function regionSchoolIds(p: Principal): SQL {
  if (p.activeRole !== 'regionResearcher' || !p.region) return sql`(SELECT NULL::int WHERE false)`;
  return sql`(SELECT s.id FROM schools s WHERE s.region = ${p.region})`;
}

/**
 * A condition on a row's tenant column: the caller's tenant, or for a researcher the tenants of
 * their region's schools. Rollups and rosters keep their tenant column, so every query names it.
 */
export function tenantScope(p: Principal, column: SQL): SQL {
  if (p.activeRole === 'regionResearcher') {
    return sql`${column} IN (SELECT s.tenant_id FROM schools s WHERE s.id IN ${regionSchoolIds(p)})`;
  }
  return sql`${column} = ${p.tenantId ?? -1}`;
}
