// A partner's balance (docs/api-partner-balance.md). The balance is derived: paid recharges, plus
// statements settled to the partner, minus statements it settled to its children, plus the balance
// ledger (balance_entries: orders paid from the balance, their releases and refunds, withdrawals
// paid out). The frozen part is the ledger's frozen column (withdrawals under review). Every
// movement takes the partner's row lock first (SELECT … FOR UPDATE on partners), so two requests
// of one partner run one after the other and the second sees what the first took: no overdraw.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { balanceEntries, partnerOrders, partnerWithdrawals } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../http/envelope';
import { OrderStatus, PayStatus, StatementStatus } from '../../../src/domain/orders';
import { BalanceEntryKind, WithdrawalStatus, type Balance } from '../../../src/domain/balance';
import { yuan } from '../../../src/domain/partner';
import { newNumber } from '../mercury/numbers';
import { recordMargin } from './ledger';
import type { PaymentProvider } from '../mercury/payment/provider';
import type { AlsoInTransaction } from '../../db/query';

const tx = <T>(db: Db, work: (t: Db) => Promise<T>) => db.transaction((t) => work(t as unknown as Db));

export async function balanceOf(db: Db, partnerId: number): Promise<Balance> {
  const [row] = await rows<{ rechargedFen: number; settledInFen: number; settledOutFen: number; ledgerFen: number; frozenFen: number; withdrawnFen: number }>(db, sql`
    SELECT (SELECT COALESCE(sum(amount_fen), 0)::int FROM partner_recharges WHERE partner_id = ${partnerId} AND pay_status = 1) AS "rechargedFen",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_statements WHERE partner_id = ${partnerId} AND status = ${StatementStatus.settled}) AS "settledInFen",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_statements WHERE payer_id = ${partnerId} AND status = ${StatementStatus.settled}) AS "settledOutFen",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM balance_entries WHERE partner_id = ${partnerId}) AS "ledgerFen",
           (SELECT COALESCE(sum(frozen_fen), 0)::int FROM balance_entries WHERE partner_id = ${partnerId}) AS "frozenFen",
           (SELECT COALESCE(-sum(amount_fen), 0)::int FROM balance_entries WHERE partner_id = ${partnerId} AND kind = ${BalanceEntryKind.withdrawPayout}) AS "withdrawnFen"`);
  const balanceFen = row.rechargedFen + row.settledInFen - row.settledOutFen + row.ledgerFen;
  return { ...row, balanceFen, availableFen: balanceFen - row.frozenFen };
}

/** The partner's row lock: every balance movement of one partner is serialised on it. */
export async function lockPartner(t: Db, partnerId: number): Promise<void> {
  const [me] = await rows<{ id: number }>(t, sql`SELECT id FROM partners WHERE id = ${partnerId} FOR UPDATE`);
  if (!me) throw notFound('合作伙伴不存在');
}

const overdraw = (available: number) => conflict(`可用余额不足（可用 ¥${yuan(available)}）`);

type Order = typeof partnerOrders.$inferSelect;

/**
 * Pays `balanceFen` of the buyer's pending order from its balance. The whole amount: the order is
 * paid here, with its margin. Part of it: the part is held, and the gateway gets a new trade for the
 * rest (a trade's amount cannot change), whose notice completes the order; the order's own trade is
 * closed after the transaction.
 */
export async function payFromBalance(
  db: Db,
  provider: PaymentProvider,
  buyerId: number,
  orderNo: string,
  balanceFen: number,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<Order>,
): Promise<{ order: Order; codeUrl: string | null; restFen: number }> {
  const done = await tx(db, async (t) => {
    await lockPartner(t, buyerId);
    const [order] = await rows<Order>(t, sql`SELECT id, order_no AS "orderNo", buyer_id AS "buyerId", status, pay_status AS "payStatus", amount_fen AS "amountFen",
        seller_id AS "sellerId", seller_cost_fen AS "sellerCostFen", expires_at AS "expiresAt", balance_fen AS "balanceFen"
      FROM partner_orders WHERE order_no = ${orderNo} FOR UPDATE`);
    if (!order) throw notFound('订单不存在');
    if (order.buyerId !== buyerId) throw conflict('只有下单的合作伙伴可以支付该订单');
    if (order.status !== OrderStatus.pending || new Date(order.expiresAt) <= now) throw conflict(order.status === OrderStatus.paid ? '订单已支付' : '订单已取消或已关闭，不能支付');
    if (order.balanceFen > 0) throw conflict('该订单已使用余额支付部分金额，请扫码支付剩余金额');
    if (balanceFen > order.amountFen) throw badRequest(`余额支付金额不能超过订单金额 ¥${yuan(order.amountFen)}`);
    const { availableFen } = await balanceOf(t, buyerId);
    if (balanceFen > availableFen) throw overdraw(availableFen);
    await t.insert(balanceEntries).values({ partnerId: buyerId, kind: BalanceEntryKind.orderPay, amountFen: -balanceFen, orderId: order.id, createdAt: now });
    const restFen = order.amountFen - balanceFen;
    let saved: Order;
    let codeUrl: string | null = null;
    if (restFen === 0) {
      [saved] = await t.update(partnerOrders).set({ balanceFen, status: OrderStatus.paid, payStatus: PayStatus.paid, paidAt: now }).where(eq(partnerOrders.id, order.id)).returning();
      await recordMargin(t, order, now);
    } else {
      const payTradeNo = newNumber('PB', now);
      ({ codeUrl } = await provider.createPayment(t, { outTradeNo: payTradeNo, amountFen: restFen, subject: `学助错题打印纸订单 ${orderNo}（余额已付 ¥${yuan(balanceFen)}）`, expiresAt: new Date(order.expiresAt) }));
      [saved] = await t.update(partnerOrders).set({ balanceFen, payTradeNo, codeUrl }).where(eq(partnerOrders.id, order.id)).returning();
    }
    await alsoInTransaction?.(t, saved);
    return { order: saved, codeUrl, restFen };
  });
  // The order's first trade (for the whole amount) takes no money now; money already under way comes back as a refund.
  await provider.closePayment(db, orderNo);
  return done;
}

