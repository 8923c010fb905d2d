// What the order service needs from a payment gateway: a QR-code payment (WeChat Pay native /
// Alipay precreate), a status query, closing an unpaid payment, a refund, and reading the
// gateway's signed asynchronous notices. The sandbox (sandbox.ts) is built in for the demo; WeChat
// Pay (wechat.ts) and Alipay (alipay.ts) are the real gateways (docs/api-partner-orders.md "支付渠道配置").
import type { Db } from '../../../db';
import { ApiError } from '../../../http/envelope';

export interface PaymentRequest {
  /** Our number for the payable (an order PO… or a recharge RC…). */
  outTradeNo: string;
  amountFen: number;
  /** Shown to the payer on the gateway's page. */
  subject: string;
  /** The gateway refuses to take the money after this. */
  expiresAt: Date;
}

export type PaymentNotice =
  | { kind: 'paid'; outTradeNo: string; transactionId: string; amountFen: number; paidAt: Date }
  | { kind: 'refunded'; outTradeNo: string; outRefundNo: string; amountFen: number; refundedAt: Date };

/** What a verified notice may say; `ignored`: nothing we act on (a refund that failed, a trade closed unpaid), acknowledged, nothing changes. */
export type GatewayNotice = PaymentNotice | { kind: 'ignored'; what: string };

export type RefundedNotice = Extract<PaymentNotice, { kind: 'refunded' }>;

/** A notice or a gateway's answer naming another amount than ours: refused, and written to 操作日志. */
export class AmountMismatchError extends ApiError {
  constructor(
    message: string,
    public readonly expectedFen: number,
    public readonly givenFen: number,
  ) {
    super(400, message);
  }
}

export interface TradeState {
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED';
  transactionId?: string;
  amountFen?: number;
  paidAt?: Date;
}

/**
 * `db` is there for the sandbox, whose gateway side keeps its books in our database; a real
 * gateway ignores it and calls out over HTTPS.
 */
export interface PaymentProvider {
  readonly name: string;
  /** The code URL to show as a QR code; the payer's phone opens it. */
  createPayment(db: Db, request: PaymentRequest): Promise<{ codeUrl: string }>;
  queryPayment(db: Db, outTradeNo: string): Promise<TradeState>;
  /** Stops an unpaid payment from being paid (cancelled or closed order). */
  closePayment(db: Db, outTradeNo: string): Promise<void>;
  /**
   * Starts a refund; the gateway tells the outcome by a notice, or at once (Alipay refunds
   * synchronously): then the refund is returned, to be applied as its notice would be.
   */
  /** `totalFen`: the trade's whole amount when only part of it is refunded (a return's lines). */
  refund(db: Db, request: { outTradeNo: string; outRefundNo: string; amountFen: number; totalFen?: number }): Promise<RefundedNotice | void>;
  /** The notice in a gateway's HTTP POST, or null when its signature does not verify. */
  readNotice(headers: Record<string, string | string[] | undefined>, rawBody: string): GatewayNotice | null;
}
