// 渠道结算 calls (docs/api-partner-settlement.md): the direct children's purchases and margin, and
// the monthly statements with their flow.
import type { HttpClient } from './http';
import type { Page } from './adapters';
import type { StatementRecord } from '../domain/orders';

export interface ChildSummary {
  partnerId: number;
  name: string;
  level: number;
  boughtFen: number;
  refundedFen: number;
  soldFen: number;
  marginFen: number;
}
export interface ChannelSummary {
  children: ChildSummary[];
  totals: { boughtFen: number; refundedFen: number; soldFen: number; marginFen: number };
  /** Where the period's margin stands; the four add up to totals.marginFen. */
  ledger: { frozenFen: number; refundingFen: number; settleableFen: number; onStatementFen: number };
}
/** A statement as the list and detail answer it. */
export type StatementRow = StatementRecord;
export interface StatementEntry {
  id: number;
  orderNo: string;
  buyerName: string;
  kind: number;
  amountFen: number;
  refundNo: string | null;
  occurredAt: string;
  lines: StatementLine[];
}
/** One pack of an entry's order: both unit prices and the margin on it (negative on a reversal). */
export interface StatementLine {
  name: string;
  sheets: number;
  quantity: number;
  unitPriceFen: number;
  unitCostFen: number | null;
  marginFen: number;
}
/** A step of a statement's life: built by the system, then each confirmation, rejection, settlement or reissue. */
export interface StatementStep {
  at: string;
  action: string;
  userName: string;
  summary: string;
}
export type StatementSide = 'earned' | 'payable';
export interface StatementQuery {
  side: StatementSide;
  status?: number;
  current: number;
  size: number;
}
export interface DateRange {
  dateFrom?: string;
  dateTo?: string;
}

const BASE = '/api/wrongbook/v1.0/partner/channel';

export function createSettlementApi(http: HttpClient) {
  const act = (action: string, statementNo: string, extra: object = {}) => http.post<StatementRow>(`${BASE}/${action}`, { statementNo, ...extra });
  return {
    channelChildren: (range: DateRange) => http.get<ChannelSummary>(`${BASE}/children`, { ...range }),
    statements: (q: StatementQuery) => http.get<Page<StatementRow>>(`${BASE}/statements`, { ...q }),
    statementDetail: (statementNo: string) => http.get<StatementRow & { entries: StatementEntry[]; history: StatementStep[] }>(`${BASE}/statementDetail`, { statementNo }),
    confirmStatement: (statementNo: string) => act('confirmStatement', statementNo),
    rejectStatement: (statementNo: string, reason: string) => act('rejectStatement', statementNo, { reason }),
    settleStatement: (statementNo: string) => act('settleStatement', statementNo),
    reissueStatement: (statementNo: string) => act('reissueStatement', statementNo),
  };
}

export type SettlementApi = ReturnType<typeof createSettlementApi>;
