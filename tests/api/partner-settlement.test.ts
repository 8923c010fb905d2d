// 渠道结算: what the direct children bought and the margin earned on them (equal to the ledger and
// the orders), the seeded statements in each status, the statement flow between the earning
// partner, its parent and the platform, refusals by level, subtree and input, the exports, and a
// refund after settlement landing in the next statement as a negative entry.
import ExcelJS from 'exceljs';
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { rows } from '../../server/db/query';
import { SandboxGateway } from '../../server/modules/mercury/payment/sandbox';
import { buildStatements, periodOf } from '../../server/modules/partner/statements';
import { completeSandboxRefund } from '../../server/seed/orders';
import type { StatementRecord } from '../../src/domain/orders';
import { FulfilStatus } from '../../src/domain/fulfilment';
import { receiveReturn, requestReturn } from '../../server/modules/mercury/fulfilment';

let t: TestApp;
let c: ReturnType<typeof client>;
let ids: Record<string, number>;
const BASE = '/api/wrongbook/v1.0/partner/channel';

type Statement = StatementRecord;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const ps = await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM partners`);
  const id = (prefix: string) => ps.find((p) => p.name.startsWith(prefix))!.id;
  ids = { p1: id('浙江智学'), p2: id('杭州学联'), p3: id('西湖区晨光'), p2b: id('宁波甬智'), p3b: id('拱墅区启明') };
}, 120_000);
afterAll(() => t.close());

const statements = async (user: string, query = ''): Promise<Statement[]> => (await c.data(user, `${BASE}/statements?size=100${query}`)).records;

describe('direct children and margin', () => {
  it('lists the direct children with purchases and the margin, equal to the ledger and the orders', async () => {
    // From long before the demo's first order: every order counts.
    const summary = await c.data('partner1', `${BASE}/children?dateFrom=2020-01-01`);
    expect(summary.children.map((ch: { partnerId: number }) => ch.partnerId).sort()).toEqual([ids.p2, ids.p2b].sort());
    for (const child of summary.children) {
      const [orders] = await rows<{ bought: number; margin: number }>(t.database.db, sql`
        SELECT COALESCE(sum(amount_fen), 0)::int AS bought,
               COALESCE(sum(amount_fen - seller_cost_fen) FILTER (WHERE refund_status <> 2), 0)::int AS margin
          FROM partner_orders WHERE buyer_id = ${child.partnerId} AND status = 2`);
      expect(child.boughtFen).toBe(orders.bought);
      expect(child.marginFen).toBe(orders.margin);
      expect(child.marginFen).toBeGreaterThan(0);
    }
    // p2's own children buy from p2: what p2 sold, and p1 earns nothing on it.
    const p2 = summary.children.find((ch: { partnerId: number }) => ch.partnerId === ids.p2);
    expect(p2.soldFen).toBeGreaterThan(0);
    expect(summary.children.find((ch: { partnerId: number }) => ch.partnerId === ids.p2b).soldFen).toBe(0);
    const [p1Ledger] = await rows<{ n: number }>(t.database.db, sql`
      SELECT count(*)::int AS n FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE e.partner_id = ${ids.p1} AND o.buyer_id IN (${ids.p3}, ${ids.p3b})`);
    expect(p1Ledger.n).toBe(0);
    expect(summary.totals.marginFen).toBe(summary.children.reduce((s: number, ch: { marginFen: number }) => s + ch.marginFen, 0));
    expect(summary.ledger.frozenFen + summary.ledger.refundingFen + summary.ledger.settleableFen + summary.ledger.onStatementFen).toBe(summary.totals.marginFen);
  });

  it('narrows to a period and refuses a reversed one', async () => {
    const all = await c.data('partner2', `${BASE}/children`);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const recent = await c.data('partner2', `${BASE}/children?dateFrom=${today}&dateTo=${today}`);
    expect(recent.totals.boughtFen).toBeLessThan(all.totals.boughtFen);
    const bad = await c.get('partner2', `${BASE}/children?dateFrom=2026-05-02&dateTo=2026-05-01`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('开始日期不能晚于结束日期');
  });

  it('is for levels 1 and 2 only', async () => {
    for (const url of [`${BASE}/children`, `${BASE}/statements`, `${BASE}/exportChildren`]) {
      expect((await c.get('partner3', url)).statusCode, url).toBe(403);
      expect((await c.get('teacher', url)).statusCode, url).toBe(403);
    }
  });
});

describe('statements', () => {
  it('has the seeded months in every status, each adding up', async () => {
    const mine = await statements('partner1');
    const payable = await statements('partner1', '&side=payable');
    const all = [...mine, ...payable];
    expect(new Set(all.map((s) => s.status))).toEqual(new Set([1, 2, 3, 4]));
    expect(mine.every((s) => s.earned && s.payerName === '平台')).toBe(true);
    expect(payable.every((s) => !s.earned && s.partnerName.startsWith('杭州学联'))).toBe(true);
    for (const s of all) {
      const detail = await c.data('partner1', `${BASE}/statementDetail?statementNo=${s.statementNo}`);
      expect(detail.entries).toHaveLength(s.entryCount);
      expect(detail.entries.reduce((sum: number, e: { amountFen: number }) => sum + e.amountFen, 0)).toBe(s.amountFen);
      expect(detail.entries.every((e: { orderNo: string }) => /^PO\d{20}$/.test(e.orderNo))).toBe(true);
    }
  });

  it('goes 待确认 → 已驳回 → 待确认 → 已确认 → 已结算 between partner2 and its parent', async () => {
    const [pending] = await statements('partner2', '&status=1');
    expect(pending).toBeDefined();
    const early = await c.post('partner1', `${BASE}/settleStatement`, { statementNo: pending.statementNo });
    expect(early.statusCode).toBe(409);
    expect(early.json().msg).toBe('结算单待确认，须收款方确认后才能结算');
    expect((await c.post('partner1', `${BASE}/confirmStatement`, { statementNo: pending.statementNo })).json().msg).toBe('只有收款方可以确认结算单');
    const rejected = await c.done('partner2', `${BASE}/rejectStatement`, { statementNo: pending.statementNo, reason: '少算一笔' });
    expect(rejected.status).toBe(4);
    expect((await c.post('partner2', `${BASE}/confirmStatement`, { statementNo: pending.statementNo })).statusCode).toBe(409);
    expect((await c.done('partner1', `${BASE}/reissueStatement`, { statementNo: pending.statementNo })).status).toBe(1);
    expect((await c.done('partner2', `${BASE}/confirmStatement`, { statementNo: pending.statementNo })).status).toBe(2);
    const settled = await c.done('partner1', `${BASE}/settleStatement`, { statementNo: pending.statementNo });
    expect(settled).toMatchObject({ status: 3, amountFen: pending.amountFen });
    expect((await c.post('partner1', `${BASE}/settleStatement`, { statementNo: pending.statementNo })).statusCode).toBe(409);
  });

  it('lets the platform settle a level-1 statement, which the balance then counts', async () => {
    const [confirmed] = await statements('partner1', '&status=2');
    expect((await c.post('partner1', `${BASE}/settleStatement`, { statementNo: confirmed.statementNo })).json().msg).toBe('只有付款方可以标记结算');
    const platformList = await statements('admin');
    expect(platformList.map((s) => s.statementNo)).toContain(confirmed.statementNo);
    expect(platformList.every((s) => s.payerName === '平台')).toBe(true);
    const before = (await c.data('partner1', '/api/wrongbook/v1.0/partner/getPartnerBalance')).settledInFen;
    expect((await c.done('admin', `${BASE}/settleStatement`, { statementNo: confirmed.statementNo })).status).toBe(3);
    expect((await c.data('partner1', '/api/wrongbook/v1.0/partner/getPartnerBalance')).settledInFen).toBe(before + confirmed.amountFen);
  });

  it('answers 结算单不存在 outside the caller\'s statements, and refuses hostile input', async () => {
    const [p1s] = await statements('partner1');
    for (const [url, body] of [[`${BASE}/confirmStatement`, {}], [`${BASE}/rejectStatement`, { reason: '不对' }], [`${BASE}/settleStatement`, {}]] as const) {
      const res = await c.post('partner2', url, { statementNo: p1s.statementNo, ...body });
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('结算单不存在');
    }
    expect((await c.get('partner2', `${BASE}/statementDetail?statementNo=${p1s.statementNo}`)).statusCode).toBe(404);
    for (const statementNo of ['ST1', `PO${'1'.repeat(20)}`, '']) {
      const res = await c.get('partner1', `${BASE}/statementDetail?statementNo=${statementNo}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toMatch(/结算单号/);
    }
    const [pending] = await statements('partner1', '&status=1');
    const target = pending?.statementNo ?? p1s.statementNo;
    expect((await c.post('partner1', `${BASE}/rejectStatement`, { statementNo: target, reason: ' ' })).json().msg).toBe('驳回原因不能为空');
    expect((await c.post('partner1', `${BASE}/rejectStatement`, { statementNo: target, reason: '长'.repeat(201) })).json().msg).toBe('驳回原因长度不能超过200个字符');
    expect((await c.get('partner1', `${BASE}/statements?period=2026-13`)).json().msg).toBe('结算月份格式不正确');
  });

  it('exports every statement of the filter', async () => {
    const list = await statements('partner1', '&side=payable');
    const res = await c.get('partner1', `${BASE}/exportStatements?side=payable`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, '结算单号', '结算月份', '收款方', '付款方', '金额（元）', '明细条数', '状态', '驳回原因', '生成时间', '结算时间']);
    expect(sheet.rowCount - 1).toBe(list.length);
    const children = await c.get('partner1', `${BASE}/exportChildren`);
    const book2 = new ExcelJS.Workbook();
    await book2.xlsx.load(children.rawPayload as unknown as ArrayBuffer);
    expect(book2.worksheets[0].rowCount).toBe(3);
  });

  it('puts a refund after settlement into the next statement as a negative entry', async () => {
    const db = t.database.db;
    // A paid, unrefunded order of p2 whose margin is on a settled statement. Settled orders have been
    // shipped, so the refund comes by a return: p2 sends every pack back, p1 confirms it has them.
    const [order] = await rows<{ id: number; orderNo: string; paidAt: Date; margin: number }>(db, sql`
      SELECT o.id, o.order_no AS "orderNo", o.paid_at AS "paidAt", e.amount_fen AS margin
        FROM partner_orders o JOIN settlement_entries e ON e.order_id = o.id AND e.kind = 1 JOIN settlement_statements s ON s.id = e.statement_id
       WHERE o.buyer_id = ${ids.p2} AND o.refund_status = 0 AND s.status = 3 AND o.fulfil_status = ${FulfilStatus.received} ORDER BY o.id LIMIT 1`);
    expect(order).toBeDefined();
    const lines = await rows<{ itemId: number; quantity: number }>(db, sql`SELECT id AS "itemId", shipped_quantity AS quantity FROM partner_order_items WHERE order_id = ${order.id}`);
    const gateway = new SandboxGateway({ key: createHmac('sha256', 'test').digest(), notifyUrl: () => undefined });
    // Asked within its after-sales window (time by parameter), refunded now.
    const asked = new Date(new Date(order.paidAt).getTime() + 86400_000);
    const ret = await requestReturn(db, ids.p2, order.orderNo, { carrier: '顺丰速运', trackingNo: 'SF1402298871', reason: '质量问题', lines }, null, asked);
    await receiveReturn(db, gateway, { partnerId: ids.p1 }, order.orderNo, ret.returnNo, null, new Date());
    await completeSandboxRefund(db, gateway, order.orderNo, new Date());
    const built = await buildStatements(db, periodOf(new Date()), new Date(Date.now() + 8 * 86400_000));
    const next = built.find((s) => s.partnerId === ids.p1)!;
    const detail = await c.data('partner1', `${BASE}/statementDetail?statementNo=${next.statementNo}`);
    const reversal = detail.entries.find((e: { orderNo: string; kind: number }) => e.orderNo === order.orderNo && e.kind === 2);
    expect(reversal).toMatchObject({ amountFen: -order.margin, refundNo: expect.stringMatching(/^RF\d{20}$/) });
    expect(detail.amountFen).toBe(detail.entries.reduce((s: number, e: { amountFen: number }) => s + e.amountFen, 0));
  });
});
