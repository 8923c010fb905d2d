// Money that means one thing (issue 24 §1, §7, §8): 数据看板's own figures equal 渠道结算's for the
// same days and the subtree's are the sum of every partner's own, recounted from the orders and
// the ledger; 渠道结算's figures follow the period and keep margins of orders 退款中 out of 待出账
// (and off the next statement); a statement's lines recompute its amount from the order lines and
// prices, with its history; exports write amounts as number cells and times in China time; the
// quantity and date bounds answer in Chinese.
import ExcelJS from 'exceljs';
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { rows } from '../../server/db/query';
import { simulateUsage } from '../support/devices';
import { SandboxGateway } from '../../server/modules/mercury/payment/sandbox';
import { receiveReturn, requestReturn } from '../../server/modules/mercury/fulfilment';
import { FulfilStatus } from '../../src/domain/fulfilment';
import { buildStatements, periodOf } from '../../server/modules/partner/statements';
import { cellTime } from '../../src/domain/format';
import { ORDER_MAX_QUANTITY } from '../../src/domain/orders';

let t: TestApp;
let c: ReturnType<typeof client>;
let ids: Record<string, number>;
const CHANNEL = '/api/wrongbook/v1.0/partner/channel';
const BOARD = '/api/wrongbook/v1.0/partner/board';

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const ps = await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM partners`);
  const id = (prefix: string) => ps.find((p) => p.name.startsWith(prefix))!.id;
  ids = { p1: id('浙江智学'), p2: id('杭州学联'), p3: id('西湖区晨光'), p2b: id('宁波甬智'), p3b: id('拱墅区启明') };
}, 120_000);
afterAll(() => t.close());

const chinaMonth = (back: number) => {
  const now = new Date(Date.now() + 8 * 3600_000);
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  return { month: first.toISOString().slice(0, 7), from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
};
const dayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);
const dayEnd = (day: string) => new Date(dayStart(day).getTime() + 86400_000);

/** A partner's own purchases, refunds and margin in [from, to], straight from the tables. */
async function recountOwn(partnerId: number, from: string, to: string) {
  const [r] = await rows<{ bought: number; refunded: number; margin: number }>(t.database.db, sql`
    SELECT (SELECT COALESCE(sum(amount_fen), 0)::int FROM partner_orders WHERE buyer_id = ${partnerId} AND status = 2 AND paid_at >= ${dayStart(from)} AND paid_at < ${dayEnd(to)}) AS bought,
           (SELECT COALESCE(sum(r.amount_fen), 0)::int FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id
             WHERE o.buyer_id = ${partnerId} AND o.status = 2 AND r.status = 2 AND r.refunded_at >= ${dayStart(from)} AND r.refunded_at < ${dayEnd(to)}) AS refunded,
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_entries WHERE partner_id = ${partnerId} AND occurred_at >= ${dayStart(from)} AND occurred_at < ${dayEnd(to)}) AS margin`);
  return r;
}

describe('数据看板 and 渠道结算 agree', () => {
  it('shows the own figures apart from the subtree’s; own 渠道收入 equals 渠道结算 for the same month', async () => {
    const subtrees: Record<string, number[]> = { partner1: [ids.p1, ids.p2, ids.p3, ids.p2b, ids.p3b], partner2: [ids.p2, ids.p3, ids.p3b].filter((id) => id) };
    // partner2's subtree: itself and its own children (read from the table, not assumed).
    subtrees.partner2 = (await rows<{ id: number }>(t.database.db, sql`SELECT id FROM partners WHERE id = ${ids.p2} OR parent_id = ${ids.p2}`)).map((r) => r.id);
    subtrees.partner1 = (await rows<{ id: number }>(t.database.db, sql`SELECT id FROM partners`)).map((r) => r.id);
    let months = 0;
    for (const back of [0, 1, 2]) {
      const m = chinaMonth(back);
      for (const user of ['partner1', 'partner2'] as const) {
        const me = user === 'partner1' ? ids.p1 : ids.p2;
        const board = await c.data(user, `${BOARD}/overview?queryMode=month&month=${m.month}&statistics=overall&metric=pages&userKind=0`);
        const channel = await c.data(user, `${CHANNEL}/children?dateFrom=${m.from}&dateTo=${m.to}`);
        const own = await recountOwn(me, m.from, m.to);
        expect(board.revenue.own, `${user} ${m.month}`).toEqual({ boughtFen: own.bought, refundedFen: own.refunded, marginFen: own.margin });
        expect(board.revenue.own.marginFen, `${user} ${m.month}`).toBe(channel.totals.marginFen);
        // The subtree's figures are every partner's own, added up.
        const parts = await Promise.all(subtrees[user].map((id) => recountOwn(id, m.from, m.to)));
        expect(board.revenue.boughtFen).toBe(parts.reduce((s, p) => s + p.bought, 0));
        expect(board.revenue.marginFen).toBe(parts.reduce((s, p) => s + p.margin, 0));
        if (board.revenue.marginFen > board.revenue.own.marginFen) months++;
      }
    }
    // The demo has months where a level below earned too: the two figures differ there, as they should.
    expect(months).toBeGreaterThan(0);
  });

  it('narrowed to a child, the own figures are the child’s; another subtree’s partner is not found', async () => {
    const m = chinaMonth(1);
    const board = await c.data('partner1', `${BOARD}/overview?queryMode=month&month=${m.month}&statistics=overall&metric=pages&userKind=0&partnerId=${ids.p2}`);
    const own = await recountOwn(ids.p2, m.from, m.to);
    expect(board.revenue.own.marginFen).toBe(own.margin);
    expect((await c.get('partner2', `${BOARD}/overview?queryMode=month&month=${m.month}&statistics=overall&metric=pages&partnerId=${ids.p1}`)).statusCode).toBe(404);
    expect((await c.get('partner2', `${BOARD}/overview?queryMode=month&month=${m.month}&statistics=overall&metric=pages&partnerId=${ids.p2b}`)).statusCode).toBe(404);
  });

  it('every 渠道结算 figure follows the period; the four ledger figures add up to the period’s margin', async () => {
    const seen = new Set<number>();
    for (const back of [0, 1, 2, 3]) {
      const m = chinaMonth(back);
      const s = await c.data('partner1', `${CHANNEL}/children?dateFrom=${m.from}&dateTo=${m.to}`);
      const { frozenFen, refundingFen, settleableFen, onStatementFen } = s.ledger;
      expect(frozenFen + refundingFen + settleableFen + onStatementFen, m.month).toBe(s.totals.marginFen);
      const [onStatement] = await rows<{ n: number }>(t.database.db, sql`
        SELECT COALESCE(sum(amount_fen), 0)::int AS n FROM settlement_entries
         WHERE partner_id = ${ids.p1} AND statement_id IS NOT NULL AND occurred_at >= ${dayStart(m.from)} AND occurred_at < ${dayEnd(m.to)}`);
      expect(onStatementFen, m.month).toBe(onStatement.n);
      seen.add(onStatementFen);
    }
    // Not one all-time figure repeated under every period.
    expect(seen.size).toBeGreaterThan(1);
  });

  it('keeps a margin whose order is 退款中 out of 待出账 and off the next statement', async () => {
    const db = t.database.db;
    // A paid order of partner2, received, its margin past the freeze and on no statement. It was
    // shipped, so its refund comes by a return: partner2 sends every pack back and partner1 confirms;
    // the gateway's refund is then 退款中 until its notice.
    const [order] = await rows<{ id: number; orderNo: string; paidAt: Date; margin: number; occurredAt: Date }>(db, sql`
      SELECT o.id, o.order_no AS "orderNo", o.paid_at AS "paidAt", e.amount_fen AS margin, e.occurred_at AS "occurredAt"
        FROM partner_orders o JOIN settlement_entries e ON e.order_id = o.id AND e.kind = 1
       WHERE o.buyer_id = ${ids.p2} AND o.refund_status = 0 AND e.statement_id IS NULL AND e.settleable_at <= now()
         AND o.fulfil_status = ${FulfilStatus.received} AND o.balance_fen = 0
       ORDER BY o.id LIMIT 1`);
    expect(order).toBeDefined();
    const day = new Date(new Date(order.occurredAt).getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const period = `${CHANNEL}/children?dateFrom=${day}&dateTo=${day}`;
    const before = await c.data('partner1', period);
    const gateway = new SandboxGateway({ key: createHmac('sha256', 'test').digest(), notifyUrl: () => undefined });
    const lines = await rows<{ itemId: number; quantity: number }>(db, sql`SELECT id AS "itemId", shipped_quantity AS quantity FROM partner_order_items WHERE order_id = ${order.id}`);
    const ret = await requestReturn(db, ids.p2, order.orderNo, { carrier: '中通快递', trackingNo: 'ZT7730461185', reason: '纸张受潮', lines }, null, new Date(new Date(order.paidAt).getTime() + 86400_000));
    await receiveReturn(db, gateway, { partnerId: ids.p1 }, order.orderNo, ret.returnNo, null);
    expect((await rows<{ refundStatus: number }>(db, sql`SELECT refund_status AS "refundStatus" FROM partner_orders WHERE id = ${order.id}`))[0]!.refundStatus).toBe(1);
    const after = await c.data('partner1', period);
    expect(after.ledger.settleableFen).toBe(before.ledger.settleableFen - order.margin);
    expect(after.ledger.refundingFen).toBe(before.ledger.refundingFen + order.margin);
    expect(after.totals.marginFen).toBe(before.totals.marginFen);
    // The month's statement run leaves it for later.
    await buildStatements(db, periodOf(new Date()), new Date(Date.now() + 8 * 86400_000));
    const [entry] = await rows<{ statementId: number | null }>(db, sql`SELECT statement_id AS "statementId" FROM settlement_entries WHERE order_id = ${order.id} AND kind = 1`);
    expect(entry.statementId).toBeNull();
  });
});

describe('a statement can be checked line by line', () => {
  it('lines recompute the amount from order lines and prices; the history shows the rejection and its reason', async () => {
    const db = t.database.db;
    const list = (await c.data('partner2', `${CHANNEL}/statements?size=100`)).records as { statementNo: string; status: number; amountFen: number }[];
    const packs = await rows<{ id: number; l1: number; l2: number }>(db, sql`SELECT id, price_l1_fen AS l1, price_l2_fen AS l2 FROM paper_packs`);
    let checked = 0;
    for (const s of list) {
      const detail = await c.data('partner2', `${CHANNEL}/statementDetail?statementNo=${s.statementNo}`);
      for (const e of detail.entries) {
        const items = await rows<{ name: string; quantity: number; price: number; packId: number; level: number }>(db, sql`
          SELECT i.name, i.quantity, i.unit_price_fen AS price, i.pack_id AS "packId", o.buyer_level AS level
            FROM partner_order_items i JOIN partner_orders o ON o.id = i.order_id WHERE o.order_no = ${e.orderNo} ORDER BY i.id`);
        expect(e.lines.map((l: { name: string; quantity: number; unitPriceFen: number }) => [l.name, l.quantity, l.unitPriceFen])).toEqual(items.map((i) => [i.name, i.quantity, i.price]));
        for (const [k, l] of (e.lines as { unitCostFen: number; unitPriceFen: number; quantity: number; marginFen: number }[]).entries()) {
          const pack = packs.find((p) => p.id === items[k].packId)!;
          // partner2 sells to level 3 at its own cost, the level-2 price.
          expect(l.unitCostFen).toBe(items[k].level === 3 ? pack.l2 : pack.l1);
          expect(l.marginFen).toBe((e.kind === 2 ? -1 : 1) * (l.unitPriceFen - l.unitCostFen) * l.quantity);
        }
        expect(e.lines.reduce((sum: number, l: { marginFen: number }) => sum + l.marginFen, 0)).toBe(e.amountFen);
        checked++;
      }
      expect(detail.entries.reduce((sum: number, e: { amountFen: number }) => sum + e.amountFen, 0)).toBe(s.amountFen);
      expect(detail.history[0]).toMatchObject({ action: 'build', userName: '系统' });
      // The demo's seeded months moved without the API: their steps still show, from the statement's times.
      if (s.status === 4) expect(detail.history.map((h: { action: string }) => h.action)).toContain('reject');
    }
    expect(checked).toBeGreaterThan(5);

    // A seeded month's statement (the previous test built this month's, dated a week ahead).
    const pending = list.find((s) => s.status === 1 && (s as unknown as { period: string }).period < periodOf(new Date()));
    expect(pending).toBeDefined();
    await c.done('partner2', `${CHANNEL}/rejectStatement`, { statementNo: pending!.statementNo, reason: '十月少算一笔订单' });
    const detail = await c.data('partner1', `${CHANNEL}/statementDetail?statementNo=${pending!.statementNo}`);
    expect(detail.rejectReason).toBe('十月少算一笔订单');
    expect(detail.history.map((h: { action: string }) => h.action)).toEqual(['build', 'reject']);
    expect(detail.history[1].summary).toContain('十月少算一笔订单');
    expect(detail.history[1].userName).not.toBe('');
  });
});

async function workbook(res: { rawPayload: Buffer; statusCode: number }) {
  expect(res.statusCode).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return book;
}
const header = (sheet: ExcelJS.Worksheet, name: string) => (sheet.getRow(1).values as unknown[]).indexOf(name);

describe('exports an accountant can use', () => {
  it('orders: amounts are number cells that add up, times are China time, 支付时间 and 备注 are exportable, a refunded order reads 已退款', async () => {
    const list = (await c.data('partner1', '/api/mercury/v1/order/page?size=500')).records as { orderNo: string; amountFen: number; createdAt: string; paidAt: string | null; refundStatus: number; status: number }[];
    const book = await workbook(await c.get('partner1', '/api/mercury/v1/order/export?fields=orderNo,amountFen,status,createdAt,paidAt,remark'));
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, '订单号', '金额（元）', '订单状态', '下单时间', '支付时间', '备注']);
    let sum = 0;
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      const order = list.find((o) => o.orderNo === row.getCell(1).value)!;
      const amount = row.getCell(2);
      expect(typeof amount.value).toBe('number');
      expect(amount.numFmt).toBe('#,##0.00');
      expect(Math.round((amount.value as number) * 100)).toBe(order.amountFen);
      sum += amount.value as number;
      if (order.status === 2 && order.refundStatus === 2) expect(row.getCell(3).value).toBe('已退款');
      if (order.status === 2 && order.refundStatus !== 2) expect(row.getCell(3).value).toBe('已支付');
      // China time, to the second: 8 hours ahead of the UTC instant.
      const utc = new Date(order.createdAt);
      const china = new Date(utc.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
      expect(row.getCell(4).value).toBe(china);
      expect(row.getCell(5).value ?? '').toBe(cellTime(order.paidAt));
    }
    expect(Math.round(sum * 100)).toBe(list.reduce((s, o) => s + o.amountFen, 0));
    expect(list.some((o) => o.status === 2 && o.refundStatus === 2)).toBe(true);
  });

  it('devices: 最近在线 in China time, the same format', async () => {
    await simulateUsage(t.app, { days: 2, devices: 6, heartVoices: false });
    const list = (await c.data('partner1', '/api/wrongbook/v1.0/partner/devices/page?size=100')).records as { serial: string; lastSeenAt: string | null }[];
    const sheet = (await workbook(await c.get('partner1', '/api/wrongbook/v1.0/partner/devices/export'))).worksheets[0];
    const col = header(sheet, '最近在线');
    let timed = 0;
    for (let r = 2; r <= sheet.rowCount; r++) {
      const d = list.find((x) => x.serial === sheet.getRow(r).getCell(1).value)!;
      const cell = sheet.getRow(r).getCell(col).value ?? '';
      if (d.lastSeenAt) {
        expect(cell).toBe(new Date(new Date(d.lastSeenAt).getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' '));
        timed++;
      } else expect(cell).toBe('');
    }
    expect(timed).toBeGreaterThan(0);
  });

  it('statements with their lines: every amount a number, the lines of each statement adding up to it', async () => {
    const book = await workbook(await c.get('partner1', `${CHANNEL}/exportStatements?side=payable`));
    const [main, lines] = book.worksheets;
    expect(lines.name).toBe('明细');
    expect(lines.getRow(1).values).toEqual([undefined, '结算单号', '订单号', '下单方', '类型', '退款单号', '纸张规格', '数量', '进货单价（元）', '成本单价（元）', '差价（元）', '发生时间']);
    const byStatement = new Map<string, number>();
    for (let r = 2; r <= lines.rowCount; r++) {
      const row = lines.getRow(r);
      for (const col of [7, 8, 9, 10]) expect(typeof row.getCell(col).value, `row ${r} col ${col}`).toBe('number');
      const no = row.getCell(1).value as string;
      byStatement.set(no, (byStatement.get(no) ?? 0) + Math.round((row.getCell(10).value as number) * 100));
      expect(Math.round((row.getCell(10).value as number) * 100)).toBe(Math.round(((row.getCell(8).value as number) - (row.getCell(9).value as number)) * 100) * (row.getCell(4).value === '退款冲减' ? -1 : 1) * (row.getCell(7).value as number));
    }
    expect(main.rowCount).toBeGreaterThan(1);
    for (let r = 2; r <= main.rowCount; r++) {
      const row = main.getRow(r);
      expect(typeof row.getCell(5).value).toBe('number');
      expect(byStatement.get(row.getCell(1).value as string) ?? 0).toBe(Math.round((row.getCell(5).value as number) * 100));
    }
    const children = (await workbook(await c.get('partner1', `${CHANNEL}/exportChildren?dateFrom=2020-01-01`))).worksheets[0];
    for (let r = 2; r <= children.rowCount; r++) for (const col of [3, 4, 5, 6]) expect(typeof children.getRow(r).getCell(col).value).toBe('number');
  });
});

describe('bounds', () => {
  it('refuses a quantity over the limit, naming it, instead of ordering 999', async () => {
    const [pack] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM paper_packs ORDER BY id LIMIT 1`);
    const count = async () => (await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM partner_orders`))[0].n;
    const before = await count();
    for (const quantity of [1_000_000_000, ORDER_MAX_QUANTITY + 1]) {
      const res = await c.post('partner1', '/api/wrongbook/v1.0/partner/addPaperOrder', { items: [{ packId: pack.id, quantity }] });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(`每种纸张每单最多订购 ${ORDER_MAX_QUANTITY} 包，请分多次下单`);
    }
    const huge = await c.post('partner1', '/api/wrongbook/v1.0/partner/addPaperOrder', { items: [{ packId: pack.id, quantity: 1e20 }] });
    expect(huge.statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it('refuses a day that does not exist, in the orders API and 渠道结算', async () => {
    for (const url of ['/api/mercury/v1/order/page?dateFrom=2026-02-30', '/api/mercury/v1/order/export?dateTo=2026-02-29', `${CHANNEL}/children?dateFrom=2026-04-31&dateTo=2026-05-01`]) {
      const res = await c.get('partner1', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().msg, url).toMatch(/^日期 2026-0[245]-(29|30|31) 不存在$/);
    }
    expect((await c.get('partner1', '/api/mercury/v1/order/page?dateFrom=2026-02-28&dateTo=2028-02-29')).statusCode).toBe(200);
  });
});
