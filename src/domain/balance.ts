// A partner's balance (docs/api-partner-balance.md): paying orders from it, and withdrawals to the
// partner's bank account that the platform approves or rejects. Shared by screens and server.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';
import type { Option } from './semester';

/** A withdrawal's life: 待审核 (frozen) → 已打款 (paid out) or 已驳回 (unfrozen). */
export const WithdrawalStatus = { pending: 1, paid: 2, rejected: 3 } as const;
export const WITHDRAWAL_STATUSES: Option<number>[] = [
  { label: '待审核', value: WithdrawalStatus.pending },
  { label: '已打款', value: WithdrawalStatus.paid },
  { label: '已驳回', value: WithdrawalStatus.rejected },
];

/** Balance ledger entries: what moved the balance (amount) or its frozen part. */
export const BalanceEntryKind = { orderPay: 1, orderRelease: 2, withdrawFreeze: 3, withdrawUnfreeze: 4, withdrawPayout: 5, orderRefund: 6 } as const;
export const BALANCE_ENTRY_KINDS: Option<number>[] = [
  { label: '余额支付订单', value: BalanceEntryKind.orderPay },
  { label: '订单关闭退回余额', value: BalanceEntryKind.orderRelease },
  { label: '提现冻结', value: BalanceEntryKind.withdrawFreeze },
  { label: '提现驳回解冻', value: BalanceEntryKind.withdrawUnfreeze },
  { label: '提现打款', value: BalanceEntryKind.withdrawPayout },
  { label: '订单退款退回余额', value: BalanceEntryKind.orderRefund },
];

export const WITHDRAWAL_MIN_FEN = 100;
export const WITHDRAWAL_MAX_FEN = 50_000_000;
export const WITHDRAWAL_NO_PATTERN = /^WD\d{20}$/;
export const BANK_NAME_MAX = 50;
export const ACCOUNT_NAME_MAX = 50;
/** Bank card / account numbers: digits, 8 to 30 of them (spaces are dropped before the check). */
export const ACCOUNT_NO_PATTERN = /^\d{8,30}$/;
export const TRANSFER_REF_MAX = 64;

/** A balance as /getPartnerBalance answers it. */
export const BalanceSchema = Type.Object({
  /** Everything the partner holds: recharges + statements settled to it − statements it settled + ledger entries. */
  balanceFen: Type.Integer(),
  /** The part held by withdrawals under review. */
  frozenFen: Type.Integer(),
  /** What it may spend or withdraw now. */
  availableFen: Type.Integer(),
  rechargedFen: Type.Integer(),
  settledInFen: Type.Integer(),
  settledOutFen: Type.Integer(),
  ledgerFen: Type.Integer(),
  withdrawnFen: Type.Integer(),
});
export type Balance = Static<typeof BalanceSchema>;

export const WithdrawalRecordSchema = Type.Object({
  id: Type.String(),
  withdrawalNo: Type.String(),
  partnerId: Type.Integer(),
  partnerName: Type.String(),
  partnerLevel: Type.Integer(),
  amountFen: Type.Integer(),
  bankName: Type.String(),
  accountName: Type.String(),
  /** Masked for the partner's list (**** 1234); whole for the platform's review. */
  accountNo: Type.String(),
  status: Type.Integer(),
  transferRef: Nullable(Type.String()),
  rejectReason: Nullable(Type.String()),
  createdAt: Type.String(),
  decidedAt: Nullable(Type.String()),
});
export type WithdrawalRecord = Static<typeof WithdrawalRecordSchema>;

/** How much of an order's amount the balance can pay: all of it, or what is available. */
export const balancePart = (amountFen: number, availableFen: number) => Math.max(0, Math.min(amountFen, availableFen));
