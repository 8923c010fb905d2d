import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider, createSignOut } from '../../src/authProvider';
import { SESSION_KEYS, TOKEN_KEY } from '../../src/authProvider/session';
import type { PartnerRecord, RoleEntry, UserInfo } from '../../src/dataProvider/api';

const roles = (...names: string[]): RoleEntry[] => names.map((name) => ({ roleKey: `xz:${name}`, roleName: name }));
const TEACHER_INFO: UserInfo = {
  id: 1,
  userId: 1,
  name: '陈静',
  full_name: '陈静老师',
  schoolId: 1,
  schoolName: '杭州市西湖区实验中学',
  courses: [
    { courseId: 2, courseName: '数学', subjectId: 2 },
    { courseId: 4, courseName: '物理', subjectId: 4 },
  ],
};

function setup(options: { roles?: RoleEntry[] | Error; config?: object; info?: UserInfo; partner?: PartnerRecord } = {}) {
  const api = {
    myRoles: vi.fn(async () => {
      if (options.roles instanceof Error) throw options.roles;
      return options.roles ?? roles('teacher');
    }),
    appConfig: vi.fn(async () => options.config ?? { classicTeacher: false, classicAdmin: false }),
    userInfo: vi.fn(async () => options.info ?? TEACHER_INFO),
    currentPartner: vi.fn(async () => options.partner ?? { id: 9, name: '浙江启明教育', ancestors: '1,2' }),
    login: vi.fn(async () => ({ accessToken: 'new-token', expiresIn: 7200 })),
    revokeSession: vi.fn(async () => undefined),
  };
  const navigate = vi.fn();
  const reload = vi.fn();
  const signOut = createSignOut(api, navigate);
  const auth = createAuthProvider({ api, signOut, reload });
  return { api, auth, navigate, reload };
}

/** Resolves when the promise settles, or says it is still pending. */
async function settle<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 30))]);
}

const signInTarget = (navigate: ReturnType<typeof vi.fn>) => new URL(navigate.mock.calls[0][0], window.location.origin);

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  localStorage.setItem(TOKEN_KEY, 'tok');
});

