// Monthly settlement statements (docs/api-partner-settlement.md). A statement gathers a partner's
// ledger entries that are past their freeze and not on a statement yet, up to the end of its month;
// its amount is their sum, fixed when it is built. The earning partner confirms (待确认 → 已确认) or
// rejects it with a reason (已驳回); whoever pays it — the partner's parent, or the platform for a
// level-1 partner — marks it settled (已结算), or, having looked into a rejection, reissues it.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { settlementStatements } from '../../db/schema';
import { conflict, notFound } from '../../http/envelope';
import { RefundStatus, StatementStatus } from '../../../src/domain/orders';
import { newNumber } from '../mercury/numbers';
import { yuan } from '../../../src/domain/partner';
import { balanceOf, lockPartner } from './balance';

type Statement = typeof settlementStatements.$inferSelect;

const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** The China month of an instant, 'YYYY-MM'. */
export const periodOf = (at: Date) => new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 7);

/** The instant a month ends (the next month's first China midnight). */
export function periodEnd(period: string): Date {
  const [y, m] = period.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1) - CHINA_OFFSET_MS);
}

/** The month before a period. */
export function previousPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/**
 * Builds the statements of a month for every partner with entries to settle: entries of that month
 * or before, settleable by `now`, on no statement, whose order has no refund in progress (退款中:
 * the margin waits until the refund is done or withdrawn, then goes with its reversal or alone). A
 * partner that already has the month's statement keeps later entries for the next month's.
 */
export async function buildStatements(db: Db, period: string, now = new Date()): Promise<Statement[]> {
  const end = periodEnd(period);
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const due = await rows<{ partnerId: number; payerId: number | null }>(tx, sql`
      SELECT DISTINCT e.partner_id AS "partnerId", p.parent_id AS "payerId"
        FROM settlement_entries e JOIN partners p ON p.id = e.partner_id
       WHERE e.statement_id IS NULL AND e.occurred_at < ${end} AND e.settleable_at <= ${now} AND ${notRefunding(sql`e`)}
         AND NOT EXISTS (SELECT 1 FROM settlement_statements s WHERE s.partner_id = e.partner_id AND s.period = ${period})
       ORDER BY 1`);
    const built: Statement[] = [];
    for (const { partnerId, payerId } of due) {
      const [statement] = await tx
        .insert(settlementStatements)
        .values({ statementNo: newNumber('ST', now), partnerId, payerId, period, amountFen: 0, entryCount: 0, createdAt: now })
        .returning();
      const [sum] = await rows<{ amountFen: number; entryCount: number }>(tx, sql`
        WITH taken AS (
          UPDATE settlement_entries SET statement_id = ${statement.id}
           WHERE partner_id = ${partnerId} AND statement_id IS NULL AND occurred_at < ${end} AND settleable_at <= ${now} AND ${notRefunding(sql`settlement_entries`)}
          RETURNING amount_fen)
        SELECT COALESCE(sum(amount_fen), 0)::int AS "amountFen", count(*)::int AS "entryCount" FROM taken`);
      const [saved] = await tx.update(settlementStatements).set(sum).where(eq(settlementStatements.id, statement.id)).returning();
      built.push(saved);
    }
    return built;
  });
}

/** An entry (by its alias) whose order has no refund in progress. */
const notRefunding = (entry: SQL) => sql`NOT EXISTS (SELECT 1 FROM partner_orders ro WHERE ro.id = ${entry}.order_id AND ro.refund_status = ${RefundStatus.refunding})`;

/** Last month's statements, once the month is over (the server's sweep calls this). */
export const buildDueStatements = (db: Db, now = new Date()) => buildStatements(db, previousPeriod(periodOf(now)), now);

/** Who is asking: a partner, or the platform (an administrator, payer of level-1 statements). */
export type Party = { partnerId: number } | { platform: true };

const isEarner = (party: Party, s: Statement) => 'partnerId' in party && s.partnerId === party.partnerId;
const isPayer = (party: Party, s: Statement) => ('platform' in party ? s.payerId === null : s.payerId === party.partnerId);

/** A statement the party earns or pays; any other number is "not found". */
export async function findStatement(db: Db, party: Party, statementNo: string): Promise<Statement> {
  const [statement] = await db.select().from(settlementStatements).where(eq(settlementStatements.statementNo, statementNo));
  if (!statement || !(isEarner(party, statement) || isPayer(party, statement))) throw notFound('结算单不存在');
  return statement;
}

/** Moves a statement from one status to the next, only from the status it must be in. */
async function move(db: Db, statement: Statement, from: number, change: Partial<Statement>, refusal: string): Promise<Statement> {
  const [saved] = await db
    .update(settlementStatements)
    .set(change)
    .where(and(eq(settlementStatements.id, statement.id), eq(settlementStatements.status, from)))
    .returning();
  if (!saved) throw conflict(refusal);
  return saved;
}

const stateWord = (s: Statement) => ({ 1: '待确认', 2: '已确认', 3: '已结算', 4: '已驳回' })[s.status] ?? '';

export async function confirmStatement(db: Db, party: Party, statementNo: string, now = new Date()) {
  const s = await findStatement(db, party, statementNo);
  if (!isEarner(party, s)) throw conflict('只有收款方可以确认结算单');
  return move(db, s, StatementStatus.pending, { status: StatementStatus.confirmed, confirmedAt: now }, `结算单${stateWord(s)}，不能确认`);
}

export async function rejectStatement(db: Db, party: Party, statementNo: string, reason: string, now = new Date()) {
  const s = await findStatement(db, party, statementNo);
  if (!isEarner(party, s)) throw conflict('只有收款方可以驳回结算单');
  return move(db, s, StatementStatus.pending, { status: StatementStatus.rejected, rejectReason: reason, rejectedAt: now }, `结算单${stateWord(s)}，不能驳回`);
}

export async function settleStatement(db: Db, party: Party, statementNo: string, now = new Date()) {
  const s = await findStatement(db, party, statementNo);
  if (!isPayer(party, s)) throw conflict('只有付款方可以标记结算');
  // A partner pays its child's statement out of its balance: only out of what is available, not
  // what its withdrawals under review hold frozen (the platform pays from its own account). The
  // payer's row lock serialises this with its other balance movements (balance.ts).
  if (s.payerId !== null && s.amountFen > 0 && s.status === StatementStatus.confirmed) {
    await lockPartner(db, s.payerId);
    const { availableFen, frozenFen } = await balanceOf(db, s.payerId);
    if (availableFen < s.amountFen) {
      throw conflict(`可用余额不足，不能结算：结算单金额 ¥${yuan(s.amountFen)}，可用余额 ¥${yuan(availableFen)}${frozenFen ? `（另有 ¥${yuan(frozenFen)} 因提现审核中冻结）` : ''}，请先充值或等待提现审核完成`);
    }
  }
  return move(db, s, StatementStatus.confirmed, { status: StatementStatus.settled, settledAt: now }, `结算单${stateWord(s)}，须收款方确认后才能结算`);
}

/** The payer has looked into a rejection (the ledger is the ledger): the statement is asked again. */
export async function reissueStatement(db: Db, party: Party, statementNo: string) {
  const s = await findStatement(db, party, statementNo);
  if (!isPayer(party, s)) throw conflict('只有付款方可以重新提交结算单');
  return move(db, s, StatementStatus.rejected, { status: StatementStatus.pending, rejectedAt: null }, `结算单${stateWord(s)}，不能重新提交`);
}
