// Route access of SPEC §5, shared by the client (menu, canAccess) and the server (403s).
import type { Role } from './roles';

/** The access part of a route's meta. */
export interface AccessRule {
  roles?: readonly Role[];
  /** Partner levels allowed (partners only). */
  levels?: readonly number[];
  /** Subject ids of which a mini-program teacher must teach at least one. */
  courses?: readonly (string | number)[];
}

export interface AccessContext {
  activeRole: Role | undefined;
  partnerLevel?: number;
  /** Subject ids of the courses the user teaches. */
  subjectIds?: readonly (string | number)[];
}

export function canAccess(rule: AccessRule, ctx: AccessContext): boolean {
  if (!rule.roles) return true;
  if (!ctx.activeRole || !rule.roles.includes(ctx.activeRole)) return false;
  if (ctx.activeRole === 'partner' && rule.levels && !rule.levels.includes(ctx.partnerLevel ?? 1)) return false;
  if (ctx.activeRole === 'mpTeacher' && rule.courses) {
    const taught = new Set((ctx.subjectIds ?? []).map(String));
    if (!rule.courses.some((c) => taught.has(String(c)))) return false;
  }
  return true;
}
