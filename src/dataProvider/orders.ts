// Paper orders, payment and the level-1 account (docs/api-partner-orders.md): the calls the
// /orders row actions, the pay dialog and /account make besides the list itself.
import type { HttpClient } from './http';
import type { Page } from './adapters';
import type { OrderDetail } from '../domain/orders';

export interface PaperPack {
  packId: number;
  name: string;
  sheets: number;
  priceFen: number;
}
/** What a new order or recharge answers: enough to show its QR code. */
export interface PayCode {
  amountFen: number;
  payStatus: number;
  codeUrl: string;
  expiresAt: string;
}
export interface PlacedOrder extends PayCode {
  orderNo: string;
}
export interface PayStatusReply {
  payStatus: number;
  refundStatus?: number;
  status?: number;
  paidAt: string | null;
}
export interface Balance {
  balanceFen: number;
  rechargedFen: number;
  settledInFen: number;
  settledOutFen: number;
}
export interface RechargeRecord {
  rechargeNo: string;
  amountFen: number;
  payStatus: number;
  closed: boolean;
  createdAt: string;
  paidAt: string | null;
}

const ORDER = '/api/mercury/v1/order';
const PARTNER = '/api/wrongbook/v1.0/partner';

export function createOrderApi(http: HttpClient) {
  return {
    paperPacks: () => http.get<PaperPack[]>(`${PARTNER}/getPartnerPaperConfig`),
    addPaperOrder: (body: { items: { packId: number; quantity: number }[]; remark?: string }) => http.post<PlacedOrder>(`${PARTNER}/addPaperOrder`, body),
    orderDetail: (orderNo: string) => http.get<OrderDetail>(`${ORDER}/detail`, { orderNo }),
    orderPayCode: (orderNo: string) => http.get<PlacedOrder>(`${ORDER}/payCode`, { orderNo }),
    /** Polled while the pay dialog is open: quiet, a failed poll is tried again. */
    orderPayStatus: (orderNo: string) => http.get<PayStatusReply>(`${ORDER}/getOrderPayStatus`, { orderNo }, { silent: true }),
    cancelOrder: (orderNo: string) => http.post<unknown>(`${ORDER}/cancelByOrderNo`, { orderNo }),
    applyRefund: (orderNo: string, reason: string) => http.post<unknown>(`${ORDER}/applyRefund`, { orderNo, reason }),
    balance: () => http.get<Balance>(`${PARTNER}/getPartnerBalance`),
    rechargeRecords: (current: number, size: number) => http.get<Page<RechargeRecord>>(`${PARTNER}/getPartnerRechargeRecord`, { current, size }),
    addRecharge: (amountFen: number) => http.post<PayCode & { rechargeNo: string }>(`${PARTNER}/addPartnerRecharge`, { amountFen }),
    rechargePayStatus: (rechargeNo: string) => http.get<PayStatusReply>(`${PARTNER}/getRechargePayStatus`, { rechargeNo }, { silent: true }),
  };
}

export type OrderApi = ReturnType<typeof createOrderApi>;
