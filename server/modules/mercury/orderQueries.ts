// What a partner reads of orders: its subtree's (its own and those of every partner below it),
// filtered like the /orders screen. The list, the export and the detail share one WHERE.
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { badRequest, notFound } from '../../http/envelope';
import { ORDER_NO_PATTERN, ORDER_STATUSES, PAY_STATUSES, REFUND_STATUSES, type OrderDetail, type OrderItem, type OrderPayment, type OrderRecord, type OrderRefund } from '../../../src/domain/orders';
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
  dateFrom: Type.Optional(Day),
  dateTo: Type.Optional(Day),
  keyword: Type.Optional(Type.String({ maxLength: 50 })),
};

export interface OrderFilterQuery {
  status?: number;
  payStatus?: number;
  refundStatus?: number;
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

export function orderWhere(scope: PartnerScope, q: OrderFilterQuery): SQL {
  const parts: SQL[] = [inSubtree(scope, sql`o.buyer_id`)];
  if (q.status !== undefined) parts.push(sql`o.status = ${q.status}`);
  if (q.payStatus !== undefined) parts.push(sql`o.pay_status = ${q.payStatus}`);
  if (q.refundStatus !== undefined) parts.push(sql`o.refund_status = ${q.refundStatus}`);
  const { from, to } = filterDates(q);
  if (from) parts.push(sql`o.created_at >= ${from}`);
  if (to) parts.push(sql`o.created_at < ${to}`);
  const keyword = q.keyword?.trim();
  if (keyword) parts.push(sql`(o.order_no LIKE ${likePattern(keyword)} OR b.name LIKE ${likePattern(keyword)})`);
  return sql.join(parts, sql` AND `);
}

const selectOrders = (scope: PartnerScope) => sql`
  SELECT o.order_no AS id, o.order_no AS "orderNo", o.buyer_id AS "buyerId", b.name AS "buyerName", o.buyer_level AS "buyerLevel",
         COALESCE(s.name, '平台') AS "sellerName", o.amount_fen AS "amountFen",
         (SELECT string_agg(i.name || ' × ' || i.quantity, '；' ORDER BY i.id) FROM partner_order_items i WHERE i.order_id = o.id) AS "itemsText",
         o.status, o.pay_status AS "payStatus", o.refund_status AS "refundStatus", o.remark,
         ${isoTime(sql`o.created_at`)} AS "createdAt", ${isoTime(sql`o.paid_at`)} AS "paidAt", ${isoTime(sql`o.expires_at`)} AS "expiresAt",
         (o.buyer_id = ${scope.partnerId}) AS mine
    FROM partner_orders o JOIN partners b ON b.id = o.buyer_id LEFT JOIN partners s ON s.id = o.seller_id`;

export async function countOrders(db: Db, scope: PartnerScope, q: OrderFilterQuery): Promise<number> {
  const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM partner_orders o JOIN partners b ON b.id = o.buyer_id WHERE ${orderWhere(scope, q)}`);
  return total;
}

export function listOrders(db: Db, scope: PartnerScope, q: OrderFilterQuery, window?: { size: number; offset: number }): Promise<OrderRecord[]> {
  const limit = window ? sql`LIMIT ${window.size} OFFSET ${window.offset}` : sql``;
  return rows<OrderRecord>(db, sql`${selectOrders(scope)} WHERE ${orderWhere(scope, q)} ORDER BY o.created_at DESC, o.id DESC ${limit}`);
}

/** One order of the caller's subtree; another subtree's number is "not found". */
export async function findOrder(db: Db, scope: PartnerScope, orderNo: string): Promise<OrderRecord> {
  const [order] = await rows<OrderRecord>(db, sql`${selectOrders(scope)} WHERE o.order_no = ${orderNo} AND ${inSubtree(scope, sql`o.buyer_id`)}`);
  if (!order) throw notFound('订单不存在');
  return order;
}

export async function orderDetail(db: Db, scope: PartnerScope, orderNo: string): Promise<OrderDetail> {
  const order = await findOrder(db, scope, orderNo);
  const items = await rows<OrderItem>(db, sql`
    SELECT i.pack_id AS "packId", i.name, i.sheets, i.quantity, i.unit_price_fen AS "unitPriceFen", i.amount_fen AS "amountFen"
      FROM partner_order_items i JOIN partner_orders o ON o.id = i.order_id WHERE o.order_no = ${orderNo} ORDER BY i.id`);
  const [refund] = await rows<OrderRefund>(db, sql`
    SELECT r.refund_no AS "refundNo", r.amount_fen AS "amountFen", r.reason, r.status, ${isoTime(sql`r.created_at`)} AS "createdAt", ${isoTime(sql`r.refunded_at`)} AS "refundedAt"
      FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id WHERE o.order_no = ${orderNo}`);
  const paid = await rows<OrderPayment>(db, sql`
    SELECT p.transaction_id AS "transactionId", p.amount_fen AS "amountFen", ${isoTime(sql`p.paid_at`)} AS "paidAt", p.outcome,
           r.refund_no AS "refundNo", r.status AS "refundStatus", ${isoTime(sql`r.refunded_at`)} AS "refundedAt"
      FROM payments p LEFT JOIN payment_refunds r ON r.payment_id = p.id
     WHERE p.out_trade_no = ${orderNo} ORDER BY p.paid_at, p.id`);
  return { ...order, items, refund: refund ?? null, payments: paid };
}
