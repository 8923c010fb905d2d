// Paper orders through their life (docs/api-partner-orders.md): placed at the buyer's level
// price, paid by the gateway's notice (once, for the right amount), cancelled by the buyer or its
// upline while unpaid, closed 30 minutes after placing when unpaid, refunded whole. Each change is
// one transaction with its ledger entries; state moves only by conditional updates, so a payment
// and a cancellation racing each other cannot both win.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { orderRefunds, partnerOrderItems, partnerOrders, payments } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../http/envelope';
import { ORDER_MAX_QUANTITY, OrderStatus, PAY_TIMEOUT_MINUTES, PayStatus, REFUND_WINDOW_DAYS, RefundStatus } from '../../../src/domain/orders';
import { ancestorIds } from '../../../src/domain/partner';
import { partnerLevel } from '../../../src/domain/roles';
import { recordMargin, recordReversal } from '../partner/ledger';
import { priceBook } from '../partner/prices';
import { refundToBalance, releaseHeld } from '../partner/balance';
import { newNumber } from './numbers';
import type { ShipTo } from '../../../src/domain/fulfilment';
import { FulfilStatus } from '../../../src/domain/fulfilment';
import { applyPaymentRefunded, refundPaymentAlone } from './paymentRefunds';
import { AmountMismatchError, type PaymentNotice, type PaymentProvider } from './payment/provider';

type Order = typeof partnerOrders.$inferSelect;
const tx = <T>(db: Db, work: (tx: Db) => Promise<T>) => db.transaction((t) => work(t as unknown as Db));

export interface Buyer {
  id: number;
  ancestors: string;
  parentId: number | null;
}

/**
 * What the caller writes in the same transaction as the change (its 操作日志 entry), so that a
 * change is never left without its entry, nor an entry without its change.
 */
import type { AlsoInTransaction } from '../../db/query';
export type { AlsoInTransaction };

