// 我的账户 and ordering (docs/api-partner-orders.md): the paper packs at the caller's level price,
// placing a paper order (every level), and a level-1 partner's balance and recharges.
import { eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime, rows } from '../../db/query';
import { paperPacks, partners } from '../../db/schema';
import { notFound, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { ORDER_MAX_ITEMS, PAY_TIMEOUT_MINUTES, RECHARGE_MAX_FEN, RECHARGE_MIN_FEN, RECHARGE_NO_PATTERN, REMARK_MAX_LENGTH, StatementStatus } from '../../../src/domain/orders';
import { partnerLevel } from '../../../src/domain/roles';
import { placeOrder } from '../mercury/orders';
import { absoluteCodeUrl } from '../mercury/orderRoutes';
import { placeRecharge } from './recharges';
import { anyPartner, levelOnePartner } from './scope';
import { recordAudit } from '../audit/record';
import { yuan } from '../../../src/domain/partner';

const PRICE_COLUMN = { 1: paperPacks.priceL1Fen, 2: paperPacks.priceL2Fen, 3: paperPacks.priceL3Fen } as const;

const PaperOrderBody = Type.Object({
  // Bounded by what an int column holds; the business limit (ORDER_MAX_QUANTITY) is placeOrder's,
  // which names it, where the schema could only say 取值不正确.
  items: Type.Array(Type.Object({ packId: Id, quantity: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), { minItems: 1, maxItems: ORDER_MAX_ITEMS }),
  remark: Type.Optional(Type.String({ maxLength: REMARK_MAX_LENGTH })),
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
    const level = partnerLevel(partner.ancestors) as 1 | 2 | 3;
    const packs = await db
      .select({ packId: paperPacks.id, name: paperPacks.name, sheets: paperPacks.sheets, priceFen: PRICE_COLUMN[level] })
      .from(paperPacks)
      .orderBy(paperPacks.sort, paperPacks.id);
    return ok(packs);
  });

  app.post('/api/wrongbook/v1.0/partner/addPaperOrder', { preHandler: anyPartner, schema: { body: PaperOrderBody }, config: { fieldLabels: { items: '订购纸张' } } }, async (request) => {
    const partner = await me(request.principal.partnerId);
    const body = request.body;
    const order = await placeOrder(db, app.payments, partner, body, request.principal.userId, new Date(), (t, o) =>
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

  app.get('/api/wrongbook/v1.0/partner/getPartnerBalance', { preHandler: levelOnePartner }, async (request) => {
    const partner = await me(request.principal.partnerId);
    const [row] = await rows<{ rechargedFen: number; settledInFen: number; settledOutFen: number }>(db, sql`
      SELECT (SELECT COALESCE(sum(amount_fen), 0)::int FROM partner_recharges WHERE partner_id = ${partner.id} AND pay_status = 1) AS "rechargedFen",
             (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_statements WHERE partner_id = ${partner.id} AND status = ${StatementStatus.settled}) AS "settledInFen",
             (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_statements WHERE payer_id = ${partner.id} AND status = ${StatementStatus.settled}) AS "settledOutFen"`);
    return ok({ balanceFen: row.rechargedFen + row.settledInFen - row.settledOutFen, ...row });
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