/** The held part of orders that end unpaid (cancelled, closed) goes back to the balance. */
export async function releaseHeld(t: Db, orders: { id: number; buyerId: number; balanceFen: number }[], now = new Date()): Promise<void> {
  const held = orders.filter((o) => o.balanceFen > 0);
  if (held.length) await t.insert(balanceEntries).values(held.map((o) => ({ partnerId: o.buyerId, kind: BalanceEntryKind.orderRelease, amountFen: o.balanceFen, orderId: o.id, createdAt: now })));
}

/** A refunded order's balance part goes back to the balance. */
export async function refundToBalance(t: Db, order: { id: number; buyerId: number; balanceFen: number }, now = new Date()): Promise<void> {
  if (order.balanceFen > 0) await t.insert(balanceEntries).values({ partnerId: order.buyerId, kind: BalanceEntryKind.orderRefund, amountFen: order.balanceFen, orderId: order.id, createdAt: now });
}

type Withdrawal = typeof partnerWithdrawals.$inferSelect;

export async function requestWithdrawal(
  db: Db,
  partnerId: number,
  input: { amountFen: number; bankName: string; accountName: string; accountNo: string },
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<Withdrawal>,
): Promise<Withdrawal> {
  return tx(db, async (t) => {
    await lockPartner(t, partnerId);
    const { availableFen } = await balanceOf(t, partnerId);
    if (input.amountFen > availableFen) throw overdraw(availableFen);
    const [row] = await t
      .insert(partnerWithdrawals)
      .values({ withdrawalNo: newNumber('WD', now), partnerId, ...input, requestedBy: userId, createdAt: now })
      .returning();
    await t.insert(balanceEntries).values({ partnerId, kind: BalanceEntryKind.withdrawFreeze, frozenFen: input.amountFen, withdrawalId: row.id, createdAt: now });
    await alsoInTransaction?.(t, row);
    return row;
  });
}

/**
 * The platform decides a pending withdrawal: paid out (the frozen amount leaves the balance) with
 * its transfer reference, or rejected with a reason (unfrozen). Only from 待审核, by a conditional
 * update: two decisions racing cannot both win.
 */
export async function decideWithdrawal(
  db: Db,
  withdrawalNo: string,
  decision: { approve: true; transferRef: string } | { approve: false; reason: string },
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<Withdrawal>,
): Promise<Withdrawal> {
  return tx(db, async (t) => {
    const [found] = await t.select().from(partnerWithdrawals).where(eq(partnerWithdrawals.withdrawalNo, withdrawalNo));
    if (!found) throw notFound('提现申请不存在');
    await lockPartner(t, found.partnerId);
    const change = decision.approve
      ? { status: WithdrawalStatus.paid, transferRef: decision.transferRef, decidedBy: userId, decidedAt: now }
      : { status: WithdrawalStatus.rejected, rejectReason: decision.reason, decidedBy: userId, decidedAt: now };
    const [saved] = await rows<Withdrawal>(t, sql`
      UPDATE partner_withdrawals SET status = ${change.status}, transfer_ref = ${decision.approve ? decision.transferRef : null},
             reject_reason = ${decision.approve ? null : decision.reason}, decided_by = ${userId}, decided_at = ${now}
       WHERE id = ${found.id} AND status = ${WithdrawalStatus.pending}
      RETURNING id, withdrawal_no AS "withdrawalNo", partner_id AS "partnerId", amount_fen AS "amountFen", status`);
    if (!saved) throw conflict(found.status === WithdrawalStatus.paid ? '该提现已打款' : '该提现已驳回');
    await t.insert(balanceEntries).values(
      decision.approve
        ? { partnerId: found.partnerId, kind: BalanceEntryKind.withdrawPayout, amountFen: -found.amountFen, frozenFen: -found.amountFen, withdrawalId: found.id, createdAt: now }
        : { partnerId: found.partnerId, kind: BalanceEntryKind.withdrawUnfreeze, frozenFen: -found.amountFen, withdrawalId: found.id, createdAt: now },
    );
    await alsoInTransaction?.(t, { ...found, ...change });
    return { ...found, ...change };
  });
}
