// Paper orders, their payment and refunds, and channel settlement (docs/api-partner-orders.md,
// docs/api-partner-settlement.md): statuses, limits and time rules shared by screens and server.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';
import type { Option } from './semester';
import { ReturnRecordSchema, ShipmentSchema, ShipToSchema, TimelineEventSchema } from './fulfilment';

/** An order's life: 待支付 until paid (已支付), cancelled by a partner, or closed when unpaid too long. */
export const OrderStatus = { pending: 1, paid: 2, cancelled: 3, closed: 4 } as const;
export const ORDER_STATUSES: Option<number>[] = [
  { label: '待支付', value: OrderStatus.pending },
  { label: '已支付', value: OrderStatus.paid },
  { label: '已取消', value: OrderStatus.cancelled },
  { label: '已关闭', value: OrderStatus.closed },
];

/**
 * The 订单状态 a person reads: a paid order whose refund is done reads 已退款 (the stored status
 * stays 已支付, the state the refund left from, and the refund status says the rest).
 */
export function orderStateLabel(order: { status: number; refundStatus: number }): string {
  if (order.status === OrderStatus.paid && order.refundStatus === RefundStatus.refunded) return '已退款';
  return labelOf(ORDER_STATUSES, order.status);
}

export const PayStatus = { unpaid: 0, paid: 1 } as const;
export const PAY_STATUSES: Option<number>[] = [
  { label: '未支付', value: PayStatus.unpaid },
  { label: '已支付', value: PayStatus.paid },
];

/** SPEC: refund status 0 未退款, 1 退款中, 2 已退款; 3 部分退款 when returned lines were refunded and the rest kept. */
export const RefundStatus = { none: 0, refunding: 1, refunded: 2, partial: 3 } as const;
export const REFUND_STATUSES: Option<number>[] = [
  { label: '未退款', value: RefundStatus.none },
  { label: '退款中', value: RefundStatus.refunding },
  { label: '已退款', value: RefundStatus.refunded },
  { label: '部分退款', value: RefundStatus.partial },
];

/** A monthly statement as the settlement calls answer it (docs/api-partner-settlement.md). */
export const StatementRecordSchema = Type.Object({
  /** The statement number again, as the list's row id. */
  id: Type.String(),
  statementNo: Type.String(),
  partnerName: Type.String(),
  payerName: Type.String(),
  period: Type.String(),
  amountFen: Type.Integer(),
  entryCount: Type.Integer(),
  status: Type.Integer(),
  rejectReason: Nullable(Type.String()),
  createdAt: Type.String(),
  confirmedAt: Nullable(Type.String()),
  settledAt: Nullable(Type.String()),
  /** The caller earns it (else the caller pays it). */
  earned: Type.Boolean(),
});
export type StatementRecord = Static<typeof StatementRecordSchema>;

/** An order as the order calls answer it (docs/api-partner-orders.md). */
export const OrderRecordSchema = Type.Object({
  /** The order number again, as the list's row id. */
  id: Type.String(),
  orderNo: Type.String(),
  buyerId: Type.Integer(),
  buyerName: Type.String(),
  buyerLevel: Type.Integer(),
  sellerName: Type.String(),
  amountFen: Type.Integer(),
  /** Paid (or held) from the buyer's balance; the gateway takes the rest. */
  balanceFen: Type.Integer(),
  itemsText: Type.String(),
  status: Type.Integer(),
  payStatus: Type.Integer(),
  refundStatus: Type.Integer(),
  remark: Nullable(Type.String()),
  createdAt: Type.String(),
  paidAt: Nullable(Type.String()),
  expiresAt: Type.String(),
  /** The caller placed it: it may pay it and ask for a refund. */
  mine: Type.Boolean(),
  /** FulfilStatus (src/domain/fulfilment.ts): 1 待发货, 2 部分发货, 3 已发货, 4 已收货. */
  fulfilStatus: Type.Integer(),
  /** The address it ships to, as it was when placed; null for orders placed before addresses. */
  shipTo: Nullable(ShipToSchema),
  /** The caller sells it (its parent level, or the platform): it dispatches and takes returns. */
  seller: Type.Boolean(),
  receivedAt: Nullable(Type.String()),
  /** How much has been refunded so far (the whole order, or returned lines). */
  refundedFen: Type.Integer(),
});
export type OrderRecord = Static<typeof OrderRecordSchema>;

