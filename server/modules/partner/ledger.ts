// The settlement ledger (docs/api-partner-settlement.md): a margin for the seller when a child's
// order is paid, its reversal when that order is refunded. Written in the transaction that changes
// the order, so the ledger never disagrees with the orders.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db';
import { settlementEntries } from '../../db/schema';
import { EntryKind, FREEZE_DAYS } from '../../../src/domain/orders';

const DAY_MS = 24 * 3600 * 1000;

export interface LedgerOrder {
  id: number;
  sellerId: number | null;
  amountFen: number;
  sellerCostFen: number | null;
}

/** The seller's margin on a paid order of its direct child; nothing when the platform sold. */
export async function recordMargin(tx: Db, order: LedgerOrder, paidAt: Date): Promise<void> {
  if (order.sellerId === null || order.sellerCostFen === null) return;
  await tx
    .insert(settlementEntries)
    .values({
      partnerId: order.sellerId,
      orderId: order.id,
      kind: EntryKind.margin,
      amountFen: order.amountFen - order.sellerCostFen,
      occurredAt: paidAt,
      settleableAt: new Date(paidAt.getTime() + FREEZE_DAYS * DAY_MS),
    })
    .onConflictDoNothing();
}

/**
 * The margin taken back when its order (or some of its lines) is refunded. Settleable when the margin is: an unsettled
 * margin and its reversal land in the same statement; a settled one is reversed in the next.
 */
export async function recordReversal(tx: Db, orderId: number, refundId: number, refundedAt: Date, partFen: number | null = null): Promise<void> {
  const [margin] = await tx
    .select()
    .from(settlementEntries)
    .where(and(eq(settlementEntries.orderId, orderId), eq(settlementEntries.kind, EntryKind.margin)));
  // A return takes back its lines' margin (partFen); a refund before dispatch the whole margin.
  if (!margin || partFen === 0) return;
  await tx
    .insert(settlementEntries)
    .values({
      partnerId: margin.partnerId,
      orderId,
      refundId,
      kind: EntryKind.reversal,
      amountFen: -(partFen ?? margin.amountFen),
      occurredAt: refundedAt,
      settleableAt: refundedAt > margin.settleableAt ? refundedAt : margin.settleableAt,
    })
    .onConflictDoNothing();
}

