import { describe, expect, it } from 'vitest';
import { canAccess } from '../../../src/domain/access';
import { activeMenuPath, findRoute, homePath, menuRoutes, permittedRoutes } from '../../../src/domain/permissions';
import { ROUTES, filtersFor, flattenRoutes } from '../../../src/menu/routes';
import type { Role } from '../../../src/domain/roles';

const menuTitles = (activeRole: Role, extra: { partnerLevel?: number; subjectIds?: number[] } = {}) =>
  menuRoutes(permittedRoutes(ROUTES, { activeRole, ...extra })).map((r) => r.path);

describe('route access (SPEC §5)', () => {
  it('routes without roles are always allowed', () => {
    expect(canAccess({}, { activeRole: undefined })).toBe(true);
  });
  it('needs the active role among the route roles', () => {
    expect(canAccess({ roles: ['teacher'] }, { activeRole: 'mpTeacher' })).toBe(false);
    expect(canAccess({ roles: ['teacher'] }, { activeRole: 'teacher' })).toBe(true);
  });
  it('checks partner levels for partners only', () => {
    expect(canAccess({ roles: ['partner'], levels: [1] }, { activeRole: 'partner', partnerLevel: 2 })).toBe(false);
    expect(canAccess({ roles: ['partner'], levels: [1, 2] }, { activeRole: 'partner', partnerLevel: 2 })).toBe(true);
  });
  it('checks course subjects for mini-program teachers', () => {
    const rule = { roles: ['mpTeacher'] as Role[], courses: [1, 2] };
    expect(canAccess(rule, { activeRole: 'mpTeacher', subjectIds: [3] })).toBe(false);
    expect(canAccess(rule, { activeRole: 'mpTeacher', subjectIds: ['2'] })).toBe(true);
    expect(canAccess(rule, { activeRole: 'mpTeacher' })).toBe(false);
  });
});

describe('menus per role (SPEC §2.4, §6)', () => {
  it('partner levels: 1 sees account and channels, 2 channels, 3 neither', () => {
    const l1 = menuTitles('partner', { partnerLevel: 1 });
    expect(l1).toEqual(['/overview-dashboard', '/channel-info', '/direct-marketing-school', '/devices', '/orders', '/account', '/child-partners', '/audit-log']);
    expect(menuTitles('partner', { partnerLevel: 2 })).toEqual(['/overview-dashboard', '/channel-info', '/direct-marketing-school', '/devices', '/orders', '/child-partners', '/audit-log']);
    expect(menuTitles('partner', { partnerLevel: 3 })).toEqual(['/overview-dashboard', '/direct-marketing-school', '/devices', '/orders', '/audit-log']);
  });
  it('the full-screen partner school board is not in the menu', () => {
    expect(menuTitles('partner', { partnerLevel: 1 })).not.toContain('/school-dashboard');
  });
  it('mini-program teacher', () => {
    expect(menuTitles('mpTeacher')).toEqual(['/AICorrect', '/assignHomework', '/studentTracking', '/wrongbook', '/usageStatistics', '/useGuide', '/schoolResource']);
  });
  it('mini-program school admin', () => {
    expect(menuTitles('mpSchoolAdmin')).toEqual(['/school-dashboard', '/class', '/studentManage', '/teacherManage', '/roleManage', '/room', '/schoolYear', '/schoolResource', '/heart-voice-privacy', '/audit-log']);
  });
  it('classic teacher', () => {
    expect(menuTitles('teacher')).toEqual(['/homework', '/exam', '/paper', '/classManage', '/errorNote', '/analysis']);
  });
  it('leaders, psychology teacher, part-time, school admin', () => {
    expect(menuTitles('subjectleader')).toEqual(['/analysis', '/leaderExams']);
    expect(menuTitles('gradeLeader')).toEqual(['/analysis', '/leaderExams']);
    expect(menuTitles('schoolMaster')).toEqual(['/analysis', '/leaderExams']);
    expect(menuTitles('regionResearcher')).toEqual(['/analysis']);
    expect(menuTitles('psychologyteacher')).toEqual(['/heart-sounds']);
    expect(menuTitles('parttime')).toEqual(['/resource', '/workbook']);
    expect(menuTitles('schoolAdmin')).toEqual(['/academic', '/school-dashboard', '/resource', '/heart-voice-privacy', '/audit-log']);
    expect(menuTitles('admin')).toEqual(['/workbook', '/withdrawal-review', '/platform-orders', '/level-one-partners', '/researchers', '/audit-log']);
  });
  it('hidden children are removed recursively', () => {
    const aiCorrect = menuRoutes(permittedRoutes(ROUTES, { activeRole: 'mpTeacher' })).find((r) => r.path === '/AICorrect');
    expect(aiCorrect?.children?.map((c) => c.path)).toEqual(['/AICorrect/index']);
  });
});