export async function placeOrder(
  db: Db,
  provider: PaymentProvider,
  buyer: Buyer,
  input: { items: { packId: number; quantity: number }[]; remark?: string; shipTo?: ShipTo | null },
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<Order>,
): Promise<Order> {
  const ids = input.items.map((i) => i.packId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一纸张规格请合并为一行');
  if (input.items.some((i) => i.quantity > ORDER_MAX_QUANTITY)) throw badRequest(`每种纸张每单最多订购 ${ORDER_MAX_QUANTITY} 包，请分多次下单`);
  // The buyer's own prices (set by its parent, else its level's) and its seller's (partner/prices.ts).
  const book = await priceBook(db, { id: buyer.id, ancestors: buyer.ancestors });
  const level = partnerLevel(buyer.ancestors) as 1 | 2 | 3;
  const lines = input.items.map((item) => {
    const price = book.find((p) => p.packId === item.packId);
    if (!price) throw notFound('纸张规格不存在');
    const pack = { id: price.packId, name: price.name, sheets: price.sheets };
    return { pack, quantity: item.quantity, unit: price.priceFen, cost: price.costFen ?? 0 };
  });
  const amountFen = lines.reduce((s, l) => s + l.unit * l.quantity, 0);
  const sellerId = level > 1 ? (buyer.parentId ?? ancestorIds(buyer.ancestors).at(-1)!) : null;
  const orderNo = newNumber('PO', now);
  const expiresAt = new Date(now.getTime() + PAY_TIMEOUT_MINUTES * 60_000);
  return tx(db, async (t) => {
    const [order] = await t
      .insert(partnerOrders)
      .values({
        orderNo,
        buyerId: buyer.id,
        sellerId,
        buyerLevel: level,
        amountFen,
        sellerCostFen: sellerId ? lines.reduce((s, l) => s + l.cost * l.quantity, 0) : null,
        remark: input.remark?.trim() || null,
        shipTo: input.shipTo ?? null,
        provider: provider.name,
        expiresAt,
        createdBy: userId,
        createdAt: now,
      })
      .returning();
    await t.insert(partnerOrderItems).values(
      lines.map((l) => ({ orderId: order.id, packId: l.pack.id, name: l.pack.name, sheets: l.pack.sheets, quantity: l.quantity, unitPriceFen: l.unit, unitCostFen: sellerId ? l.cost : null, amountFen: l.unit * l.quantity })),
    );
    const subject = `学助错题打印纸订单 ${orderNo}`;
    const { codeUrl } = await provider.createPayment(t, { outTradeNo: orderNo, amountFen, subject, expiresAt });
    const [saved] = await t.update(partnerOrders).set({ codeUrl }).where(eq(partnerOrders.id, order.id)).returning();
    await alsoInTransaction?.(t, saved);
    return saved;
  });
}

/** Unpaid orders past their time are closed (and their gateway trades with them). */
export async function closeExpiredOrders(db: Db, provider: PaymentProvider, now = new Date()): Promise<string[]> {
  // The close and the release of the balance held by part-paid orders are one transaction.
  const closed = await tx(db, async (t) => {
    const done = await rows<{ id: number; orderNo: string; payTradeNo: string | null; buyerId: number; balanceFen: number }>(t, sql`
      UPDATE partner_orders SET status = ${OrderStatus.closed}, closed_at = ${now}
       WHERE status = ${OrderStatus.pending} AND expires_at <= ${now}
      RETURNING id, order_no AS "orderNo", pay_trade_no AS "payTradeNo", buyer_id AS "buyerId", balance_fen AS "balanceFen"`);
    await releaseHeld(t, done, now);
    return done;
  });
  for (const { orderNo, payTradeNo } of closed) {
    await provider.closePayment(db, orderNo);
    if (payTradeNo) await provider.closePayment(db, payTradeNo);
  }
  return closed.map((c) => c.orderNo);
}

export type NoticeOutcome = 'applied' | 'duplicate' | 'refund_due' | 'ignored';

/**
 * A paid notice for an order. The amount must be the order's; one gateway transaction counts
 * once; money that arrives for a cancelled or closed order is recorded and refunded.
 */
export async function applyOrderPaid(db: Db, provider: PaymentProvider, notice: Extract<PaymentNotice, { kind: 'paid' }>): Promise<NoticeOutcome> {
  const outcome = await tx(db, async (t) => {
    // A PB… trade is the gateway's part of an order partly paid from the balance.
    const [order] = await rows<Order>(t, sql`SELECT id, status, amount_fen AS "amountFen", seller_id AS "sellerId", seller_cost_fen AS "sellerCostFen", expires_at AS "expiresAt", refund_status AS "refundStatus",
        balance_fen AS "balanceFen", pay_trade_no AS "payTradeNo"
      FROM partner_orders WHERE ${notice.outTradeNo.startsWith('PB') ? sql`pay_trade_no` : sql`order_no`} = ${notice.outTradeNo} FOR UPDATE`);
    if (!order) throw notFound('订单不存在');
    // The order's own trade after part was paid from the balance is money that should not have come: it goes back alone.
    const expected = order.payTradeNo === notice.outTradeNo ? order.amountFen - order.balanceFen : order.amountFen;
    if (expected !== notice.amountFen) throw new AmountMismatchError('支付金额与订单金额不一致', expected, notice.amountFen);
    const forRest = order.payTradeNo === notice.outTradeNo;
    const [payment] = await t
      .insert(payments)
      .values({ outTradeNo: notice.outTradeNo, provider: provider.name, transactionId: notice.transactionId, amountFen: notice.amountFen, paidAt: notice.paidAt, outcome: 'applied' })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (!payment) return { outcome: 'duplicate' as const };
    // Paid within its time: the order is paid even if our close ran before the notice arrived.
    // An order part-paid from the balance is payable only by its rest's trade, and not once closed (its held part went back).
    const payable =
      order.balanceFen > 0
        ? forRest && order.status === OrderStatus.pending
        : order.status === OrderStatus.pending || (order.status === OrderStatus.closed && new Date(notice.paidAt) <= new Date(order.expiresAt));
    if (payable) {
      await t.update(partnerOrders).set({ status: OrderStatus.paid, payStatus: PayStatus.paid, paidAt: notice.paidAt, closedAt: null }).where(eq(partnerOrders.id, order.id));
      await recordMargin(t, order, notice.paidAt);
      return { outcome: 'applied' as const };
    }
    // A second payment of a paid order: the order keeps its first payment and its margin; this
    // money goes back on its own. So does late money for an order whose refund already exists.
    if (order.status === OrderStatus.paid || order.refundStatus !== RefundStatus.none || order.balanceFen > 0) {
      const refund = await refundPaymentAlone(t, payment.id, notice, order.status === OrderStatus.paid ? '订单已支付，重复支付的款项原路退回' : '订单已取消或已关闭后再次收到付款，原路退回');
      return { outcome: 'refund_due' as const, refund };
    }
    await t.update(payments).set({ outcome: 'refund_due' }).where(eq(payments.id, payment.id));
    // A cancelled or closed order stays so; the money goes back as the order's refund.
    await t.update(partnerOrders).set({ payStatus: PayStatus.paid, paidAt: notice.paidAt, refundStatus: RefundStatus.refunding }).where(eq(partnerOrders.id, order.id));
    const [refund] = await t
      .insert(orderRefunds)
      .values({ refundNo: newNumber('RF'), orderId: order.id, amountFen: order.amountFen, reason: '订单已取消或已关闭后收到付款，原路退回' })
      .returning();
    return { outcome: 'refund_due' as const, refund };
  });
  if (outcome.outcome === 'refund_due' && 'refund' in outcome && outcome.refund) {
    await refundThrough(db, provider, { outTradeNo: notice.outTradeNo, outRefundNo: outcome.refund.refundNo, amountFen: outcome.refund.amountFen });
  }
  return outcome.outcome;
}

/** Asks the gateway for a refund; one it completes at once (Alipay) is applied as its notice would be. */
export async function refundThrough(db: Db, provider: PaymentProvider, request: { outTradeNo: string; outRefundNo: string; amountFen: number; totalFen?: number }): Promise<void> {
  const done = await provider.refund(db, request);
  if (done) await applyRefunded(db, done);
}

/**
 * The refund notice: the refund and its order are done, and the seller's margin is reversed; for a
 * payment refunded on its own, only that refund is done.
 */
export async function applyRefunded(db: Db, notice: Extract<PaymentNotice, { kind: 'refunded' }>): Promise<NoticeOutcome> {
  return tx(db, async (t) => {
    const alone = await applyPaymentRefunded(t, notice);
    if (alone) return alone;
    const [refund] = await rows<{ id: number; orderId: number; amountFen: number; status: number; orderNo: string; buyerId: number; balanceFen: number; reversalFen: number | null }>(t, sql`
      SELECT r.id, r.order_id AS "orderId", r.amount_fen AS "amountFen", r.status, COALESCE(o.pay_trade_no, o.order_no) AS "orderNo",
             o.buyer_id AS "buyerId", r.balance_fen AS "balanceFen", r.reversal_fen AS "reversalFen"
        FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id WHERE r.refund_no = ${notice.outRefundNo} FOR UPDATE OF r`);
    if (!refund || refund.orderNo !== notice.outTradeNo) throw notFound('退款单不存在');
    // The gateway refunds its part; the balance part goes back to the balance with it.
    if (refund.amountFen - refund.balanceFen !== notice.amountFen) throw new AmountMismatchError('退款金额与退款单不一致', refund.amountFen - refund.balanceFen, notice.amountFen);
    if (refund.status === RefundStatus.refunded) return 'duplicate';
    await completeRefund(t, refund, notice.refundedAt);
    return 'applied';
  });
}

/**
 * A refund is done: the refund row, the order's refund status, the seller's margin taken back (the
 * whole of it, or a return's lines) and the refund's balance part returned — one transaction.
 */
export async function completeRefund(
  t: Db,
  refund: { id: number; orderId: number; buyerId: number; balanceFen: number; reversalFen: number | null },
  at: Date,
): Promise<void> {
  await t.update(orderRefunds).set({ status: RefundStatus.refunded, refundedAt: at }).where(eq(orderRefunds.id, refund.id));
  await syncRefundStatus(t, refund.orderId);
  await recordReversal(t, refund.orderId, refund.id, at, refund.reversalFen);
  await refundToBalance(t, { id: refund.orderId, buyerId: refund.buyerId, balanceFen: refund.balanceFen }, at);
}

/**
 * The order's refund status from its refunds: 退款中 while one is under way, 已退款 when the whole
 * amount is back, 部分退款 when returned lines are, else 未退款.
 */
export async function syncRefundStatus(t: Db, orderId: number): Promise<void> {
  await t.execute(sql`
    UPDATE partner_orders o SET refund_status = (CASE
        WHEN EXISTS (SELECT 1 FROM order_refunds r WHERE r.order_id = o.id AND r.status = ${RefundStatus.refunding}) THEN ${RefundStatus.refunding}
        WHEN (SELECT COALESCE(sum(r.amount_fen), 0) FROM order_refunds r WHERE r.order_id = o.id AND r.status = ${RefundStatus.refunded}) >= o.amount_fen THEN ${RefundStatus.refunded}
        WHEN EXISTS (SELECT 1 FROM order_refunds r WHERE r.order_id = o.id AND r.status = ${RefundStatus.refunded}) THEN ${RefundStatus.partial}
        ELSE ${RefundStatus.none} END)::smallint
     WHERE o.id = ${orderId}`);
}

/** Cancels an unpaid order; the caller has already checked that the order is in its subtree. */
export async function cancelOrder(db: Db, provider: PaymentProvider, orderNo: string, now = new Date(), alsoInTransaction?: AlsoInTransaction<Order>): Promise<Order> {
  const result = await tx(db, async (t) => {
    const [order] = await rows<Order>(t, sql`SELECT id, buyer_id AS "buyerId", status, pay_status AS "payStatus", expires_at AS "expiresAt", balance_fen AS "balanceFen", pay_trade_no AS "payTradeNo"
      FROM partner_orders WHERE order_no = ${orderNo} FOR UPDATE`);
    if (!order) throw notFound('订单不存在');
    if (order.status === OrderStatus.pending && new Date(order.expiresAt) <= now) {
      await t.update(partnerOrders).set({ status: OrderStatus.closed, closedAt: now }).where(eq(partnerOrders.id, order.id));
      await releaseHeld(t, [order], now);
      return { refused: '订单已超时关闭，无需取消', payTradeNo: order.payTradeNo };
    }
    if (order.status !== OrderStatus.pending || order.payStatus !== PayStatus.unpaid) {
      return { refused: order.status === OrderStatus.paid ? '订单已支付，不能取消' : order.status === OrderStatus.cancelled ? '订单已取消' : '订单已关闭，无需取消' };
    }
    const [saved] = await t.update(partnerOrders).set({ status: OrderStatus.cancelled, cancelledAt: now }).where(eq(partnerOrders.id, order.id)).returning();
    await releaseHeld(t, [order], now);
    await alsoInTransaction?.(t, saved);
    return { saved, payTradeNo: order.payTradeNo };
  });
  // The gateway stops taking money for it; a payment already under way comes back as a refund.
  await provider.closePayment(db, orderNo);
  if (result.payTradeNo) await provider.closePayment(db, result.payTradeNo);
  if ('refused' in result && result.refused) throw conflict(result.refused);
  return result.saved!;
}

/** The buyer asks for its paid order's money back, within the after-sales window. */
export async function requestRefund(
  db: Db,
  provider: PaymentProvider,
  orderNo: string,
  buyerId: number,
  reason: string,
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<typeof orderRefunds.$inferSelect>,
) {
  const refund = await tx(db, async (t) => {
    const [order] = await rows<Order>(t, sql`SELECT id, buyer_id AS "buyerId", status, refund_status AS "refundStatus", amount_fen AS "amountFen", paid_at AS "paidAt",
        balance_fen AS "balanceFen", pay_trade_no AS "payTradeNo", fulfil_status AS "fulfilStatus"
      FROM partner_orders WHERE order_no = ${orderNo} FOR UPDATE`);
    if (!order) throw notFound('订单不存在');
    if (order.buyerId !== buyerId) throw conflict('只有下单的合作伙伴可以申请退款');
    if (order.status !== OrderStatus.paid) throw conflict('订单未支付，不能退款');
    // Once goods have left, money comes back only with goods returned (returnGoods, by line).
    if (order.fulfilStatus !== FulfilStatus.awaiting) throw conflict('订单已发货，请申请退货退款（寄回商品并填写退货单号）');
    if (order.refundStatus !== RefundStatus.none) throw conflict(order.refundStatus === RefundStatus.refunding ? '订单正在退款中' : '订单已退款');
    if (now.getTime() - new Date(order.paidAt!).getTime() > REFUND_WINDOW_DAYS * 24 * 3600 * 1000) throw conflict(`已超过${REFUND_WINDOW_DAYS}天售后期，不能申请退款`);
    await t.update(partnerOrders).set({ refundStatus: RefundStatus.refunding }).where(eq(partnerOrders.id, order.id));
    const [row] = await t
      .insert(orderRefunds)
      .values({ refundNo: newNumber('RF', now), orderId: order.id, amountFen: order.amountFen, balanceFen: order.balanceFen, reason, requestedBy: userId, createdAt: now })
      .returning();
    // Paid wholly from the balance: nothing for the gateway, the refund is done here.
    if (order.balanceFen === order.amountFen) await completeRefund(t, { id: row.id, orderId: order.id, buyerId: order.buyerId, balanceFen: order.balanceFen, reversalFen: null }, now);
    await alsoInTransaction?.(t, row);
    return { ...row, gatewayFen: order.amountFen - order.balanceFen, tradeNo: order.payTradeNo ?? orderNo };
  });
  // The gateway refunds its part (the balance part goes back when it is done).
  if (refund.gatewayFen > 0) await refundThrough(db, provider, { outTradeNo: refund.tradeNo, outRefundNo: refund.refundNo, amountFen: refund.gatewayFen });
  return refund;
}

/**
 * Asks the gateway about an order still waiting for its notice (as integrations do when a
 * notice is late) and applies what it says.
 */
export async function syncWithGateway(db: Db, provider: PaymentProvider, orderNo: string): Promise<void> {
  const [row] = await rows<{ payTradeNo: string | null }>(db, sql`SELECT pay_trade_no AS "payTradeNo" FROM partner_orders WHERE order_no = ${orderNo}`);
  const tradeNo = row?.payTradeNo ?? orderNo;
  const trade = await provider.queryPayment(db, tradeNo);
  if (trade.state === 'SUCCESS' && trade.transactionId && trade.amountFen && trade.paidAt) {
    await applyOrderPaid(db, provider, { kind: 'paid', outTradeNo: tradeNo, transactionId: trade.transactionId, amountFen: trade.amountFen, paidAt: trade.paidAt });
  }
}
