// react-admin authProvider over the SPEC §4 startup rules. Sign-in itself happens in the separate
// account app (account.html); this provider checks the token, runs startup once per page load,
// answers permissions and canAccess from that cached result, and signs out.
import type { AuthProvider, UserIdentity } from 'ra-core';
import type { ShellApi } from '../dataProvider/api';
import type { Role } from '../domain/roles';
import { canAccessResource, displayName, startSession, type Permissions } from './startup';
import { clearSession, getToken, SESSION_KEYS, setToken, signInUrl, type SignOutReason } from './session';

export type { Permissions } from './startup';

/** How long the reason for leaving a removed role stays on screen before the page reloads. */
const ROLE_NOTICE_MS = 2000;

export interface SignOutOptions {
  /** Tell the server to revoke the session (not when the server already refused the token). */
  revoke?: boolean;
  reason?: SignOutReason;
}

export type SignOut = (options?: SignOutOptions) => Promise<void>;

/**
 * SPEC §4/§8 logout: clear the store and session storage, remove the token, go to sign in
 * (with the logout flag and a redirect back to the product home). Runs once even when several
 * requests fail with 401 at the same moment.
 */
export function createSignOut(
  api: Pick<ShellApi, 'revokeSession'>,
  navigate: (url: string) => void = (url) => window.location.assign(url),
): SignOut {
  let leaving = false;
  return async ({ revoke = true, reason } = {}) => {
    if (leaving) return;
    leaving = true;
    if (revoke && getToken()) await api.revokeSession().catch(() => undefined);
    clearSession();
    navigate(signInUrl(reason));
  };
}

export interface AppAuthProvider extends AuthProvider {
  getPermissions: () => Promise<Permissions>;
  /** SPEC §2.1: store the role, mark the route as changed, reload (to the new role's home). */
  switchRole: (role: Role) => void;
  /**
   * The server refused the active role because it was taken away: forget it and reload, so startup
   * picks one the user still holds (SPEC §4 step 5). Once, however many calls failed at once.
   */
  leaveRole: (role: string) => void;
}

export function createAuthProvider(options: {
  api: Pick<ShellApi, 'myRoles' | 'appConfig' | 'userInfo' | 'currentPartner' | 'login'>;
  signOut: SignOut;
  storage?: Storage;
  reload?: () => void;
}): AppAuthProvider {
  const { api, signOut } = options;
  const storage = options.storage ?? window.sessionStorage;
  const reload =
    options.reload ??
    (() => {
      window.location.hash = '#/';
      window.location.reload();
    });
  let startup: Promise<Permissions> | undefined;
  let leaving = false;

  const permissions = (): Promise<Permissions> => {
    // SPEC §4 step 8: without a token there is nobody to start a session for.
    if (!getToken()) {
      void signOut({ revoke: false });
      return new Promise<Permissions>(() => undefined);
    }
    startup ??= startSession(api, storage).then((result) => {
      if (result.ok) return result.permissions;
      // The page is being left for the sign-in app: stay pending so nothing renders meanwhile.
      void signOut({ reason: result.reason });
      return new Promise<Permissions>(() => undefined);
    });
    return startup;
  };

  return {
    async login({ username, password }: { username: string; password: string }) {
      const { accessToken } = await api.login(username, password);
      setToken(accessToken);
    },
    async logout() {
      startup = undefined;
      await signOut({ revoke: true });
      // We navigated to the sign-in app ourselves; react-admin must not redirect again.
      return false;
    },
    // SPEC §4 step 8. The rejection makes react-admin call logout, which sends the user to sign in.
    async checkAuth() {
      if (!getToken()) throw { message: false };
    },
    // 401/403 are handled by the http client itself (toast + sign out), for calls made outside
    // react-admin too; nothing is left to do here.
    async checkError() {},
    getPermissions: permissions,
    async canAccess({ resource }) {
      return canAccessResource(await permissions(), resource);
    },
    async getIdentity(): Promise<UserIdentity> {
      const { profile, activeRole } = await permissions();
      let fullName = profile.displayName;
      // Partners start from the partner record; their own account name comes from the account info.
      if (activeRole === 'partner') fullName = displayName(await api.userInfo({ silent: true }).catch(() => undefined)) || fullName;
      return { id: profile.userId ?? '', fullName: fullName || '用户' };
    },
    switchRole(role) {
      storage.setItem(SESSION_KEYS.role, role);
      storage.setItem(SESSION_KEYS.routeChanged, '1');
      reload();
    },
    leaveRole(role) {
      if (leaving || storage.getItem(SESSION_KEYS.role) !== role) return;
      leaving = true;
      storage.removeItem(SESSION_KEYS.role);
      storage.setItem(SESSION_KEYS.routeChanged, '1');
      // Long enough to read the message that says why.
      setTimeout(reload, ROLE_NOTICE_MS);
    },
  };
}
