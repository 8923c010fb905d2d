// 收货地址 (docs/api-partner-orders.md "收货地址"): every partner keeps its own address book, and
// only its own — an id of another partner's address is "not found". One address is the default
// (the new-order form picks it); placing an order copies the chosen address onto the order.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import {
  ADDRESS_DETAIL_MAX,
  ADDRESS_MAX_PER_PARTNER,
  AddressSchema,
  MOBILE_PATTERN,
  RECEIVER_MAX,
  REGION_PART_MAX,
  type Address,
  type ShipTo,
} from '../../../src/domain/fulfilment';
import { recordAudit } from '../audit/record';
import { anyPartner } from './scope';

const BASE = '/api/wrongbook/v1.0/partner';
const tx = <T>(db: Db, work: (t: Db) => Promise<T>) => db.transaction((t) => work(t as unknown as Db));

const AddressBody = {
  receiver: Type.String({ minLength: 1, maxLength: RECEIVER_MAX }),
  phone: Type.String({ minLength: 1, maxLength: 20 }),
  province: Type.String({ minLength: 1, maxLength: REGION_PART_MAX }),
  city: Type.String({ minLength: 1, maxLength: REGION_PART_MAX }),
  district: Type.String({ minLength: 1, maxLength: REGION_PART_MAX }),
  detail: Type.String({ minLength: 1, maxLength: ADDRESS_DETAIL_MAX }),
  isDefault: Type.Optional(Type.Boolean()),
};
const labels = { receiver: '收货人', phone: '手机号', province: '省份', city: '城市', district: '区县', detail: '详细地址', isDefault: '默认地址' };

const selectAddresses = sql`SELECT id, receiver, phone, province, city, district, detail, is_default AS "isDefault" FROM partner_addresses`;

