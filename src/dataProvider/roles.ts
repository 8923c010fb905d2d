// 角色任命 and teacher accounts (docs/api-roles.md): who holds which appointed role with what
// scope, appointing and removing, 停用/离职 with the handover, and initial passwords for a batch.
import type { AppointedRole, TeacherStatus } from '../domain/roles';
import type { HttpClient } from './http';

export interface RoleScope {
  scopeId: number;
  /** 七年级 · 数学 · 全部年级 · 七(1)班 */
  label: string;
  gradeId: number | null;
  subjectId: number | null;
  classId: number | null;
}
export interface RoleHolder {
  userId: number;
  name: string;
  teacherId: number | null;
  phone: string | null;
  status: TeacherStatus | null;
  scopes: RoleScope[];
}
export interface RoleHolders {
  role: AppointedRole;
  roleName: string;
  holders: RoleHolder[];
}
export interface HeldRole {
  role: AppointedRole;
  roleName: string;
  scopes: RoleScope[];
}
export interface TeacherClass {
  classId: number;
  className: string;
  gradeName: string;
  courseId: number;
  courseName: string;
}
export interface TeacherRoles {
  teacherId: number;
  userId: number;
  name: string;
  roles: HeldRole[];
  classes: TeacherClass[];
}
export interface Appointment {
  teacherId: number;
  role: AppointedRole;
  gradeId?: number;
  gradeIds?: number[];
  subjectId?: number;
  classId?: number;
}
export interface TeacherAccount {
  teacherId: number;
  name: string;
  phone: string | null;
  username: string;
  /** Imported and never given a password. */
  awaitingPassword: boolean;
  mustChangePassword: boolean;
  classes: string[];
}
export interface IssuedPassword {
  teacherId: number;
  name: string;
  username: string;
  password: string;
  classes: { classId: number; className: string; gradeName: string; level: number; courseName: string }[];
}
export interface StatusChange {
  teacherId: number;
  status: TeacherStatus;
  handovers?: { classId: number; courseId: number; toTeacherId: number }[];
  headTeachers?: { classId: number; toTeacherId: number | null }[];
}
export interface SchoolTeacher {
  teacherId: number;
  name: string;
  phone: string | null;
  job: string | null;
}

/** 区域教研员 (platform admin). */
export interface Researcher {
  userId: number;
  username: string;
  name: string;
  region: string;
  schoolCount: number;
}
export interface ResearcherRegion {
  region: string;
  schoolCount: number;
  /** The region's schools' names, joined by 、 */
  schools: string;
}
export interface CreatedResearcher {
  userId: number;
  username: string;
  name: string;
  region: string;
  /** The one-time initial password: in this reply only. */
  password: string;
}

export function createRoleApi(http: HttpClient) {
  return {
    roleHolders: () => http.get<RoleHolders[]>('/api/vesta/role/holders'),
    teacherRoles: (teacherId: number | string) => http.get<TeacherRoles>('/api/vesta/role/ofTeacher', { teacherId }),
    appoint: async (appointment: Appointment) => (await http.request<{ roles: HeldRole[] }>('/api/vesta/role/appoint', { method: 'POST', body: appointment })).msg,
    dismissRole: async (userId: number, role: AppointedRole, scopeId?: number) =>
      (await http.request<{ roles: HeldRole[] }>('/api/vesta/role/dismiss', { method: 'POST', body: { userId, role, scopeId } })).msg,
    /** Teachers in post, for pickers (successors, appointees). */
    schoolTeachers: (keyword?: string) => http.get<SchoolTeacher[]>('/api/vesta/teacher/getTeacherInSchool', { keyword: keyword || undefined }),
    setTeacherStatus: async (change: StatusChange) => (await http.request<{ status: TeacherStatus }>('/api/vesta/teacher/setStatus', { method: 'POST', body: change })).msg,
    teacherAccounts: () => http.get<TeacherAccount[]>('/api/vesta/teacher/accounts'),
    researchers: () => http.get<{ researchers: Researcher[]; regions: ResearcherRegion[] }>('/api/juno/admin/researchers'),
    appointResearcher: async (username: string, region: string) => (await http.request<{ userId: number }>('/api/juno/admin/appointResearcher', { method: 'POST', body: { username, region } })).msg,
    createResearcher: (body: { username: string; name: string; region: string }) => http.post<CreatedResearcher>('/api/juno/admin/createResearcher', body),
    dismissResearcher: async (userId: number) => (await http.request<{ userId: number }>('/api/juno/admin/dismissResearcher', { method: 'POST', body: { userId } })).msg,
    issueInitialPasswords: (teacherIds: number[]) => http.post<IssuedPassword[]>('/api/vesta/teacher/initialPasswords', { teacherIds }),
  };
}

export type RoleApi = ReturnType<typeof createRoleApi>;