export const OrderItemSchema = Type.Object({
  /** The line's own id: shipments and returns name lines by it. */
  itemId: Type.Integer(),
  packId: Type.Integer(),
  name: Type.String(),
  sheets: Type.Integer(),
  quantity: Type.Integer(),
  unitPriceFen: Type.Integer(),
  amountFen: Type.Integer(),
  shippedQuantity: Type.Integer(),
  returnedQuantity: Type.Integer(),
});
export type OrderItem = Static<typeof OrderItemSchema>;

export const OrderRefundSchema = Type.Object({
  refundNo: Type.String(),
  amountFen: Type.Integer(),
  reason: Type.String(),
  status: Type.Integer(),
  createdAt: Type.String(),
  refundedAt: Nullable(Type.String()),
});
export type OrderRefund = Static<typeof OrderRefundSchema>;

/** What a gateway's payment did: paid the order, is refunded with the order, or went back on its own. */
export const PaymentOutcome = { applied: 'applied', refundDue: 'refund_due', duplicate: 'duplicate' } as const;
export const PAYMENT_OUTCOMES: Option<string>[] = [
  { label: '已入账', value: PaymentOutcome.applied },
  { label: '随订单退款', value: PaymentOutcome.refundDue },
  { label: '重复支付，单独退款', value: PaymentOutcome.duplicate },
];

/** One payment received for an order, with the refund of a duplicate payment. */
export const OrderPaymentSchema = Type.Object({
  transactionId: Type.String(),
  amountFen: Type.Integer(),
  paidAt: Type.String(),
  outcome: Type.String(),
  refundNo: Nullable(Type.String()),
  refundStatus: Nullable(Type.Integer()),
  refundedAt: Nullable(Type.String()),
});
export type OrderPayment = Static<typeof OrderPaymentSchema>;

/** An order with its items, its refund and every payment received for it (order/detail). */
export const OrderDetailSchema = Type.Object({
  ...OrderRecordSchema.properties,
  items: Type.Array(OrderItemSchema),
  /** The latest refund (before dispatch there is at most one). */
  refund: Nullable(OrderRefundSchema),
  /** Every refund, oldest first: the whole order's, or one per return received. */
  refunds: Type.Array(OrderRefundSchema),
  payments: Type.Array(OrderPaymentSchema),
  shipments: Type.Array(ShipmentSchema),
  returns: Type.Array(ReturnRecordSchema),
  /** Every step with who and when (订单动态), oldest first. */
  timeline: Type.Array(TimelineEventSchema),
});
export type OrderDetail = Static<typeof OrderDetailSchema>;

/** Statements: the earning partner confirms or rejects; the payer (upline or platform) settles. */
export const StatementStatus = { pending: 1, confirmed: 2, settled: 3, rejected: 4 } as const;
export const STATEMENT_STATUSES: Option<number>[] = [
  { label: '待确认', value: StatementStatus.pending },
  { label: '已确认', value: StatementStatus.confirmed },
  { label: '已结算', value: StatementStatus.settled },
  { label: '已驳回', value: StatementStatus.rejected },
];

/** Ledger entries: a margin on a child's paid order, or its reversal on refund. */
export const EntryKind = { margin: 1, reversal: 2 } as const;

/** An unpaid order (or recharge) closes this long after it was placed, like a gateway's QR code. */
export const PAY_TIMEOUT_MINUTES = 30;
/** A margin is frozen this long after payment, the time in which most refunds come, before it can be settled. */
export const FREEZE_DAYS = 7;
/** A buyer may ask for a refund this long after paying (after-sales); later margins are already settled and a refund reverses them in the next statement. */
export const REFUND_WINDOW_DAYS = 30;

/** Bounds of a paper order. */
export const ORDER_MAX_ITEMS = 10;
export const ORDER_MAX_QUANTITY = 999;
export const REMARK_MAX_LENGTH = 200;
export const REASON_MAX_LENGTH = 200;
/** Recharges: 1 yuan to 500,000 yuan. */
export const RECHARGE_MIN_FEN = 100;
export const RECHARGE_MAX_FEN = 50_000_000;

/** Numbers: a prefix and 20 digits (yyyyMMddHHmmss + 6). */
export const ORDER_NO_PATTERN = /^PO\d{20}$/;
export const RECHARGE_NO_PATTERN = /^RC\d{20}$/;
export const REFUND_NO_PATTERN = /^RF\d{20}$/;
export const STATEMENT_NO_PATTERN = /^ST\d{20}$/;

export const labelOf = <V extends number | string>(options: Option<V>[], value: V | null | undefined) => options.find((o) => o.value === value)?.label ?? '';

/** '1234.5' yuan as typed → 123450 fen, by the digits (no floating point); undefined when not an amount. */
export function fenFromYuan(text: string): number | undefined {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
