// Paper orders and their payment through the sandbox gateway, for each partner level: prices by
// level, the subtree rule (another subtree's order is "not found"), wrong roles, hostile input, and
// the payment cases a real gateway produces — duplicate, forged and wrong-amount notices, a notice
// after cancel, payment racing cancellation, and closing after 30 minutes (time by parameter).
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { rows } from '../../server/db/query';
import { closeExpiredOrders } from '../../server/modules/mercury/orders';
import type { SandboxGateway } from '../../server/modules/mercury/payment/sandbox';
import type { PaymentNotice } from '../../server/modules/mercury/payment/provider';
import { NOTIFY_PATH } from '../../server/modules/mercury/payment/notifyRoutes';

let t: TestApp;
let c: ReturnType<typeof client>;
let host: string;
let partnerIds: Record<string, number>;
let packs: { id: number; l1: number; l2: number; l3: number }[];

const ADD = '/api/wrongbook/v1.0/partner/addPaperOrder';
const PAGE = '/api/mercury/v1/order/page';
const DETAIL = '/api/mercury/v1/order/detail';
const STATUS = '/api/mercury/v1/order/getOrderPayStatus';
const CANCEL = '/api/mercury/v1/order/cancelByOrderNo';
const REFUND = '/api/mercury/v1/order/applyRefund';

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  // Listening, so the sandbox gateway's notices reach us over real HTTP.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  host = `127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const ps = await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM partners`);
  const id = (prefix: string) => ps.find((p) => p.name.startsWith(prefix))!.id;
  partnerIds = { p1: id('浙江智学'), p2: id('杭州学联'), p3: id('西湖区晨光'), p2b: id('宁波甬智'), p3b: id('拱墅区启明') };
  packs = await rows(t.database.db, sql`SELECT id, price_l1_fen AS l1, price_l2_fen AS l2, price_l3_fen AS l3 FROM paper_packs ORDER BY sort`);
}, 120_000);
afterAll(() => t.close());

