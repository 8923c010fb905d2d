// What a partner reads of orders: its subtree's (its own and those of every partner below it),
// filtered like the /orders screen. The list, the export and the detail share one WHERE.
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { badRequest, notFound } from '../../http/envelope';
import { ORDER_NO_PATTERN, ORDER_STATUSES, OrderStatus, PAY_STATUSES, REFUND_STATUSES, RefundStatus, type OrderDetail, type OrderItem, type OrderPayment, type OrderRecord, type OrderRefund } from '../../../src/domain/orders';
import { FULFIL_STATUSES, FulfilStatus, type ReturnRecord, type Shipment, type TimelineEvent } from '../../../src/domain/fulfilment';
import { money } from '../../../src/domain/format';
import { inSubtree, type PartnerScope } from '../partner/scope';
import { chinaDayStart } from '../../../src/domain/format';
import { validDay } from '../../../src/domain/boardRange';

const oneOf = (options: { value: number }[]) => Type.Union(options.map((o) => Type.Literal(o.value)));
const Day = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', maxLength: 10 });
export const OrderNo = Type.String({ pattern: ORDER_NO_PATTERN.source, maxLength: 22 });

export const OrderFilter = {
  status: Type.Optional(oneOf(ORDER_STATUSES)),
  payStatus: Type.Optional(oneOf(PAY_STATUSES)),
  refundStatus: Type.Optional(oneOf(REFUND_STATUSES)),
  fulfilStatus: Type.Optional(oneOf(FULFIL_STATUSES)),
  dateFrom: Type.Optional(Day),
  dateTo: Type.Optional(Day),
  keyword: Type.Optional(Type.String({ maxLength: 50 })),
};

