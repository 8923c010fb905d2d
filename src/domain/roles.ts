// Role names, display names and the startup role rules of SPEC §4 and §6.
// Pure: shared by the browser (authProvider) and the server (access checks).

export const ROLES = [
  'teacher',
  'schoolAdmin',
  'subjectleader',
  'gradeLeader',
  'schoolMaster',
  'regionResearcher',
  'mpTeacher',
  'mpSchoolAdmin',
  'partner',
  'psychologyteacher',
  'teaching',
  'admin',
  'parttime',
] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_NAMES: Record<Role, string> = {
  teacher: '教师',
  schoolAdmin: '学校管理员',
  subjectleader: '学科组长',
  gradeLeader: '年级组长',
  schoolMaster: '学校校长',
  regionResearcher: '区域教研员',
  mpTeacher: '教师',
  mpSchoolAdmin: '学校管理员',
  partner: '合作伙伴',
  psychologyteacher: '心理教师',
  teaching: '授课老师',
  admin: '管理员',
  parttime: '兼职',
};

/** SPEC §6: leader-type numbers sent when fetching classes, grades and courses. */
export const LEADER_TYPES: Partial<Record<Role, number>> = {
  teacher: 1,
  subjectleader: 2,
  gradeLeader: 3,
  regionResearcher: 9,
  mpTeacher: 1,
  psychologyteacher: 7,
};

/** SPEC §6: the roles that load menu badge statistics. */
export const BADGE_ROLES: readonly Role[] = ['teaching', 'teacher', 'mpTeacher', 'psychologyteacher'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** 'prefix:role' → 'role'. A key without a prefix is taken as the role itself. */
export function roleFromKey(roleKey: string): string {
  const i = roleKey.indexOf(':');
  return i >= 0 ? roleKey.slice(i + 1) : roleKey;
}

/** Server configuration flags that change the startup mapping (SPEC §6 "admin and teacher config flags"). */
export interface RoleConfig {
  /** TEACHER_CLASSIC_WEB: keep `teacher` as is, which opens the classic teacher routes. */
  classicTeacher?: boolean;
  /** ADMIN_CLASSIC_WEB: keep `schoolAdmin` as is, which opens /academic. */
  classicAdmin?: boolean;
}

/** SPEC §4 step 4: the roles the web app keeps. */
const KEPT_BY_SPEC: readonly string[] = ['teacher', 'schoolAdmin', 'partner', 'psychologyteacher', 'teaching'];
/** DESIGN.md extension: leaders (for /analysis), and admin/part-time (whose routes the spec lists). */
const KEPT_BY_EXTENSION: readonly string[] = ['subjectleader', 'gradeLeader', 'regionResearcher', 'schoolMaster', 'admin', 'parttime'];

/**
 * SPEC §4 step 4: keep the usable roles in the order the server listed them, mapping
 * teacher → mpTeacher and schoolAdmin → mpSchoolAdmin unless the classic flags say otherwise.
 * `subjectLeader` is an alternative spelling of `subjectleader` (SPEC §6).
 */
export function usableRoles(serverRoles: readonly string[], config: RoleConfig = {}): Role[] {
  const result: Role[] = [];
  for (const raw of serverRoles) {
    const name = raw === 'subjectLeader' ? 'subjectleader' : raw;
    if (!KEPT_BY_SPEC.includes(name) && !KEPT_BY_EXTENSION.includes(name)) continue;
    let role = name as Role;
    if (role === 'teacher' && !config.classicTeacher) role = 'mpTeacher';
    if (role === 'schoolAdmin' && !config.classicAdmin) role = 'mpSchoolAdmin';
    if (!result.includes(role)) result.push(role);
  }
  return result;
}

/**
 * SPEC §4 steps 2 and 5: the stored role if still usable, else the first usable role
 * (the second when there are exactly two and the first is `teaching`).
 * Returns undefined when the user has no usable role.
 */
export function chooseActiveRole(roles: readonly Role[], stored?: string | null): Role | undefined {
  if (stored && (roles as readonly string[]).includes(stored)) return stored as Role;
  if (roles.length === 2 && roles[0] === 'teaching') return roles[1];
  return roles[0];
}

/**
 * SPEC §2.1: the roles offered in the user menu's switch list: not the active role, never
 * `teaching`, and `mpTeacher` only for users who also hold `teaching`.
 */
export function switchableRoles(roles: readonly Role[], active: Role | undefined): Role[] {
  const hasTeaching = roles.includes('teaching');
  return roles.filter((r) => r !== active && r !== 'teaching' && (r !== 'mpTeacher' || hasTeaching));
}

/** SPEC §3/§9: partner level is the count of ancestor ids, at least 1, at most 3. */
export function partnerLevel(ancestors: string | null | undefined): number {
  const ids = (ancestors ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return Math.min(3, Math.max(1, ids.length));
}

/** 教师状态 (teachers.status): 停用 and 离职 close the account; 离职 also hands the classes over. */
export const TeacherStatus = { active: 0, disabled: 1, left: 2 } as const;
export type TeacherStatus = (typeof TeacherStatus)[keyof typeof TeacherStatus];
export const TEACHER_STATUS_NAMES: Record<TeacherStatus, string> = { 0: '在职', 1: '停用', 2: '离职' };

/**
 * Roles a school admin appoints (docs/api-roles.md). `headTeacher` (班主任) is not a sign-in role:
 * it is a class a teacher is responsible for, kept as a scope beside the others.
 */
export const APPOINTED_ROLES = ['schoolMaster', 'gradeLeader', 'subjectleader', 'psychologyteacher', 'headTeacher'] as const;
export type AppointedRole = (typeof APPOINTED_ROLES)[number];
// The sign-in roles keep the names the user menu shows (SPEC §6).
export const APPOINTED_ROLE_NAMES: Record<AppointedRole, string> = {
  schoolMaster: ROLE_NAMES.schoolMaster,
  gradeLeader: ROLE_NAMES.gradeLeader,
  subjectleader: ROLE_NAMES.subjectleader,
  psychologyteacher: ROLE_NAMES.psychologyteacher,
  headTeacher: '班主任',
};
/** The appointed roles that are also sign-in roles (a user_roles row). */
export const SIGN_IN_APPOINTED_ROLES: readonly AppointedRole[] = ['schoolMaster', 'gradeLeader', 'subjectleader', 'psychologyteacher'];

/** The reply header of a request made as a role the user no longer holds: the client switches back. */
export const ROLE_REVOKED_HEADER = 'x-role-revoked';