describe('home and active entry', () => {
  it('each role lands on its home', () => {
    const home = (activeRole: Role, partnerLevel?: number) => homePath(permittedRoutes(ROUTES, { activeRole, partnerLevel }));
    expect(home('mpTeacher')).toBe('/AICorrect');
    expect(home('teacher')).toBe('/homework');
    expect(home('mpSchoolAdmin')).toBe('/school-dashboard');
    expect(home('schoolAdmin')).toBe('/academic');
    expect(home('partner', 3)).toBe('/overview-dashboard');
    expect(home('psychologyteacher')).toBe('/heart-sounds');
    expect(home('gradeLeader')).toBe('/analysis');
    expect(home('parttime')).toBe('/resource');
    expect(home('admin')).toBe('/without/common');
    expect(home('teaching')).toBe('/404');
  });
  it('drops the last segment of paths with more than two segments', () => {
    expect(activeMenuPath('/AICorrect/index')).toBe('/AICorrect');
    expect(activeMenuPath('/homework')).toBe('/homework');
    expect(activeMenuPath('/')).toBe('/');
  });
  it("lights the entry a detail screen names as its parent", () => {
    expect(activeMenuPath('/correctDetail', ROUTES)).toBe('/AICorrect');
    expect(activeMenuPath('/AICorrect/report', ROUTES)).toBe('/AICorrect');
    expect(activeMenuPath('/heart-sounds/detail', ROUTES)).toBe('/heart-sounds');
    expect(activeMenuPath('/workbook/42', ROUTES)).toBe('/workbook');
  });
  it('finds parameterised routes', () => {
    expect(findRoute(ROUTES, '/workbook/42')?.meta.title).toBe('练习册详情');
    expect(findRoute(ROUTES, '/workbook/')).toBeUndefined();
    expect(findRoute(ROUTES, '/wrongbook/volumnPaper')?.meta.hideHeader).toBe(true);
  });
});

describe('header filters (SPEC §2.2)', () => {
  const analysis = findRoute(ROUTES, '/analysis');
  it('depend on the active role where the route says so', () => {
    // Leaders' grade and course pickers end with 全部; the researcher drills on the screen itself.
    expect(filtersFor(analysis, 'subjectleader')).toEqual(['gradeOrAll', 'courseOrAll', 'learningTerm']);
    expect(filtersFor(analysis, 'schoolMaster')).toEqual(['gradeOrAll', 'courseOrAll', 'learningTerm']);
    expect(filtersFor(analysis, 'regionResearcher')).toEqual(['learningTerm']);
    expect(filtersFor(analysis, 'teacher')).toEqual(['classGrade', 'course', 'learningTerm']);
    expect(filtersFor(findRoute(ROUTES, '/schoolResource'), 'mpTeacher')).toEqual(['course']);
    expect(filtersFor(findRoute(ROUTES, '/schoolResource'), 'mpSchoolAdmin')).toEqual([]);
  });
  it('are used as given otherwise', () => {
    expect(filtersFor(findRoute(ROUTES, '/homework'), 'teacher')).toEqual(['classGrade', 'course', 'time']);
    expect(filtersFor(findRoute(ROUTES, '/heart-sounds'), 'psychologyteacher')).toEqual(['schoolGrade', 'schoolClass']);
  });
  it('every route has a Chinese title', () => {
    for (const r of flattenRoutes()) expect(r.meta.title).toMatch(/[\u4e00-\u9fa5]/);
  });
});