describe('authProvider startup (SPEC §4)', () => {
  it('step 1: an empty role list clears role and info and sends the user to sign in', async () => {
    sessionStorage.setItem(SESSION_KEYS.role, 'mpTeacher');
    sessionStorage.setItem(SESSION_KEYS.user, '{}');
    const { auth, navigate } = setup({ roles: [] });
    expect(await settle(auth.getPermissions())).toBe('pending');
    expect(sessionStorage.getItem(SESSION_KEYS.role)).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.user)).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    const target = signInTarget(navigate);
    expect(target.pathname).toBe('/account.html');
    expect(target.searchParams.get('logout')).toBe('1');
    expect(target.searchParams.get('reason')).toBe('noRole');
  });

  it('step 1: a failed role list sends the user to sign in', async () => {
    const { auth, navigate, api } = setup({ roles: new Error('网络异常') });
    expect(await settle(auth.getPermissions())).toBe('pending');
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(signInTarget(navigate).pathname).toBe('/account.html');
    expect(api.userInfo).not.toHaveBeenCalled();
  });

  it('a user whose roles are all unusable in the web app is sent to sign in', async () => {
    const { auth, navigate } = setup({ roles: roles('student', 'parent') });
    expect(await settle(auth.getPermissions())).toBe('pending');
    expect(signInTarget(navigate).searchParams.get('reason')).toBe('noRole');
  });

  it('step 4: teacher becomes mpTeacher and schoolAdmin becomes mpSchoolAdmin', async () => {
    const { auth } = setup({ roles: roles('teacher', 'schoolAdmin', 'student') });
    const p = await auth.getPermissions();
    expect(p.roles).toEqual(['mpTeacher', 'mpSchoolAdmin']);
    expect(p.activeRole).toBe('mpTeacher');
    expect(p.home).toBe('/AICorrect');
    expect(sessionStorage.getItem(SESSION_KEYS.role)).toBe('mpTeacher');
  });

  it('step 4 (DESIGN extension): the classic-web flags keep teacher and schoolAdmin', async () => {
    const { auth } = setup({ roles: roles('teacher', 'schoolAdmin'), config: { classicTeacher: true, classicAdmin: true } });
    const p = await auth.getPermissions();
    expect(p.roles).toEqual(['teacher', 'schoolAdmin']);
    expect(p.home).toBe('/homework');
    expect(p.menu.map((r) => r.path)).toEqual(['/homework', '/exam', '/paper', '/classManage', '/errorNote', '/analysis']);
  });

  it('step 2: the stored role stays active when the user still has it', async () => {
    sessionStorage.setItem(SESSION_KEYS.role, 'mpSchoolAdmin');
    const { auth } = setup({ roles: roles('teacher', 'schoolAdmin') });
    const p = await auth.getPermissions();
    expect(p.activeRole).toBe('mpSchoolAdmin');
    expect(p.home).toBe('/school-dashboard');
  });

  it('step 5: a stored role the user no longer has gives way to the first usable role', async () => {
    sessionStorage.setItem(SESSION_KEYS.role, 'partner');
    const { auth, api } = setup({ roles: roles('psychologyteacher', 'teacher') });
    const p = await auth.getPermissions();
    expect(p.activeRole).toBe('psychologyteacher');
    expect(api.currentPartner).not.toHaveBeenCalled();
  });

  it("step 5: with two roles of which the first is 'teaching', the second becomes active", async () => {
    const { auth } = setup({ roles: roles('teaching', 'teacher') });
    const p = await auth.getPermissions();
    expect(p.roles).toEqual(['teaching', 'mpTeacher']);
    expect(p.activeRole).toBe('mpTeacher');
  });

  it('step 3: a partner loads the partner record, and its level gates the routes', async () => {
    const { auth, api } = setup({ roles: roles('partner'), partner: { id: 9, name: '西湖渠道', ancestors: '1,2,3' } });
    const p = await auth.getPermissions();
    expect(api.currentPartner).toHaveBeenCalledTimes(1);
    expect(api.userInfo).not.toHaveBeenCalled();
    expect(p.partnerLevel).toBe(3);
    expect(p.profile.partnerName).toBe('西湖渠道');
    expect(p.menu.map((r) => r.path)).toEqual(['/overview-dashboard', '/direct-marketing-school', '/devices', '/orders', '/audit-log']);
  });

  it('step 3: a level-1 partner sees channel settlement and my account', async () => {
    const { auth } = setup({ roles: roles('partner'), partner: { id: 1, name: '总代理', ancestors: '' } });
    const p = await auth.getPermissions();
    expect(p.partnerLevel).toBe(1);
    expect(p.menu.map((r) => r.path)).toContain('/account');
    expect(p.menu.map((r) => r.path)).toContain('/channel-info');
  });

  it('step 3: other roles load the user info; its course subjects feed access', async () => {
    const { auth, api } = setup();
    const p = await auth.getPermissions();
    expect(api.userInfo).toHaveBeenCalledTimes(1);
    expect(p.subjectIds).toEqual(['2', '4']);
    expect(p.profile).toMatchObject({ displayName: '陈静老师', schoolName: '杭州市西湖区实验中学' });
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.user)!)).toMatchObject({ schoolId: 1 });
  });

  it('step 6: routes not permitted are not among the permitted routes; canAccess answers from the cache', async () => {
    const { auth, api } = setup();
    expect(await auth.canAccess!({ action: 'access', resource: '/AICorrect/index' })).toBe(true);
    expect(await auth.canAccess!({ action: 'access', resource: '/homework' })).toBe(false);
    expect(await auth.canAccess!({ action: 'access', resource: '/orders' })).toBe(false);
    expect(await auth.canAccess!({ action: 'list', resource: 'planets' })).toBe(false);
    expect(api.myRoles).toHaveBeenCalledTimes(1);
  });

  it('step 8: checkAuth refuses without a token', async () => {
    const { auth } = setup();
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    localStorage.removeItem(TOKEN_KEY);
    await expect(auth.checkAuth({})).rejects.toBeDefined();
  });
});

