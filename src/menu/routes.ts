// The route table of SPEC §2.3 and §2.4 as data (no React): the menu, the home page, the header
// filters, the screens and the client's access checks all read it. The server reads it only to send
// a screen's address typed without '#' into the app; each API route states its own roles with the
// same src/domain rules (server/auth/plugin.ts).
import type { FilterKey, RouteDef, SearchSetting } from '../domain/routes';
import type { Role } from '../domain/roles';

export type { FilterKey, IconName, RouteDef, RouteMeta, SearchSetting } from '../domain/routes';

const TEACHER_FILTERS_BY_ROLE: SearchSetting = {
  subjectleader: ['grade', 'course', 'learningTerm'],
  gradeLeader: ['grade', 'course', 'learningTerm'],
  schoolMaster: ['grade', 'course', 'learningTerm'],
  regionResearcher: ['grade', 'course', 'learningTerm'],
  teacher: ['classGrade', 'course', 'learningTerm'],
  mpTeacher: ['course'],
  mpSchoolAdmin: [],
};

/**
 * 学情分析: leaders pick a grade and a course, or 全部 (the whole scope). The researcher's region
 * spans schools with grades and courses of their own: they drill school → grade → class and pick a
 * subject on the screen itself, so the header keeps only the term.
 */
const ANALYSIS_FILTERS_BY_ROLE: SearchSetting = {
  subjectleader: ['gradeOrAll', 'courseOrAll', 'learningTerm'],
  gradeLeader: ['gradeOrAll', 'courseOrAll', 'learningTerm'],
  schoolMaster: ['gradeOrAll', 'courseOrAll', 'learningTerm'],
  regionResearcher: ['learningTerm'],
  teacher: ['classGrade', 'course', 'learningTerm'],
};

const FULL_SCREEN = { hideMenu: true, hideSidebar: true, hideHeader: true } as const;

