// Fulfilment of paper orders (docs/api-partner-orders.md "发货与收货"): the seller — the buyer's
// parent partner, or the platform for a level-1 buyer — dispatches lines with a carrier and a
// tracking number (partial shipments allowed); the buyer confirms receipt, or the sweep does it
// AUTO_RECEIVE_DAYS after the last shipment. After dispatch money comes back only with goods: the
// buyer asks a return for shipped lines with its return tracking number, the seller confirms the
// goods received, and those lines are refunded through the refund path (gateway part first, then
// the balance part), taking back the seller's margin on them. Every change locks the order's row,
// so a dispatch and a refund before dispatch, or two returns of one line, cannot both win.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { orderRefunds, orderReturns, orderShipments, partnerOrders } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../http/envelope';
import { OrderStatus, REFUND_WINDOW_DAYS, RefundStatus } from '../../../src/domain/orders';
import { AUTO_RECEIVE_DAYS, CARRIER_NAME_MAX, CARRIER_OTHER, CARRIERS, FulfilStatus, ReturnStatus, TRACKING_NO_PATTERN, type MovedLine } from '../../../src/domain/fulfilment';
import type { AlsoInTransaction } from '../../db/query';
import { newNumber } from './numbers';
import { completeRefund, refundThrough, syncRefundStatus } from './orders';
import type { PaymentProvider } from './payment/provider';

const tx = <T>(db: Db, work: (t: Db) => Promise<T>) => db.transaction((t) => work(t as unknown as Db));
const DAY_MS = 24 * 3600 * 1000;

/** Who sells: a partner (the buyer's parent) or the platform (level-1 buyers). */
export type Seller = { partnerId: number } | { platform: true };

interface LockedOrder {
  id: number;
  orderNo: string;
  buyerId: number;
  sellerId: number | null;
  status: number;
  refundStatus: number;
  fulfilStatus: number;
  amountFen: number;
  balanceFen: number;
  paidAt: Date | null;
  payTradeNo: string | null;
}

interface LockedItem {
  id: number;
  name: string;
  quantity: number;
  unitPriceFen: number;
  unitCostFen: number | null;
  shippedQuantity: number;
  returnedQuantity: number;
}

async function lockOrder(t: Db, orderNo: string): Promise<{ order: LockedOrder; items: LockedItem[] }> {
  const [order] = await rows<LockedOrder>(t, sql`
    SELECT id, order_no AS "orderNo", buyer_id AS "buyerId", seller_id AS "sellerId", status, refund_status AS "refundStatus", fulfil_status AS "fulfilStatus",
           amount_fen AS "amountFen", balance_fen AS "balanceFen", paid_at AS "paidAt", pay_trade_no AS "payTradeNo"
      FROM partner_orders WHERE order_no = ${orderNo} FOR UPDATE`);
  if (!order) throw notFound('订单不存在');
  const items = await rows<LockedItem>(t, sql`
    SELECT id, name, quantity, unit_price_fen AS "unitPriceFen", unit_cost_fen AS "unitCostFen", shipped_quantity AS "shippedQuantity", returned_quantity AS "returnedQuantity"
      FROM partner_order_items WHERE order_id = ${order.id} ORDER BY id FOR UPDATE`);
  return { order, items };
}

const sells = (seller: Seller, order: { sellerId: number | null }) => ('platform' in seller ? order.sellerId === null : order.sellerId === seller.partnerId);

