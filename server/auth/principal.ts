// Who is calling: the user behind a session, their usable roles and the active one,
// derived with the same src/domain rules the browser uses (SPEC §4).
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { chooseActiveRole, partnerLevel, roleFromKey, usableRoles, type Role, type RoleConfig } from '../../src/domain/roles';

export interface Principal {
  sessionId: string;
  userId: number;
  username: string;
  name: string;
  tenantId: number | null;
  schoolId: number | null;
  partnerId: number | null;
  region: string | null;
  /** Role keys as stored ('prefix:role'). */
  roleKeys: string[];
  /** Roles the web app keeps, after the startup mapping. */
  roles: Role[];
  activeRole: Role | undefined;
  partnerLevel: number;
  /** Signed in with a one-time password: only changing it (or signing out) is allowed. */
  mustChangePassword: boolean;
}

export interface PrincipalRow {
  user_id: number;
  username: string;
  name: string;
  tenant_id: number | null;
  school_id: number | null;
  partner_id: number | null;
  region: string | null;
  ancestors: string | null;
  role_keys: string[] | null;
  must_change_password: boolean;
  session_id: string;
  /**
   * Until when a copy of this row may be used without asking the database: the session's end, or
   * the time its use is next due to be recorded, whichever comes first; so never past its idle end.
   */
  fresh_until: Date | string;
  /** Unused for longer than the idle timeout: the session has ended. */
  idle: boolean;
}

/** How often a session's use is recorded: once a minute, or more often for a very short idle timeout. */
export const touchInterval = (idleSeconds: number) => Math.min(60, idleSeconds / 4);

/**
 * One round trip: a live session, its user, partner chain and roles. Records the use of the
 * session when the last record is older than touchInterval, so busy sessions cost one write a
 * minute, not one per request.
 */
export async function loadPrincipalRow(db: Db, sessionId: string, idleSeconds: number): Promise<PrincipalRow | undefined> {
  const idle = sql`make_interval(secs => ${idleSeconds}::float8)`;
  const touch = sql`make_interval(secs => ${touchInterval(idleSeconds)}::float8)`;
  const { rows } = (await db.execute(sql`
    WITH touched AS (
      UPDATE sessions SET last_seen_at = now()
       WHERE id = ${sessionId} AND revoked_at IS NULL AND expires_at > now()
         AND last_seen_at > now() - ${idle} AND last_seen_at <= now() - ${touch}
      RETURNING id, last_seen_at)
    SELECT s.id AS session_id, u.id AS user_id, u.username, u.name, u.tenant_id, u.school_id, u.partner_id, u.region, u.must_change_password, p.ancestors,
           least(s.expires_at, coalesce(t.last_seen_at, s.last_seen_at) + ${touch}) AS fresh_until,
           s.last_seen_at <= now() - ${idle} AS idle,
           (SELECT array_agg(r.role_key ORDER BY r.id) FROM user_roles r WHERE r.user_id = u.id) AS role_keys
      FROM sessions s
      LEFT JOIN touched t ON t.id = s.id
      JOIN users u ON u.id = s.user_id
      LEFT JOIN partners p ON p.id = u.partner_id
     WHERE s.id = ${sessionId} AND s.revoked_at IS NULL AND s.expires_at > now()
       -- A teacher set to 停用 or 离职 is signed out everywhere, even by a session that escaped the revocation.
       AND NOT EXISTS (SELECT 1 FROM teachers tt WHERE tt.user_id = u.id AND tt.status <> 0)
       -- So is a partner set to 停用, and every partner below one (they buy from it, it answers for them).
       AND NOT EXISTS (SELECT 1 FROM partners sp WHERE sp.status <> 0 AND p.id IS NOT NULL
                         AND (sp.id = p.id OR sp.id::text = ANY (string_to_array(p.ancestors, ','))))`)) as unknown as { rows: PrincipalRow[] };
  return rows[0];
}

/** The caller, with the active role chosen among their own roles by the rules of SPEC §4. */
export function toPrincipal(row: PrincipalRow, requestedRole: string | undefined, config: RoleConfig): Principal {
  const roleKeys = row.role_keys ?? [];
  const roles = usableRoles(roleKeys.map(roleFromKey), config);
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    username: row.username,
    name: row.name,
    tenantId: row.tenant_id,
    schoolId: row.school_id,
    partnerId: row.partner_id,
    region: row.region,
    roleKeys,
    roles,
    activeRole: chooseActiveRole(roles, requestedRole),
    partnerLevel: partnerLevel(row.ancestors),
    mustChangePassword: row.must_change_password === true,
  };
}
