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
  session_id: string;
  expires_at: Date | string;
}

/** One round trip: a live session, its user, partner chain and roles. */
export async function loadPrincipalRow(db: Db, sessionId: string): Promise<PrincipalRow | undefined> {
  const { rows } = (await db.execute(sql`
    SELECT s.id AS session_id, s.expires_at, u.id AS user_id, u.username, u.name, u.tenant_id, u.school_id, u.partner_id, u.region, p.ancestors,
           (SELECT array_agg(r.role_key ORDER BY r.id) FROM user_roles r WHERE r.user_id = u.id) AS role_keys
      FROM sessions s
      JOIN users u ON u.id = s.user_id
      LEFT JOIN partners p ON p.id = u.partner_id
     WHERE s.id = ${sessionId} AND s.revoked_at IS NULL AND s.expires_at > now()`)) as unknown as { rows: PrincipalRow[] };
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
  };
}