/** Trimmed, with no markup or control characters (it is printed on parcels and shown on screens). */
function clean(input: { receiver: string; phone: string; province: string; city: string; district: string; detail: string }): ShipTo {
  const out = {
    receiver: input.receiver.trim(),
    phone: input.phone.replace(/[\s-]/g, ''),
    province: input.province.trim(),
    city: input.city.trim(),
    district: input.district.trim(),
    detail: input.detail.trim(),
  };
  const names: Record<keyof ShipTo, string> = { receiver: '收货人', phone: '手机号', province: '省份', city: '城市', district: '区县', detail: '详细地址' };
  for (const key of Object.keys(out) as (keyof ShipTo)[]) {
    if (!out[key]) throw badRequest(`${names[key]}不能为空`);
    if (/[<>"`\\]|[\u0000-\u001f\u007f]/.test(out[key])) throw badRequest(`${names[key]}含有不允许的字符`);
  }
  if (!MOBILE_PATTERN.test(out.phone)) throw badRequest('手机号应为 11 位中国大陆手机号码');
  return out;
}

export const listAddresses = (db: Db, partnerId: number) => rows<Address>(db, sql`${selectAddresses} WHERE partner_id = ${partnerId} ORDER BY is_default DESC, id`);

/** The address an order ships to: the one chosen (the caller's own), else the default one. */
export async function shipToOf(db: Db, partnerId: number, addressId: number | undefined): Promise<ShipTo> {
  const [found] = await rows<Address>(
    db,
    addressId !== undefined
      ? sql`${selectAddresses} WHERE partner_id = ${partnerId} AND id = ${addressId}`
      : sql`${selectAddresses} WHERE partner_id = ${partnerId} ORDER BY is_default DESC, id LIMIT 1`,
  );
  if (!found) throw addressId !== undefined ? notFound('收货地址不存在') : badRequest('请先添加收货地址');
  return { receiver: found.receiver, phone: found.phone, province: found.province, city: found.city, district: found.district, detail: found.detail };
}

const addressRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const mine = async (partnerId: number, id: number) => {
    const [found] = await rows<Address>(db, sql`${selectAddresses} WHERE partner_id = ${partnerId} AND id = ${id}`);
    if (!found) throw notFound('收货地址不存在');
    return found;
  };
  /** The partner's row lock: two saves of one book cannot both become its default or pass its limit. */
  const lock = (t: Db, partnerId: number) => t.execute(sql`SELECT id FROM partners WHERE id = ${partnerId} FOR UPDATE`);

  app.get(`${BASE}/addresses`, { preHandler: anyPartner, schema: { response: { 200: EnvelopeSchema(Type.Array(AddressSchema)) } } }, async (request) =>
    ok(await listAddresses(db, request.principal.partnerId!)),
  );

  app.post(`${BASE}/addAddress`, { preHandler: anyPartner, schema: { body: Type.Object(AddressBody) }, config: { fieldLabels: labels } }, async (request) => {
    const partnerId = request.principal.partnerId!;
    const address = clean(request.body);
    const id = await tx(db, async (t) => {
      await lock(t, partnerId);
      const [{ count }] = await rows<{ count: number }>(t, sql`SELECT count(*)::int AS count FROM partner_addresses WHERE partner_id = ${partnerId}`);
      if (count >= ADDRESS_MAX_PER_PARTNER) throw conflict(`收货地址最多 ${ADDRESS_MAX_PER_PARTNER} 个，请先删除不用的地址`);
      // The first address is the default whatever was asked: an order needs one to pre-select.
      const isDefault = count === 0 || request.body.isDefault === true;
      if (isDefault) await t.execute(sql`UPDATE partner_addresses SET is_default = false WHERE partner_id = ${partnerId} AND is_default`);
      const [row] = await rows<{ id: number }>(t, sql`
        INSERT INTO partner_addresses (partner_id, receiver, phone, province, city, district, detail, is_default)
        VALUES (${partnerId}, ${address.receiver}, ${address.phone}, ${address.province}, ${address.city}, ${address.district}, ${address.detail}, ${isDefault})
        RETURNING id`);
      await recordAudit(t, request, { action: 'create', kind: 'address', recordId: row.id, summary: `新增收货地址：${address.receiver} ${address.province}${address.city}` });
      return row.id;
    });
    return ok(await mine(partnerId, id), '收货地址已保存');
  });

  app.post(`${BASE}/updateAddress`, { preHandler: anyPartner, schema: { body: Type.Object({ id: Id, ...AddressBody }) }, config: { fieldLabels: labels } }, async (request) => {
    const partnerId = request.principal.partnerId!;
    const existing = await mine(partnerId, request.body.id);
    const address = clean(request.body);
    await tx(db, async (t) => {
      await lock(t, partnerId);
      // Unsetting the default is done by making another address the default, so a book always has one.
      const isDefault = existing.isDefault || request.body.isDefault === true;
      if (isDefault && !existing.isDefault) await t.execute(sql`UPDATE partner_addresses SET is_default = false WHERE partner_id = ${partnerId} AND is_default`);
      await t.execute(sql`
        UPDATE partner_addresses SET receiver = ${address.receiver}, phone = ${address.phone}, province = ${address.province}, city = ${address.city},
               district = ${address.district}, detail = ${address.detail}, is_default = ${isDefault}
         WHERE id = ${existing.id} AND partner_id = ${partnerId}`);
      await recordAudit(t, request, { action: 'update', kind: 'address', recordId: existing.id, summary: `修改收货地址：${address.receiver} ${address.province}${address.city}` });
    });
    return ok(await mine(partnerId, existing.id), '收货地址已保存');
  });

  app.post(`${BASE}/deleteAddress`, { preHandler: anyPartner, schema: { body: Type.Object({ id: Id }) } }, async (request) => {
    const partnerId = request.principal.partnerId!;
    const existing = await mine(partnerId, request.body.id);
    await tx(db, async (t) => {
      await lock(t, partnerId);
      await t.execute(sql`DELETE FROM partner_addresses WHERE id = ${existing.id} AND partner_id = ${partnerId}`);
      // The default went: the oldest one left takes its place. Orders keep their own copies.
      if (existing.isDefault)
        await t.execute(sql`UPDATE partner_addresses SET is_default = true WHERE id = (SELECT id FROM partner_addresses WHERE partner_id = ${partnerId} ORDER BY id LIMIT 1)`);
      await recordAudit(t, request, { action: 'delete', kind: 'address', recordId: existing.id, summary: `删除收货地址：${existing.receiver} ${existing.province}${existing.city}` });
    });
    return ok(await listAddresses(db, partnerId), '收货地址已删除');
  });
};

export default addressRoutes;
