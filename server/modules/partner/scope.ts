// A partner sees its own subtree only: itself and the partners below it (by `ancestors`); a
// level-3 partner only itself. Every partner call resolves the caller's subtree here and checks
// each id it is given against it. An id outside is "not found" (404): its existence is not the
// caller's business.
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { allow } from '../../auth/plugin';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { forbidden, notFound } from '../../http/envelope';
import { partnerLevel } from '../../../src/domain/roles';

/** Partner routes by level (SPEC §2.4): the same rule as the route table. */
export const anyPartner = allow({ roles: ['partner'], levels: [1, 2, 3] });
export const channelPartner = allow({ roles: ['partner'], levels: [1, 2] });
export const levelOnePartner = allow({ roles: ['partner'], levels: [1] });

export interface PartnerScope {
  partnerId: number;
  level: number;
  ancestors: string;
  /** The caller and every partner below it. */
  subtreeIds: number[];
}

/** The partners of a subtree: the root and every partner whose chain passes through it. */
export const subtreeCondition = (root: { id: number; ancestors: string }, alias = sql`p`): SQL =>
  sql`(${alias}.id = ${root.id} OR ${alias}.ancestors = ${`${root.ancestors},${root.id}`} OR ${alias}.ancestors LIKE ${`${root.ancestors},${root.id},%`})`;

export async function loadScope(db: Db, partnerId: number): Promise<PartnerScope> {
  const [me] = await rows<{ id: number; ancestors: string }>(db, sql`SELECT id, ancestors FROM partners WHERE id = ${partnerId}`);
  if (!me) throw notFound('合作伙伴不存在');
  const below = await rows<{ id: number }>(db, sql`SELECT p.id FROM partners p WHERE ${subtreeCondition(me)} ORDER BY p.id`);
  return { partnerId: me.id, level: partnerLevel(me.ancestors), ancestors: me.ancestors, subtreeIds: below.map((r) => r.id) };
}

/** The calling partner's scope; the route's guard has already checked the role and level. */
export function scopeOf(request: FastifyRequest): Promise<PartnerScope> {
  const id = request.principal.partnerId;
  if (!id) throw forbidden();
  return loadScope(request.server.db, id);
}

/** A partner id given by the caller must be in its subtree. */
export function checkPartnerId(scope: PartnerScope, partnerId: number): number {
  if (!scope.subtreeIds.includes(partnerId)) throw notFound('合作伙伴不存在');
  return partnerId;
}

/** SQL `IN (...)` list of the subtree, for filters on partner_id columns. */
export const inSubtree = (scope: PartnerScope, column: SQL): SQL => sql`${column} IN (${sql.join(scope.subtreeIds.map((id) => sql`${id}`), sql`, `)})`;

/**
 * A school the caller may see: run directly by a partner of the subtree, or with one of the
 * subtree's terminals deployed in it.
 */
export async function checkSchool(db: Db, scope: PartnerScope, schoolId: number): Promise<{ id: number; name: string; tenantId: number; partnerId: number | null }> {
  const [school] = await rows<{ id: number; name: string; tenantId: number; partnerId: number | null }>(
    db,
    sql`SELECT s.id, s.name, s.tenant_id AS "tenantId", s.partner_id AS "partnerId" FROM schools s
         WHERE s.id = ${schoolId}
           AND (${inSubtree(scope, sql`s.partner_id`)}
                OR EXISTS (SELECT 1 FROM devices d WHERE d.school_id = s.id AND ${inSubtree(scope, sql`d.partner_id`)}))`,
  );
  if (!school) throw notFound('学校不存在');
  return school;
}

/** A terminal of the caller's subtree. */
export async function checkDevice(db: Db, scope: PartnerScope, deviceId: number): Promise<{ id: number; partnerId: number; schoolId: number | null }> {
  const [device] = await rows<{ id: number; partnerId: number; schoolId: number | null }>(
    db,
    sql`SELECT d.id, d.partner_id AS "partnerId", d.school_id AS "schoolId" FROM devices d WHERE d.id = ${deviceId} AND ${inSubtree(scope, sql`d.partner_id`)}`,
  );
  if (!device) throw notFound('设备不存在');
  return device;
}
