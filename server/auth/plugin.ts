// Authentication for every /api call, and the access guards routes declare.
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { canAccess, type AccessRule } from '../../src/domain/access';
import { ROLE_NAMES, ROLE_REVOKED_HEADER, isRole } from '../../src/domain/roles';
import { ApiError, forbidden, unauthorized } from '../http/envelope';
import { loadPrincipalRow, toPrincipal, type Principal, type PrincipalRow } from './principal';
import type { PrincipalStore } from './principalCache';
import { bearerToken, readToken } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyInstance {
    /** Recently seen sessions; evict a user's after revoking their sessions or changing their roles. */
    principals: PrincipalStore;
  }
  interface FastifyContextConfig {
    /** Reachable without signing in. */
    public?: boolean;
    /** Reachable with a one-time password not yet changed (changing it, signing out). */
    beforePasswordChange?: boolean;
  }
}

/** The header the web app sends with its active role; only ever chosen among the user's own roles. */
export const ACTIVE_ROLE_HEADER = 'x-active-role';

async function subjectIdsOf(request: FastifyRequest): Promise<number[]> {
  const { rows } = (await request.server.db.execute(sql`
    SELECT DISTINCT c.subject_id FROM teaching_assignments ta
      JOIN teachers t ON t.id = ta.teacher_id
      JOIN courses c ON c.id = ta.course_id
     WHERE t.user_id = ${request.principal.userId}`)) as unknown as { rows: { subject_id: number }[] };
  return rows.map((r) => r.subject_id);
}

/** A preHandler allowing the call when the active role (and partner level, and courses) fit the rule. */
export function allow(rule: AccessRule): preHandlerHookHandler {
  return async function guard(request) {
    const p = request.principal;
    const subjectIds = rule.courses && p.activeRole === 'mpTeacher' ? await subjectIdsOf(request) : undefined;
    if (!canAccess(rule, { activeRole: p.activeRole, partnerLevel: p.partnerLevel, subjectIds })) throw forbidden();
  };
}

export default fp(async function auth(app: FastifyInstance) {
  app.decorateRequest('principal', null as unknown as Principal);
  /** The session behind a token, checked and cached; a refusal throws. */
  const loadSession = async (token: string): Promise<PrincipalRow> => {
    const claims = await readToken(app.config.jwtSecret, token);
    if (!claims) throw unauthorized('登录已过期，请重新登录');
    const row = await loadPrincipalRow(app.db, claims.sid, app.config.sessionIdle);
    if (!row) throw unauthorized('登录已失效，请重新登录');
    if (row.idle) throw unauthorized('长时间未操作，登录已失效，请重新登录');
    return row;
  };
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.routeOptions.config?.public) return;
    // Unknown /api routes fall through to the 404 envelope rather than a 401, also when the web
    // app's catch-all static route is what matched them.
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    const token = bearerToken(request.headers['blade-auth'] as string | undefined);
    if (!token) throw unauthorized('请先登录');
    const requested = request.headers[ACTIVE_ROLE_HEADER];
    let row = app.principals.get(token);
    if (!row) {
      // The store checks a token once at a time (principalCache.ts): the requests that arrive
      // meanwhile share the signature check and session read instead of repeating them.
      row = await app.principals.load(token, loadSession);
    }
    request.principal = toPrincipal(row, typeof requested === 'string' ? requested : undefined, app.config);
    // A one-time password (npm run admin:create) opens nothing but the way to replace it.
    if (request.principal.mustChangePassword && !request.routeOptions.config?.beforePasswordChange) throw forbidden('请先修改初始密码');
    // Roles are read on every request: a role taken away since the page loaded is refused, never
    // quietly swapped for another, and the header tells the web app to switch back.
    // The account service (juno: my roles, my info, sign-out) answers about the user, not as a
    // role: it is what the web app asks to find the roles left.
    if (isRole(requested) && !request.principal.roles.includes(requested) && !request.routeOptions.url.startsWith('/api/juno/')) {
      throw new ApiError(403, `您已不再担任“${ROLE_NAMES[requested]}”，将切换到您的其他角色`, { [ROLE_REVOKED_HEADER]: requested });
    }
  });
});
