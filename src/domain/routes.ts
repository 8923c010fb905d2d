// The shape of a route of the route table (SPEC §2.3, §2.4): pure data shared by the menu, the
// screens and access checks. The table itself is src/menu/routes.ts.
import type { AccessRule } from './access';
import type { Role } from './roles';

export type FilterKey =
  | 'classGrade'
  | 'course'
  | 'time'
  | 'grade'
  /** 学情分析: the grade filter with 全部年级 (the whole scope). */
  | 'gradeOrAll'
  /** 学情分析: the course filter with 全部学科. */
  | 'courseOrAll'
  | 'homeworkDate'
  | 'mistake'
  | 'courseInGrade'
  | 'term'
  | 'learningTerm'
  | 'learningYear'
  | 'schoolGrade'
  | 'schoolClass';

export type IconName =
  | 'aiCorrect' | 'academic' | 'auditLog' | 'account' | 'activity' | 'analysis' | 'assignHomework' | 'channelInfo'
  | 'class' | 'classManagement' | 'composition' | 'dashboard' | 'devices' | 'directMarketingSchool'
  | 'errorNote' | 'exam' | 'examProcess' | 'heartSounds' | 'homework' | 'incomeStatistics' | 'mistake'
  | 'orders' | 'overviewDashboard' | 'paper' | 'purchaseRecord' | 'registerBinding' | 'resource' | 'room'
  | 'schoolDashboard' | 'schoolResource' | 'studentManagement' | 'studentTracking' | 'teacherManagement'
  | 'usageStatistics' | 'useGuide' | 'wrongbook';

/** Header filters: one list for every role, or one list per active role (SPEC §2.2). */
export type SearchSetting = readonly FilterKey[] | Partial<Record<Role, readonly FilterKey[]>>;

export interface RouteMeta extends AccessRule {
  title: string;
  icon?: IconName;
  /** Key into the menu badge statistics. */
  badge?: string;
  /** The role's landing page when permitted. */
  home?: boolean;
  hideMenu?: boolean;
  hideSidebar?: boolean;
  hideHeader?: boolean;
  search?: SearchSetting;
}

export interface RouteDef {
  path: string;
  meta: RouteMeta;
  /** Where the back link goes (SPEC §2.1). */
  parent?: string;
  redirect?: string;
  /**
   * The resources (src/resources) this route's screen shows, in tab order. Without a custom screen
   * for the path, the generic resource screen shows them. Naming a resource here grants access to it.
   */
  resources?: readonly string[];
  /** Resources the screen only reads (pickers, a custom screen's list): access, no screen. */
  uses?: readonly string[];
  children?: RouteDef[];
}
