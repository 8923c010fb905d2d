// Paper orders through their life (docs/api-partner-orders.md): placed at the buyer's level
// price, paid by the gateway's notice (once, for the right amount), cancelled by the buyer or its
// upline while unpaid, closed 30 minutes after placing when unpaid, refunded whole. Each change is
// one transaction with its ledger entries; state moves only by conditional updates, so a payment
// and a cancellation racing each other cannot both win.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { orderRefunds, paperPacks, partnerOrderItems, partnerOrders, payments } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../http/envelope';
import { ORDER_MAX_QUANTITY, OrderStatus, PAY_TIMEOUT_MINUTES, PayStatus, REFUND_WINDOW_DAYS, RefundStatus } from '../../../src/domain/orders';
import { ancestorIds } from '../../../src/domain/partner';
import { partnerLevel } from '../../../src/domain/roles';
import { recordMargin, recordReversal } from '../partner/ledger';
import { newNumber } from './numbers';
import { applyPaymentRefunded, refundPaymentAlone } from './paymentRefunds';
import type { PaymentNotice, PaymentProvider } from './payment/provider';

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
export type AlsoInTransaction<T> = (t: Db, done: T) => Promise<void>;

/** The price column of a level, and the column its seller pays (null: the platform sells). */
const PRICE_OF_LEVEL = { 1: 'priceL1Fen', 2: 'priceL2Fen', 3: 'priceL3Fen' } as const;

