// What the order service needs from a payment gateway: a QR-code payment (WeChat Pay native /
// Alipay precreate), a status query, closing an unpaid payment, a refund, and reading the
// gateway's signed asynchronous notices. The sandbox (sandbox.ts) is built in; a real gateway plugs
// in behind the same interface (docs/api-partner-orders.md "Real gateways").
import type { Db } from '../../../db';

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
  /** Starts a refund; the gateway tells the outcome by a notice. */
  refund(db: Db, request: { outTradeNo: string; outRefundNo: string; amountFen: number }): Promise<void>;
  /** The notice in a gateway's HTTP POST, or null when its signature does not verify. */
  readNotice(headers: Record<string, string | string[] | undefined>, rawBody: string): PaymentNotice | null;
}