export const ROUTES: RouteDef[] = [
  // SPEC §2.3 full-screen routes
  { path: '/printer', meta: { title: '打印预览', roles: ['admin', 'teacher'], hideMenu: true, hideSidebar: true } },
  { path: '/school-dashboard', meta: { title: '学校看板', roles: ['partner'], ...FULL_SCREEN } },
  { path: '/student-usage-detail', meta: { title: '学生详情', roles: ['partner'], ...FULL_SCREEN } },
  { path: '/composition-detail', meta: { title: '作文批改详情', roles: ['mpTeacher'], ...FULL_SCREEN } },
  // 未提交名单 of one homework, a sheet to print (from either teacher's 作业详情).
  { path: '/homeworkMissing', meta: { title: '未提交名单', roles: ['teacher', 'mpTeacher'], ...FULL_SCREEN } },
  { path: '/compositionCorrectDetail', meta: { title: '作文批改详情', roles: ['mpTeacher'], ...FULL_SCREEN } },
  { path: '/correctDetail', parent: '/AICorrect', meta: { title: '批改详情', roles: ['mpTeacher'], hideMenu: true } },
  { path: '/examProcessCorrectDetail', parent: '/AICorrect', meta: { title: '作业批改详情', roles: ['mpTeacher'], hideMenu: true } },

  // Partner (levels per SPEC §2.4)
  { path: '/overview-dashboard', uses: ['boardPartners'], meta: { title: '数据看板', icon: 'overviewDashboard', roles: ['partner'], levels: [1, 2, 3], home: true } },
  { path: '/channel-info', meta: { title: '渠道结算', icon: 'channelInfo', roles: ['partner'], levels: [1, 2] } },
  { path: '/direct-marketing-school', resources: ['directSchools'], uses: ['boardPartners'], meta: { title: '直营学校', icon: 'directMarketingSchool', roles: ['partner'], levels: [1, 2, 3] } },
  { path: '/devices', resources: ['devices'], uses: ['deviceSchools'], meta: { title: '设备管理', icon: 'devices', roles: ['partner'], levels: [1, 2, 3] } },
  // Reached from the header's bell (every partner page), not the menu.
  { path: '/alarms', parent: '/devices', meta: { title: '告警通知', roles: ['partner'], levels: [1, 2, 3], hideMenu: true } },
  { path: '/orders', resources: ['orders'], meta: { title: '订单管理', icon: 'orders', roles: ['partner'], levels: [1, 2, 3] } },
  { path: '/account', meta: { title: '我的账户', icon: 'account', roles: ['partner'], levels: [1] } },
  // 下级合作商: a level-1 or level-2 partner's own children (level 3 has none).
  { path: '/child-partners', meta: { title: '下级合作商', icon: 'classManagement', roles: ['partner'], levels: [1, 2] } },

  // Mini-program school admin
  { path: '/school-dashboard', meta: { title: '数据概览', icon: 'schoolDashboard', roles: ['mpSchoolAdmin'], home: true } },
  { path: '/class', resources: ['classes', 'grades'], meta: { title: '班级管理', icon: 'classManagement', roles: ['mpSchoolAdmin'] } },
  { path: '/studentManage', resources: ['students'], uses: ['classes', 'grades'], meta: { title: '学生管理', icon: 'studentManagement', roles: ['mpSchoolAdmin'] } },
  { path: '/teacherManage', resources: ['teachers'], uses: ['classes', 'grades', 'jobs'], meta: { title: '教师管理', icon: 'teacherManagement', roles: ['mpSchoolAdmin'] } },
  { path: '/roleManage', uses: ['classes', 'grades'], meta: { title: '角色任命', icon: 'account', roles: ['mpSchoolAdmin'] } },
  { path: '/room', resources: ['rooms'], meta: { title: '教室管理', icon: 'room', roles: ['mpSchoolAdmin'] } },
  { path: '/schoolYear', meta: { title: '学年管理', icon: 'academic', roles: ['mpSchoolAdmin'] } },

  // Psychology teacher
  {
    path: '/heart-sounds',
    meta: { title: '学生心声', icon: 'heartSounds', badge: 'heartCount', roles: ['psychologyteacher'], home: true, search: ['schoolGrade', 'schoolClass'] },
  },
  { path: '/heart-sounds/detail', parent: '/heart-sounds', meta: { title: '心声详情', roles: ['psychologyteacher'], hideMenu: true } },

  // Mini-program teacher
  {
    path: '/AICorrect',
    redirect: '/AICorrect/index',
    meta: { title: 'AI批改', icon: 'aiCorrect', badge: 'correctCount', roles: ['mpTeacher'], home: true },
    children: [
      { path: '/AICorrect/index', meta: { title: 'AI批改', roles: ['mpTeacher'] } },
      { path: '/AICorrect/createCorrectTask', parent: '/AICorrect/index', meta: { title: '新建批改任务', roles: ['mpTeacher'], hideMenu: true } },
      { path: '/AICorrect/report', parent: '/AICorrect/index', meta: { title: '批改报告', roles: ['mpTeacher'], hideMenu: true } },
      { path: '/AICorrect/lecture', parent: '/AICorrect/index', meta: { title: '讲评', roles: ['mpTeacher'], hideMenu: true, hideSidebar: true, hideHeader: true } },
      { path: '/AICorrect/marking', parent: '/AICorrect/index', meta: { title: '网上阅卷', roles: ['mpTeacher'], hideMenu: true } },
    ],
  },
  {
    path: '/assignHomework',
    meta: { title: '布置作业', icon: 'assignHomework', roles: ['mpTeacher'], search: ['classGrade', 'course', 'learningYear'] },
  },
  // The classic 作业详情 screen, opened from 布置作业's list (the server answers only the homework's teacher).
  { path: '/assignHomework/details', parent: '/assignHomework', meta: { title: '作业详情', roles: ['mpTeacher'], hideMenu: true } },
  {
    path: '/studentTracking',
    meta: { title: '学生错题本', icon: 'studentTracking', badge: 'wrongCount', roles: ['mpTeacher'], search: ['classGrade', 'course'] },
  },
  // 学情档案 of one student (?studentId=), from 学生错题本 and the classic 班级; leaders read it within their scope, without scores.
  { path: '/studentHistory', meta: { title: '学情档案', roles: ['mpTeacher', 'teacher', 'schoolMaster', 'gradeLeader', 'subjectleader'], hideMenu: true } },
  {
    path: '/wrongbook',
    redirect: '/wrongbook/index',
    meta: { title: '班级错题本', icon: 'wrongbook', roles: ['mpTeacher'], search: ['classGrade', 'course', 'learningYear'] },
    children: [
      { path: '/wrongbook/index', meta: { title: '班级错题本', roles: ['mpTeacher'], search: ['classGrade', 'course', 'learningYear'] } },
      { path: '/wrongbook/volumnPaper', parent: '/wrongbook/index', meta: { title: '错题组卷', roles: ['mpTeacher'], hideMenu: true, hideHeader: true } },
    ],
  },
  {
    path: '/usageStatistics',
    meta: { title: '班级管理', icon: 'usageStatistics', roles: ['mpTeacher'], search: ['classGrade', 'course'] },
  },
  { path: '/useGuide', meta: { title: '使用教程', icon: 'useGuide', roles: ['mpTeacher'] } },
  {
    path: '/schoolResource',
    resources: ['schoolResources'],
    uses: ['subjects'],
    meta: { title: '学校资源', icon: 'schoolResource', roles: ['mpTeacher', 'mpSchoolAdmin'], search: TEACHER_FILTERS_BY_ROLE },
  },

  // School admin (classic web, ADMIN_CLASSIC_WEB) and part-time
  {
    path: '/academic',
    redirect: '/academic/class',
    meta: { title: '教务管理', icon: 'academic', roles: ['schoolAdmin'], home: true },
    children: [
      { path: '/academic/class', resources: ['classes', 'grades'], meta: { title: '班级管理', roles: ['schoolAdmin'] } },
      { path: '/academic/teacher', resources: ['teachers'], uses: ['classes', 'grades', 'jobs'], meta: { title: '教师管理', roles: ['schoolAdmin'] } },
      { path: '/academic/roles', uses: ['classes', 'grades'], meta: { title: '角色任命', roles: ['schoolAdmin'] } },
      { path: '/academic/student', resources: ['students'], uses: ['classes', 'grades'], meta: { title: '学生管理', roles: ['schoolAdmin'] } },
      { path: '/academic/room', resources: ['rooms'], meta: { title: '教室管理', roles: ['schoolAdmin'] } },
      { path: '/academic/year', meta: { title: '学年管理', roles: ['schoolAdmin'] } },
    ],
  },
  // The mini-program admin's 数据概览 for the classic admin too; their home stays 教务管理 (SPEC §2.4).
  { path: '/school-dashboard', meta: { title: '数据概览', icon: 'schoolDashboard', roles: ['schoolAdmin'] } },
  {
    path: '/resource',
    redirect: '/resource/teaching',
    meta: { title: '学校资源', icon: 'resource', roles: ['schoolAdmin', 'parttime'], home: true },
    children: [{ path: '/resource/teaching', resources: ['schoolResources'], uses: ['subjects'], meta: { title: '教学资源', roles: ['schoolAdmin', 'parttime'] } }],
  },
  // 学生心声's read log and guardian consents (PIPL art. 28, 31), for both kinds of school admin.
  { path: '/heart-voice-privacy', meta: { title: '心声隐私', icon: 'heartSounds', roles: ['mpSchoolAdmin', 'schoolAdmin'] } },

  // Teacher (classic web, TEACHER_CLASSIC_WEB)
  { path: '/homework', resources: ['homeworks'], meta: { title: '作业', icon: 'homework', badge: 'homeworkCount', roles: ['teacher'], home: true, search: ['classGrade', 'course', 'time'] } },
  { path: '/homeworkDetails', uses: ['homeworks'], parent: '/homework', meta: { title: '作业详情', roles: ['teacher'], hideMenu: true, hideSidebar: true } },
  // The classic teacher's 布置作业 (from 作业's button): the same screen as the mini-program teacher's.
  { path: '/homeworkAssign', parent: '/homework', meta: { title: '布置作业', roles: ['teacher'], hideMenu: true, search: ['classGrade', 'course'] } },
  { path: '/exam', meta: { title: '考试', icon: 'exam', roles: ['teacher'], search: ['classGrade', 'course'] } },
  { path: '/examReport', parent: '/exam', meta: { title: '考试报告', roles: ['teacher'], hideMenu: true, hideSidebar: true } },
  { path: '/paper', meta: { title: '试卷', icon: 'paper', roles: ['teacher'], search: ['grade', 'courseInGrade'] } },
  { path: '/paperPrinter', meta: { title: '试卷打印', roles: ['teacher'], ...FULL_SCREEN } },
  { path: '/classManage', uses: ['students'], meta: { title: '班级', icon: 'class', roles: ['teacher'], search: ['classGrade'] } },
  { path: '/errorNote', meta: { title: '错题本', icon: 'errorNote', roles: ['teacher'], search: ['classGrade', 'course'] } },
  {
    path: '/learningGroup',
    parent: '/paper',
    meta: { title: '学情组卷', roles: ['teacher'], hideMenu: true, hideSidebar: true, search: ['classGrade', 'course', 'learningTerm', 'mistake'] },
  },

  // Learning-situation analysis: teacher and leaders (DESIGN.md keeps gradeLeader and schoolMaster too)
  {
    path: '/analysis',
    meta: {
      title: '学情分析',
      icon: 'analysis',
      roles: ['teacher', 'subjectleader', 'gradeLeader', 'schoolMaster', 'regionResearcher'],
      home: true,
      search: ANALYSIS_FILTERS_BY_ROLE,
    },
  },

  // 考试分析: the leaders' exam reports, school → grade → class → student (the server scopes them).
  { path: '/leaderExams', meta: { title: '考试分析', icon: 'exam', roles: ['schoolMaster', 'gradeLeader', 'subjectleader'] } },

  // Admin and part-time
  { path: '/workbook', resources: ['workbooks'], meta: { title: '练习册', icon: 'paper', roles: ['admin', 'parttime'] } },
  { path: '/workbook/:bookId', uses: ['workbooks'], parent: '/workbook', meta: { title: '练习册详情', roles: ['admin', 'parttime'], hideMenu: true, hideSidebar: true } },
  { path: '/without/common', meta: { title: '学情分析', roles: ['admin', 'teacher'], home: true, hideMenu: true, hideSidebar: true } },
  // 提现审核: partners' withdrawals, approved with the transfer reference or rejected (the platform admin only).
  { path: '/withdrawal-review', meta: { title: '提现审核', icon: 'incomeStatistics', roles: ['admin'] } },
  // 平台订单发货: level-1 partners' paper orders, which the platform sells, dispatched and their returns taken (the platform admin only).
  { path: '/platform-orders', meta: { title: '平台订单发货', icon: 'orders', roles: ['admin'] } },
  // 一级合作商: the platform admin's level-1 partners (the same screen as 下级合作商) and their statements.
  { path: '/level-one-partners', meta: { title: '一级合作商', icon: 'channelInfo', roles: ['admin'] } },

  // 区域教研员: the platform admin appoints researchers to a region of schools.
  { path: '/researchers', meta: { title: '区域教研员', icon: 'academic', roles: ['admin'] } },

  // 操作日志: school admins (their school), partners (their subtree) and the platform admin (everything); the server scopes it.
  { path: '/audit-log', resources: ['auditLogs'], meta: { title: '操作日志', icon: 'auditLog', roles: ['mpSchoolAdmin', 'schoolAdmin', 'partner', 'admin'], levels: [1, 2, 3] } },
];

/** Every route, children included, in table order. */
export function flattenRoutes(routes: readonly RouteDef[] = ROUTES): RouteDef[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

/** Filters shown for a route and role (SPEC §2.2). */
export function filtersFor(route: RouteDef | undefined, role: Role | undefined): readonly FilterKey[] {
  const search = route?.meta.search;
  if (!search) return [];
  if (Array.isArray(search)) return search as readonly FilterKey[];
  return (role && (search as Partial<Record<Role, readonly FilterKey[]>>)[role]) || [];
}