describe('authProvider session', () => {
  it('logout revokes the session, clears storage and goes to the sign-in app with a redirect home', async () => {
    sessionStorage.setItem(SESSION_KEYS.selection, '{"classId":"1"}');
    localStorage.setItem('RaStore.preferences', '{}');
    const { auth, api, navigate } = setup();
    await expect(auth.logout({})).resolves.toBe(false);
    expect(api.revokeSession).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem('RaStore.preferences')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    const target = signInTarget(navigate);
    expect(target.pathname).toBe('/account.html');
    expect(target.searchParams.get('logout')).toBe('1');
    expect(target.searchParams.get('redirect')).toBe(`${window.location.origin}/`);
  });

  it('signs out only once when several calls fail together', async () => {
    const { auth, navigate } = setup();
    await Promise.all([auth.logout({}), auth.logout({})]);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('the display name is the first of full_name, nick_name, user_name, account_name, then name', async () => {
    const { auth } = setup({ info: { ...TEACHER_INFO, full_name: '', nick_name: '', user_name: 'chenjing', account_name: 'cj01', name: '陈静' } });
    await expect(auth.getIdentity!()).resolves.toMatchObject({ fullName: 'chenjing' });
    const { auth: second } = setup({ info: { ...TEACHER_INFO, full_name: undefined, nick_name: undefined, user_name: undefined, account_name: undefined, name: '陈静' } });
    await expect(second.getIdentity!()).resolves.toMatchObject({ fullName: '陈静' });
  });

  it('switching role stores it, marks the route changed and reloads; the next start forgets the old selection', async () => {
    const { auth, reload } = setup({ roles: roles('teacher', 'schoolAdmin') });
    sessionStorage.setItem(SESSION_KEYS.selection, '{"classId":"1"}');
    auth.switchRole('mpSchoolAdmin');
    expect(sessionStorage.getItem(SESSION_KEYS.role)).toBe('mpSchoolAdmin');
    expect(sessionStorage.getItem(SESSION_KEYS.routeChanged)).toBe('1');
    expect(reload).toHaveBeenCalledTimes(1);

    const { auth: afterReload } = setup({ roles: roles('teacher', 'schoolAdmin') });
    const p = await afterReload.getPermissions();
    expect(p.activeRole).toBe('mpSchoolAdmin');
    expect(sessionStorage.getItem(SESSION_KEYS.selection)).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.routeChanged)).toBeNull();
  });

  it('a role taken away by the school is forgotten once, and the reload starts with a role still held', async () => {
    vi.useFakeTimers();
    try {
      sessionStorage.setItem(SESSION_KEYS.role, 'gradeLeader');
      const { auth, reload } = setup({ roles: roles('teacher') });
      auth.leaveRole('gradeLeader');
      auth.leaveRole('gradeLeader');
      expect(sessionStorage.getItem(SESSION_KEYS.role)).toBeNull();
      // The message saying why stays readable before the page reloads.
      expect(reload).not.toHaveBeenCalled();
      vi.advanceTimersByTime(2000);
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
    const { auth: afterReload } = setup({ roles: roles('teacher') });
    expect((await afterReload.getPermissions()).activeRole).toBe('mpTeacher');
  });

  it('a refusal for a role other than the active one changes nothing', () => {
    sessionStorage.setItem(SESSION_KEYS.role, 'mpTeacher');
    const { auth, reload } = setup({ roles: roles('teacher') });
    auth.leaveRole('gradeLeader');
    expect(sessionStorage.getItem(SESSION_KEYS.role)).toBe('mpTeacher');
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('authProvider without a token', () => {
  it('sends the user to sign in without asking the server anything', async () => {
    localStorage.removeItem(TOKEN_KEY);
    const { auth, api, navigate } = setup();
    expect(await settle(auth.getPermissions())).toBe('pending');
    expect(api.myRoles).not.toHaveBeenCalled();
    expect(api.revokeSession).not.toHaveBeenCalled();
    expect(signInTarget(navigate).searchParams.get('reason')).toBeNull();
  });
});
