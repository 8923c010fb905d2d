// The shell's own calls (SPEC §4, §7): roles, user info, partner record, class/grade/course lists
// for the header filters, menu badges, sign-in and sign-out. They live on the dataProvider
// (reached through useDataProvider) and are handed to the authProvider.
import type { HttpClient } from './http';

export interface RoleEntry {
  roleKey: string;
  roleName: string;
}
export interface CourseItem {
  courseId: string | number;
  courseName: string;
  subjectId: string | number;
}
export interface ClassItem {
  id: string | number;
  gradeId: string | number;
  className: string;
  gradeName: string;
}
export interface GradeItem {
  id: string | number;
  name: string;
}
export interface SchoolClassItem {
  id: string | number;
  className: string;
}
export interface Workbook {
  id: string | number;
  title: string;
}
export interface UserInfo {
  id?: string | number;
  userId?: string | number;
  name?: string;
  userName?: string;
  full_name?: string;
  nick_name?: string;
  user_name?: string;
  account_name?: string;
  schoolId?: string | number;
  schoolName?: string;
  /** The school's IANA time zone (China time without a school): every time on screen is on this clock. */
  timeZone?: string;
  /** The grades of the school (the server sends a list of {gradeId, gradeName}). */
  schoolGrade?: unknown;
  schoolArea?: string;
  regionName?: string;
  tenantId?: string | number;
  courses?: CourseItem[];
  ancestors?: string;
  partnerName?: string;
}
export interface PartnerRecord {
  id: string | number;
  name: string;
  ancestors?: string;
  level?: number;
  contactName?: string;
  phone?: string;
  region?: string;
}
export interface AppConfig {
  classicTeacher?: boolean;
  classicAdmin?: boolean;
}
/** Counts keyed by the route badge keys (correctCount, homeworkCount). */
export type MenuBadges = Record<string, number | undefined>;
export interface LoginResult {
  accessToken: string;
  expiresIn: number;
  /** A one-time password: the session opens nothing until it is changed. */
  mustChangePassword?: boolean;
}

/** SPEC §8 "List loads check the success flag and data before filling": anything but an array is no data. */
function asList<T>(data: unknown): T[] {
  return Array.isArray(data) ? (data as T[]) : [];
}

export function createShellApi(http: HttpClient) {
  return {
    appConfig: () => http.get<AppConfig>('/api/app/config', undefined, { anonymous: true }),
    login: (username: string, password: string) =>
      http.post<LoginResult>('/api/juno/auth/login', { username, password }, { silent: true, anonymous: true }),
    /** Replaces the signed-in user's password; the server says in Chinese why a new one is refused. */
    changePassword: (oldPassword: string, newPassword: string) =>
      http.post<null>('/api/juno/auth/changePassword', { oldPassword, newPassword }, { silent: true }),
    /** Revokes the server session; quiet, because the user is leaving anyway. */
    revokeSession: () => http.post<unknown>('/api/juno/auth/logout', undefined, { silent: true }),
    myRoles: async () => asList<RoleEntry>(await http.get('/api/juno/personal/myRoles')),
    userInfo: (options?: { silent?: boolean }) => http.get<UserInfo>('/api/juno/personal/info', undefined, options),
    currentPartner: () => http.get<PartnerRecord>('/api/wrongbook/v1.0/partner/getCurrentPartner'),
    teachClasses: async (leaderType: number) =>
      asList<ClassItem>(await http.get('/api/vesta/teaching/getTeachClass', { leaderType })),
    gradesInSchool: async (query: { schoolId?: string | number; leaderType?: number }) =>
      asList<GradeItem>(await http.get('/api/vesta/teaching/getGradeInSchool', query)),
    /** SPEC §7 course-list query; SPEC §8: its failure is silent. */
    courseList: async (query: { classId: string; gradeId: string; leaderType?: number }) =>
      asList<CourseItem>(await http.get('/api/vesta/teaching/getCourseList', query, { silent: true })),
    coursesByGrade: async (gradeId: string) =>
      asList<CourseItem>(await http.get('/api/vesta/teaching/getCourseByGradeId', { gradeId })),
    classesInSchool: async (query: { schoolId?: string | number; gradeId: string }) =>
      asList<SchoolClassItem>(await http.get('/api/vesta/class/getClassInSchool', query)),
    exerciseBooks: async (query: { classId: string; courseId: string; term: string }) =>
      asList<Workbook>(await http.get('/api/minerva/v1.0/exercisebook/getExerciseBooksByClassId', query)),
    menuBadges: (dateType: number) => http.get<MenuBadges>('/api/wrongbook/v1.0/web/nav/getMenuBadge', { dateType }),
  };
}

export type ShellApi = ReturnType<typeof createShellApi>;
