// Where the sign-in app may send the user after signing in: same-origin targets only, so a
// crafted link cannot use our sign-in page to forward credentials-bearing users elsewhere.

/**
 * A same-origin redirect as an absolute URL; anything else becomes the home page. The target is
 * resolved against our origin and the origins compared; the resolved URL itself is returned, never
 * a path to be resolved again: '/.//evil.example' resolves to the path '//evil.example', which the
 * browser would read as another host.
 */
export function safeRedirect(raw: string | null | undefined, origin: string): string {
  const home = new URL('/', origin).href;
  if (!raw) return home;
  let url: URL;
  try {
    url = new URL(raw, home);
  } catch {
    return home;
  }
  return url.origin === new URL(origin).origin ? url.href : home;
}

const SIGN_OUT_MESSAGES: Record<string, string> = {
  expired: '登录已失效，请重新登录',
  forbidden: '当前账号无权访问，请重新登录',
  noRole: '当前账号没有可用的角色，请联系学校管理员',
};

/** The fixed sentence for why the product sent the user here (never text taken from the URL). */
export function signOutMessage(reason: string | null): string | undefined {
  return reason && Object.hasOwn(SIGN_OUT_MESSAGES, reason) ? SIGN_OUT_MESSAGES[reason] : undefined;
}
