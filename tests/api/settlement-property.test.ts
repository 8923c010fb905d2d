// The settlement ledger always agrees with the orders: after any sequence (random, by fast-check)
// of orders, payments (some arriving after a cancel), refunds, cancellations, closes, statement
// builds and the statement flow, with time moving on, every statement equals the sum of its
// entries, every entry traces to a paid order or a completed refund of it, each partner's ledger
// equals a recount from its children's orders, and each entry sits on at most one statement.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../server/db';
import { rows } from '../../server/db/query';
import * as t from '../../server/db/schema';
import { ApiError } from '../../server/http/envelope';
import { SandboxGateway } from '../../server/modules/mercury/payment/sandbox';
import { applyNotice } from '../../server/modules/mercury/payment/notices';
import { cancelOrder, closeExpiredOrders, placeOrder, requestRefund } from '../../server/modules/mercury/orders';
import { buildStatements, confirmStatement, periodEnd, periodOf, previousPeriod, rejectStatement, settleStatement } from '../../server/modules/partner/statements';
import { completeSandboxRefund, payInSandbox } from '../../server/seed/orders';
import { childAncestors } from '../../src/domain/partner';
import { openTestDatabase } from '../support/testDatabase';

let database: Database;
const gateway = new SandboxGateway({ key: createHmac('sha256', 'property').digest(), notifyUrl: () => undefined });
const DAY = 24 * 3600_000;

beforeAll(async () => {
  database = await openTestDatabase({ seed: false });
});
afterAll(() => database?.close());

type Op =
  /** `then`: what the buyer does right away (pay it; pay and have it refunded). */
  | { kind: 'order'; buyer: number; lines: { pack: number; quantity: number }[]; then: 'none' | 'pay' | 'refund' }
  /** `pick` 0 is the latest order (or statement), so steps often follow up on each other. */
  | { kind: 'pay' | 'payAfterCancel' | 'cancel' | 'refund' | 'refundDone'; pick: number }
  | { kind: 'close' | 'build' }
  | { kind: 'confirm' | 'reject' | 'settle'; pick: number }
  | { kind: 'advance'; minutes: number };

const pick = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.nat() });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('order' as const), buyer: fc.nat({ max: 4 }), lines: fc.uniqueArray(fc.record({ pack: fc.nat({ max: 3 }), quantity: fc.integer({ min: 1, max: 999 }) }), { minLength: 1, maxLength: 4, selector: (l) => l.pack }), then: fc.constantFrom('none' as const, 'pay' as const, 'pay' as const, 'refund' as const) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('pay' as const, 'payAfterCancel' as const, 'cancel' as const, 'refund' as const, 'refundDone' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('close' as const, 'build' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('confirm' as const, 'reject' as const, 'settle' as const), pick }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 60 * 24, max: 60 * 24 * 20 })) }) },
);

/** Refusals (409, 404…) are legitimate answers to a random step; anything else is a failure. */
async function tolerate(work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code >= 500) throw error;
  }
}

async function newChain(run: number) {
  const db = database.db;
  const add = async (name: string, parent?: { id: number; ancestors: string }) =>
    (await db.insert(t.partners).values({ name: `${name}${run}`, parentId: parent?.id ?? null, ancestors: parent ? childAncestors(parent) : '0' }).returning())[0];
  const p1 = await add('一级');
  const p2 = await add('二级', p1);
  const p2b = await add('二级乙', p1);
  const p3 = await add('三级', p2);
  const p3b = await add('三级乙', p2);
  return [p1, p2, p2b, p3, p3b];
}

