// The built-in sandbox gateway, both sides of it: the provider our order service calls, and the
// gateway's books, which decide whether a trade can still be paid. Paying happens on the sandbox
// page (sandboxPage.ts), as a payer's phone would on the real gateway's; then the gateway tells
// our notify endpoint over HTTP, signed, and retries when our side does not answer 200.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db';
import { rows } from '../../../db/query';
import { sandboxRefunds, sandboxTrades } from '../../../db/schema';
import { badRequest } from '../../../http/envelope';
import type { PaymentNotice, PaymentProvider, PaymentRequest, TradeState } from './provider';
import { SIGNATURE_HEADERS, signNotice, verifyNotice } from './signature';

/** Where the sandbox page lives; the code URL points at it. */
export const SANDBOX_PAGE_PATH = '/sandbox-pay';
/** A gateway retries a notice our side did not take (WeChat: 15 s, 15 s, 30 s, 3 min…), here sooner. */
const RETRY_DELAYS_MS = [0, 1000, 3000, 10_000];

export interface SandboxOptions {
  /** Shared with our notify endpoint; signs the notices. */
  key: Uint8Array;
  /** Our notify endpoint; without one (the demo seed) no notices are sent. */
  notifyUrl: () => string | undefined;
  /** The sandbox completes a refund after this long, by a notice. */
  refundDelayMs?: number;
}

const TX_PREFIX = 'SBX';

export class SandboxGateway implements PaymentProvider {
  readonly name = 'sandbox';

  constructor(private readonly options: SandboxOptions) {}

  async createPayment(db: Db, request: PaymentRequest): Promise<{ codeUrl: string }> {
    await db
      .insert(sandboxTrades)
      .values({
        outTradeNo: request.outTradeNo,
        transactionId: `${TX_PREFIX}${Date.now()}${randomBytes(6).toString('hex')}`,
        amountFen: request.amountFen,
        subject: request.subject,
        state: 'NOTPAY',
        expiresAt: request.expiresAt,
      })
      .onConflictDoNothing();
    // The QR code carries a pay token signed for this trade and amount: the sandbox page pays
    // nothing for someone who merely knows or guesses a trade number.
    return { codeUrl: `${SANDBOX_PAGE_PATH}/${request.outTradeNo}?token=${this.payToken(request.outTradeNo, request.amountFen)}` };
  }

  /** The token in a trade's code URL: HMAC over the trade number and its amount. */
  payToken(outTradeNo: string, amountFen: number): string {
    return createHmac('sha256', this.options.key).update(`pay\n${outTradeNo}\n${amountFen}`).digest('base64url');
  }