/** A carrier from the list, or 其他 with its name; a tracking number of letters, digits and hyphens. */
export function checkParcel(input: { carrier: string; carrierName?: string; trackingNo: string }): { carrier: string; trackingNo: string } {
  if (!(CARRIERS as readonly string[]).includes(input.carrier)) throw badRequest('请选择承运商');
  let carrier = input.carrier;
  if (carrier === CARRIER_OTHER) {
    const name = input.carrierName?.trim() ?? '';
    if (!name) throw badRequest('请填写承运商名称');
    if (name.length > CARRIER_NAME_MAX) throw badRequest(`承运商名称不能超过 ${CARRIER_NAME_MAX} 个字`);
    if (/[<>"'`\\]|[\u0000-\u001f]/.test(name)) throw badRequest('承运商名称含有不允许的字符');
    carrier = name;
  }
  const trackingNo = input.trackingNo.trim().toUpperCase();
  if (!TRACKING_NO_PATTERN.test(trackingNo)) throw badRequest('运单号应为 6–32 位字母、数字或短横线');
  return { carrier, trackingNo };
}

/** The lines asked for, each an item of the order at most once, each within what `room` allows. */
function pickLines(items: LockedItem[], lines: { itemId: number; quantity: number }[], room: (item: LockedItem) => number, tooMany: (item: LockedItem, room: number) => string): { item: LockedItem; quantity: number }[] {
  if (!lines.length) throw badRequest('请至少选择一种商品并填写数量');
  const ids = lines.map((l) => l.itemId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一商品请合并为一行');
  return lines.map((line) => {
    const item = items.find((i) => i.id === line.itemId);
    if (!item) throw badRequest('所选商品不属于该订单');
    const left = room(item);
    if (line.quantity > left) throw badRequest(tooMany(item, left));
    return { item, quantity: line.quantity };
  });
}

const moved = (picked: { item: LockedItem; quantity: number }[]): MovedLine[] => picked.map((p) => ({ itemId: p.item.id, name: p.item.name, quantity: p.quantity }));

export async function dispatchOrder(
  db: Db,
  seller: Seller,
  orderNo: string,
  input: { carrier: string; carrierName?: string; trackingNo: string; lines: { itemId: number; quantity: number }[] },
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<{ orderNo: string; fulfilStatus: number; lines: MovedLine[]; carrier: string; trackingNo: string }>,
) {
  const parcel = checkParcel(input);
  return tx(db, async (t) => {
    const { order, items } = await lockOrder(t, orderNo);
    if (!sells(seller, order)) throw conflict('只有该订单的供货方可以发货');
    if (order.status !== OrderStatus.paid) throw conflict('订单未支付，不能发货');
    if (order.fulfilStatus === FulfilStatus.awaiting && order.refundStatus !== RefundStatus.none) throw conflict('订单已申请退款，不能发货');
    if (order.fulfilStatus === FulfilStatus.shipped || order.fulfilStatus === FulfilStatus.received) throw conflict('订单已全部发货');
    const picked = pickLines(
      items,
      input.lines,
      (i) => i.quantity - i.shippedQuantity,
      (i, left) => (left === 0 ? `「${i.name}」已全部发货` : `「${i.name}」最多还可发 ${left} 包`),
    );
    for (const p of picked) await t.execute(sql`UPDATE partner_order_items SET shipped_quantity = shipped_quantity + ${p.quantity} WHERE id = ${p.item.id}`);
    const lines = moved(picked);
    await t.insert(orderShipments).values({ orderId: order.id, ...parcel, lines, createdBy: userId, createdAt: now });
    const done = items.every((i) => i.shippedQuantity + (picked.find((p) => p.item.id === i.id)?.quantity ?? 0) >= i.quantity);
    const fulfilStatus = done ? FulfilStatus.shipped : FulfilStatus.partial;
    await t.update(partnerOrders).set({ fulfilStatus, shippedAt: now }).where(eq(partnerOrders.id, order.id));
    const result = { orderNo, fulfilStatus, lines, ...parcel };
    await alsoInTransaction?.(t, result);
    return result;
  });
}

export async function confirmReceipt(db: Db, buyerId: number, orderNo: string, userId: number | null, now = new Date(), alsoInTransaction?: AlsoInTransaction<{ orderNo: string }>) {
  return tx(db, async (t) => {
    const { order } = await lockOrder(t, orderNo);
    if (order.buyerId !== buyerId) throw conflict('只有下单的合作伙伴可以确认收货');
    if (order.status !== OrderStatus.paid) throw conflict('订单未支付，不能确认收货');
    if (order.fulfilStatus === FulfilStatus.received) throw conflict('订单已确认收货');
    if (order.fulfilStatus === FulfilStatus.awaiting) throw conflict('订单尚未发货，不能确认收货');
    if (order.fulfilStatus === FulfilStatus.partial) throw conflict('订单尚未全部发货，请收到全部商品后再确认');
    await t.update(partnerOrders).set({ fulfilStatus: FulfilStatus.received, receivedAt: now, receivedBy: userId }).where(eq(partnerOrders.id, order.id));
    await alsoInTransaction?.(t, { orderNo });
    return { orderNo, fulfilStatus: FulfilStatus.received, receivedAt: now };
  });
}

/** Shipped orders nobody confirmed within AUTO_RECEIVE_DAYS of their last shipment are received (by nobody: automatically). */
export async function autoConfirmReceipts(db: Db, now = new Date()): Promise<string[]> {
  const due = new Date(now.getTime() - AUTO_RECEIVE_DAYS * DAY_MS);
  const done = await rows<{ orderNo: string }>(db, sql`
    UPDATE partner_orders SET fulfil_status = ${FulfilStatus.received}, received_at = ${now}, received_by = NULL
     WHERE fulfil_status = ${FulfilStatus.shipped} AND shipped_at <= ${due}
    RETURNING order_no AS "orderNo"`);
  return done.map((d) => d.orderNo);
}

/** The buyer sends shipped lines back: a return waiting for the seller to confirm the goods received. */
export async function requestReturn(
  db: Db,
  buyerId: number,
  orderNo: string,
  input: { carrier: string; carrierName?: string; trackingNo: string; reason: string; lines: { itemId: number; quantity: number }[] },
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<{ returnNo: string; amountFen: number }>,
) {
  const parcel = checkParcel(input);
  const reason = input.reason.trim();
  if (!reason) throw badRequest('退货原因不能为空');
  return tx(db, async (t) => {
    const { order, items } = await lockOrder(t, orderNo);
    if (order.buyerId !== buyerId) throw conflict('只有下单的合作伙伴可以申请退货');
    if (order.status !== OrderStatus.paid) throw conflict('订单未支付，不能退货');
    if (order.fulfilStatus === FulfilStatus.awaiting) throw conflict('订单尚未发货，请直接申请退款');
    if (now.getTime() - new Date(order.paidAt!).getTime() > REFUND_WINDOW_DAYS * DAY_MS) throw conflict(`已超过${REFUND_WINDOW_DAYS}天售后期，不能申请退货`);
    const picked = pickLines(
      items,
      input.lines,
      (i) => i.shippedQuantity - i.returnedQuantity,
      (i, left) => (left === 0 ? `「${i.name}」没有可退的数量（已发货 ${i.shippedQuantity} 包，已退 ${i.returnedQuantity} 包）` : `「${i.name}」最多可退 ${left} 包`),
    );
    for (const p of picked) await t.execute(sql`UPDATE partner_order_items SET returned_quantity = returned_quantity + ${p.quantity} WHERE id = ${p.item.id}`);
    const amountFen = picked.reduce((s, p) => s + p.item.unitPriceFen * p.quantity, 0);
    const marginFen = order.sellerId === null ? 0 : picked.reduce((s, p) => s + (p.item.unitPriceFen - (p.item.unitCostFen ?? p.item.unitPriceFen)) * p.quantity, 0);
    const [row] = await t
      .insert(orderReturns)
      .values({ returnNo: newNumber('RT', now), orderId: order.id, lines: moved(picked), amountFen, marginFen, reason, ...parcel, requestedBy: userId, createdAt: now })
      .returning();
    await alsoInTransaction?.(t, row);
    return row;
  });
}

/**
 * The seller has the goods back: the return's lines are refunded. The gateway gives back what it
 * took first (up to what it has not refunded yet), the balance the rest; a refund with no gateway
 * part is done at once, the gateway's when its notice comes.
 */
export async function receiveReturn(
  db: Db,
  provider: PaymentProvider,
  seller: Seller,
  orderNo: string,
  returnNo: string,
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<{ returnNo: string; refundNo: string; amountFen: number }>,
) {
  const done = await tx(db, async (t) => {
    const { order } = await lockOrder(t, orderNo);
    if (!sells(seller, order)) throw conflict('只有该订单的供货方可以确认收到退货');
    const [ret] = await rows<{ id: number; status: number; amountFen: number; marginFen: number; reason: string; requestedBy: number | null }>(t, sql`
      SELECT id, status, amount_fen AS "amountFen", margin_fen AS "marginFen", reason, requested_by AS "requestedBy"
        FROM order_returns WHERE return_no = ${returnNo} AND order_id = ${order.id} FOR UPDATE`);
    if (!ret) throw notFound('退货单不存在');
    if (ret.status !== ReturnStatus.requested) throw conflict('该退货已确认收货');
    const [{ gatewayRefunded }] = await rows<{ gatewayRefunded: number }>(t, sql`
      SELECT COALESCE(sum(amount_fen - balance_fen), 0)::int AS "gatewayRefunded" FROM order_refunds WHERE order_id = ${order.id}`);
    const gatewayTotal = order.amountFen - order.balanceFen;
    const gatewayFen = Math.max(0, Math.min(ret.amountFen, gatewayTotal - gatewayRefunded));
    const balanceFen = ret.amountFen - gatewayFen;
    const [refund] = await t
      .insert(orderRefunds)
      .values({ refundNo: newNumber('RF', now), orderId: order.id, amountFen: ret.amountFen, balanceFen, reversalFen: ret.marginFen, reason: `退货 ${returnNo}：${ret.reason}`.slice(0, 240), requestedBy: ret.requestedBy, createdAt: now })
      .returning();
    await t.update(orderReturns).set({ status: ReturnStatus.received, receivedBy: userId, receivedAt: now, refundId: refund.id }).where(eq(orderReturns.id, ret.id));
    if (gatewayFen === 0) await completeRefund(t, { id: refund.id, orderId: order.id, buyerId: order.buyerId, balanceFen, reversalFen: ret.marginFen }, now);
    else await syncRefundStatus(t, order.id);
    await alsoInTransaction?.(t, { returnNo, refundNo: refund.refundNo, amountFen: ret.amountFen });
    return { refundNo: refund.refundNo, amountFen: ret.amountFen, gatewayFen, gatewayTotal, tradeNo: order.payTradeNo ?? order.orderNo };
  });
  if (done.gatewayFen > 0) await refundThrough(db, provider, { outTradeNo: done.tradeNo, outRefundNo: done.refundNo, amountFen: done.gatewayFen, totalFen: done.gatewayTotal });
  return { returnNo, refundNo: done.refundNo, amountFen: done.amountFen };
}