async function checkInvariants() {
  const db = database.db;
  // Statements add up, to the fen and the count.
  const off = await rows(db, sql`
    SELECT s.statement_no, s.amount_fen, s.entry_count, COALESCE(sum(e.amount_fen), 0)::int AS sum, count(e.id)::int AS n
      FROM settlement_statements s LEFT JOIN settlement_entries e ON e.statement_id = s.id
     GROUP BY s.id HAVING s.amount_fen <> COALESCE(sum(e.amount_fen), 0) OR s.entry_count <> count(e.id)`);
  expect(off).toEqual([]);
  // An entry on a statement is the statement partner's, was settleable when it was built, and is of its month or before.
  const misplaced = await rows<{ period: string; occurred: string }>(db, sql`
    SELECT s.period, e.occurred_at AS occurred FROM settlement_entries e JOIN settlement_statements s ON s.id = e.statement_id
     WHERE e.partner_id <> s.partner_id OR e.settleable_at > s.created_at`);
  expect(misplaced).toEqual([]);
  const late = await rows<{ period: string; occurredAt: Date | string }>(db, sql`
    SELECT s.period, e.occurred_at AS "occurredAt" FROM settlement_entries e JOIN settlement_statements s ON s.id = e.statement_id`);
  expect(late.filter((r) => new Date(r.occurredAt) >= periodEnd(r.period))).toEqual([]);
  // Every entry traces: a margin to a paid order of a direct child, a reversal to that order's completed refund.
  const untraced = await rows(db, sql`
    SELECT e.id, e.kind FROM settlement_entries e
      JOIN partner_orders o ON o.id = e.order_id
      LEFT JOIN order_refunds r ON r.id = e.refund_id
      LEFT JOIN partners b ON b.id = o.buyer_id
     WHERE o.seller_id IS DISTINCT FROM e.partner_id OR b.parent_id IS DISTINCT FROM e.partner_id OR o.status <> 2
        OR (e.kind = 1 AND (e.refund_id IS NOT NULL OR e.amount_fen <> o.amount_fen - o.seller_cost_fen))
        OR (e.kind = 2 AND (r.id IS NULL OR r.order_id <> o.id OR r.status <> 2 OR e.amount_fen <> o.seller_cost_fen - o.amount_fen))`);
  expect(untraced).toEqual([]);
  // Each partner's ledger equals the recount from the orders its direct children paid, less refunds.
  const ledger = await rows(db, sql`
    WITH recount AS (
      SELECT o.seller_id AS partner, sum(o.amount_fen - o.seller_cost_fen) FILTER (WHERE o.refund_status <> 2)::int AS total
        FROM partner_orders o WHERE o.status = 2 AND o.seller_id IS NOT NULL GROUP BY o.seller_id),
    book AS (SELECT partner_id AS partner, sum(amount_fen)::int AS total FROM settlement_entries GROUP BY partner_id)
    SELECT COALESCE(r.partner, b.partner) AS partner, COALESCE(r.total, 0) AS recount, COALESCE(b.total, 0) AS book
      FROM recount r FULL JOIN book b ON b.partner = r.partner WHERE COALESCE(r.total, 0) <> COALESCE(b.total, 0)`);
  expect(ledger).toEqual([]);
  // A paid order was paid once; money for a cancelled or closed order is being or was refunded.
  const payments = await rows(db, sql`
    SELECT o.order_no FROM partner_orders o
     WHERE (o.status = 2 AND (SELECT count(*) FROM payments p WHERE p.out_trade_no = o.order_no AND p.outcome = 'applied') <> 1)
        OR (o.status IN (3, 4) AND o.pay_status = 1 AND NOT EXISTS (SELECT 1 FROM order_refunds r WHERE r.order_id = o.id))`);
  expect(payments).toEqual([]);
}

let run = 0;

