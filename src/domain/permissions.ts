// Which routes a user may open, which show in the menu, and where home is (SPEC §2.1, §4, §5).
import { canAccess, type AccessContext } from './access';
import type { RouteDef } from './routes';

/** Permitted routes, children filtered recursively; a parent that is not permitted takes its children with it. */
export function permittedRoutes(routes: readonly RouteDef[], ctx: AccessContext): RouteDef[] {
  return routes
    .filter((r) => canAccess(r.meta, ctx))
    .map((r) => (r.children ? { ...r, children: permittedRoutes(r.children, ctx) } : r));
}

/** The menu: permitted routes without those marked hidden in menu, recursively. */
export function menuRoutes(routes: readonly RouteDef[]): RouteDef[] {
  return routes
    .filter((r) => !r.meta.hideMenu)
    .map((r) => (r.children ? { ...r, children: menuRoutes(r.children) } : r));
}

/** The home entry is the first permitted route marked home, falling back to /404. */
export function homePath(permitted: readonly RouteDef[]): string {
  return permitted.find((r) => r.meta.home)?.path ?? '/404';
}

/**
 * The menu entry a path belongs to: the path with its last segment removed when it has more than
 * two; a detail screen outside its entry's folder (/correctDetail under AI批改) names its `parent`.
 */
export function activeMenuPath(pathname: string, routes: readonly RouteDef[] = []): string {
  const path = findRoute(routes, pathname)?.parent ?? pathname;
  const parts = path.split('/');
  return parts.length > 2 ? parts.slice(0, -1).join('/') : path;
}

/** Turns '/workbook/:bookId' into a matcher for '/workbook/42'. */
function matches(pattern: string, pathname: string): boolean {
  const a = pattern.split('/');
  const b = pathname.split('/');
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') ? b[i] !== '' : seg === b[i]);
}

/** The route definition for a path among the given routes (children included), if any. */
export function findRoute(routes: readonly RouteDef[], pathname: string): RouteDef | undefined {
  for (const r of routes) {
    if (matches(r.path, pathname)) return r;
    const child = r.children && findRoute(r.children, pathname);
    if (child) return child;
  }
  return undefined;
}
