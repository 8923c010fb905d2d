// 我的账户 and ordering (docs/api-partner-orders.md): the paper packs at the caller's level price,
// placing a paper order (every level), and a level-1 partner's balance and recharges.
import { eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime, rows } from '../../db/query';
import { partners } from '../../db/schema';
import { notFound, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { ORDER_MAX_ITEMS, PAY_TIMEOUT_MINUTES, RECHARGE_MAX_FEN, RECHARGE_MIN_FEN, RECHARGE_NO_PATTERN, REMARK_MAX_LENGTH} from '../../../src/domain/orders';
import { placeOrder } from '../mercury/orders';
import { absoluteCodeUrl } from '../mercury/orderRoutes';
import { placeRecharge } from './recharges';
import { shipToOf } from './addresses';
import { priceBook } from './prices';
import { anyPartner, levelOnePartner } from './scope';
import { recordAudit } from '../audit/record';
import { yuan } from '../../../src/domain/partner';

const PaperOrderBody = Type.Object({
  // Bounded by what an int column holds; the business limit (ORDER_MAX_QUANTITY) is placeOrder's,
  // which names it, where the schema could only say 取值不正确.
  items: Type.Array(Type.Object({ packId: Id, quantity: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), { minItems: 1, maxItems: ORDER_MAX_ITEMS }),
  remark: Type.Optional(Type.String({ maxLength: REMARK_MAX_LENGTH })),
  /** The caller's own 收货地址; without it, its default one (a partner with none is asked to add one). */
  addressId: Type.Optional(Id),
});

const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const me = async (partnerId: number | null | undefined) => {
    const [partner] = partnerId ? await db.select().from(partners).where(eq(partners.id, partnerId)) : [];
    if (!partner) throw notFound('合作伙伴不存在');
    return partner;
  };

  app.get('/api/wrongbook/v1.0/partner/getPartnerPaperConfig', { preHandler: anyPartner }, async (request) => {
    const partner = await me(request.principal.partnerId);
    // At the caller's own prices: the ones its parent set for it, else its level's.
    const book = await priceBook(db, partner);
    return ok(book.map((p) => ({ packId: p.packId, name: p.name, sheets: p.sheets, priceFen: p.priceFen })));
  });

  app.post('/api/wrongbook/v1.0/partner/addPaperOrder', { preHandler: anyPartner, schema: { body: PaperOrderBody }, config: { fieldLabels: { items: '订购纸张' } } }, async (request) => {
    const partner = await me(request.principal.partnerId);
    const { addressId, ...body } = request.body;
    const shipTo = await shipToOf(db, partner.id, addressId);
    const order = await placeOrder(db, app.payments, partner, { ...body, shipTo }, request.principal.userId, new Date(), (t, o) =>
      recordAudit(t, request, { action: 'create', kind: 'order', recordId: o.orderNo, summary: `提交纸张订单 ${o.orderNo}（¥${yuan(o.amountFen)}）` }),
    );
    return ok(
      { orderNo: order.orderNo, amountFen: order.amountFen, payStatus: order.payStatus, codeUrl: absoluteCodeUrl(request, order.codeUrl), expiresAt: order.expiresAt.toISOString() },
      `订单已提交，请在${PAY_TIMEOUT_MINUTES}分钟内支付`,
    );
  });

  app.get('/api/wrongbook/v1.0/partner/getPartnerRechargeRecord', { preHandler: levelOnePartner, schema: { querystring: Type.Object(PagingQuery) } }, async (request) => {
    const partner = await me(request.principal.partnerId);
    const { current, size, offset } = pageWindow(request.query);
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM partner_recharges WHERE partner_id = ${partner.id}`);
    const records = await rows(db, sql`
      SELECT recharge_no AS id, recharge_no AS "rechargeNo", amount_fen AS "amountFen", pay_status AS "payStatus",
             (pay_status = 0 AND expires_at <= now()) AS closed,
             ${isoTime(sql`created_at`)} AS "createdAt", ${isoTime(sql`paid_at`)} AS "paidAt"
        FROM partner_recharges WHERE partner_id = ${partner.id} ORDER BY created_at DESC, id DESC LIMIT ${size} OFFSET ${offset}`);
    return ok(page(records, total, current, size));
  });

  app.post(
    '/api/wrongbook/v1.0/partner/addPartnerRecharge',
    { preHandler: levelOnePartner, schema: { body: Type.Object({ amountFen: Type.Integer({ minimum: RECHARGE_MIN_FEN, maximum: RECHARGE_MAX_FEN }) }) } },
    async (request) => {
      const partner = await me(request.principal.partnerId);
      const recharge = await placeRecharge(db, app.payments, partner.id, request.body.amountFen, request.principal.userId, new Date(), (t, r) =>
        recordAudit(t, request, { action: 'create', kind: 'recharge', recordId: r.rechargeNo, summary: `提交充值单 ${r.rechargeNo}（¥${yuan(r.amountFen)}）` }),
      );
      return ok(
        { rechargeNo: recharge.rechargeNo, amountFen: recharge.amountFen, payStatus: recharge.payStatus, codeUrl: absoluteCodeUrl(request, recharge.codeUrl), expiresAt: recharge.expiresAt.toISOString() },
        `充值单已生成，请在${PAY_TIMEOUT_MINUTES}分钟内支付`,
      );
    },
  );

  app.get(
    '/api/wrongbook/v1.0/partner/getRechargePayStatus',
    { preHandler: levelOnePartner, schema: { querystring: Type.Object({ rechargeNo: Type.String({ pattern: RECHARGE_NO_PATTERN.source, maxLength: 22 }) }) } },
    async (request) => {
      const partner = await me(request.principal.partnerId);
      const { rechargeNo } = request.query;
      const [row] = await rows<{ payStatus: number; paidAt: string | null }>(db, sql`
        SELECT pay_status AS "payStatus", ${isoTime(sql`paid_at`)} AS "paidAt" FROM partner_recharges WHERE recharge_no = ${rechargeNo} AND partner_id = ${partner.id}`);
      if (!row) throw notFound('充值单不存在');
      return ok({ rechargeNo, ...row });
    },
  );
};

export default accountRoutes;
