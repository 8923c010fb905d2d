// A level-1 partner's account top-ups: paid by QR code like an order; a late payment for a
// recharge past its time is still credited, since nothing was promised but the money itself.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { partnerRecharges, payments } from '../../db/schema';
import { notFound } from '../../http/envelope';
import { PAY_TIMEOUT_MINUTES, PayStatus } from '../../../src/domain/orders';
import { newNumber } from '../mercury/numbers';
import { AmountMismatchError, type PaymentNotice, type PaymentProvider } from '../mercury/payment/provider';
import { refundThrough, type AlsoInTransaction, type NoticeOutcome } from '../mercury/orders';
import { refundPaymentAlone } from '../mercury/paymentRefunds';

export async function placeRecharge(
  db: Db,
  provider: PaymentProvider,
  partnerId: number,
  amountFen: number,
  userId: number | null,
  now = new Date(),
  alsoInTransaction?: AlsoInTransaction<typeof partnerRecharges.$inferSelect>,
) {
  const rechargeNo = newNumber('RC', now);
  const expiresAt = new Date(now.getTime() + PAY_TIMEOUT_MINUTES * 60_000);
  return db.transaction(async (t) => {
    const { codeUrl } = await provider.createPayment(t as unknown as Db, { outTradeNo: rechargeNo, amountFen, subject: `学助账户充值 ${rechargeNo}`, expiresAt });
    const [row] = await t
      .insert(partnerRecharges)
      .values({ rechargeNo, partnerId, amountFen, provider: provider.name, codeUrl, expiresAt, createdBy: userId, createdAt: now })
      .returning();
    await alsoInTransaction?.(t as unknown as Db, row);
    return row;
  });
}

export async function applyRechargePaid(db: Db, provider: PaymentProvider, notice: Extract<PaymentNotice, { kind: 'paid' }>): Promise<NoticeOutcome> {
  const outcome = await db.transaction(async (tt) => {
    const t = tt as unknown as Db;
    const [recharge] = await rows<{ id: number; amountFen: number; payStatus: number }>(t, sql`
      SELECT id, amount_fen AS "amountFen", pay_status AS "payStatus" FROM partner_recharges WHERE recharge_no = ${notice.outTradeNo} FOR UPDATE`);
    if (!recharge) throw notFound('充值单不存在');
    if (recharge.amountFen !== notice.amountFen) throw new AmountMismatchError('支付金额与充值金额不一致', recharge.amountFen, notice.amountFen);
    const [payment] = await t
      .insert(payments)
      .values({ outTradeNo: notice.outTradeNo, provider: provider.name, transactionId: notice.transactionId, amountFen: notice.amountFen, paidAt: notice.paidAt, outcome: 'applied' })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (!payment) return { outcome: 'duplicate' as const };
    // A second payment of a recharge already credited is not credited again: it goes back.
    if (recharge.payStatus === PayStatus.paid) return { outcome: 'refund_due' as const, refund: await refundPaymentAlone(t, payment.id, notice, '充值单已支付，重复支付的款项原路退回') };
    await t.update(partnerRecharges).set({ payStatus: PayStatus.paid, paidAt: notice.paidAt }).where(eq(partnerRecharges.id, recharge.id));
    return { outcome: 'applied' as const };
  });
  if ('refund' in outcome && outcome.refund) await refundThrough(db, provider, { outTradeNo: notice.outTradeNo, outRefundNo: outcome.refund.refundNo, amountFen: outcome.refund.amountFen });
  return outcome.outcome;
}
