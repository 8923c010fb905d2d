// A refund whose call to the gateway failed (a timeout, a dropped connection, the gateway down)
// would stay 退款中 forever: nothing else asks again. The sweep asks again for every refund still
// 退款中 some time after it was last asked, with the same refund number (WeChat Pay's out_refund_no,
// Alipay's out_request_no: the gateway treats it as the same refund, never a second one), waiting
// longer after each try and giving up after REFUND_RESEND_MAX tries. Each try is recorded on the
// refund (resend_count, last_resend_at, last_resend_error), so 退款中 that needs a person shows why.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { RefundStatus } from '../../../src/domain/orders';
import type { PaymentProvider } from './payment/provider';
import { refundThrough } from './orders';

/** Tries after the first call; then the refund waits for a person (the error is on the refund). */
export const REFUND_RESEND_MAX = 5;
/** A gateway's refund notice normally comes within minutes: ask again only after this, doubling each time. */
export const REFUND_RESEND_AFTER_MS = 10 * 60_000;
/** Refunds asked again per sweep, so one sweep stays short. */
const BATCH = 20;

export interface ResendOutcome {
  refundNo: string;
  ok: boolean;
  error?: string;
}

export async function resendStuckRefunds(db: Db, provider: PaymentProvider, now = new Date()): Promise<ResendOutcome[]> {
  const due = await rows<{ id: number; refundNo: string; gatewayFen: number; tradeNo: string }>(db, sql`
    SELECT r.id, r.refund_no AS "refundNo", r.amount_fen - o.balance_fen AS "gatewayFen", COALESCE(o.pay_trade_no, o.order_no) AS "tradeNo"
      FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id
     WHERE r.status = ${RefundStatus.refunding} AND r.resend_count < ${REFUND_RESEND_MAX} AND r.amount_fen > o.balance_fen
       AND COALESCE(r.last_resend_at, r.created_at) <= ${now}::timestamptz - make_interval(secs => ${REFUND_RESEND_AFTER_MS / 1000}::float8 * power(2, r.resend_count))
     ORDER BY r.id LIMIT ${BATCH}`);
  const done: ResendOutcome[] = [];
  for (const refund of due) {
    let error: string | null = null;
    try {
      await refundThrough(db, provider, { outTradeNo: refund.tradeNo, outRefundNo: refund.refundNo, amountFen: refund.gatewayFen });
    } catch (e) {
      error = (e instanceof Error ? e.message : String(e)).slice(0, 500) || '支付通道未响应';
    }
    await db.execute(sql`UPDATE order_refunds SET resend_count = resend_count + 1, last_resend_at = ${now}, last_resend_error = ${error} WHERE id = ${refund.id}`);
    done.push(error === null ? { refundNo: refund.refundNo, ok: true } : { refundNo: refund.refundNo, ok: false, error });
  }
  return done;
}
