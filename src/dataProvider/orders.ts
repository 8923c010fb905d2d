// Paper orders, payment and the level-1 account (docs/api-partner-orders.md): the calls the
// /orders row actions, the pay dialog and /account make besides the list itself.
import type { HttpClient } from './http';
import type { Page } from './adapters';
import type { OrderDetail, OrderRecord } from '../domain/orders';
import type { Balance, WithdrawalRecord } from '../domain/balance';
import type { Address } from '../domain/fulfilment';

/** The fields of a 收货地址 as typed. */
export type AddressInput = Omit<Address, 'id'>;
/** A parcel: the carrier (or 其他 with its name) and its tracking number, with the lines it carries. */
export interface ParcelInput {
  carrier: string;
  carrierName?: string;
  trackingNo: string;
  lines: { itemId: number; quantity: number }[];
}

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
  /** Already paid from the balance; amountFen is what the code pays. */
  balanceFen?: number;
}
export interface BankAccount {
  bankName: string;
  accountName: string;
  accountNo: string;
}
export interface PayStatusReply {
  payStatus: number;
  refundStatus?: number;
  status?: number;
  paidAt: string | null;
}
export type { Balance } from '../domain/balance';
export interface RechargeRecord {
  rechargeNo: string;
  amountFen: number;
  payStatus: number;
  closed: boolean;
  createdAt: string;
  paidAt: string | null;
}

const ORDER = '/api/mercury/v1/order';
const PLATFORM_ORDER = '/api/mercury/v1/platform/order';
const PARTNER = '/api/wrongbook/v1.0/partner';
const PLATFORM_WITHDRAWALS = '/api/wrongbook/v1.0/platform/withdrawals';

export function createOrderApi(http: HttpClient) {
  return {
    paperPacks: () => http.get<PaperPack[]>(`${PARTNER}/getPartnerPaperConfig`),
    addPaperOrder: (body: { items: { packId: number; quantity: number }[]; remark?: string; addressId?: number }) => http.post<PlacedOrder>(`${PARTNER}/addPaperOrder`, body),
    /** `platform`: the administrator's view of an order the platform sells. */
    orderDetail: (orderNo: string, platform = false) => http.get<OrderDetail>(`${platform ? PLATFORM_ORDER : ORDER}/detail`, { orderNo }),
    platformOrders: (query: { current: number; size: number; fulfilStatus?: number; keyword?: string }) => http.get<Page<OrderRecord>>(`${PLATFORM_ORDER}/page`, query),
    orderPayCode: (orderNo: string) => http.get<PlacedOrder>(`${ORDER}/payCode`, { orderNo }),
    /** Polled while the pay dialog is open: quiet, a failed poll is tried again. */
    orderPayStatus: (orderNo: string) => http.get<PayStatusReply>(`${ORDER}/getOrderPayStatus`, { orderNo }, { silent: true }),
    cancelOrder: (orderNo: string) => http.post<unknown>(`${ORDER}/cancelByOrderNo`, { orderNo }),
    applyRefund: (orderNo: string, reason: string) => http.post<unknown>(`${ORDER}/applyRefund`, { orderNo, reason }),
    addresses: () => http.get<Address[]>(`${PARTNER}/addresses`),
    addAddress: (body: AddressInput) => http.post<Address>(`${PARTNER}/addAddress`, body),
    updateAddress: (body: Address) => http.post<Address>(`${PARTNER}/updateAddress`, body),
    deleteAddress: (id: number) => http.post<Address[]>(`${PARTNER}/deleteAddress`, { id }),
    shipOrder: (orderNo: string, parcel: ParcelInput, platform = false) => http.post<{ fulfilStatus: number }>(`${platform ? PLATFORM_ORDER : ORDER}/ship`, { orderNo, ...parcel }),
    confirmReceipt: (orderNo: string) => http.post<unknown>(`${ORDER}/confirmReceipt`, { orderNo }),
    applyReturn: (orderNo: string, body: ParcelInput & { reason: string }) => http.post<{ returnNo: string; amountFen: number }>(`${ORDER}/applyReturn`, { orderNo, ...body }),
    receiveReturn: (orderNo: string, returnNo: string, platform = false) =>
      http.post<{ refundNo: string; amountFen: number }>(`${platform ? PLATFORM_ORDER : ORDER}/receiveReturn`, { orderNo, returnNo }),
    balance: () => http.get<Balance>(`${PARTNER}/getPartnerBalance`),
    payByBalance: (orderNo: string, balanceFen: number) => http.post<PlacedOrder & { status: number }>(`${ORDER}/payByBalance`, { orderNo, balanceFen }),
    withdrawals: (current: number, size: number) => http.get<Page<WithdrawalRecord>>(`${PARTNER}/withdrawals`, { current, size }),
    addWithdrawal: (body: BankAccount & { amountFen: number }) => http.post<{ withdrawalNo: string }>(`${PARTNER}/addWithdrawal`, body),
    platformWithdrawals: (current: number, size: number, status?: number) => http.get<Page<WithdrawalRecord>>(PLATFORM_WITHDRAWALS, status ? { current, size, status } : { current, size }),
    approveWithdrawal: (withdrawalNo: string, transferRef: string) => http.post<unknown>(`${PLATFORM_WITHDRAWALS}/approve`, { withdrawalNo, transferRef }),
    rejectWithdrawal: (withdrawalNo: string, reason: string) => http.post<unknown>(`${PLATFORM_WITHDRAWALS}/reject`, { withdrawalNo, reason }),
    rechargeRecords: (current: number, size: number) => http.get<Page<RechargeRecord>>(`${PARTNER}/getPartnerRechargeRecord`, { current, size }),
    addRecharge: (amountFen: number) => http.post<PayCode & { rechargeNo: string }>(`${PARTNER}/addPartnerRecharge`, { amountFen }),
    rechargePayStatus: (rechargeNo: string) => http.get<PayStatusReply>(`${PARTNER}/getRechargePayStatus`, { rechargeNo }, { silent: true }),
  };
}

export type OrderApi = ReturnType<typeof createOrderApi>;
