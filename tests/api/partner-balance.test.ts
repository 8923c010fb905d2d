// Balance and payouts (issue 24 §3): paying an order from the balance, wholly or in part with the
// rest through the sandbox gateway; withdrawals frozen until the platform approves (transfer
// reference) or rejects (reason); overdraw and races refused. After every path the ledger is
// recounted from the tables: the balance the API answers is recharges + settled statements +
// balance entries, the frozen part is exactly the pending withdrawals, and each order's balance
// entries add up to what it holds.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { rows } from '../../server/db/query';
import { WithdrawalStatus } from '../../src/domain/balance';

let t: TestApp;
let c: ReturnType<typeof client>;
let host: string;
let ids: Record<string, number>;
let packs: { id: number }[];
const P = '/api/wrongbook/v1.0/partner';
const ADMIN = '/api/wrongbook/v1.0/platform/withdrawals';
const PAY = '/api/mercury/v1/order/payByBalance';
const BANK = { bankName: '中国工商银行杭州分行', accountName: '杭州学联教育科技有限公司', accountNo: '6222 0212 3456 7890 123' };

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  host = `127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const ps = await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM partners`);
  const id = (prefix: string) => ps.find((p) => p.name.startsWith(prefix))!.id;
  ids = { partner1: id('浙江智学'), partner2: id('杭州学联'), partner3: id('西湖区晨光') };
  packs = await rows(t.database.db, sql`SELECT id FROM paper_packs ORDER BY sort`);
  // partner2 earns: it confirms its statements waiting for it and partner1 settles them, so its
  // balance has settled margin in it (the demo's settled ones may all have gone to its own children).
  await settleEarned('partner2', 'partner1');
}, 600_000);

async function settleEarned(earner: string, payer: string) {
  const CH = '/api/wrongbook/v1.0/partner/channel';
  const pending = (await c.data(earner, `${CH}/statements?size=100&side=earned&status=1`)).records as { statementNo: string; amountFen: number }[];
  for (const s of pending.filter((p) => p.amountFen > 0)) {
    await c.done(earner, `${CH}/confirmStatement`, { statementNo: s.statementNo });
    await c.done(payer, `${CH}/settleStatement`, { statementNo: s.statementNo });
  }
}
afterAll(() => t.close());

const db = () => t.database.db;
const balance = (user: string) => c.data(user, `${P}/getPartnerBalance`);

/** The ledger recounted from the tables, against what the API answers. */
async function checkLedger(user: string) {
  const partnerId = ids[user];
  const [r] = await rows<{ recharged: number; settledIn: number; settledOut: number; entries: number; frozen: number; pending: number; paidOut: number; payouts: number }>(db(), sql`
    SELECT (SELECT COALESCE(sum(amount_fen), 0)::int FROM partner_recharges WHERE partner_id = ${partnerId} AND pay_status = 1) AS recharged,
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_statements WHERE partner_id = ${partnerId} AND status = 3) AS "settledIn",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_statements WHERE payer_id = ${partnerId} AND status = 3) AS "settledOut",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM balance_entries WHERE partner_id = ${partnerId}) AS entries,
           (SELECT COALESCE(sum(frozen_fen), 0)::int FROM balance_entries WHERE partner_id = ${partnerId}) AS frozen,
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM partner_withdrawals WHERE partner_id = ${partnerId} AND status = 1) AS pending,
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM partner_withdrawals WHERE partner_id = ${partnerId} AND status = 2) AS "paidOut",
           (SELECT COALESCE(-sum(amount_fen), 0)::int FROM balance_entries WHERE partner_id = ${partnerId} AND kind = 5) AS payouts`);
  const b = await balance(user);
  expect(b.balanceFen).toBe(r.recharged + r.settledIn - r.settledOut + r.entries);
  expect(b.frozenFen).toBe(r.frozen);
  expect(r.frozen).toBe(r.pending);
  expect(r.payouts).toBe(r.paidOut);
  expect(b.withdrawnFen).toBe(r.paidOut);
  expect(b.availableFen).toBe(b.balanceFen - b.frozenFen);
  expect(b.availableFen).toBeGreaterThanOrEqual(0);
  // Each order's balance entries: what it holds while pending or paid, nothing once closed, cancelled or refunded.
  const orders = await rows<{ orderNo: string; status: number; refundStatus: number; balanceFen: number; sum: number }>(db(), sql`
    SELECT o.order_no AS "orderNo", o.status, o.refund_status AS "refundStatus", o.balance_fen AS "balanceFen",
           (SELECT COALESCE(sum(e.amount_fen), 0)::int FROM balance_entries e WHERE e.order_id = o.id) AS sum
      FROM partner_orders o WHERE o.buyer_id = ${partnerId} AND (o.balance_fen > 0 OR EXISTS (SELECT 1 FROM balance_entries e WHERE e.order_id = o.id))`);
  for (const o of orders) {
    const holds = (o.status === 1 || o.status === 2) && o.refundStatus !== 2;
    expect(o.sum, o.orderNo).toBe(holds ? -o.balanceFen : 0);
  }
  return b;
}

