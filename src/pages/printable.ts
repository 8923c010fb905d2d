// Which addresses the print preview may fetch: this site's own API only, so a crafted link to
// /printer can neither make the page fetch elsewhere with the session nor show a foreign page.

/** The address to preview when it is this site's own API (after resolving `..` and the like), else null. */
export function sameOriginApi(raw: string | null, origin: string = window.location.origin): string | null {
  if (!raw || raw.length > 2000) return null;
  try {
    const url = new URL(raw, origin);
    if (url.origin !== origin || !url.pathname.startsWith('/api/') || url.username || url.password) return null;
    return url.pathname + url.search;
  } catch {
    return null;
  }
}
