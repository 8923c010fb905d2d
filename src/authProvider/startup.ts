// SPEC §4 startup steps 1–6, as one function over injected calls and storage, so each rule is testable.
import { chooseActiveRole, partnerLevel, roleFromKey, usableRoles, type Role } from '../domain/roles';
import { findRoute, homePath, menuRoutes, permittedRoutes } from '../domain/permissions';
import { flattenRoutes, ROUTES, type RouteDef } from '../menu/routes';
import type { CourseItem, ShellApi, UserInfo } from '../dataProvider/api';
import { pinPageRole, SESSION_KEYS, type SignOutReason } from './session';
import { DEFAULT_ZONE, setBrowserZone, shownZone } from '../domain/format';

/** What the header shows about the user (SPEC §3 session personal data). */
export interface Profile {
  userId?: string | number;
  displayName: string;
  schoolId?: string | number;
  schoolName?: string;
  /** The clock every time is shown on: the school's zone, China time by default. */
  timeZone?: string;
  schoolGrade?: unknown;
  schoolArea?: string;
  regionName?: string;
  tenantId?: string | number;
  partnerName?: string;
  courses: CourseItem[];
}

/** The cached result of startup: everything access decisions need, without another call. */
export interface Permissions {
  roles: Role[];
  activeRole: Role;
  partnerLevel?: number;
  subjectIds: string[];
  /** Routes permitted for the active role (the "dynamic routes"). */
  routes: RouteDef[];
  /** Permitted routes without those hidden in the menu. */
  menu: RouteDef[];
  home: string;
  profile: Profile;
}

export type StartupResult = { ok: true; permissions: Permissions } | { ok: false; reason?: SignOutReason };

export type StartupApi = Pick<ShellApi, 'myRoles' | 'appConfig' | 'userInfo' | 'currentPartner'>;

/** SPEC §3: the first of full_name, nick_name, user_name, account_name; then name. */
export function displayName(info: Partial<UserInfo> | undefined): string {
  if (!info) return '';
  return info.full_name || info.nick_name || info.user_name || info.account_name || info.name || info.userName || '';
}

/**
 * Steps 1–6: role list → usable roles → active role → partner record or user info → permitted routes.
 * Never throws: a failed or empty role list, no usable role, or a failed profile call means "sign in".
 */
export async function startSession(api: StartupApi, storage: Storage, routes: readonly RouteDef[] = ROUTES): Promise<StartupResult> {
  const signIn = (reason?: SignOutReason): StartupResult => {
    // Step 1: clear role and info before leaving.
    storage.removeItem(SESSION_KEYS.role);
    storage.removeItem(SESSION_KEYS.user);
    return { ok: false, reason };
  };

  // A role switch reloads the page: the previous role's class and course choices do not apply.
  if (storage.getItem(SESSION_KEYS.routeChanged)) {
    storage.removeItem(SESSION_KEYS.routeChanged);
    storage.removeItem(SESSION_KEYS.selection);
  }

  // Step 1
  let roleKeys: string[];
  try {
    roleKeys = (await api.myRoles()).map((entry) => entry.roleKey).filter((key) => typeof key === 'string');
  } catch {
    return signIn();
  }
  if (roleKeys.length === 0) return signIn('noRole');

  // Step 4 (the classic-web flags are the DESIGN.md extension; without the config the spec mapping applies)
  const config = await api.appConfig().catch(() => ({}));
  const roles = usableRoles(roleKeys.map(roleFromKey), config);

  // Steps 2 and 5
  const activeRole = chooseActiveRole(roles, storage.getItem(SESSION_KEYS.role));
  if (!activeRole) return signIn('noRole');
  storage.setItem(SESSION_KEYS.role, activeRole);
  pinPageRole(activeRole);

  // Step 3
  let profile: Profile;
  let level: number | undefined;
  try {
    if (activeRole === 'partner') {
      const partner = await api.currentPartner();
      level = partnerLevel(partner?.ancestors);
      // Partners have no school: China time.
      setBrowserZone(DEFAULT_ZONE);
      profile = { displayName: partner?.contactName || partner?.name || '', partnerName: partner?.name, userId: partner?.id, timeZone: shownZone(), courses: [] };
      storage.setItem(SESSION_KEYS.user, JSON.stringify({ partner }));
    } else {
      const info = await api.userInfo();
      // Times on every screen are on the school's clock from here on (one page, one signed-in user).
      setBrowserZone(info?.timeZone);
      profile = {
        userId: info?.userId ?? info?.id,
        displayName: displayName(info),
        schoolId: info?.schoolId,
        schoolName: info?.schoolName,
        timeZone: shownZone(),
        schoolGrade: info?.schoolGrade,
        schoolArea: info?.schoolArea,
        regionName: info?.regionName,
        tenantId: info?.tenantId,
        courses: Array.isArray(info?.courses) ? info.courses : [],
      };
      storage.setItem(SESSION_KEYS.user, JSON.stringify(info ?? {}));
    }
  } catch {
    return signIn();
  }

  // Step 6
  const subjectIds = [...new Set(profile.courses.map((course) => String(course.subjectId)))];
  const permitted = permittedRoutes(routes, { activeRole, partnerLevel: level, subjectIds });
  return {
    ok: true,
    permissions: {
      roles,
      activeRole,
      partnerLevel: level,
      subjectIds,
      routes: permitted,
      menu: menuRoutes(permitted),
      home: homePath(permitted),
      profile,
    },
  };
}

/**
 * canAccess over cached permissions: a route path ('/homework') or a resource name. A resource is
 * accessible when a permitted route shows or uses it (its `resources` / `uses` in the route table),
 * so the route table is the one source of access; a resource no route names is refused.
 */
export function canAccessResource(permissions: Permissions | undefined, resource: string): boolean {
  if (!permissions) return false;
  if (resource.startsWith('/')) return !!findRoute(permissions.routes, resource);
  return flattenRoutes(permissions.routes).some((route) => route.resources?.includes(resource) || route.uses?.includes(resource));
}