const gateway = () => t.app.payments as SandboxGateway;
const order = (user: string, items = [{ packId: packs[0].id, quantity: 2 }], remark?: string) => c.done(user, ADD, { items, remark });
const notify = (notice: PaymentNotice, tamper?: (body: string) => string) => {
  const { body, headers } = gateway().signed(notice);
  return t.app.inject({ method: 'POST', url: NOTIFY_PATH, payload: tamper ? tamper(body) : body, headers });
};
const paid = (orderNo: string, amountFen: number, transactionId = `SBXTEST${orderNo}`): PaymentNotice => ({ kind: 'paid', outTradeNo: orderNo, transactionId, amountFen, paidAt: new Date() });
/** The sandbox page the QR code opens, and its confirm form as the page posts it. */
const payPage = (codeUrl: string) => {
  const url = new URL(codeUrl);
  const confirm = (form: Record<string, string> = { token: url.searchParams.get('token')!, amount_fen: '' }) =>
    t.app.inject({ method: 'POST', url: `${url.pathname}/confirm`, headers: { host, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
  return {
    url,
    open: (path = url.pathname + url.search) => t.app.inject({ method: 'GET', url: path, headers: { host } }),
    /** Confirms with the QR code's token and the amount the page shows (or a given form). */
    confirm: (amountFen: number, form?: Record<string, string>) => confirm(form ?? { token: url.searchParams.get('token')!, amount_fen: String(amountFen) }),
  };
};
const orderRow = async (orderNo: string) =>
  (await rows<{ status: number; payStatus: number; refundStatus: number }>(t.database.db, sql`SELECT status, pay_status AS "payStatus", refund_status AS "refundStatus" FROM partner_orders WHERE order_no = ${orderNo}`))[0];
const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(t.database.db, query))[0].n;
const seededOrderOf = async (key: string) =>
  (await rows<{ orderNo: string }>(t.database.db, sql`SELECT order_no AS "orderNo" FROM partner_orders WHERE buyer_id = ${partnerIds[key]} ORDER BY id LIMIT 1`))[0].orderNo;

describe('paper packs and orders per level', () => {
  it('prices each level at its own column and charges the sum of the lines', async () => {
    for (const [user, level] of [['partner1', 'l1'], ['partner2', 'l2'], ['partner3', 'l3']] as const) {
      const config = await c.data(user, '/api/wrongbook/v1.0/partner/getPartnerPaperConfig');
      expect(config.map((p: { priceFen: number }) => p.priceFen)).toEqual(packs.map((p) => p[level]));
      expect(config[0]).toMatchObject({ packId: packs[0].id, sheets: 500, name: expect.stringContaining('A4') });
      const created = await order(user, [{ packId: packs[0].id, quantity: 3 }, { packId: packs[1].id, quantity: 1 }], '  送到门卫室 ');
      expect(created).toMatchObject({ amountFen: packs[0][level] * 3 + packs[1][level], payStatus: 0 });
      expect(created.orderNo).toMatch(/^PO\d{20}$/);
      expect(created.codeUrl).toMatch(/^http:\/\/.+\/sandbox-pay\/PO\d{20}\?token=[\w-]{43}$/);
      expect(new Date(created.expiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
      const detail = await c.data(user, `${DETAIL}?orderNo=${created.orderNo}`);
      expect(detail).toMatchObject({ status: 1, payStatus: 0, refundStatus: 0, remark: '送到门卫室', mine: true, sellerName: level === 'l1' ? '平台' : expect.any(String) });
      expect(detail.items).toHaveLength(2);
    }
  });

  it('sells a level-2 order from its parent: the parent sees it, the sibling does not', async () => {
    const created = await order('partner3');
    const [row] = await rows<{ sellerId: number; cost: number }>(t.database.db, sql`SELECT seller_id AS "sellerId", seller_cost_fen AS cost FROM partner_orders WHERE order_no = ${created.orderNo}`);
    expect(row).toEqual({ sellerId: partnerIds.p2, cost: packs[0].l2 * 2 });
    expect((await c.data('partner2', `${DETAIL}?orderNo=${created.orderNo}`)).mine).toBe(false);
    expect((await c.data('partner1', `${PAGE}?keyword=${created.orderNo}`)).total).toBe(1);
  });

  it('answers 订单不存在 for another subtree\'s order: sibling, parent', async () => {
    const sibling = await seededOrderOf('p3b');
    const parent = await seededOrderOf('p2');
    for (const orderNo of [sibling, parent]) {
      for (const url of [`${DETAIL}?orderNo=${orderNo}`, `${STATUS}?orderNo=${orderNo}`, `/api/mercury/v1/order/payCode?orderNo=${orderNo}`]) {
        const res = await c.get('partner3', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().msg).toBe('订单不存在');
      }
      for (const url of [CANCEL, REFUND]) {
        const res = await c.post('partner3', url, { orderNo, reason: '不要了' });
        expect(res.statusCode).toBe(404);
        expect(res.json().msg).toBe('订单不存在');
      }
    }
    expect((await c.data('partner3', `${PAGE}?keyword=${sibling}`)).total).toBe(0);
    // p2 reads p3's (its child) and p3b's; p2b's sibling subtree is hidden from p2.
    expect((await c.get('partner2', `${DETAIL}?orderNo=${await seededOrderOf('p3')}`)).statusCode).toBe(200);
    expect((await c.get('partner2', `${DETAIL}?orderNo=${await seededOrderOf('p3b')}`)).statusCode).toBe(200);
    expect((await c.get('partner2', `${DETAIL}?orderNo=${await seededOrderOf('p2b')}`)).statusCode).toBe(404);
    expect((await c.get('partner1', `${DETAIL}?orderNo=${await seededOrderOf('p3b')}`)).statusCode).toBe(200);
  });

  it('refuses other roles with 403 and the account calls to levels 2 and 3', async () => {
    const no = await seededOrderOf('p3');
    for (const url of [PAGE, `${DETAIL}?orderNo=${no}`, `${STATUS}?orderNo=${no}`, '/api/mercury/v1/order/export', '/api/wrongbook/v1.0/partner/getPartnerPaperConfig']) {
      const res = await c.get('teacher', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().msg).toBe('无权访问');
    }
    expect((await c.post('teacher', ADD, { items: [{ packId: packs[0].id, quantity: 1 }] })).statusCode).toBe(403);
    expect((await c.post('teacher', CANCEL, { orderNo: no })).statusCode).toBe(403);
    for (const user of ['partner2', 'partner3']) {
      expect((await c.get(user, '/api/wrongbook/v1.0/partner/getPartnerRechargeRecord?current=1&size=10')).statusCode).toBe(403);
      // The balance is every level's (levels 2 and 3 pay orders from it); recharges stay level 1's.
      expect((await c.get(user, '/api/wrongbook/v1.0/partner/getPartnerBalance')).statusCode).toBe(200);
      expect((await c.post(user, '/api/wrongbook/v1.0/partner/addPartnerRecharge', { amountFen: 10000 })).statusCode).toBe(403);
    }
  });

  it('refuses hostile input in Chinese, writing nothing', async () => {
    const before = await count(sql`SELECT count(*)::int AS n FROM partner_orders`);
    const cases: [object, number, RegExp][] = [
      [{ items: [] }, 400, /^订购纸张不能为空$/],
      [{ items: [{ packId: packs[0].id, quantity: 0 }] }, 400, /数量取值不正确/],
      [{ items: [{ packId: packs[0].id, quantity: 1000 }] }, 400, /^每种纸张每单最多订购 999 包，请分多次下单$/],
      [{ items: [{ packId: packs[0].id, quantity: 1.5 }] }, 400, /数量格式不正确/],
      [{ items: Array.from({ length: 11 }, () => ({ packId: packs[0].id, quantity: 1 })) }, 400, /^订购纸张不能超过10项$/],
      [{ items: [{ packId: packs[0].id, quantity: 1 }, { packId: packs[0].id, quantity: 2 }] }, 400, /合并为一行/],
      [{ items: [{ packId: 99999, quantity: 1 }] }, 404, /纸张规格不存在/],
      [{ items: [{ packId: 1e300, quantity: 1 }] }, 400, /纸张规格/],
      [{ items: [{ packId: packs[0].id, quantity: 1 }], remark: '备'.repeat(201) }, 400, /备注长度不能超过200个字符/],
    ];
    for (const [body, status, msg] of cases) {
      const res = await c.post('partner1', ADD, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json().msg).toMatch(msg);
    }
    expect(await count(sql`SELECT count(*)::int AS n FROM partner_orders`)).toBe(before);
    for (const orderNo of ['abc', `PO${'1'.repeat(30)}`, "PO' OR 1=1", '']) {
      const res = await c.get('partner1', `${DETAIL}?orderNo=${encodeURIComponent(orderNo)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toMatch(/订单号/);
    }
    const checks: [string, RegExp][] = [
      [`${PAGE}?payStatus=7`, /支付状态取值不正确/],
      [`${PAGE}?dateFrom=2026-13-01`, /开始日期格式不正确/],
      [`${PAGE}?dateFrom=2026-05-02&dateTo=2026-05-01`, /开始日期不能晚于结束日期/],
      [`${PAGE}?keyword=${'k'.repeat(51)}`, /关键字长度不能超过50个字符/],
      [`${PAGE}?size=100000`, /每页条数取值不正确/],
    ];
    for (const [url, msg] of checks) {
      const res = await c.get('partner1', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().msg).toMatch(msg);
    }
    const refund = await c.post('partner1', REFUND, { orderNo: (await order('partner1')).orderNo, reason: ' ' });
    expect(refund.statusCode).toBe(400);
    expect(refund.json().msg).toBe('退款原因不能为空');
  });
});

describe('the order list, filters and export', () => {
  it('filters by status, pay and refund status, dates and keyword, within the subtree', async () => {
    const all = await c.data('partner2', `${PAGE}?size=500`);
    const subtree = [partnerIds.p2, partnerIds.p3, partnerIds.p3b];
    expect(all.records.every((o: { buyerId: number }) => subtree.includes(o.buyerId))).toBe(true);
    expect(new Set(all.records.map((o: { buyerId: number }) => o.buyerId))).toEqual(new Set(subtree));
    for (const [key, value] of [['payStatus', 1], ['refundStatus', 2], ['refundStatus', 1], ['status', 3], ['status', 4]] as const) {
      const filtered = await c.data('partner2', `${PAGE}?size=500&${key}=${value}`);
      expect(filtered.total, `${key}=${value}`).toBeGreaterThan(0);
      expect(filtered.total).toBe(all.records.filter((o: Record<string, number>) => o[key] === value).length);
    }
    const from = new Date(Date.now() - 30 * 86400_000 + 8 * 3600_000).toISOString().slice(0, 10);
    const ranged = await c.data('partner2', `${PAGE}?size=500&dateFrom=${from}`);
    expect(ranged.total).toBeGreaterThan(0);
    expect(ranged.total).toBeLessThan(all.total);
    expect(ranged.records.every((o: { createdAt: string }) => o.createdAt >= new Date(`${from}T00:00:00+08:00`).toISOString())).toBe(true);
    const byName = await c.data('partner2', `${PAGE}?size=500&keyword=启明`);
    expect(byName.total).toBe(all.records.filter((o: { buyerId: number }) => o.buyerId === partnerIds.p3b).length);
  });

  it('exports every filtered row with the visible columns', async () => {
    const list = await c.data('partner1', `${PAGE}?size=10&payStatus=1`);
    expect(list.total).toBeGreaterThan(10);
    const res = await c.get('partner1', '/api/mercury/v1/order/export?payStatus=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('订单_'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, '订单号', '下单方', '供货方', '商品', '金额（元）', '订单状态', '支付状态', '退款状态', '发货状态', '下单时间', '支付时间', '备注']);
    expect(sheet.rowCount - 1).toBe(list.total);
    // 订单状态 reads 已退款 exactly where 退款状态 says the refund is done; every other paid order 已支付.
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      // An order closed unpaid whose late payment was sent back stays 已取消, its payment 已退款.
      if (row.getCell(6).value === '已取消') expect(row.getCell(8).value).toBe('已退款');
      else expect(row.getCell(6).value).toBe(row.getCell(8).value === '已退款' ? '已退款' : '已支付');
    }
    expect(sheet.getColumn(6).values.slice(2)).toContain('已支付');
    expect(sheet.getColumn(6).values.slice(2)).toContain('已退款');
    // 发货状态 of paid orders: one of the four, or '-' for one refunded before dispatch.
    for (let r = 2; r <= sheet.rowCount; r++) expect(['待发货', '部分发货', '已发货', '已收货', '-']).toContain(sheet.getRow(r).getCell(9).value);

    // The columns the user shows, in the list's order; names the export does not know are skipped.
    const chosen = await c.get('partner1', '/api/mercury/v1/order/export?payStatus=1&fields=payStatus,orderNo,nosuch,amountFen');
    const picked = new ExcelJS.Workbook();
    await picked.xlsx.load(chosen.rawPayload as unknown as ArrayBuffer);
    expect(picked.worksheets[0].getRow(1).values).toEqual([undefined, '支付状态', '订单号', '金额（元）']);
    expect(picked.worksheets[0].rowCount - 1).toBe(list.total);
    expect(picked.worksheets[0].getRow(2).getCell(2).value).toBe(sheet.getRow(2).getCell(1).value);
    const hostile = await c.get('partner1', '/api/mercury/v1/order/export?fields=a;DROP%20TABLE');
    expect(hostile.statusCode).toBe(400);
    expect(hostile.json().msg).toBe('导出列格式不正确');
  });
});

describe('payment through the sandbox gateway', () => {
  it('pays on the sandbox page; the signed notice marks the order paid and the seller earns its margin', async () => {
    const created = await order('partner2', [{ packId: packs[1].id, quantity: 4 }]);
    const sandbox = payPage(created.codeUrl);
    const pageRes = await sandbox.open();
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain('确认支付');
    expect(pageRes.body).toContain(`¥${(created.amountFen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2 })}`);
    const confirm = await sandbox.confirm(created.amountFen);
    expect(confirm.body).toContain('支付成功');
    // The list does not ask the gateway: only the notice can have made it paid.
    await vi.waitFor(async () => {
      const list = await c.data('partner2', `${PAGE}?keyword=${created.orderNo}`);
      expect(list.records[0]).toMatchObject({ status: 2, payStatus: 1 });
    }, { timeout: 5000, interval: 100 });
    const status = await c.data('partner2', `${STATUS}?orderNo=${created.orderNo}`);
    expect(status).toMatchObject({ orderNo: created.orderNo, payStatus: 1, refundStatus: 0, paidAt: expect.any(String) });
    const [entry] = await rows<{ partnerId: number; amountFen: number }>(t.database.db, sql`
      SELECT e.partner_id AS "partnerId", e.amount_fen AS "amountFen" FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${created.orderNo}`);
    expect(entry).toEqual({ partnerId: partnerIds.p1, amountFen: (packs[1].l2 - packs[1].l1) * 4 });
    // Paid twice on the page: one payment.
    const again = await sandbox.confirm(created.amountFen);
    expect(again.body).toContain('支付成功');
    expect(await count(sql`SELECT count(*)::int AS n FROM payments WHERE out_trade_no = ${created.orderNo}`)).toBe(1);
  });

  it('takes a repeated notice once', async () => {
    const created = await order('partner3');
    const first = await notify(paid(created.orderNo, created.amountFen));
    const second = await notify(paid(created.orderNo, created.amountFen));
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect([first.json().data.outcome, second.json().data.outcome]).toEqual(['applied', 'duplicate']);
    expect(await count(sql`SELECT count(*)::int AS n FROM payments WHERE out_trade_no = ${created.orderNo}`)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${created.orderNo}`)).toBe(1);
  });

  it('refunds a second payment of a paid order on its own: the order stays paid with its margin, the ledger shows both', async () => {
    const created = await order('partner2');
    const first = await notify(paid(created.orderNo, created.amountFen, `SBXFIRST${created.orderNo}`));
    const second = await notify(paid(created.orderNo, created.amountFen, `SBXSECOND${created.orderNo}`));
    expect([first.json().data.outcome, second.json().data.outcome]).toEqual(['applied', 'refund_due']);
    // The refund of the second payment completes by the gateway's notice, over HTTP.
    await vi.waitFor(
      async () => expect(await count(sql`SELECT count(*)::int AS n FROM payment_refunds WHERE out_trade_no = ${created.orderNo} AND status = 2`)).toBe(1),
      { timeout: 5000, interval: 100 },
    );
    expect(await orderRow(created.orderNo)).toEqual({ status: 2, payStatus: 1, refundStatus: 0 });
    // One margin, never reversed.
    const entries = await rows<{ kind: number; amountFen: number }>(t.database.db, sql`
      SELECT e.kind, e.amount_fen AS "amountFen" FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${created.orderNo}`);
    expect(entries).toHaveLength(1);
    expect(entries[0].amountFen).toBeGreaterThan(0);
    // The gateway's books: the second payment's refund, for its amount.
    const [gatewayRefund] = await rows<{ amountFen: number; state: string }>(t.database.db, sql`
      SELECT amount_fen AS "amountFen", state FROM sandbox_refunds WHERE out_trade_no = ${created.orderNo}`);
    expect(gatewayRefund).toEqual({ amountFen: created.amountFen, state: 'SUCCESS' });
    const detail = await c.data('partner2', `${DETAIL}?orderNo=${created.orderNo}`);
    expect(detail.refund).toBeNull();
    expect(detail.payments).toEqual([
      expect.objectContaining({ transactionId: `SBXFIRST${created.orderNo}`, outcome: 'applied', refundNo: null }),
      expect.objectContaining({ transactionId: `SBXSECOND${created.orderNo}`, outcome: 'duplicate', refundNo: expect.stringMatching(/^RF\d{20}$/), refundStatus: 2, refundedAt: expect.any(String) }),
    ]);
    // The buyer may still ask for the order's own refund.
    const refund = await c.done('partner2', REFUND, { orderNo: created.orderNo, reason: '重复下单' });
    expect(refund).toMatchObject({ amountFen: created.amountFen, status: 1 });
  });

  it('refunds every late payment of a cancelled order, each on its own after the first', async () => {
    const created = await order('partner3');
    await c.done('partner3', CANCEL, { orderNo: created.orderNo });
    await notify(paid(created.orderNo, created.amountFen, `SBXLATE1${created.orderNo}`));
    const second = await notify(paid(created.orderNo, created.amountFen, `SBXLATE2${created.orderNo}`));
    expect(second.json().data.outcome).toBe('refund_due');
    // Both refunds completed by the gateway, and their notices applied on our side.
    await vi.waitFor(async () => {
      const refunds = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM sandbox_refunds WHERE out_trade_no = ${created.orderNo} AND state = 'SUCCESS'`);
      expect(refunds[0].n).toBe(2);
      expect(await count(sql`SELECT count(*)::int AS n FROM payment_refunds WHERE out_trade_no = ${created.orderNo} AND status = 2`)).toBe(1);
      expect(await orderRow(created.orderNo)).toEqual({ status: 3, payStatus: 1, refundStatus: 2 });
    }, { timeout: 5000, interval: 100 });
  });

  it('refuses a forged notice: changed body, another key, no signature, an old timestamp', async () => {
    const created = await order('partner1');
    const tampered = await notify(paid(created.orderNo, created.amountFen), (body) => body.replace(`"amount_fen":${created.amountFen}`, `"amount_fen":${created.amountFen - 1}`));
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().msg).toBe('通知签名验证失败');
    const { body, headers } = gateway().signed(paid(created.orderNo, created.amountFen));
    const unsigned = await t.app.inject({ method: 'POST', url: NOTIFY_PATH, payload: body, headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(400);
    const old = gateway().signed(paid(created.orderNo, created.amountFen), Date.now() - 3600_000);
    expect((await t.app.inject({ method: 'POST', url: NOTIFY_PATH, payload: old.body, headers: old.headers })).statusCode).toBe(400);
    const { SandboxGateway } = await import('../../server/modules/mercury/payment/sandbox');
    const stranger = new SandboxGateway({ key: new TextEncoder().encode('not-our-key'), notifyUrl: () => undefined }).signed(paid(created.orderNo, created.amountFen));
    expect((await t.app.inject({ method: 'POST', url: NOTIFY_PATH, payload: stranger.body, headers: stranger.headers })).statusCode).toBe(400);
    expect(headers['x-sandbox-signature']).toBeTruthy();
    expect(await orderRow(created.orderNo)).toEqual({ status: 1, payStatus: 0, refundStatus: 0 });
  });

  it('refuses a notice whose amount is not the order\'s', async () => {
    const created = await order('partner1');
    const res = await notify(paid(created.orderNo, created.amountFen + 1));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('支付金额与订单金额不一致');
    expect(await orderRow(created.orderNo)).toEqual({ status: 1, payStatus: 0, refundStatus: 0 });
    expect(await count(sql`SELECT count(*)::int AS n FROM payments WHERE out_trade_no = ${created.orderNo}`)).toBe(0);
  });

  it('keeps a cancelled order cancelled when its payment arrives, and refunds it through the gateway', async () => {
    const created = await order('partner3');
    // The upline may cancel its child's unpaid order.
    const cancelled = await c.done('partner2', CANCEL, { orderNo: created.orderNo });
    expect(cancelled).toMatchObject({ status: 3, payStatus: 0 });
    const res = await notify(paid(created.orderNo, created.amountFen));
    expect(res.json().data.outcome).toBe('refund_due');
    expect(await orderRow(created.orderNo)).toEqual({ status: 3, payStatus: 1, refundStatus: 1 });
    await vi.waitFor(async () => expect((await c.data('partner3', `${STATUS}?orderNo=${created.orderNo}`)).refundStatus).toBe(2), { timeout: 5000, interval: 100 });
    expect(await orderRow(created.orderNo)).toEqual({ status: 3, payStatus: 1, refundStatus: 2 });
    // No margin for a cancelled order.
    expect(await count(sql`SELECT count(*)::int AS n FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${created.orderNo}`)).toBe(0);
    const again = await c.post('partner3', CANCEL, { orderNo: created.orderNo });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('订单已取消');
  });

  it('lets exactly one of a payment and a cancellation win when they race', async () => {
    const outcomes = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const created = await order('partner2');
      const [cancel, note] = await Promise.all([c.post('partner2', CANCEL, { orderNo: created.orderNo }), notify(paid(created.orderNo, created.amountFen))]);
      const row = await orderRow(created.orderNo);
      const margins = await count(sql`SELECT count(*)::int AS n FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${created.orderNo}`);
      if (cancel.statusCode === 200) {
        expect(note.json().data.outcome).toBe('refund_due');
        expect(row).toMatchObject({ status: 3, payStatus: 1, refundStatus: expect.any(Number) });
        expect(row.refundStatus).toBeGreaterThan(0);
        expect(margins).toBe(0);
        outcomes.add('cancel');
      } else {
        expect(cancel.statusCode).toBe(409);
        expect(cancel.json().msg).toBe('订单已支付，不能取消');
        expect(note.json().data.outcome).toBe('applied');
        expect(row).toEqual({ status: 2, payStatus: 1, refundStatus: 0 });
        expect(margins).toBe(1);
        outcomes.add('pay');
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('pays nothing on the sandbox page without the QR code\'s token, for another trade\'s token, or for another amount', async () => {
    const created = await order('partner1');
    const other = await order('partner1');
    const sandbox = payPage(created.codeUrl);
    const token = sandbox.url.searchParams.get('token')!;
    const otherToken = new URL(other.codeUrl).searchParams.get('token')!;
    // Without the token (or with another trade's) the page does not even say the trade exists.
    for (const path of [sandbox.url.pathname, `${sandbox.url.pathname}?token=${otherToken}`, `${sandbox.url.pathname}?token=x`]) {
      const res = await sandbox.open(path);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('付款码无效');
      expect(res.body).not.toContain(created.orderNo);
    }
    for (const form of <Record<string, string>[]>[{}, { amount_fen: String(created.amountFen) }, { token: otherToken, amount_fen: String(created.amountFen) }, { token: 'A'.repeat(43), amount_fen: String(created.amountFen) }]) {
      expect((await sandbox.confirm(0, form)).statusCode).toBe(403);
    }
    for (const amount of ['1', String(created.amountFen + 1), '', '-1', '1e9']) {
      const res = await sandbox.confirm(0, { token, amount_fen: amount });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('支付金额与订单金额不一致');
    }
    expect((await sandbox.confirm(0, { token: 'x'.repeat(65), amount_fen: '1' })).statusCode).toBe(400);
    expect(await orderRow(created.orderNo)).toEqual({ status: 1, payStatus: 0, refundStatus: 0 });
    expect(await count(sql`SELECT count(*)::int AS n FROM sandbox_trades WHERE out_trade_no = ${created.orderNo} AND state = 'SUCCESS'`)).toBe(0);
    // The right token and amount pay it.
    expect((await sandbox.confirm(created.amountFen)).body).toContain('支付成功');
  });

  it('closes an unpaid order 30 minutes after it was placed, and the gateway with it', async () => {
    const created = await order('partner1');
    const placed = Date.now();
    expect(await closeExpiredOrders(t.database.db, t.app.payments, new Date(placed + 29 * 60_000))).not.toContain(created.orderNo);
    expect(await closeExpiredOrders(t.database.db, t.app.payments, new Date(placed + 31 * 60_000))).toContain(created.orderNo);
    expect((await c.data('partner1', `${DETAIL}?orderNo=${created.orderNo}`)).status).toBe(4);
    const cancel = await c.post('partner1', CANCEL, { orderNo: created.orderNo });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().msg).toBe('订单已关闭，无需取消');
    expect((await c.get('partner1', `/api/mercury/v1/order/payCode?orderNo=${created.orderNo}`)).statusCode).toBe(409);
    const pageRes = await payPage(created.codeUrl).open();
    expect(pageRes.body).toContain('交易已关闭');
    const confirm = await payPage(created.codeUrl).confirm(created.amountFen);
    expect(confirm.statusCode).toBe(409);
    expect(await orderRow(created.orderNo)).toEqual({ status: 4, payStatus: 0, refundStatus: 0 });
  });

  it('refunds a paid order at its buyer\'s request: 退款中, then 已退款 by the gateway\'s notice, and reverses the margin', async () => {
    const created = await order('partner2');
    await notify(paid(created.orderNo, created.amountFen));
    const upline = await c.post('partner1', REFUND, { orderNo: created.orderNo, reason: '不要了' });
    // A business rule, not an access refusal: 403 would sign the user out.
    expect(upline.statusCode).toBe(409);
    expect(upline.json().msg).toBe('只有下单的合作伙伴可以申请退款');
    const refund = await c.done('partner2', REFUND, { orderNo: created.orderNo, reason: '规格订错' });
    expect(refund).toMatchObject({ refundNo: expect.stringMatching(/^RF\d{20}$/), amountFen: created.amountFen, status: 1 });
    expect((await c.data('partner2', `${STATUS}?orderNo=${created.orderNo}`)).refundStatus).toBeGreaterThanOrEqual(1);
    const twice = await c.post('partner2', REFUND, { orderNo: created.orderNo, reason: '规格订错' });
    expect(twice.statusCode).toBe(409);
    await vi.waitFor(async () => expect((await c.data('partner2', `${DETAIL}?orderNo=${created.orderNo}`)).refund).toMatchObject({ status: 2, reason: '规格订错' }), { timeout: 5000, interval: 100 });
    const entries = await rows<{ amountFen: number }>(t.database.db, sql`SELECT e.amount_fen AS "amountFen" FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${created.orderNo} ORDER BY e.kind`);
    expect(entries.map((e) => e.amountFen)).toEqual([entries[0].amountFen, -entries[0].amountFen]);
    const unpaid = await c.post('partner2', REFUND, { orderNo: (await order('partner2')).orderNo, reason: '不要了' });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().msg).toBe('订单未支付，不能退款');
  });
});

describe('the level-1 account', () => {
  it('lists recharges paged, credits a paid recharge to the balance', async () => {
    const records = await c.data('partner1', '/api/wrongbook/v1.0/partner/getPartnerRechargeRecord?current=1&size=4');
    expect(records).toMatchObject({ current: 1, size: 4, total: 6, pages: 2 });
    expect(records.records).toHaveLength(4);
    const before = (await c.data('partner1', '/api/wrongbook/v1.0/partner/getPartnerBalance')).balanceFen;
    const recharge = await c.done('partner1', '/api/wrongbook/v1.0/partner/addPartnerRecharge', { amountFen: 123_45 });
    expect(recharge.rechargeNo).toMatch(/^RC\d{20}$/);
    await notify(paid(recharge.rechargeNo, 123_45));
    expect((await c.data('partner1', `/api/wrongbook/v1.0/partner/getRechargePayStatus?rechargeNo=${recharge.rechargeNo}`)).payStatus).toBe(1);
    expect((await c.data('partner1', '/api/wrongbook/v1.0/partner/getPartnerBalance')).balanceFen).toBe(before + 123_45);
    // Paid a second time (another transaction): credited once, the second payment refunded.
    const again = await notify(paid(recharge.rechargeNo, 123_45, `SBXAGAIN${recharge.rechargeNo}`));
    expect(again.json().data.outcome).toBe('refund_due');
    await vi.waitFor(
      async () => expect(await count(sql`SELECT count(*)::int AS n FROM payment_refunds WHERE out_trade_no = ${recharge.rechargeNo} AND status = 2`)).toBe(1),
      { timeout: 5000, interval: 100 },
    );
    expect((await c.data('partner1', '/api/wrongbook/v1.0/partner/getPartnerBalance')).balanceFen).toBe(before + 123_45);
    const tooSmall = await c.post('partner1', '/api/wrongbook/v1.0/partner/addPartnerRecharge', { amountFen: 99 });
    expect(tooSmall.json().msg).toBe('金额取值不正确');
  });
});