export interface OrderFilterQuery {
  status?: number;
  payStatus?: number;
  refundStatus?: number;
  fulfilStatus?: number;
  dateFrom?: string;
  dateTo?: string;
  keyword?: string;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const DAY_MS = 24 * 3600 * 1000;

/** The filter's dates as instants; a bad date or an inverted range is a Chinese 400. */
export function filterDates(q: OrderFilterQuery): { from?: Date; to?: Date } {
  // The pattern lets 2026-02-30 through, and Date would read it as 3 March: a calendar check.
  for (const day of [q.dateFrom, q.dateTo]) if (day !== undefined && !validDay(day)) throw badRequest(`日期 ${day} 不存在`);
  const from = q.dateFrom ? chinaDayStart(q.dateFrom) : undefined;
  const to = q.dateTo ? new Date(chinaDayStart(q.dateTo).getTime() + DAY_MS) : undefined;
  if ((from && Number.isNaN(from.getTime())) || (to && Number.isNaN(to.getTime()))) throw badRequest('日期格式不正确');
  if (from && to && from >= to) throw badRequest('开始日期不能晚于结束日期');
  return { from, to };
}

/**
 * Who reads orders: a partner (its subtree's), or the platform (the orders it sells: those of
 * level-1 partners, to dispatch them and take their returns).
 */
export type Viewer = PartnerScope | { platform: true };
const isPlatform = (v: Viewer): v is { platform: true } => 'platform' in v;
const visible = (v: Viewer): SQL => (isPlatform(v) ? sql`o.seller_id IS NULL` : inSubtree(v, sql`o.buyer_id`));

export function orderWhere(scope: Viewer, q: OrderFilterQuery): SQL {
  const parts: SQL[] = [visible(scope)];
  if (q.status !== undefined) parts.push(sql`o.status = ${q.status}`);
  if (q.payStatus !== undefined) parts.push(sql`o.pay_status = ${q.payStatus}`);
  if (q.refundStatus !== undefined) parts.push(sql`o.refund_status = ${q.refundStatus}`);
  // Only paid orders are fulfilled; one refunded before dispatch never will be (the list shows '-').
  if (q.fulfilStatus !== undefined)
    parts.push(sql`o.fulfil_status = ${q.fulfilStatus} AND o.status = ${OrderStatus.paid} AND NOT (o.fulfil_status = ${FulfilStatus.awaiting} AND o.refund_status = ${RefundStatus.refunded})`);
  const { from, to } = filterDates(q);
  if (from) parts.push(sql`o.created_at >= ${from}`);
  if (to) parts.push(sql`o.created_at < ${to}`);
  const keyword = q.keyword?.trim();
  if (keyword) parts.push(sql`(o.order_no LIKE ${likePattern(keyword)} OR b.name LIKE ${likePattern(keyword)})`);
  return sql.join(parts, sql` AND `);
}

const selectOrders = (scope: Viewer) => sql`
  SELECT o.order_no AS id, o.order_no AS "orderNo", o.buyer_id AS "buyerId", b.name AS "buyerName", o.buyer_level AS "buyerLevel",
         COALESCE(s.name, '平台') AS "sellerName", o.amount_fen AS "amountFen", o.balance_fen AS "balanceFen",
         (SELECT string_agg(i.name || ' × ' || i.quantity, '；' ORDER BY i.id) FROM partner_order_items i WHERE i.order_id = o.id) AS "itemsText",
         o.status, o.pay_status AS "payStatus", o.refund_status AS "refundStatus", o.remark,
         ${isoTime(sql`o.created_at`)} AS "createdAt", ${isoTime(sql`o.paid_at`)} AS "paidAt", ${isoTime(sql`o.expires_at`)} AS "expiresAt",
         ${isPlatform(scope) ? sql`false` : sql`(o.buyer_id = ${scope.partnerId})`} AS mine,
         o.fulfil_status AS "fulfilStatus", o.ship_to AS "shipTo",
         ${isPlatform(scope) ? sql`(o.seller_id IS NULL)` : sql`(o.seller_id IS NOT DISTINCT FROM ${scope.partnerId})`} AS seller,
         ${isoTime(sql`o.received_at`)} AS "receivedAt",
         (SELECT COALESCE(sum(r.amount_fen), 0)::int FROM order_refunds r WHERE r.order_id = o.id AND r.status = ${RefundStatus.refunded}) AS "refundedFen"
    FROM partner_orders o JOIN partners b ON b.id = o.buyer_id LEFT JOIN partners s ON s.id = o.seller_id`;

export async function countOrders(db: Db, scope: Viewer, q: OrderFilterQuery): Promise<number> {
  const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM partner_orders o JOIN partners b ON b.id = o.buyer_id WHERE ${orderWhere(scope, q)}`);
  return total;
}

export function listOrders(db: Db, scope: Viewer, q: OrderFilterQuery, window?: { size: number; offset: number }): Promise<OrderRecord[]> {
  const limit = window ? sql`LIMIT ${window.size} OFFSET ${window.offset}` : sql``;
  return rows<OrderRecord>(db, sql`${selectOrders(scope)} WHERE ${orderWhere(scope, q)} ORDER BY o.created_at DESC, o.id DESC ${limit}`);
}

/** One order of the caller's subtree; another subtree's number is "not found". */
export async function findOrder(db: Db, scope: Viewer, orderNo: string): Promise<OrderRecord> {
  const [order] = await rows<OrderRecord>(db, sql`${selectOrders(scope)} WHERE o.order_no = ${orderNo} AND ${visible(scope)}`);
  if (!order) throw notFound('订单不存在');
  return order;
}

export async function orderDetail(db: Db, scope: Viewer, orderNo: string): Promise<OrderDetail> {
  const order = await findOrder(db, scope, orderNo);
  const items = await rows<OrderItem>(db, sql`
    SELECT i.id AS "itemId", i.pack_id AS "packId", i.name, i.sheets, i.quantity, i.unit_price_fen AS "unitPriceFen", i.amount_fen AS "amountFen",
           i.shipped_quantity AS "shippedQuantity", i.returned_quantity AS "returnedQuantity"
      FROM partner_order_items i JOIN partner_orders o ON o.id = i.order_id WHERE o.order_no = ${orderNo} ORDER BY i.id`);
  const refunds = await rows<OrderRefund & { requestedByName: string | null }>(db, sql`
    SELECT r.refund_no AS "refundNo", r.amount_fen AS "amountFen", r.reason, r.status, ${isoTime(sql`r.created_at`)} AS "createdAt", ${isoTime(sql`r.refunded_at`)} AS "refundedAt",
           u.name AS "requestedByName"
      FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id LEFT JOIN users u ON u.id = r.requested_by WHERE o.order_no = ${orderNo} ORDER BY r.created_at, r.id`);
  const paid = await rows<OrderPayment>(db, sql`
    SELECT p.transaction_id AS "transactionId", p.amount_fen AS "amountFen", ${isoTime(sql`p.paid_at`)} AS "paidAt", p.outcome,
           r.refund_no AS "refundNo", r.status AS "refundStatus", ${isoTime(sql`r.refunded_at`)} AS "refundedAt"
      FROM payments p LEFT JOIN payment_refunds r ON r.payment_id = p.id
     WHERE p.out_trade_no = ${orderNo} OR p.out_trade_no = (SELECT pay_trade_no FROM partner_orders WHERE order_no = ${orderNo}) ORDER BY p.paid_at, p.id`);
  const shipments = await rows<Shipment>(db, sql`
    SELECT s.id, s.carrier, s.tracking_no AS "trackingNo", s.lines, COALESCE(u.name, '') AS "createdByName", ${isoTime(sql`s.created_at`)} AS "createdAt"
      FROM order_shipments s JOIN partner_orders o ON o.id = s.order_id LEFT JOIN users u ON u.id = s.created_by WHERE o.order_no = ${orderNo} ORDER BY s.created_at, s.id`);
  const returns = await rows<ReturnRecord>(db, sql`
    SELECT r.return_no AS "returnNo", r.lines, r.amount_fen AS "amountFen", r.reason, r.carrier, r.tracking_no AS "trackingNo", r.status, f.refund_no AS "refundNo",
           COALESCE(a.name, '') AS "requestedByName", ${isoTime(sql`r.created_at`)} AS "createdAt", b.name AS "receivedByName", ${isoTime(sql`r.received_at`)} AS "receivedAt"
      FROM order_returns r JOIN partner_orders o ON o.id = r.order_id LEFT JOIN order_refunds f ON f.id = r.refund_id
      LEFT JOIN users a ON a.id = r.requested_by LEFT JOIN users b ON b.id = r.received_by
     WHERE o.order_no = ${orderNo} ORDER BY r.created_at, r.id`);
  const [people] = await rows<{ placedBy: string | null; receivedBy: string | null; cancelledAt: string | null; closedAt: string | null }>(db, sql`
    SELECT c.name AS "placedBy", rb.name AS "receivedBy", ${isoTime(sql`o.cancelled_at`)} AS "cancelledAt", ${isoTime(sql`o.closed_at`)} AS "closedAt"
      FROM partner_orders o LEFT JOIN users c ON c.id = o.created_by LEFT JOIN users rb ON rb.id = o.received_by WHERE o.order_no = ${orderNo}`);
  const buyerSide = (name: string | null | undefined) => `${order.buyerName}${name ? ` · ${name}` : ''}`;
  const sellerSide = (name: string | null | undefined) => `${order.sellerName}${name ? ` · ${name}` : ''}`;
  const events: TimelineEvent[] = [{ at: order.createdAt, who: buyerSide(people.placedBy), what: `下单，金额 ${money(order.amountFen)}` }];
  if (order.paidAt) events.push({ at: order.paidAt, who: buyerSide(null), what: order.balanceFen > 0 ? `支付（其中余额 ${money(order.balanceFen)}）` : '支付' });
  if (people.cancelledAt) events.push({ at: people.cancelledAt, who: '合作伙伴', what: '订单取消' });
  if (people.closedAt) events.push({ at: people.closedAt, who: '系统', what: '超时未支付，订单关闭' });
  for (const s of shipments) events.push({ at: s.createdAt, who: sellerSide(s.createdByName), what: `发货：${s.carrier} ${s.trackingNo}（${s.lines.map((l) => `${l.name} × ${l.quantity}`).join('；')}）` });
  if (order.receivedAt) events.push({ at: order.receivedAt, who: people.receivedBy ? buyerSide(people.receivedBy) : '系统', what: people.receivedBy ? '确认收货' : '发货后超时未确认，自动确认收货' });
  for (const r of returns) {
    events.push({ at: r.createdAt, who: buyerSide(r.requestedByName), what: `申请退货 ${r.returnNo}：${r.carrier} ${r.trackingNo}，退款 ${money(r.amountFen)}` });
    if (r.receivedAt) events.push({ at: r.receivedAt, who: sellerSide(r.receivedByName), what: `确认收到退货 ${r.returnNo}` });
  }
  for (const r of refunds) {
    // A return's refund is told by its return; the refund before dispatch by itself.
    if (!returns.some((x) => x.refundNo === r.refundNo)) events.push({ at: r.createdAt, who: buyerSide(r.requestedByName), what: `申请退款 ${money(r.amountFen)}` });
    if (r.refundedAt) events.push({ at: r.refundedAt, who: '支付通道', what: `退款到账 ${money(r.amountFen)}（${r.refundNo}）` });
  }
  events.sort((a, b) => a.at.localeCompare(b.at));
  const plain = refunds.map(({ requestedByName: _, ...r }) => r);
  return { ...order, items, refund: plain.at(-1) ?? null, refunds: plain, payments: paid, shipments, returns, timeline: events };
}