  /** Whether `token` is the one this trade's code URL carries (constant-time). */
  tokenMatches(outTradeNo: string, amountFen: number, token: unknown): boolean {
    if (typeof token !== 'string' || token.length > 64) return false;
    const expected = Buffer.from(this.payToken(outTradeNo, amountFen));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async queryPayment(db: Db, outTradeNo: string, now = new Date()): Promise<TradeState> {
    const [trade] = await db.select().from(sandboxTrades).where(eq(sandboxTrades.outTradeNo, outTradeNo));
    if (!trade) return { state: 'CLOSED' };
    if (trade.state === 'SUCCESS') return { state: 'SUCCESS', transactionId: trade.transactionId, amountFen: trade.amountFen, paidAt: trade.paidAt ?? undefined };
    if (trade.state === 'CLOSED' || trade.expiresAt <= now) return { state: 'CLOSED' };
    return { state: 'NOTPAY' };
  }

  async closePayment(db: Db, outTradeNo: string): Promise<void> {
    await db.update(sandboxTrades).set({ state: 'CLOSED' }).where(and(eq(sandboxTrades.outTradeNo, outTradeNo), eq(sandboxTrades.state, 'NOTPAY')));
  }

  /** The payer confirmed on the sandbox page: the trade is paid once, and our side is told. */
  async pay(db: Db, outTradeNo: string, now = new Date()): Promise<'paid' | 'already' | 'closed' | 'unknown'> {
    const [done] = await rows<{ transactionId: string; amountFen: number }>(db, sql`
      UPDATE sandbox_trades SET state = 'SUCCESS', paid_at = ${now}
       WHERE out_trade_no = ${outTradeNo} AND state = 'NOTPAY' AND expires_at > ${now}
      RETURNING transaction_id AS "transactionId", amount_fen AS "amountFen"`);
    if (done) {
      this.send({ kind: 'paid', outTradeNo, transactionId: done.transactionId, amountFen: done.amountFen, paidAt: now });
      return 'paid';
    }
    const [trade] = await db.select({ state: sandboxTrades.state }).from(sandboxTrades).where(eq(sandboxTrades.outTradeNo, outTradeNo));
    if (!trade) return 'unknown';
    return trade.state === 'SUCCESS' ? 'already' : 'closed';
  }

  async refund(db: Db, request: { outTradeNo: string; outRefundNo: string; amountFen: number }): Promise<void> {
    await db.insert(sandboxRefunds).values({ ...request, state: 'PROCESSING' }).onConflictDoNothing();
    if (!this.options.notifyUrl()) return;
    setTimeout(() => {
      this.completeRefund(db, request.outRefundNo).catch((error) => console.error('沙箱退款未能完成', error));
    }, this.options.refundDelayMs ?? 300).unref();
  }

  async completeRefund(db: Db, outRefundNo: string, now = new Date()): Promise<void> {
    const [done] = await rows<{ outTradeNo: string; amountFen: number }>(db, sql`
      UPDATE sandbox_refunds SET state = 'SUCCESS', done_at = ${now} WHERE out_refund_no = ${outRefundNo} AND state = 'PROCESSING'
      RETURNING out_trade_no AS "outTradeNo", amount_fen AS "amountFen"`);
    if (done) this.send({ kind: 'refunded', outTradeNo: done.outTradeNo, outRefundNo, amountFen: done.amountFen, refundedAt: now });
  }

  /** The signed HTTP POST of a notice (body and headers), as the gateway sends it. */
  signed(notice: PaymentNotice, now = Date.now()): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify(
      notice.kind === 'paid'
        ? { event_type: 'TRANSACTION.SUCCESS', out_trade_no: notice.outTradeNo, transaction_id: notice.transactionId, amount_fen: notice.amountFen, success_time: notice.paidAt.toISOString() }
        : { event_type: 'REFUND.SUCCESS', out_trade_no: notice.outTradeNo, out_refund_no: notice.outRefundNo, amount_fen: notice.amountFen, success_time: notice.refundedAt.toISOString() },
    );
    const timestamp = String(Math.floor(now / 1000));
    const nonce = randomBytes(12).toString('hex');
    return {
      body,
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADERS.timestamp]: timestamp,
        [SIGNATURE_HEADERS.nonce]: nonce,
        [SIGNATURE_HEADERS.signature]: signNotice(this.options.key, timestamp, nonce, body),
      },
    };
  }

  /** Delivers a notice in the background until our side answers 200 (or the retries run out). */
  private send(notice: PaymentNotice): void {
    const url = this.options.notifyUrl();
    if (!url) return;
    const attempt = async (i: number): Promise<void> => {
      if (i >= RETRY_DELAYS_MS.length) return;
      await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[i]));
      const { body, headers } = this.signed(notice);
      const delivered = await fetch(url, { method: 'POST', body, headers }).then((res) => res.ok, () => false);
      if (!delivered) return attempt(i + 1);
    };
    void attempt(0);
  }

  readNotice(headers: Record<string, string | string[] | undefined>, rawBody: string): PaymentNotice | null {
    if (!verifyNotice(this.options.key, headers, rawBody)) return null;
    return parseNotice(rawBody);
  }
}

const TRADE_NO = /^(PO|PB|RC)\d{20}$/;
const REFUND_NO = /^RF\d{20}$/;

/** A signed body is the gateway's word, but it is still checked for shape before use. */
function parseNotice(rawBody: string): PaymentNotice {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw badRequest('通知内容格式不正确');
  }
  const text = (v: unknown, max: number) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);
  const outTradeNo = text(body?.out_trade_no, 22);
  const amountFen = body?.amount_fen;
  const at = new Date(text(body?.success_time, 40) ?? 'invalid');
  if (!outTradeNo || !TRADE_NO.test(outTradeNo) || !Number.isSafeInteger(amountFen) || (amountFen as number) <= 0 || Number.isNaN(at.getTime())) {
    throw badRequest('通知内容格式不正确');
  }
  if (body.event_type === 'TRANSACTION.SUCCESS') {
    const transactionId = text(body.transaction_id, 64);
    if (!transactionId) throw badRequest('通知内容格式不正确');
    return { kind: 'paid', outTradeNo, transactionId, amountFen: amountFen as number, paidAt: at };
  }
  const outRefundNo = text(body.out_refund_no, 22);
  if (body.event_type === 'REFUND.SUCCESS' && outRefundNo && REFUND_NO.test(outRefundNo)) {
    return { kind: 'refunded', outTradeNo, outRefundNo, amountFen: amountFen as number, refundedAt: at };
  }
  throw badRequest('通知内容格式不正确');
}