export async function placeOrder(
  db: Db,
  provider: PaymentProvider,
  buyer: Buyer,
  input: { items: { packId: number; quantity: number }[]; remark?: string },
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<Order>,
): Promise<Order> {
  const ids = input.items.map((i) => i.packId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一纸张规格请合并为一行');
  if (input.items.some((i) => i.quantity > ORDER_MAX_QUANTITY)) throw badRequest(`每种纸张每单最多订购 ${ORDER_MAX_QUANTITY} 包，请分多次下单`);
  const packs = await db.select().from(paperPacks);
  const level = partnerLevel(buyer.ancestors) as 1 | 2 | 3;
  const own = PRICE_OF_LEVEL[level];
  const sellerColumn = level > 1 ? PRICE_OF_LEVEL[(level - 1) as 1 | 2] : undefined;
  const lines = input.items.map((item) => {
    const pack = packs.find((p) => p.id === item.packId);
    if (!pack) throw notFound('纸张规格不存在');
    return { pack, quantity: item.quantity, unit: pack[own], cost: sellerColumn ? pack[sellerColumn] : 0 };
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
  const closed = await rows<{ orderNo: string }>(db, sql`
    UPDATE partner_orders SET status = ${OrderStatus.closed}, closed_at = ${now}
     WHERE status = ${OrderStatus.pending} AND expires_at <= ${now}
    RETURNING order_no AS "orderNo"`);
  for (const { orderNo } of closed) await provider.closePayment(db, orderNo);
  return closed.map((c) => c.orderNo);
}

export type NoticeOutcome = 'applied' | 'duplicate' | 'refund_due';

/**
 * A paid notice for an order. The amount must be the order's; one gateway transaction counts
 * once; money that arrives for a cancelled or closed order is recorded and refunded.
 */
export async function applyOrderPaid(db: Db, provider: PaymentProvider, notice: Extract<PaymentNotice, { kind: 'paid' }>): Promise<NoticeOutcome> {
  const outcome = await tx(db, async (t) => {
    const [order] = await rows<Order>(t, sql`SELECT id, status, amount_fen AS "amountFen", seller_id AS "sellerId", seller_cost_fen AS "sellerCostFen", expires_at AS "expiresAt", refund_status AS "refundStatus"
      FROM partner_orders WHERE order_no = ${notice.outTradeNo} FOR UPDATE`);
    if (!order) throw notFound('订单不存在');
    if (order.amountFen !== notice.amountFen) throw badRequest('支付金额与订单金额不一致');
    const [payment] = await t
      .insert(payments)
      .values({ outTradeNo: notice.outTradeNo, provider: provider.name, transactionId: notice.transactionId, amountFen: notice.amountFen, paidAt: notice.paidAt, outcome: 'applied' })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (!payment) return { outcome: 'duplicate' as const };
    // Paid within its time: the order is paid even if our close ran before the notice arrived.
    const payable = order.status === OrderStatus.pending || (order.status === OrderStatus.closed && new Date(notice.paidAt) <= new Date(order.expiresAt));
    if (payable) {
      await t.update(partnerOrders).set({ status: OrderStatus.paid, payStatus: PayStatus.paid, paidAt: notice.paidAt, closedAt: null }).where(eq(partnerOrders.id, order.id));
      await recordMargin(t, order, notice.paidAt);
      return { outcome: 'applied' as const };
    }
    // A second payment of a paid order: the order keeps its first payment and its margin; this
    // money goes back on its own. So does late money for an order whose refund already exists.
    if (order.status === OrderStatus.paid || order.refundStatus !== RefundStatus.none) {
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
    await provider.refund(db, { outTradeNo: notice.outTradeNo, outRefundNo: outcome.refund.refundNo, amountFen: outcome.refund.amountFen });
  }
  return outcome.outcome;
}

/**
 * The refund notice: the refund and its order are done, and the seller's margin is reversed; for a
 * payment refunded on its own, only that refund is done.
 */
export async function applyRefunded(db: Db, notice: Extract<PaymentNotice, { kind: 'refunded' }>): Promise<NoticeOutcome> {
  return tx(db, async (t) => {
    const alone = await applyPaymentRefunded(t, notice);
    if (alone) return alone;
    const [refund] = await rows<{ id: number; orderId: number; amountFen: number; status: number; orderNo: string }>(t, sql`
      SELECT r.id, r.order_id AS "orderId", r.amount_fen AS "amountFen", r.status, o.order_no AS "orderNo"
        FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id WHERE r.refund_no = ${notice.outRefundNo} FOR UPDATE OF r`);
    if (!refund || refund.orderNo !== notice.outTradeNo) throw notFound('退款单不存在');
    if (refund.amountFen !== notice.amountFen) throw badRequest('退款金额与退款单不一致');
    if (refund.status === RefundStatus.refunded) return 'duplicate';
    await t.update(orderRefunds).set({ status: RefundStatus.refunded, refundedAt: notice.refundedAt }).where(eq(orderRefunds.id, refund.id));
    await t.update(partnerOrders).set({ refundStatus: RefundStatus.refunded }).where(eq(partnerOrders.id, refund.orderId));
    await recordReversal(t, refund.orderId, refund.id, notice.refundedAt);
    return 'applied';
  });
}

/** Cancels an unpaid order; the caller has already checked that the order is in its subtree. */
export async function cancelOrder(db: Db, provider: PaymentProvider, orderNo: string, now = new Date(), alsoInTransaction?: AlsoInTransaction<Order>): Promise<Order> {
  const result = await tx(db, async (t) => {
    const [order] = await rows<Order>(t, sql`SELECT id, status, pay_status AS "payStatus", expires_at AS "expiresAt" FROM partner_orders WHERE order_no = ${orderNo} FOR UPDATE`);
    if (!order) throw notFound('订单不存在');
    if (order.status === OrderStatus.pending && new Date(order.expiresAt) <= now) {
      await t.update(partnerOrders).set({ status: OrderStatus.closed, closedAt: now }).where(eq(partnerOrders.id, order.id));
      return { refused: '订单已超时关闭，无需取消' };
    }
    if (order.status !== OrderStatus.pending || order.payStatus !== PayStatus.unpaid) {
      return { refused: order.status === OrderStatus.paid ? '订单已支付，不能取消' : order.status === OrderStatus.cancelled ? '订单已取消' : '订单已关闭，无需取消' };
    }
    const [saved] = await t.update(partnerOrders).set({ status: OrderStatus.cancelled, cancelledAt: now }).where(eq(partnerOrders.id, order.id)).returning();
    await alsoInTransaction?.(t, saved);
    return { saved };
  });
  // The gateway stops taking money for it; a payment already under way comes back as a refund.
  await provider.closePayment(db, orderNo);
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
    const [order] = await rows<Order>(t, sql`SELECT id, buyer_id AS "buyerId", status, refund_status AS "refundStatus", amount_fen AS "amountFen", paid_at AS "paidAt"
      FROM partner_orders WHERE order_no = ${orderNo} FOR UPDATE`);
    if (!order) throw notFound('订单不存在');
    if (order.buyerId !== buyerId) throw conflict('只有下单的合作伙伴可以申请退款');
    if (order.status !== OrderStatus.paid) throw conflict('订单未支付，不能退款');
    if (order.refundStatus !== RefundStatus.none) throw conflict(order.refundStatus === RefundStatus.refunding ? '订单正在退款中' : '订单已退款');
    if (now.getTime() - new Date(order.paidAt!).getTime() > REFUND_WINDOW_DAYS * 24 * 3600 * 1000) throw conflict(`已超过${REFUND_WINDOW_DAYS}天售后期，不能申请退款`);
    await t.update(partnerOrders).set({ refundStatus: RefundStatus.refunding }).where(eq(partnerOrders.id, order.id));
    const [row] = await t.insert(orderRefunds).values({ refundNo: newNumber('RF', now), orderId: order.id, amountFen: order.amountFen, reason, requestedBy: userId, createdAt: now }).returning();
    await alsoInTransaction?.(t, row);
    return row;
  });
  await provider.refund(db, { outTradeNo: orderNo, outRefundNo: refund.refundNo, amountFen: refund.amountFen });
  return refund;
}

/**
 * Asks the gateway about an order still waiting for its notice (as integrations do when a
 * notice is late) and applies what it says.
 */
export async function syncWithGateway(db: Db, provider: PaymentProvider, orderNo: string): Promise<void> {
  const trade = await provider.queryPayment(db, orderNo);
  if (trade.state === 'SUCCESS' && trade.transactionId && trade.amountFen && trade.paidAt) {
    await applyOrderPaid(db, provider, { kind: 'paid', outTradeNo: orderNo, transactionId: trade.transactionId, amountFen: trade.amountFen, paidAt: trade.paidAt });
  }
}
