// The order calls of /orders (docs/api-partner-orders.md): list, detail, export, pay status, pay
// code, cancel and refund. Every order number is checked against the caller's subtree first.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime, rows } from '../../db/query';
import { sendWorkbook } from '../../http/download';
import { badRequest, conflict, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { cellYuan, streamWorkbook, YUAN_FORMAT } from '../../files/xlsx';
import { ColumnsQuery, exportTable, pickColumns, type ExportColumn } from '../../http/exportColumns';
import { cellTime, exportFileName, fileStamp } from '../../../src/domain/format';
import { orderStateLabel, OrderDetailSchema, OrderRecordSchema, OrderStatus, PAY_STATUSES, REASON_MAX_LENGTH, REFUND_STATUSES, labelOf, type OrderRecord } from '../../../src/domain/orders';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { fulfilLabel } from '../../../src/domain/fulfilment';
import { yuan } from '../../../src/domain/partner';
import { anyPartner, scopeOf } from '../partner/scope';
import { cancelOrder, closeExpiredOrders, requestRefund, syncWithGateway } from './orders';
import { countOrders, filterDates, findOrder, listOrders, orderDetail, OrderFilter, OrderNo } from './orderQueries';
import { recordAudit } from '../audit/record';
import { GatewayError } from './payment/gatewayHttp';
import { payFromBalance } from '../partner/balance';

/** A sandbox code URL is a path on this server; the payer's phone needs the whole address. */
export function absoluteCodeUrl(request: FastifyRequest, codeUrl: string | null): string | null {
  if (!codeUrl) return null;
  return codeUrl.startsWith('/') ? `${request.protocol}://${request.host}${codeUrl}` : codeUrl;
}


type OrderRow = Awaited<ReturnType<typeof listOrders>>[number];

/** The export's columns, keyed by the list's field sources (支付时间 and 备注 are list columns too, so they can be chosen). */
const ORDER_COLUMNS: ExportColumn<OrderRow>[] = [
  { key: 'orderNo', header: '订单号', width: 26, value: (o) => o.orderNo },
  { key: 'buyerName', header: '下单方', width: 28, value: (o) => o.buyerName },
  { key: 'sellerName', header: '供货方', width: 28, value: (o) => o.sellerName },
  { key: 'itemsText', header: '商品', width: 48, value: (o) => o.itemsText },
  { key: 'amountFen', header: '金额（元）', width: 12, numFmt: YUAN_FORMAT, value: (o) => cellYuan(o.amountFen) },
  { key: 'status', header: '订单状态', width: 10, value: (o) => orderStateLabel(o) },
  { key: 'payStatus', header: '支付状态', width: 10, value: (o) => labelOf(PAY_STATUSES, o.payStatus) },
  { key: 'refundStatus', header: '退款状态', width: 10, value: (o) => labelOf(REFUND_STATUSES, o.refundStatus) },
  { key: 'fulfilStatus', header: '发货状态', width: 10, value: (o) => fulfilLabel(o) },
  { key: 'createdAt', header: '下单时间', width: 20, value: (o) => cellTime(o.createdAt) },
  { key: 'paidAt', header: '支付时间', width: 20, value: (o) => cellTime(o.paidAt) },
  { key: 'remark', header: '备注', width: 30, value: (o) => o.remark ?? '' },
];

const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  // Unpaid orders past their time are closed before any read, so no screen shows one as payable.
  // Each route first checks what it can refuse (the filter, the order's existence in the caller's
  // subtree), so a refused request writes nothing, not even this sweep.
  const closeExpired = () => closeExpiredOrders(db, app.payments);

  app.get(
    '/api/mercury/v1/order/page',
    { preHandler: anyPartner, schema: { querystring: Type.Object({ ...PagingQuery, ...OrderFilter }), response: { 200: EnvelopeSchema(PageSchema(OrderRecordSchema)) } } },
    async (request) => {
      const q = request.query;
      const scope = await scopeOf(request);
      filterDates(q);
      await closeExpired();
      const { current, size, offset } = pageWindow(q);
      const total = await countOrders(db, scope, q);
      const records = total > offset ? await listOrders(db, scope, q, { size, offset }) : [];
      return ok(page(records, total, current, size));
    },
  );

  app.get('/api/mercury/v1/order/export', { preHandler: anyPartner, schema: { querystring: Type.Object({ ...OrderFilter, fields: ColumnsQuery }) } }, async (request, reply) => {
    const scope = await scopeOf(request);
    filterDates(request.query);
    await closeExpired();
    // The file reads from the replica when one is configured (closing expired orders above is a write).
    const list = await listOrders(app.readDb, scope, request.query);
    const table = exportTable(pickColumns(ORDER_COLUMNS, request.query.fields), list);
    const stream = streamWorkbook('订单', table.headers, table.rows);
    return sendWorkbook(reply, stream, exportFileName('订单', fileStamp(), 'xlsx'));
  });

  const ByNo = Type.Object({ orderNo: OrderNo });

  app.get('/api/mercury/v1/order/detail', { preHandler: anyPartner, schema: { querystring: ByNo, response: { 200: EnvelopeSchema(OrderDetailSchema) } } }, async (request) => {
    const scope = await scopeOf(request);
    const { orderNo } = request.query;
    await findOrder(db, scope, orderNo);
    await closeExpired();
    const detail = await orderDetail(db, scope, orderNo);
    return ok(detail);
  });

  app.get('/api/mercury/v1/order/getOrderPayStatus', { preHandler: anyPartner, schema: { querystring: ByNo } }, async (request) => {
    const scope = await scopeOf(request);
    const { orderNo } = request.query;
    let order = await findOrder(db, scope, orderNo);
    if (order.status === OrderStatus.pending) {
      // The gateway out of reach: the status as we know it, not an error on every poll.
      await syncWithGateway(db, app.payments, orderNo).catch((error) => {
        if (!(error instanceof GatewayError)) throw error;
        request.log.warn({ detail: error.detail }, '查询支付状态时支付通道不可用');
      });
      await closeExpired();
      order = await findOrder(db, scope, orderNo);
    }
    return ok({ orderNo, status: order.status, payStatus: order.payStatus, refundStatus: order.refundStatus, paidAt: order.paidAt });
  });

  app.get('/api/mercury/v1/order/payCode', { preHandler: anyPartner, schema: { querystring: ByNo } }, async (request) => {
    const scope = await scopeOf(request);
    const { orderNo } = request.query;
    const payable = (order: OrderRecord) => {
      if (!order.mine) throw conflict('只有下单的合作伙伴可以支付该订单');
      if (order.status !== OrderStatus.pending) throw conflict(order.status === OrderStatus.paid ? '订单已支付' : '订单已取消或已关闭，不能支付');
    };
    payable(await findOrder(db, scope, orderNo));
    await closeExpired();
    const order = await findOrder(db, scope, orderNo);
    // Still pending unless this very order has just expired.
    payable(order);
    const [row] = await rows<{ codeUrl: string | null }>(db, sql`SELECT code_url AS "codeUrl" FROM partner_orders WHERE order_no = ${orderNo}`);
    // The code pays what is left after the part paid from the balance.
    return ok({ orderNo, amountFen: order.amountFen - order.balanceFen, balanceFen: order.balanceFen, payStatus: order.payStatus, codeUrl: absoluteCodeUrl(request, row.codeUrl), expiresAt: order.expiresAt });
  });

  // Pays all or part of the caller's own pending order from its available balance (docs/api-partner-balance.md).
  app.post(
    '/api/mercury/v1/order/payByBalance',
    { preHandler: anyPartner, schema: { body: Type.Object({ orderNo: OrderNo, balanceFen: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }) }, config: { fieldLabels: { balanceFen: '余额支付金额' } } },
    async (request) => {
      const scope = await scopeOf(request);
      const { orderNo, balanceFen } = request.body;
      await findOrder(db, scope, orderNo);
      await closeExpired();
      const done = await payFromBalance(db, app.payments, scope.partnerId, orderNo, balanceFen, new Date(), (t, o) =>
        recordAudit(t, request, {
          action: 'pay',
          kind: 'order',
          recordId: orderNo,
          summary: o.status === OrderStatus.paid ? `余额支付订单 ${orderNo}（¥${yuan(balanceFen)}）` : `余额支付订单 ${orderNo} 部分金额（¥${yuan(balanceFen)}，余下 ¥${yuan(o.amountFen - balanceFen)} 扫码支付）`,
        }),
      );
      const order = await findOrder(db, scope, orderNo);
      return ok(
        { orderNo, amountFen: done.restFen, balanceFen, payStatus: order.payStatus, status: order.status, codeUrl: absoluteCodeUrl(request, done.codeUrl), expiresAt: order.expiresAt },
        done.restFen === 0 ? '已用余额支付' : `已用余额支付 ¥${yuan(balanceFen)}，请扫码支付剩余 ¥${yuan(done.restFen)}`,
      );
    },
  );

  app.post('/api/mercury/v1/order/cancelByOrderNo', { preHandler: anyPartner, schema: { body: ByNo } }, async (request) => {
    const scope = await scopeOf(request);
    const { orderNo } = request.body;
    await findOrder(db, scope, orderNo);
    await cancelOrder(db, app.payments, orderNo, new Date(), (t) => recordAudit(t, request, { action: 'cancel', kind: 'order', recordId: orderNo, summary: `取消订单 ${orderNo}` }));
    return ok(await findOrder(db, scope, orderNo), '订单已取消');
  });

  app.post(
    '/api/mercury/v1/order/applyRefund',
    { preHandler: anyPartner, schema: { body: Type.Object({ orderNo: OrderNo, reason: Type.String({ minLength: 1, maxLength: REASON_MAX_LENGTH }) }) }, config: { fieldLabels: { reason: '退款原因' } } },
    async (request) => {
      const scope = await scopeOf(request);
      const { orderNo, reason } = request.body;
      await findOrder(db, scope, orderNo);
      if (!reason.trim()) throw badRequest('退款原因不能为空');
      const refund = await requestRefund(db, app.payments, orderNo, scope.partnerId, reason.trim(), request.principal.userId, new Date(), (t, r) =>
        recordAudit(t, request, { action: 'refund', kind: 'order', recordId: orderNo, summary: `申请订单 ${orderNo} 退款（退款单 ${r.refundNo}，¥${yuan(r.amountFen)}）` }),
      );
      const [row] = await rows<{ createdAt: string }>(db, sql`SELECT ${isoTime(sql`created_at`)} AS "createdAt" FROM order_refunds WHERE id = ${refund.id}`);
      return ok({ refundNo: refund.refundNo, amountFen: refund.amountFen, status: refund.status, createdAt: row.createdAt }, '已提交退款申请');
    },
  );
};

export default orderRoutes;
