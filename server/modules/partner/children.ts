// 下级合作商 (docs/api-partner-children.md): a level-1 or level-2 partner's own direct children, and
// the platform administrator's level-1 partners (一级合作商), through the same calls. The parent
// invites a child with its first account (a one-time password shown once, changed at first
// sign-in), edits it, suspends or restores it (停用 signs its accounts and those below out at their
// next request), sets its pack prices between the parent's own price and the pack's 建议零售价, and
// hands it terminals and schools it runs itself, or takes them back. Any id that is not one of the
// caller's direct children is "not found". Every write is in the 操作日志, in its own transaction.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { allow } from '../../auth/plugin';
import { generatePassword, hashPassword } from '../../auth/passwords';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { partnerPackPrices, partners, sessions, userRoles, users } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { CHILD_PARTNER_LIMITS, PartnerStatus, childAncestors, yuan } from '../../../src/domain/partner';
import { PHONE_PATTERN } from '../../../src/domain/school';
import { partnerLevel } from '../../../src/domain/roles';
import { USERNAME } from '../juno/platformAdmin';
import { recordAudit } from '../audit/record';
import { priceBook } from './prices';

const BASE = '/api/wrongbook/v1.0/partner/children';
const parentGuard = allow({ roles: ['partner', 'admin'], levels: [1, 2] });
const MAX_ASSIGN = 200;

/** Who the parent is: a partner (levels 1–2), or the platform (its children are the level-1 partners). */
type Parent = { platform: true } | { platform: false; id: number; ancestors: string; name: string };

async function parentOf(request: FastifyRequest): Promise<Parent> {
  if (request.principal.activeRole === 'admin') return { platform: true };
  const id = request.principal.partnerId;
  if (!id) throw forbidden();
  const [me] = await rows<{ id: number; ancestors: string; name: string }>(request.server.db, sql`SELECT id, ancestors, name FROM partners WHERE id = ${id}`);
  if (!me) throw notFound('合作伙伴不存在');
  // Level 3 has no children (the guard already refuses it; this is the rule in one place).
  if (partnerLevel(me.ancestors) >= 3) throw forbidden('三级合作商不能发展下级');
  return { platform: false, ...me };
}

const childrenOf = (parent: Parent) => (parent.platform ? sql`c.parent_id IS NULL` : sql`c.parent_id = ${parent.id}`);
const parentWord = (parent: Parent) => (parent.platform ? '平台' : parent.name);

interface Child {
  id: number;
  name: string;
  ancestors: string;
  status: number;
}

/** One of the caller's direct children; anything else is "not found". */
async function childOf(db: Db, parent: Parent, partnerId: number): Promise<Child> {
  const [child] = await rows<Child>(db, sql`SELECT c.id, c.name, c.ancestors, c.status FROM partners c WHERE c.id = ${partnerId} AND ${childrenOf(parent)}`);
  if (!child) throw notFound('下级合作商不存在');
  return child;
}

const ChildFields = {
  name: Type.String({ minLength: 1, maxLength: CHILD_PARTNER_LIMITS.name }),
  contactName: Type.String({ minLength: 1, maxLength: CHILD_PARTNER_LIMITS.contactName }),
  phone: Type.String({ minLength: 1, maxLength: 20 }),
  region: Type.String({ minLength: 1, maxLength: CHILD_PARTNER_LIMITS.region }),
};
const FIELD_LABELS = { username: '登录账号', name: '合作商名称', contactName: '联系人', phone: '联系电话', region: '所在地区', prices: '纸张价格', priceFen: '进货价', status: '状态', deviceIds: '终端', schoolIds: '学校' };

function cleanFields(body: { name: string; contactName: string; phone: string; region: string }) {
  const out = { name: body.name.trim(), contactName: body.contactName.trim(), phone: body.phone.trim(), region: body.region.trim() };
  if (!out.name) throw badRequest('请填写合作商名称');
  if (!out.contactName) throw badRequest('请填写联系人');
  if (!PHONE_PATTERN.test(out.phone)) throw badRequest('联系电话应为 11 位手机号');
  if (!out.region) throw badRequest('请填写所在地区');
  return out;
}

/** The start of this month, China time. */
const monthStart = () => {
  const china = new Date(Date.now() + 8 * 3600_000);
  return new Date(Date.UTC(china.getUTCFullYear(), china.getUTCMonth(), 1) - 8 * 3600_000);
};

/** A parent's own price of every pack: the lower bound of its children's (0 for the platform). */
async function parentCosts(db: Db, parent: Parent) {
  return parent.platform ? undefined : priceBook(db, parent);
}

const childrenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(BASE, { preHandler: parentGuard }, async (request) => {
    const parent = await parentOf(request);
    const list = await rows(db, sql`
      SELECT c.id, c.name, c.contact_name AS "contactName", c.phone, c.region, c.status,
             (length(c.ancestors) - length(replace(c.ancestors, ',', '')) + 1) AS level,
             (SELECT u.username FROM users u WHERE u.partner_id = c.id ORDER BY u.id LIMIT 1) AS username,
             (SELECT count(*)::int FROM schools s WHERE s.partner_id = c.id) AS "schoolCount",
             (SELECT count(*)::int FROM devices d WHERE d.partner_id = c.id) AS "deviceCount",
             (SELECT count(*)::int FROM partners g WHERE g.parent_id = c.id) AS "childCount",
             (SELECT COALESCE(sum(o.amount_fen), 0)::int FROM partner_orders o WHERE o.buyer_id = c.id AND o.status = 2 AND o.paid_at >= ${monthStart()}) AS "monthBoughtFen",
             ${isoTime(sql`c.created_at`)} AS "createdAt"
        FROM partners c WHERE ${childrenOf(parent)} ORDER BY c.status, c.id`);
    return ok({ parentName: parentWord(parent), childLevel: parent.platform ? 1 : partnerLevel(parent.ancestors) + 1, records: list });
  });

  app.get(`${BASE}/detail`, { preHandler: parentGuard, schema: { querystring: Type.Object({ partnerId: Id }) } }, async (request) => {
    const parent = await parentOf(request);
    const child = await childOf(db, parent, request.query.partnerId);
    const [info] = await rows<Record<string, unknown>>(db, sql`
      SELECT c.id, c.name, c.contact_name AS "contactName", c.phone, c.region, c.status, ${isoTime(sql`c.created_at`)} AS "createdAt",
             (SELECT u.username FROM users u WHERE u.partner_id = c.id ORDER BY u.id LIMIT 1) AS username,
             (SELECT u.must_change_password FROM users u WHERE u.partner_id = c.id ORDER BY u.id LIMIT 1) AS "awaitingPassword"
        FROM partners c WHERE c.id = ${child.id}`);
    const [book, costs] = await Promise.all([priceBook(db, child), parentCosts(db, parent)]);
    const prices = book.map((p) => ({
      packId: p.packId,
      name: p.name,
      sheets: p.sheets,
      priceFen: p.priceFen,
      setFen: p.setFen,
      levelFen: p.levelFen,
      minFen: costs?.find((c) => c.packId === p.packId)?.priceFen ?? 1,
      maxFen: p.listPriceFen,
    }));
    const schools = await rows(db, sql`SELECT s.id, s.name, s.region FROM schools s WHERE s.partner_id = ${child.id} ORDER BY s.id`);
    const devices = await rows(db, sql`
      SELECT d.id, d.serial, d.model, s.name AS "schoolName" FROM devices d LEFT JOIN schools s ON s.id = d.school_id WHERE d.partner_id = ${child.id} ORDER BY d.id`);
    // What the parent may hand over: the schools and terminals it runs itself (the platform hands nothing).
    const ownSchools = parent.platform ? [] : await rows(db, sql`SELECT s.id, s.name, s.region FROM schools s WHERE s.partner_id = ${parent.id} ORDER BY s.id`);
    const ownDevices = parent.platform
      ? []
      : await rows(db, sql`SELECT d.id, d.serial, d.model, s.name AS "schoolName" FROM devices d LEFT JOIN schools s ON s.id = d.school_id WHERE d.partner_id = ${parent.id} ORDER BY d.id`);
    return ok({ ...info, prices, schools, devices, ownSchools, ownDevices, canAssign: !parent.platform });
  });

  app.post(
    `${BASE}/add`,
    {
      preHandler: parentGuard,
      config: { fieldLabels: FIELD_LABELS },
      schema: { body: Type.Object({ username: Type.String({ minLength: 1, maxLength: CHILD_PARTNER_LIMITS.username }), ...ChildFields }) },
    },
    async (request) => {
      const parent = await parentOf(request);
      const username = request.body.username.trim();
      if (!USERNAME.test(username)) throw badRequest('登录账号应为 3–64 位字母、数字或 _ . - @');
      const fields = cleanFields(request.body);
      const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
      if (taken) throw conflict(`登录账号“${username}”已被使用，请换一个`);
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      const created = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [partner] = await tx
          .insert(partners)
          .values({ ...fields, parentId: parent.platform ? null : parent.id, ancestors: parent.platform ? '0' : childAncestors(parent) })
          .returning();
        const [user] = await tx.insert(users).values({ username, name: fields.contactName, phone: fields.phone, partnerId: partner.id, passwordHash, mustChangePassword: true }).returning({ id: users.id });
        await tx.insert(userRoles).values({ userId: user.id, roleKey: 'xz:partner' });
        // The password is in the reply only, never in the log.
        await recordAudit(tx, request, { action: 'create', kind: 'partner', recordId: partner.id, summary: `邀请${partnerLevel(partner.ancestors)}级合作商 ${fields.name}（账号 ${username}，${fields.region}）` });
        return partner;
      });
      return ok({ partnerId: created.id, username, name: created.name, password }, `已邀请 ${created.name}，请将初始密码告知对方，首次登录须修改密码`);
    },
  );

  app.post(
    `${BASE}/update`,
    { preHandler: parentGuard, config: { fieldLabels: FIELD_LABELS }, schema: { body: Type.Object({ partnerId: Id, ...ChildFields }) } },
    async (request) => {
      const parent = await parentOf(request);
      const child = await childOf(db, parent, request.body.partnerId);
      const fields = cleanFields(request.body);
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx.update(partners).set(fields).where(eq(partners.id, child.id));
        await recordAudit(tx, request, { action: 'update', kind: 'partner', recordId: child.id, summary: `修改合作商 ${child.name}${child.name === fields.name ? '' : ` → ${fields.name}`}（${fields.contactName}，${fields.region}）` });
      });
      return ok({ partnerId: child.id }, '已保存');
    },
  );

  app.post(
    `${BASE}/setStatus`,
    {
      preHandler: parentGuard,
      config: { fieldLabels: FIELD_LABELS },
      schema: { body: Type.Object({ partnerId: Id, status: Type.Union([Type.Literal(PartnerStatus.active), Type.Literal(PartnerStatus.suspended)]) }) },
    },
    async (request) => {
      const parent = await parentOf(request);
      const child = await childOf(db, parent, request.body.partnerId);
      const { status } = request.body;
      if (child.status === status) throw conflict(status === PartnerStatus.suspended ? '该合作商已停用' : '该合作商已启用');
      const suspend = status === PartnerStatus.suspended;
      // Every account of the child and of the partners below it: signed out now, refused from the next request.
      const affected = await rows<{ id: number }>(db, sql`
        SELECT u.id FROM users u JOIN partners p ON p.id = u.partner_id
         WHERE p.id = ${child.id} OR p.ancestors = ${childAncestors(child)} OR p.ancestors LIKE ${`${childAncestors(child)},%`}`);
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx.update(partners).set({ status }).where(eq(partners.id, child.id));
        if (suspend && affected.length) {
          await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(inArray(sessions.userId, affected.map((u) => u.id)), sql`${sessions.revokedAt} IS NULL`));
        }
        await recordAudit(tx, request, { action: suspend ? 'disable' : 'enable', kind: 'partner', recordId: child.id, summary: `${suspend ? '停用' : '启用'}合作商 ${child.name}` });
      });
      for (const u of affected) await app.principals.evictUser(u.id);
      return ok({ partnerId: child.id, status }, suspend ? `已停用 ${child.name}，其账号及下级账号已退出登录` : `已启用 ${child.name}`);
    },
  );

  app.post(
    `${BASE}/setPrices`,
    {
      preHandler: parentGuard,
      config: { fieldLabels: FIELD_LABELS },
      schema: {
        body: Type.Object({
          partnerId: Id,
          // Without priceFen: back to the level's price. (Not null: a coercing validator reads 0 as null.)
          prices: Type.Array(Type.Object({ packId: Id, priceFen: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })) }), { minItems: 1, maxItems: 50 }),
        }),
      },
    },
    async (request) => {
      const parent = await parentOf(request);
      const child = await childOf(db, parent, request.body.partnerId);
      const [book, costs] = await Promise.all([priceBook(db, child), parentCosts(db, parent)]);
      const ids = request.body.prices.map((p) => p.packId);
      if (new Set(ids).size !== ids.length) throw badRequest('同一纸张规格只能设置一次');
      const changes = request.body.prices.map(({ packId, priceFen = null }) => {
        const pack = book.find((p) => p.packId === packId);
        if (!pack) throw notFound('纸张规格不存在');
        const min = costs?.find((c) => c.packId === packId)?.priceFen ?? 1;
        if (priceFen !== null && (priceFen < min || priceFen > pack.listPriceFen)) {
          throw badRequest(`“${pack.name}”的价格应在 ¥${yuan(min)}（${parent.platform ? '最低' : '您的进货价'}）至 ¥${yuan(pack.listPriceFen)}（建议零售价）之间`);
        }
        return { pack, priceFen };
      });
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        for (const { pack, priceFen } of changes) {
          if (priceFen === null) await tx.delete(partnerPackPrices).where(and(eq(partnerPackPrices.partnerId, child.id), eq(partnerPackPrices.packId, pack.packId)));
          else
            await tx
              .insert(partnerPackPrices)
              .values({ partnerId: child.id, packId: pack.packId, priceFen, updatedBy: request.principal.userId, updatedAt: new Date() })
              .onConflictDoUpdate({ target: [partnerPackPrices.partnerId, partnerPackPrices.packId], set: { priceFen, updatedBy: request.principal.userId, updatedAt: new Date() } });
        }
        const said = changes.map(({ pack, priceFen }) => `${pack.name} ${priceFen === null ? '恢复默认' : `¥${yuan(priceFen)}`}`).join('；');
        await recordAudit(tx, request, { action: 'update', kind: 'partnerPrice', recordId: child.id, summary: `设置合作商 ${child.name} 的纸张价格：${said}` });
      });
      return ok({ partnerId: child.id }, '价格已保存，对方此后的订单按新价格计算');
    },
  );

  // Handing terminals and schools the parent runs itself to a child (assign), or taking back what
  // the child runs itself (reclaim). Terminals keep their school binding; a school keeps its terminals.
  const Moves = Type.Object({
    partnerId: Id,
    deviceIds: Type.Optional(Type.Array(Id, { maxItems: MAX_ASSIGN })),
    schoolIds: Type.Optional(Type.Array(Id, { maxItems: MAX_ASSIGN })),
  });
  const move = async (request: FastifyRequest, body: { partnerId: number; deviceIds?: number[]; schoolIds?: number[] }, back: boolean) => {
    const parent = await parentOf(request);
    if (parent.platform) throw forbidden('平台不直接持有终端和学校，请由合作商分配');
    const child = await childOf(db, parent, body.partnerId);
    const deviceIds = [...new Set(body.deviceIds ?? [])];
    const schoolIds = [...new Set(body.schoolIds ?? [])];
    if (!deviceIds.length && !schoolIds.length) throw badRequest('请选择终端或学校');
    const from = back ? child.id : parent.id;
    const to = back ? parent.id : child.id;
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const devices = deviceIds.length
        ? await rows<{ serial: string }>(tx, sql`UPDATE devices SET partner_id = ${to} WHERE id IN (${sql.join(deviceIds.map((id) => sql`${id}`), sql`, `)}) AND partner_id = ${from} RETURNING serial`)
        : [];
      const schools = schoolIds.length
        ? await rows<{ name: string }>(tx, sql`UPDATE schools SET partner_id = ${to} WHERE id IN (${sql.join(schoolIds.map((id) => sql`${id}`), sql`, `)}) AND partner_id = ${from} RETURNING name`)
        : [];
      // All or nothing: an id that is not the giver's own is refused, and nothing moves.
      if (devices.length !== deviceIds.length) throw notFound(back ? '终端不存在或不属于该下级' : '终端不存在或不是您直接持有的');
      if (schools.length !== schoolIds.length) throw notFound(back ? '学校不存在或不属于该下级' : '学校不存在或不是您直营的');
      const what = [devices.length ? `终端 ${devices.map((d) => d.serial).join('、')}` : '', schools.length ? `学校 ${schools.map((s) => s.name).join('、')}` : ''].filter(Boolean).join('，');
      await recordAudit(tx, request, { action: back ? 'unassign' : 'assign', kind: 'partner', recordId: child.id, summary: back ? `从合作商 ${child.name} 收回${what}` : `分配给合作商 ${child.name}：${what}` });
      return ok({ partnerId: child.id, devices: devices.length, schools: schools.length }, back ? '已收回' : '已分配');
    });
  };
  app.post(`${BASE}/assign`, { preHandler: parentGuard, config: { fieldLabels: FIELD_LABELS }, schema: { body: Moves } }, (request) => move(request, request.body, false));
  app.post(`${BASE}/reclaim`, { preHandler: parentGuard, config: { fieldLabels: FIELD_LABELS }, schema: { body: Moves } }, (request) => move(request, request.body, true));
};

export default childrenRoutes;