it('keeps statements, ledger and orders in agreement through random histories', async () => {
  const db = database.db;
  const packs = await db.select().from(t.paperPacks);
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
      run++;
      const chain = await newChain(run);
      const orders: { orderNo: string; buyerId: number }[] = [];
      // Each history starts on its own day, months apart, so statement months differ between runs.
      let now = new Date(Date.UTC(2025, 0, 1) + run * 97 * DAY);
      const pickOrder = (n: number) => (n === 0 ? orders[orders.length - 1] : orders[n % orders.length]);
      const statements = () => db.select().from(t.settlementStatements);
      for (const step of ops) {
        switch (step.kind) {
          case 'order': {
            const buyer = chain[step.buyer];
            const order = await placeOrder(db, gateway, buyer, { items: step.lines.map((l) => ({ packId: packs[l.pack].id, quantity: l.quantity })) }, null, now);
            orders.push({ orderNo: order.orderNo, buyerId: buyer.id });
            if (step.then !== 'none') await payInSandbox(db, gateway, order.orderNo, now);
            if (step.then === 'refund') {
              await requestRefund(db, gateway, order.orderNo, buyer.id, '随机退款', null, now);
              await completeSandboxRefund(db, gateway, order.orderNo, now);
            }
            break;
          }
          case 'pay':
            if (orders.length) await tolerate(() => payInSandbox(db, gateway, pickOrder(step.pick).orderNo, now));
            break;
          case 'payAfterCancel':
            if (orders.length) {
              const { orderNo } = pickOrder(step.pick);
              await gateway.pay(db, orderNo, now);
              await tolerate(() => cancelOrder(db, gateway, orderNo, now));
              const trade = await gateway.queryPayment(db, orderNo, now);
              if (trade.state === 'SUCCESS') await tolerate(() => applyNotice(db, gateway, { kind: 'paid', outTradeNo: orderNo, transactionId: trade.transactionId!, amountFen: trade.amountFen!, paidAt: trade.paidAt! }));
            }
            break;
          case 'cancel':
            if (orders.length) await tolerate(() => cancelOrder(db, gateway, pickOrder(step.pick).orderNo, now));
            break;
          case 'refund':
            if (orders.length) {
              const o = pickOrder(step.pick);
              await tolerate(() => requestRefund(db, gateway, o.orderNo, o.buyerId, '随机退款', null, now));
            }
            break;
          case 'refundDone':
            if (orders.length) {
              const { orderNo } = pickOrder(step.pick);
              const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id WHERE o.order_no = ${orderNo}`);
              if (row.n) await completeSandboxRefund(db, gateway, orderNo, now);
            }
            break;
          case 'close':
            await closeExpiredOrders(db, gateway, now);
            break;
          case 'build':
            await buildStatements(db, previousPeriod(periodOf(now)), now);
            break;
          case 'confirm':
          case 'reject':
          case 'settle': {
            const all = await statements();
            if (!all.length) break;
            const s = step.pick === 0 ? all[all.length - 1] : all[step.pick % all.length];
            if (step.kind === 'confirm') await tolerate(() => confirmStatement(db, { partnerId: s.partnerId }, s.statementNo, now));
            if (step.kind === 'reject') await tolerate(() => rejectStatement(db, { partnerId: s.partnerId }, s.statementNo, '金额不符', now));
            if (step.kind === 'settle') await tolerate(() => settleStatement(db, s.payerId === null ? { platform: true } : { partnerId: s.payerId }, s.statementNo, now));
            break;
          }
          case 'advance':
            now = new Date(now.getTime() + step.minutes * 60_000);
            break;
        }
        await checkInvariants();
      }
    }),
    { numRuns: 30, seed: 20261125 },
  );
  // The histories did reach every part of the flow.
  const [reach] = await rows<Record<string, number>>(db, sql`
    SELECT (SELECT count(*)::int FROM settlement_statements WHERE status = 3) AS settled,
           (SELECT count(*)::int FROM settlement_entries WHERE kind = 2) AS reversals,
           (SELECT count(*)::int FROM settlement_entries e JOIN settlement_statements s ON s.id = e.statement_id WHERE e.kind = 2 AND s.amount_fen < 0) AS "negativeStatements",
           (SELECT count(*)::int FROM payments WHERE outcome = 'refund_due') AS "refundDue"`);
  expect(reach.settled).toBeGreaterThan(0);
  expect(reach.reversals).toBeGreaterThan(0);
  expect(reach.refundDue).toBeGreaterThan(0);
}, 600_000);
