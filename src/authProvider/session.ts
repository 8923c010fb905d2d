// Where the session lives in the browser, shared by the product and the sign-in app (account.html),
// so that what one writes the other reads.

/** localStorage: the access token survives tabs and reloads; the sign-in app writes it, the http client reads it. */
export const TOKEN_KEY = 'xuezhu.accessToken';

/** sessionStorage keys (SPEC §9: teacher selection, user, role, active route). */
export const SESSION_KEYS = {
  role: 'xuezhu.activeRole',
  user: 'xuezhu.user',
  routeChanged: 'xuezhu.routeChanged',
  selection: 'xuezhu.teacherSelection',
} as const;

/** Prefix of react-admin's localStorage store (list preferences and the like). */
const RA_STORE_PREFIX = 'RaStore';

/** Why the user was sent to sign in; the sign-in app turns it into a fixed Chinese sentence. */
export type SignOutReason = 'expired' | 'forbidden' | 'noRole';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function getStoredRole(): string | null {
  return sessionStorage.getItem(SESSION_KEYS.role);
}

/**
 * The role this page's requests go out under, fixed once the session has started. A role switch
 * writes the next page's role to sessionStorage and reloads; until the page is gone its own
 * requests must keep its role, or they reach screens of the old role under the new one, come back
 * 403 and sign the user out.
 */
let pageRole: string | null = null;

export function pinPageRole(role: string): void {
  pageRole = role;
}

/** The X-Active-Role of this page: its pinned role, or before the session has started the stored one. */
export function pageActiveRole(): string | null {
  return pageRole ?? getStoredRole();
}

/** SPEC §4 "Logout clears the store and session storage, removes the token". */
export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  sessionStorage.clear();
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith(RA_STORE_PREFIX)) localStorage.removeItem(key);
  }
}

/** The product's home URL: the page the sign-in app returns to. */
export function productHomeUrl(origin: string = window.location.origin): string {
  return `${origin}/`;
}

/** SPEC §1: the sign-in route of the account app, with the logout flag and a redirect back to the product. */
export function signInUrl(reason?: SignOutReason, origin: string = window.location.origin): string {
  const params = new URLSearchParams({ logout: '1', redirect: productHomeUrl(origin) });
  if (reason) params.set('reason', reason);
  return `/account.html?${params.toString()}`;
}