/** Tops a level-1 partner up with a paid recharge through the sandbox gateway. */
async function topUp(user: string, amountFen: number) {
  const r = await c.done(user, `${P}/addPartnerRecharge`, { amountFen });
  await confirmOnSandbox(r.codeUrl, amountFen);
  await until(async () => (await c.data(user, `${P}/getRechargePayStatus?rechargeNo=${r.rechargeNo}`)).payStatus === 1);
}

async function confirmOnSandbox(codeUrl: string, amountFen: number) {
  const url = new URL(codeUrl);
  const res = await t.app.inject({
    method: 'POST',
    url: `${url.pathname}/confirm`,
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: url.searchParams.get('token')!, amount_fen: String(amountFen) }).toString(),
  });
  expect(res.body).toContain('支付成功');
}

async function until(check: () => Promise<boolean>, ms = 8000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

const order = (user: string, quantity = 2) => c.done(user, `${P}/addPaperOrder`, { items: [{ packId: packs[0].id, quantity }] });
const orderState = async (orderNo: string) => c.data('partner1', `/api/mercury/v1/order/detail?orderNo=${orderNo}`);

describe('paying an order from the balance', () => {
  it('pays a whole order from the balance in one step: paid, margin-free for level 1, the balance down by its amount', async () => {
    await topUp('partner1', 5000_00);
    const before = await checkLedger('partner1');
    const placed = await order('partner1');
    const res = await c.done('partner1', PAY, { orderNo: placed.orderNo, balanceFen: placed.amountFen });
    expect(res.amountFen).toBe(0);
    expect(res.status).toBe(2);
    const detail = await orderState(placed.orderNo);
    expect(detail).toMatchObject({ status: 2, payStatus: 1, balanceFen: placed.amountFen });
    const after = await checkLedger('partner1');
    expect(after.availableFen).toBe(before.availableFen - placed.amountFen);
    // A second payment of the same order is refused, the balance untouched.
    const again = await c.post('partner1', PAY, { orderNo: placed.orderNo, balanceFen: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('订单已支付');
    // Refunded wholly from the balance: done at once, the amount back.
    const refund = await c.post('partner1', '/api/mercury/v1/order/applyRefund', { orderNo: placed.orderNo, reason: '测试退款' });
    expect(refund.statusCode, refund.body).toBe(200);
    expect((await orderState(placed.orderNo)).refundStatus).toBe(2);
    expect((await checkLedger('partner1')).availableFen).toBe(before.availableFen);
    // Audited.
    const [audit] = await rows<{ summary: string }>(db(), sql`SELECT summary FROM audit_logs WHERE kind = 'order' AND action = 'pay' AND record_id = ${placed.orderNo}`);
    expect(audit.summary).toContain('余额支付订单');
  });

  it('pays part from the balance and the rest through the sandbox gateway; level 2’s seller earns its margin', async () => {
    const b2 = await checkLedger('partner2');
    const placed = await order('partner2', 3);
    const part = Math.min(b2.availableFen, Math.floor(placed.amountFen / 2));
    expect(part).toBeGreaterThan(0);
    expect(part).toBeLessThan(placed.amountFen);
    const res = await c.done('partner2', PAY, { orderNo: placed.orderNo, balanceFen: part });
    expect(res.amountFen).toBe(placed.amountFen - part);
    expect(res.codeUrl).toMatch(/\/sandbox-pay\/PB\d{20}\?token=/);
    // Held meanwhile: the available balance is down, the order still waits.
    expect((await checkLedger('partner2')).availableFen).toBe(b2.availableFen - part);
    expect((await c.data('partner2', `/api/mercury/v1/order/payCode?orderNo=${placed.orderNo}`)).amountFen).toBe(placed.amountFen - part);
    await confirmOnSandbox(res.codeUrl, placed.amountFen - part);
    await until(async () => (await c.data('partner2', `/api/mercury/v1/order/getOrderPayStatus?orderNo=${placed.orderNo}`)).status === 2);
    const detail = await c.data('partner2', `/api/mercury/v1/order/detail?orderNo=${placed.orderNo}`);
    expect(detail.payments.map((p: { amountFen: number }) => p.amountFen)).toEqual([placed.amountFen - part]);
    const [margin] = await rows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${placed.orderNo} AND e.partner_id = ${ids.partner1}`);
    expect(margin.n).toBe(1);
    expect((await checkLedger('partner2')).availableFen).toBe(b2.availableFen - part);
  });

  it('gives a held part back when the order is cancelled', async () => {
    const before = await checkLedger('partner1');
    const placed = await order('partner1');
    await c.done('partner1', PAY, { orderNo: placed.orderNo, balanceFen: 100 });
    expect((await checkLedger('partner1')).availableFen).toBe(before.availableFen - 100);
    await c.done('partner1', '/api/mercury/v1/order/cancelByOrderNo', { orderNo: placed.orderNo });
    expect((await checkLedger('partner1')).availableFen).toBe(before.availableFen);
  });

  it('refuses more than available or than the order, another partner’s order, and hostile amounts, in Chinese', async () => {
    const b3 = await checkLedger('partner3');
    const placed = await order('partner3', 999);
    const over = await c.post('partner3', PAY, { orderNo: placed.orderNo, balanceFen: b3.availableFen + 1 });
    if (b3.availableFen + 1 <= placed.amountFen) {
      expect(over.statusCode).toBe(409);
      expect(over.json().msg).toMatch(/^可用余额不足/);
    }
    const p1order = await order('partner1');
    const tooMuch = await c.post('partner1', PAY, { orderNo: p1order.orderNo, balanceFen: p1order.amountFen + 1 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().msg).toContain('不能超过订单金额');
    // partner1's order from partner3 (not in its subtree): not found; partner1 paying its child's order: refused.
    expect((await c.post('partner3', PAY, { orderNo: p1order.orderNo, balanceFen: 1 })).statusCode).toBe(404);
    const child = await c.post('partner1', PAY, { orderNo: placed.orderNo, balanceFen: 1 });
    expect(child.statusCode).toBe(409);
    expect(child.json().msg).toBe('只有下单的合作伙伴可以支付该订单');
    for (const balanceFen of [0, -5, 1.5, 'abc', null, 2 ** 40]) {
      const res = await c.post('partner1', PAY, { orderNo: p1order.orderNo, balanceFen });
      expect(res.statusCode, String(balanceFen)).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await c.post('teacher', PAY, { orderNo: p1order.orderNo, balanceFen: 1 })).statusCode).toBe(403);
    await checkLedger('partner1');
    await checkLedger('partner3');
  });
});

describe('withdrawals', () => {
  it('request → frozen → the platform approves with a transfer reference → paid out, all in the ledger and the log', async () => {
    const before = await checkLedger('partner2');
    const amountFen = Math.min(before.availableFen, 100_00);
    const w = await c.done('partner2', `${P}/addWithdrawal`, { amountFen, ...BANK });
    expect(w.withdrawalNo).toMatch(/^WD\d{20}$/);
    const frozen = await checkLedger('partner2');
    expect(frozen).toMatchObject({ frozenFen: before.frozenFen + amountFen, availableFen: before.availableFen - amountFen, balanceFen: before.balanceFen });
    const mine = await c.data('partner2', `${P}/withdrawals?current=1&size=10`);
    expect(mine.records[0]).toMatchObject({ withdrawalNo: w.withdrawalNo, status: WithdrawalStatus.pending, accountNo: '**** 0123' });
    // A partner cannot approve; the platform can, once.
    expect((await c.post('partner2', `${ADMIN}/approve`, { withdrawalNo: w.withdrawalNo, transferRef: 'TX20261127001' })).statusCode).toBe(403);
    expect((await c.post('partner1', `${ADMIN}/approve`, { withdrawalNo: w.withdrawalNo, transferRef: 'TX20261127001' })).statusCode).toBe(403);
    const list = await c.data('admin', `${ADMIN}?current=1&size=50&status=1`);
    expect(list.records.find((r: { withdrawalNo: string }) => r.withdrawalNo === w.withdrawalNo)).toMatchObject({ accountNo: '6222021234567890123', partnerLevel: 2 });
    const bad = await c.post('admin', `${ADMIN}/approve`, { withdrawalNo: w.withdrawalNo, transferRef: '<script>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('转账流水号');
    await c.done('admin', `${ADMIN}/approve`, { withdrawalNo: w.withdrawalNo, transferRef: 'TX20261127001' });
    const again = await c.post('admin', `${ADMIN}/reject`, { withdrawalNo: w.withdrawalNo, reason: '重复' });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('该提现已打款');
    const after = await checkLedger('partner2');
    expect(after).toMatchObject({ frozenFen: before.frozenFen, balanceFen: before.balanceFen - amountFen, availableFen: before.availableFen - amountFen });
    const logged = await rows<{ action: string; summary: string }>(db(), sql`SELECT action, summary FROM audit_logs WHERE kind = 'withdrawal' AND record_id = ${w.withdrawalNo} ORDER BY id`);
    expect(logged.map((l) => l.action)).toEqual(['create', 'approve']);
    expect(logged[1].summary).toContain('TX20261127001');
    expect((await c.data('partner2', `${P}/withdrawals?current=1&size=10`)).records[0]).toMatchObject({ status: WithdrawalStatus.paid, transferRef: 'TX20261127001' });
  });

  it('request → reject with a reason unfreezes the amount', async () => {
    const before = await checkLedger('partner1');
    const w = await c.done('partner1', `${P}/addWithdrawal`, { amountFen: 200_00, ...BANK });
    expect((await checkLedger('partner1')).availableFen).toBe(before.availableFen - 200_00);
    expect((await c.post('admin', `${ADMIN}/reject`, { withdrawalNo: w.withdrawalNo, reason: '   ' })).json().msg).toBe('驳回原因不能为空');
    await c.done('admin', `${ADMIN}/reject`, { withdrawalNo: w.withdrawalNo, reason: '户名与合同主体不一致' });
    const after = await checkLedger('partner1');
    expect(after).toMatchObject({ availableFen: before.availableFen, frozenFen: before.frozenFen, balanceFen: before.balanceFen });
    expect((await c.data('partner1', `${P}/withdrawals?current=1&size=10`)).records[0]).toMatchObject({ status: WithdrawalStatus.rejected, rejectReason: '户名与合同主体不一致' });
  });

  it('refuses an overdraw, hostile input, level 3, and another partner’s withdrawal', async () => {
    const b = await checkLedger('partner1');
    const over = await c.post('partner1', `${P}/addWithdrawal`, { amountFen: b.availableFen + 1, ...BANK });
    expect(over.statusCode).toBe(409);
    expect(over.json().msg).toMatch(/^可用余额不足/);
    for (const body of [{ amountFen: 99 }, { amountFen: 1.5 }, { amountFen: 100_00, accountNo: '12ab' }, { amountFen: 100_00, bankName: '' }, { amountFen: 100_00, accountName: 'x'.repeat(51) }]) {
      const res = await c.post('partner1', `${P}/addWithdrawal`, { ...BANK, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await c.post('partner3', `${P}/addWithdrawal`, { amountFen: 100, ...BANK })).statusCode).toBe(403);
    expect((await c.get('partner3', `${P}/withdrawals?current=1&size=10`)).statusCode).toBe(403);
    expect((await c.get('partner1', `${ADMIN}?current=1&size=10`)).statusCode).toBe(403);
    // partner2's list never shows partner1's withdrawals.
    const p1 = await c.data('partner1', `${P}/withdrawals?current=1&size=50`);
    const p2 = await c.data('partner2', `${P}/withdrawals?current=1&size=50`);
    expect(p2.records.some((r: { withdrawalNo: string }) => p1.records.some((q: { withdrawalNo: string }) => q.withdrawalNo === r.withdrawalNo))).toBe(false);
    expect((await c.post('admin', `${ADMIN}/approve`, { withdrawalNo: 'WD00000000000000000000', transferRef: 'TX0001' })).statusCode).toBe(404);
    await checkLedger('partner1');
  });

  it('lets only one of two racing withdrawals take the last of the balance', async () => {
    const b = await checkLedger('partner1');
    const amountFen = Math.floor(b.availableFen / 2) + 1;
    const results = await Promise.all([0, 1].map(() => c.post('partner1', `${P}/addWithdrawal`, { amountFen, ...BANK })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    // And a withdrawal racing a balance payment of an order: together they cannot overdraw either.
    const after = await checkLedger('partner1');
    const placed = await order('partner1', 1);
    const rest = after.availableFen;
    const race = await Promise.all([
      c.post('partner1', `${P}/addWithdrawal`, { amountFen: rest, ...BANK }),
      c.post('partner1', PAY, { orderNo: placed.orderNo, balanceFen: Math.min(rest, placed.amountFen) }),
    ]);
    expect(race.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect((await checkLedger('partner1')).availableFen).toBeGreaterThanOrEqual(0);
  });
});
