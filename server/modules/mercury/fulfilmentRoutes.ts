// The fulfilment calls (docs/api-partner-orders.md "发货与收货"): the seller dispatches and takes
// returns, the buyer confirms receipt and asks returns. A partner's order number is checked against
// its subtree first (another subtree's is 404); the platform administrator sees and dispatches the
// orders it sells (level-1 partners'), under /platform/order.
import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { allow } from '../../auth/plugin';
import { ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { ORDER_MAX_ITEMS, OrderDetailSchema, OrderRecordSchema, REASON_MAX_LENGTH } from '../../../src/domain/orders';
import { FULFIL_STATUSES, RETURN_NO_PATTERN } from '../../../src/domain/fulfilment';
import { labelOf } from '../../../src/domain/orders';
import { yuan } from '../../../src/domain/partner';
import { anyPartner, channelPartner, scopeOf } from '../partner/scope';
import { recordAudit } from '../audit/record';
import { countOrders, filterDates, findOrder, listOrders, orderDetail, OrderFilter, OrderNo } from './orderQueries';
import { confirmReceipt, dispatchOrder, receiveReturn, requestReturn, type Seller } from './fulfilment';
import { closeExpiredOrders } from './orders';

const platformOnly = allow({ roles: ['admin'] });

// Bounded by what an int column holds; the business limits (what is left to ship or return) are the
// service's, which names the line, where the schema could only say 取值不正确.
const Lines = Type.Array(Type.Object({ itemId: Id, quantity: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), { minItems: 1, maxItems: ORDER_MAX_ITEMS });
const Parcel = {
  carrier: Type.String({ minLength: 1, maxLength: 20 }),
  carrierName: Type.Optional(Type.String({ maxLength: 40 })),
  trackingNo: Type.String({ minLength: 1, maxLength: 64 }),
};
const ShipBody = Type.Object({ orderNo: OrderNo, ...Parcel, lines: Lines });
const ReturnBody = Type.Object({ orderNo: OrderNo, ...Parcel, reason: Type.String({ minLength: 1, maxLength: REASON_MAX_LENGTH }), lines: Lines });
const ReceiveReturnBody = Type.Object({ orderNo: OrderNo, returnNo: Type.String({ pattern: RETURN_NO_PATTERN.source, maxLength: 22 }) });
const labels = { itemId: '商品', carrier: '承运商', carrierName: '承运商名称', trackingNo: '运单号', lines: '发货商品', reason: '退货原因', returnNo: '退货单号' };

const fulfilmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  const ship = (seller: Seller) =>
    async (request: { body: Static<typeof ShipBody> } & Parameters<typeof recordAudit>[1]) => {
      const { orderNo, ...input } = request.body;
      const done = await dispatchOrder(db, seller, orderNo, input, request.principal.userId, new Date(), (t, d) =>
        recordAudit(t, request, {
          action: 'ship',
          kind: 'order',
          recordId: orderNo,
          summary: `订单 ${orderNo} 发货：${d.carrier} ${d.trackingNo}（${d.lines.map((l) => `${l.name} × ${l.quantity}`).join('；')}）`,
        }),
      );
      return ok(done, `已发货，订单${labelOf(FULFIL_STATUSES, done.fulfilStatus)}`);
    };

  const takeReturn = (seller: Seller) =>
    async (request: { body: Static<typeof ReceiveReturnBody> } & Parameters<typeof recordAudit>[1]) => {
      const { orderNo, returnNo } = request.body;
      const done = await receiveReturn(db, app.payments, seller, orderNo, returnNo, request.principal.userId, new Date(), (t, d) =>
        recordAudit(t, request, { action: 'receive', kind: 'order', recordId: orderNo, summary: `确认收到订单 ${orderNo} 的退货 ${returnNo}，退款 ¥${yuan(d.amountFen)}（${d.refundNo}）` }),
      );
      return ok(done, '已确认收到退货，退款已发起');
    };

  // --- partners: the seller is the buyer's parent (levels 1 and 2 sell) ---
  app.post('/api/mercury/v1/order/ship', { preHandler: channelPartner, schema: { body: ShipBody }, config: { fieldLabels: labels } }, async (request) => {
    const scope = await scopeOf(request);
    await findOrder(db, scope, request.body.orderNo);
    return ship({ partnerId: scope.partnerId })(request);
  });

  app.post('/api/mercury/v1/order/receiveReturn', { preHandler: channelPartner, schema: { body: ReceiveReturnBody }, config: { fieldLabels: labels } }, async (request) => {
    const scope = await scopeOf(request);
    await findOrder(db, scope, request.body.orderNo);
    return takeReturn({ partnerId: scope.partnerId })(request);
  });

  app.post('/api/mercury/v1/order/confirmReceipt', { preHandler: anyPartner, schema: { body: Type.Object({ orderNo: OrderNo }) } }, async (request) => {
    const scope = await scopeOf(request);
    const { orderNo } = request.body;
    await findOrder(db, scope, orderNo);
    const done = await confirmReceipt(db, scope.partnerId, orderNo, request.principal.userId, new Date(), (t) =>
      recordAudit(t, request, { action: 'receive', kind: 'order', recordId: orderNo, summary: `确认收货：订单 ${orderNo}` }),
    );
    return ok(done, '已确认收货');
  });

  app.post('/api/mercury/v1/order/applyReturn', { preHandler: anyPartner, schema: { body: ReturnBody }, config: { fieldLabels: labels } }, async (request) => {
    const scope = await scopeOf(request);
    const { orderNo, ...input } = request.body;
    await findOrder(db, scope, orderNo);
    const row = await requestReturn(db, scope.partnerId, orderNo, input, request.principal.userId, new Date(), (t, r) =>
      recordAudit(t, request, { action: 'return', kind: 'order', recordId: orderNo, summary: `申请订单 ${orderNo} 退货 ${r.returnNo}（¥${yuan(r.amountFen)}）` }),
    );
    return ok({ returnNo: row.returnNo, amountFen: row.amountFen, status: row.status, carrier: row.carrier, trackingNo: row.trackingNo }, '已提交退货申请，待供货方确认收到退货后退款');
  });

  // --- the platform: it sells to level-1 partners ---
  const PlatformFilter = Type.Object({ ...PagingQuery, ...OrderFilter });
  app.get(
    '/api/mercury/v1/platform/order/page',
    { preHandler: platformOnly, schema: { querystring: PlatformFilter, response: { 200: EnvelopeSchema(PageSchema(OrderRecordSchema)) } } },
    async (request) => {
      const q = request.query;
      filterDates(q);
      await closeExpiredOrders(db, app.payments);
      const { current, size, offset } = pageWindow(q);
      const viewer = { platform: true } as const;
      const total = await countOrders(db, viewer, q);
      const records = total > offset ? await listOrders(db, viewer, q, { size, offset }) : [];
      return ok(page(records, total, current, size));
    },
  );

  app.get(
    '/api/mercury/v1/platform/order/detail',
    { preHandler: platformOnly, schema: { querystring: Type.Object({ orderNo: OrderNo }), response: { 200: EnvelopeSchema(OrderDetailSchema) } } },
    async (request) => ok(await orderDetail(db, { platform: true }, request.query.orderNo)),
  );

  app.post('/api/mercury/v1/platform/order/ship', { preHandler: platformOnly, schema: { body: ShipBody }, config: { fieldLabels: labels } }, async (request) => {
    await findOrder(db, { platform: true }, request.body.orderNo);
    return ship({ platform: true })(request);
  });

  app.post('/api/mercury/v1/platform/order/receiveReturn', { preHandler: platformOnly, schema: { body: ReceiveReturnBody }, config: { fieldLabels: labels } }, async (request) => {
    await findOrder(db, { platform: true }, request.body.orderNo);
    return takeReturn({ platform: true })(request);
  });
};

export default fulfilmentRoutes;
