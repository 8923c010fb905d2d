// A payment that must go back on its own: a second payment (another transaction id) for an order
// or recharge already paid, or a late payment for a cancelled order whose refund already exists.
// The first payment stays, with the order's status and the seller's margin; this one is recorded
// as a duplicate and refunded through the gateway, and the refund's notice closes it here.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { paymentRefunds, payments } from '../../db/schema';
import { RefundStatus } from '../../../src/domain/orders';
import { newNumber } from './numbers';
import { AmountMismatchError, type PaymentNotice } from './payment/provider';

export interface DueRefund {
  refundNo: string;
  amountFen: number;
}

/** Marks the payment a duplicate and opens its own refund (in the caller's transaction). */
export async function refundPaymentAlone(t: Db, paymentId: number, notice: Extract<PaymentNotice, { kind: 'paid' }>, reason: string): Promise<DueRefund> {
  await t.update(payments).set({ outcome: 'duplicate' }).where(eq(payments.id, paymentId));
  const [refund] = await t
    .insert(paymentRefunds)
    .values({ refundNo: newNumber('RF'), paymentId, outTradeNo: notice.outTradeNo, amountFen: notice.amountFen, reason })
    .returning({ refundNo: paymentRefunds.refundNo, amountFen: paymentRefunds.amountFen });
  return refund;
}

/**
 * The refund notice for a payment refunded on its own; `undefined` when the number is not one
 * of these (then it is an order's refund).
 */
export async function applyPaymentRefunded(t: Db, notice: Extract<PaymentNotice, { kind: 'refunded' }>): Promise<'applied' | 'duplicate' | undefined> {
  const [refund] = await rows<{ id: number; outTradeNo: string; amountFen: number; status: number }>(t, sql`
    SELECT id, out_trade_no AS "outTradeNo", amount_fen AS "amountFen", status FROM payment_refunds WHERE refund_no = ${notice.outRefundNo} FOR UPDATE`);
  if (!refund || refund.outTradeNo !== notice.outTradeNo) return undefined;
  if (refund.amountFen !== notice.amountFen) throw new AmountMismatchError('退款金额与退款单不一致', refund.amountFen, notice.amountFen);
  if (refund.status === RefundStatus.refunded) return 'duplicate';
  await t.update(paymentRefunds).set({ status: RefundStatus.refunded, refundedAt: notice.refundedAt }).where(eq(paymentRefunds.id, refund.id));
  return 'applied';
}
