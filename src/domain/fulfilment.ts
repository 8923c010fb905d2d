// Orders are fulfilled, not only paid (docs/api-partner-orders.md "发货与收货"): a partner's
// 收货地址 book, the order's copy of the address it ships to, the seller's shipments (partial ones
// allowed), the buyer's receipt (or the automatic one), and returns after dispatch, refunded by line.
// Shared by screens and server.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';
import type { Option } from './semester';

/**
 * Fulfilment, apart from payment: 待发货 once paid, 部分发货 while some quantity is still to ship,
 * 已发货 when every line has left, 已收货 when the buyer confirms (or AUTO_RECEIVE_DAYS pass).
 */
export const FulfilStatus = { awaiting: 1, partial: 2, shipped: 3, received: 4 } as const;
export const FULFIL_STATUSES: Option<number>[] = [
  { label: '待发货', value: FulfilStatus.awaiting },
  { label: '部分发货', value: FulfilStatus.partial },
  { label: '已发货', value: FulfilStatus.shipped },
  { label: '已收货', value: FulfilStatus.received },
];

/** The 发货状态 a person reads: only a paid order is fulfilled; one refunded before dispatch never will be. */
export function fulfilLabel(order: { status: number; refundStatus: number; fulfilStatus: number }): string {
  // OrderStatus.paid = 2, RefundStatus.refunded = 2 (src/domain/orders.ts; not imported, orders imports this file).
  if (order.status !== 2) return '-';
  if (order.fulfilStatus === FulfilStatus.awaiting && order.refundStatus === 2) return '-';
  return FULFIL_STATUSES.find((o) => o.value === order.fulfilStatus)?.label ?? '-';
}

/** A shipped order the buyer has not confirmed is taken as received this many days after its last shipment. */
export const AUTO_RECEIVE_DAYS = 10;

/** The carriers a seller picks from; 其他 lets it type the name. */
export const CARRIERS = ['顺丰速运', '中通快递', '圆通速递', '韵达快递', '申通快递', '极兔速递', '京东物流', '中国邮政', 'EMS', '德邦快递', '其他'] as const;
export const CARRIER_OTHER = '其他';
export const CARRIER_NAME_MAX = 20;
/** Tracking numbers: letters, digits and hyphens, 6 to 32 (what Chinese carriers print). */
export const TRACKING_NO_PATTERN = /^[A-Za-z0-9-]{6,32}$/;
export const TRACKING_NO_MAX = 32;

/** Address book bounds. */
export const ADDRESS_MAX_PER_PARTNER = 20;
export const RECEIVER_MAX = 20;
export const REGION_PART_MAX = 20;
export const ADDRESS_DETAIL_MAX = 100;
/** A mainland mobile number (收货人手机号). */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;

/** A return (退货) after dispatch: the buyer sends goods back, the seller confirms them received and the refund follows. */
export const ReturnStatus = { requested: 1, received: 2 } as const;
export const RETURN_STATUSES: Option<number>[] = [
  { label: '待卖方确认收货', value: ReturnStatus.requested },
  { label: '已收货，已退款', value: ReturnStatus.received },
];
export const RETURN_NO_PATTERN = /^RT\d{20}$/;

export const AddressSchema = Type.Object({
  id: Type.Integer(),
  receiver: Type.String(),
  phone: Type.String(),
  province: Type.String(),
  city: Type.String(),
  district: Type.String(),
  detail: Type.String(),
  isDefault: Type.Boolean(),
});
export type Address = Static<typeof AddressSchema>;

/** The copy of an address an order keeps: later edits of the book do not change where it went. */
export const ShipToSchema = Type.Object({
  receiver: Type.String(),
  phone: Type.String(),
  province: Type.String(),
  city: Type.String(),
  district: Type.String(),
  detail: Type.String(),
});
export type ShipTo = Static<typeof ShipToSchema>;

export const addressText = (a: ShipTo) => `${a.province}${a.city === a.province ? '' : a.city}${a.district}${a.detail}`;

/** A line of a shipment or a return: the order's line (its item id) and how many packs. */
export const MovedLineSchema = Type.Object({ itemId: Type.Integer(), name: Type.String(), quantity: Type.Integer() });
export type MovedLine = Static<typeof MovedLineSchema>;

export const ShipmentSchema = Type.Object({
  id: Type.Integer(),
  carrier: Type.String(),
  trackingNo: Type.String(),
  lines: Type.Array(MovedLineSchema),
  createdByName: Type.String(),
  createdAt: Type.String(),
});
export type Shipment = Static<typeof ShipmentSchema>;

export const ReturnRecordSchema = Type.Object({
  returnNo: Type.String(),
  lines: Type.Array(MovedLineSchema),
  amountFen: Type.Integer(),
  reason: Type.String(),
  carrier: Type.String(),
  trackingNo: Type.String(),
  status: Type.Integer(),
  refundNo: Nullable(Type.String()),
  requestedByName: Type.String(),
  createdAt: Type.String(),
  receivedByName: Nullable(Type.String()),
  receivedAt: Nullable(Type.String()),
});
export type ReturnRecord = Static<typeof ReturnRecordSchema>;

/** One step of an order's life with who did it and when (the detail's 订单动态). */
export const TimelineEventSchema = Type.Object({ at: Type.String(), who: Type.String(), what: Type.String() });
export type TimelineEvent = Static<typeof TimelineEventSchema>;
