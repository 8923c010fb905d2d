// Orders are fulfilled, not only paid (issue 24 §2): the address book (own partner only, snapshot on
// the order), dispatch by the seller only (partial then the rest), receipt by the buyer only (or
// automatically), refunds before dispatch as before and after dispatch only with goods returned,
// by line. After every money path the ledgers are recounted from the tables: the seller's
// settlement entries equal its margin on what was kept, the buyer's balance entries what it holds,
// refunds the returned lines, and statements the entries they took.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { rows } from '../../server/db/query';
import type { SandboxGateway } from '../../server/modules/mercury/payment/sandbox';
import { NOTIFY_PATH } from '../../server/modules/mercury/payment/notifyRoutes';
import { autoConfirmReceipts } from '../../server/modules/mercury/fulfilment';
import { buildStatements, periodOf } from '../../server/modules/partner/statements';
import { AUTO_RECEIVE_DAYS } from '../../src/domain/fulfilment';

let t: TestApp;
let c: ReturnType<typeof client>;
let ids: Record<string, number>;
let packs: { id: number }[];

const P = '/api/wrongbook/v1.0/partner';
const O = '/api/mercury/v1/order';
const PL = '/api/mercury/v1/platform/order';
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  // Listening, so the sandbox gateway's refund notices reach us over real HTTP.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const ps = await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM partners`);
  const id = (prefix: string) => ps.find((p) => p.name.startsWith(prefix))!.id;
  ids = { partner1: id('浙江智学'), partner2: id('杭州学联'), partner3: id('西湖区晨光'), p2b: id('宁波甬智') };
  packs = await rows(t.database.db, sql`SELECT id FROM paper_packs ORDER BY sort`);
}, 600_000);
afterAll(() => t.close());

const db = () => t.database.db;
const gateway = () => t.app.payments as SandboxGateway;

/** The gateway's paid notice for an order (or its rest's trade), signed as the sandbox signs. */
async function payByGateway(tradeNo: string, amountFen: number) {
  const { body, headers } = gateway().signed({ kind: 'paid', outTradeNo: tradeNo, transactionId: `SBXFUL${tradeNo}`, amountFen, paidAt: new Date() });
  const res = await t.app.inject({ method: 'POST', url: NOTIFY_PATH, payload: body, headers });
  expect(res.statusCode, res.body).toBe(200);
}

async function placePaid(user: string, items: { packId: number; quantity: number }[]) {
  const placed = await c.done(user, `${P}/addPaperOrder`, { items });
  await payByGateway(placed.orderNo, placed.amountFen);
  return placed as { orderNo: string; amountFen: number };
}

const detail = (user: string, orderNo: string) => c.data(user, `${O}/detail?orderNo=${orderNo}`);
const lines = async (user: string, orderNo: string) => (await detail(user, orderNo)).items as { itemId: number; quantity: number; unitPriceFen: number; shippedQuantity: number; returnedQuantity: number }[];
const parcel = (trackingNo: string) => ({ carrier: '顺丰速运', trackingNo });

/**
 * The order's money recounted: the seller's entries equal its margin on the packs not refunded,
 * refunds done add up to the refunded packs' price, and the buyer's balance entries for the order
 * are what it paid from the balance less what came back there.
 */
async function checkOrderLedger(orderNo: string) {
  const [o] = await rows<{ id: number; sellerId: number | null; amountFen: number; balanceFen: number; refundStatus: number }>(db(), sql`
    SELECT id, seller_id AS "sellerId", amount_fen AS "amountFen", balance_fen AS "balanceFen", refund_status AS "refundStatus" FROM partner_orders WHERE order_no = ${orderNo}`);
  const [sums] = await rows<{ entries: number; keptMargin: number; refundsDone: number; refundsBalance: number; balanceEntries: number; returnsReceived: number }>(db(), sql`
    SELECT (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_entries WHERE order_id = ${o.id}) AS entries,
           (SELECT COALESCE(sum((unit_price_fen - unit_cost_fen) * quantity), 0)::int FROM partner_order_items WHERE order_id = ${o.id}) AS "keptMargin",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM order_returns WHERE order_id = ${o.id} AND status = 2) AS "returnsReceived",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM order_refunds WHERE order_id = ${o.id} AND status = 2) AS "refundsDone",
           (SELECT COALESCE(sum(balance_fen), 0)::int FROM order_refunds WHERE order_id = ${o.id} AND status = 2) AS "refundsBalance",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM balance_entries WHERE order_id = ${o.id}) AS "balanceEntries"`);
  const returnedMargin = (await rows<{ m: number }>(db(), sql`
    SELECT COALESCE(sum(r.margin_fen), 0)::int AS m FROM order_returns r JOIN order_refunds f ON f.id = r.refund_id WHERE r.order_id = ${o.id} AND f.status = 2`))[0].m;
  const wholeRefund = (await rows<{ n: number }>(db(), sql`
    SELECT count(*)::int AS n FROM order_refunds f WHERE f.order_id = ${o.id} AND f.status = 2 AND NOT EXISTS (SELECT 1 FROM order_returns r WHERE r.refund_id = f.id)`))[0].n;
  if (o.sellerId === null) expect(sums.entries).toBe(0);
  else expect(sums.entries, orderNo).toBe(wholeRefund ? 0 : sums.keptMargin - returnedMargin);
  // Returns' refunds are exactly the refunds done after dispatch.
  if (!wholeRefund) expect(sums.refundsDone).toBe(sums.returnsReceived);
  expect(sums.balanceEntries).toBe(-o.balanceFen + sums.refundsBalance);
  expect(sums.refundsDone).toBeLessThanOrEqual(o.amountFen);
  if (o.refundStatus !== 1) expect(o.refundStatus).toBe(sums.refundsDone === 0 ? 0 : sums.refundsDone === o.amountFen ? 2 : 3);
  return sums;
}

/** A partner's balance as the API answers it, against the tables. */
async function checkBalance(user: string) {
  const partnerId = ids[user];
  const [r] = await rows<{ recharged: number; settledIn: number; settledOut: number; entries: number }>(db(), sql`
    SELECT (SELECT COALESCE(sum(amount_fen), 0)::int FROM partner_recharges WHERE partner_id = ${partnerId} AND pay_status = 1) AS recharged,
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_statements WHERE partner_id = ${partnerId} AND status = 3) AS "settledIn",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM settlement_statements WHERE payer_id = ${partnerId} AND status = 3) AS "settledOut",
           (SELECT COALESCE(sum(amount_fen), 0)::int FROM balance_entries WHERE partner_id = ${partnerId}) AS entries`);
  const b = await c.data(user, `${P}/getPartnerBalance`);
  expect(b.balanceFen).toBe(r.recharged + r.settledIn - r.settledOut + r.entries);
  return b as { balanceFen: number; availableFen: number };
}

async function refusal(res: { statusCode: number; json: () => { msg: string } }, status: number, text: string | RegExp) {
  expect(res.statusCode).toBe(status);
  expect(res.json().msg).toMatch(text);
  expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
}

describe('收货地址', () => {
  it('keeps each partner to its own book, one default, and copies the address onto the order', async () => {
    const seeded = await c.data('partner3', `${P}/addresses`);
    expect(seeded.length).toBeGreaterThanOrEqual(1);
    expect(seeded.filter((a: { isDefault: boolean }) => a.isDefault)).toHaveLength(1);
    const added = await c.done('partner3', `${P}/addAddress`, { receiver: '郑凯', phone: '187 5710 3316', province: '浙江省', city: '杭州市', district: '拱墅区', detail: '丽水路 58 号 3 号楼', isDefault: true });
    expect(added).toMatchObject({ phone: '18757103316', isDefault: true });
    const book = await c.data('partner3', `${P}/addresses`);
    expect(book.filter((a: { isDefault: boolean }) => a.isDefault).map((a: { id: number }) => a.id)).toEqual([added.id]);
    // The order takes the default when none is named, and keeps its copy when the book changes.
    const placed = await c.done('partner3', `${P}/addPaperOrder`, { items: [{ packId: packs[0].id, quantity: 1 }] });
    await c.done('partner3', `${P}/updateAddress`, { ...added, detail: '丽水路 60 号' });
    expect((await detail('partner3', placed.orderNo)).shipTo).toMatchObject({ receiver: '郑凯', detail: '丽水路 58 号 3 号楼' });
    // Another partner's address: not found, for editing, deleting and ordering alike.
    await refusal(await c.post('partner2', `${P}/updateAddress`, { ...added, detail: '改别人的地址' }), 404, '收货地址不存在');
    await refusal(await c.post('partner2', `${P}/deleteAddress`, { id: added.id }), 404, '收货地址不存在');
    await refusal(await c.post('partner2', `${P}/addPaperOrder`, { items: [{ packId: packs[0].id, quantity: 1 }], addressId: added.id }), 404, '收货地址不存在');
    // Hostile input.
    const base = { receiver: '张三', phone: '13800001111', province: '浙江省', city: '杭州市', district: '西湖区', detail: '文三路 1 号' };
    await refusal(await c.post('partner3', `${P}/addAddress`, { ...base, phone: '12345' }), 400, '手机号');
    await refusal(await c.post('partner3', `${P}/addAddress`, { ...base, receiver: '<script>x</script>' }), 400, /收货人/);
    await refusal(await c.post('partner3', `${P}/addAddress`, { ...base, detail: 'x'.repeat(500) }), 400, /详细地址/);
    await refusal(await c.post('partner3', `${P}/addAddress`, { ...base, receiver: '   ' }), 400, '收货人不能为空');
    await refusal(await c.post('partner3', `${P}/deleteAddress`, { id: 99_999_999 }), 404, '收货地址不存在');
    await refusal(await c.post('teacher', `${P}/addAddress`, base), 403, /无权/);
    // Deleting the default hands it to another address; the order still has its copy.
    const after = await c.done('partner3', `${P}/deleteAddress`, { id: added.id });
    expect(after.filter((a: { isDefault: boolean }) => a.isDefault)).toHaveLength(1);
    expect((await detail('partner3', placed.orderNo)).shipTo.detail).toBe('丽水路 58 号 3 号楼');
  });
});

describe('dispatch and receipt', () => {
  it('lets only the seller dispatch, partially then the rest, and only the buyer confirm receipt', async () => {
    const placed = await placePaid('partner3', [{ packId: packs[0].id, quantity: 4 }, { packId: packs[1].id, quantity: 2 }]);
    const [a, b] = await lines('partner2', placed.orderNo);
    const ship = (user: string, body: object) => c.post(user, `${O}/ship`, { orderNo: placed.orderNo, ...parcel('SF1234567890123'), ...body });
    // Not the seller: the buyer (level 3) has no ship call at all; partner1 is above but does not sell it.
    await refusal(await ship('partner3', { lines: [{ itemId: a.itemId, quantity: 1 }] }), 403, /无权/);
    await refusal(await ship('partner1', { lines: [{ itemId: a.itemId, quantity: 1 }] }), 409, '只有该订单的供货方可以发货');
    await refusal(await c.post('admin', `${PL}/ship`, { orderNo: placed.orderNo, ...parcel('SF1234567890123'), lines: [{ itemId: a.itemId, quantity: 1 }] }), 404, '订单不存在');
    // Hostile parcels and quantities, nothing shipped.
    await refusal(await ship('partner2', { trackingNo: '<img src=x>', lines: [{ itemId: a.itemId, quantity: 1 }] }), 400, '运单号');
    await refusal(await ship('partner2', { trackingNo: 'A'.repeat(200), lines: [{ itemId: a.itemId, quantity: 1 }] }), 400, /运单号/);
    await refusal(await ship('partner2', { carrier: '随便快递', lines: [{ itemId: a.itemId, quantity: 1 }] }), 400, '请选择承运商');
    await refusal(await ship('partner2', { carrier: '其他', lines: [{ itemId: a.itemId, quantity: 1 }] }), 400, '请填写承运商名称');
    await refusal(await ship('partner2', { lines: [{ itemId: a.itemId, quantity: 5 }] }), 400, '最多还可发 4 包');
    await refusal(await ship('partner2', { lines: [{ itemId: a.itemId, quantity: 0 }] }), 400, /[\u4e00-\u9fa5]/);
    await refusal(await ship('partner2', { lines: [{ itemId: a.itemId, quantity: 1e12 }] }), 400, /[\u4e00-\u9fa5]/);
    await refusal(await ship('partner2', { lines: [{ itemId: a.itemId, quantity: 1 }, { itemId: a.itemId, quantity: 1 }] }), 400, '同一商品请合并为一行');
    const foreign = (await rows<{ id: number }>(db(), sql`SELECT i.id FROM partner_order_items i JOIN partner_orders o ON o.id = i.order_id WHERE o.order_no <> ${placed.orderNo} LIMIT 1`))[0].id;
    await refusal(await ship('partner2', { lines: [{ itemId: foreign, quantity: 1 }] }), 400, '所选商品不属于该订单');
    expect((await detail('partner2', placed.orderNo)).shipments).toHaveLength(0);

    // Partial, then the rest.
    const first = await ship('partner2', { trackingNo: 'sf1234567890123', lines: [{ itemId: a.itemId, quantity: 3 }] });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ fulfilStatus: 2, trackingNo: 'SF1234567890123' });
    const partial = await c.data('partner3', `${O}/page?fulfilStatus=2&size=100`);
    expect(partial.records.map((r: { orderNo: string }) => r.orderNo)).toContain(placed.orderNo);
    // The buyer cannot confirm half an order, nor the seller confirm for it.
    await refusal(await c.post('partner3', `${O}/confirmReceipt`, { orderNo: placed.orderNo }), 409, '尚未全部发货');
    await refusal(await ship('partner2', { lines: [{ itemId: a.itemId, quantity: 2 }] }), 400, '最多还可发 1 包');
    const rest = await ship('partner2', { carrier: '其他', carrierName: '城东同城配送', trackingNo: 'TC-20261127-01', lines: [{ itemId: a.itemId, quantity: 1 }, { itemId: b.itemId, quantity: 2 }] });
    expect(rest.json().data).toMatchObject({ fulfilStatus: 3, carrier: '城东同城配送' });
    await refusal(await ship('partner2', { lines: [{ itemId: b.itemId, quantity: 1 }] }), 409, '订单已全部发货');
    await refusal(await c.post('partner2', `${O}/confirmReceipt`, { orderNo: placed.orderNo }), 409, '只有下单的合作伙伴可以确认收货');
    // A refund as before dispatch is no longer possible: goods must come back.
    await refusal(await c.post('partner3', `${O}/applyRefund`, { orderNo: placed.orderNo, reason: '不要了' }), 409, '已发货');

    await c.done('partner3', `${O}/confirmReceipt`, { orderNo: placed.orderNo });
    const done = await detail('partner3', placed.orderNo);
    expect(done).toMatchObject({ fulfilStatus: 4, receivedAt: expect.any(String) });
    expect(done.shipments.map((s: { createdByName: string }) => s.createdByName)).toEqual(['吴芳', '吴芳']);
    expect(done.timeline.map((e: { what: string }) => e.what)).toEqual(expect.arrayContaining([expect.stringMatching(/^发货：顺丰速运 SF1234567890123/), '确认收货']));
    expect(done.timeline.find((e: { what: string }) => e.what === '确认收货').who).toContain('郑凯');
    await refusal(await c.post('partner3', `${O}/confirmReceipt`, { orderNo: placed.orderNo }), 409, '订单已确认收货');
    await checkOrderLedger(placed.orderNo);
  });

  it('refuses another subtree, unpaid orders, and dispatch after a refund before dispatch', async () => {
    const other = (await rows<{ orderNo: string }>(db(), sql`SELECT order_no AS "orderNo" FROM partner_orders WHERE buyer_id = ${ids.p2b} AND status = 2 LIMIT 1`))[0].orderNo;
    const item = (await rows<{ id: number }>(db(), sql`SELECT i.id FROM partner_order_items i JOIN partner_orders o ON o.id = i.order_id WHERE o.order_no = ${other} LIMIT 1`))[0].id;
    await refusal(await c.post('partner2', `${O}/ship`, { orderNo: other, ...parcel('SF1234567890123'), lines: [{ itemId: item, quantity: 1 }] }), 404, '订单不存在');
    await refusal(await c.post('partner3', `${O}/confirmReceipt`, { orderNo: other }), 404, '订单不存在');
    await refusal(await c.post('partner3', `${O}/applyReturn`, { orderNo: other, ...parcel('SF1234567890123'), reason: 'x', lines: [{ itemId: item, quantity: 1 }] }), 404, '订单不存在');
    await refusal(await c.post('partner2', `${O}/ship`, { orderNo: 'PO123', ...parcel('SF1234567890123'), lines: [{ itemId: item, quantity: 1 }] }), 400, /订单号/);

    const unpaid = await c.done('partner3', `${P}/addPaperOrder`, { items: [{ packId: packs[0].id, quantity: 1 }] });
    const [u] = await lines('partner3', unpaid.orderNo);
    await refusal(await c.post('partner2', `${O}/ship`, { orderNo: unpaid.orderNo, ...parcel('SF1234567890123'), lines: [{ itemId: u.itemId, quantity: 1 }] }), 409, '订单未支付，不能发货');

    // Before dispatch: refunded whole, as today; then it cannot ship.
    const placed = await placePaid('partner3', [{ packId: packs[0].id, quantity: 2 }]);
    const [x] = await lines('partner3', placed.orderNo);
    await c.done('partner3', `${O}/applyRefund`, { orderNo: placed.orderNo, reason: '规格订错' });
    await refusal(await c.post('partner2', `${O}/ship`, { orderNo: placed.orderNo, ...parcel('SF1234567890123'), lines: [{ itemId: x.itemId, quantity: 1 }] }), 409, '订单已申请退款，不能发货');
    await vi.waitFor(async () => expect((await detail('partner3', placed.orderNo)).refundStatus).toBe(2), { timeout: 8000, interval: 100 });
    await checkOrderLedger(placed.orderNo);
    // A whole-refunded order is not 待发货 on the list.
    const awaiting = await c.data('partner3', `${O}/page?fulfilStatus=1&size=100`);
    expect(awaiting.records.map((r: { orderNo: string }) => r.orderNo)).not.toContain(placed.orderNo);
  });

  it('confirms receipt automatically AUTO_RECEIVE_DAYS after the last shipment', async () => {
    const placed = await placePaid('partner3', [{ packId: packs[0].id, quantity: 1 }]);
    const [a] = await lines('partner3', placed.orderNo);
    await c.done('partner2', `${O}/ship`, { orderNo: placed.orderNo, ...parcel('YT1234567890123'), lines: [{ itemId: a.itemId, quantity: 1 }] });
    expect(await autoConfirmReceipts(db(), new Date(Date.now() + (AUTO_RECEIVE_DAYS - 1) * DAY))).not.toContain(placed.orderNo);
    expect(await autoConfirmReceipts(db(), new Date(Date.now() + AUTO_RECEIVE_DAYS * DAY + 60_000))).toContain(placed.orderNo);
    const done = await detail('partner3', placed.orderNo);
    expect(done.fulfilStatus).toBe(4);
    expect(done.timeline.at(-1)).toMatchObject({ who: '系统', what: expect.stringContaining('自动确认收货') });
  });
});

describe('returns after dispatch, refunded by line', () => {
  it('refunds returned lines through the gateway and takes back the seller margin on them, partially then wholly', async () => {
    const placed = await placePaid('partner3', [{ packId: packs[0].id, quantity: 5 }, { packId: packs[1].id, quantity: 2 }]);
    const [a, b] = await lines('partner3', placed.orderNo);
    const ret = (user: string, body: object) => c.post(user, `${O}/applyReturn`, { orderNo: placed.orderNo, ...parcel('ZT7712345678901'), carrier: '中通快递', reason: '受潮起皱', ...body });
    // Nothing shipped yet: refund as before, not a return.
    await refusal(await ret('partner3', { lines: [{ itemId: a.itemId, quantity: 1 }] }), 409, '尚未发货');
    await c.done('partner2', `${O}/ship`, { orderNo: placed.orderNo, ...parcel('SF1000000000001'), lines: [{ itemId: a.itemId, quantity: 3 }] });
    // Only shipped packs can come back; only the buyer asks; hostile tracking refused.
    await refusal(await ret('partner3', { lines: [{ itemId: a.itemId, quantity: 4 }] }), 400, '最多可退 3 包');
    await refusal(await ret('partner3', { lines: [{ itemId: b.itemId, quantity: 1 }] }), 400, '没有可退的数量');
    await refusal(await ret('partner2', { lines: [{ itemId: a.itemId, quantity: 1 }] }), 409, '只有下单的合作伙伴可以申请退货');
    await refusal(await ret('partner3', { trackingNo: "1' OR '1'='1", lines: [{ itemId: a.itemId, quantity: 1 }] }), 400, '运单号');
    await refusal(await ret('partner3', { reason: '   ', lines: [{ itemId: a.itemId, quantity: 1 }] }), 400, '退货原因不能为空');

    const asked = await ret('partner3', { lines: [{ itemId: a.itemId, quantity: 2 }] });
    expect(asked.statusCode, asked.body).toBe(200);
    const { returnNo, amountFen } = asked.json().data;
    expect(amountFen).toBe(a.unitPriceFen * 2);
    // Only the seller confirms the goods back; the buyer cannot.
    await refusal(await c.post('partner3', `${O}/receiveReturn`, { orderNo: placed.orderNo, returnNo }), 403, /无权/);
    await refusal(await c.post('partner1', `${O}/receiveReturn`, { orderNo: placed.orderNo, returnNo }), 409, '只有该订单的供货方可以确认收到退货');
    await refusal(await c.post('partner2', `${O}/receiveReturn`, { orderNo: placed.orderNo, returnNo: 'RT00000000000000000000' }), 404, '退货单不存在');
    const before = await checkOrderLedger(placed.orderNo);
    expect(before.refundsDone).toBe(0);
    const received = await c.done('partner2', `${O}/receiveReturn`, { orderNo: placed.orderNo, returnNo });
    expect(received).toMatchObject({ returnNo, amountFen, refundNo: expect.stringMatching(/^RF\d{20}$/) });
    await refusal(await c.post('partner2', `${O}/receiveReturn`, { orderNo: placed.orderNo, returnNo }), 409, '该退货已确认收货');
    await vi.waitFor(async () => expect((await detail('partner3', placed.orderNo)).refundStatus).toBe(3), { timeout: 8000, interval: 100 });
    const partly = await checkOrderLedger(placed.orderNo);
    expect(partly.refundsDone).toBe(amountFen);
    // The sandbox refunded just the returned lines of the trade.
    const [trade] = await rows<{ amountFen: number }>(db(), sql`SELECT amount_fen AS "amountFen" FROM sandbox_refunds WHERE out_refund_no = ${received.refundNo}`);
    expect(trade.amountFen).toBe(amountFen);
    const shown = await detail('partner3', placed.orderNo);
    expect(shown).toMatchObject({ refundedFen: amountFen, status: 2 });
    expect(shown.returns[0]).toMatchObject({ returnNo, status: 2, receivedByName: '吴芳', requestedByName: '郑凯' });

    // The rest shipped and all of it returned: the order is refunded whole, the margin all taken back.
    await c.done('partner2', `${O}/ship`, { orderNo: placed.orderNo, ...parcel('SF1000000000002'), lines: [{ itemId: a.itemId, quantity: 2 }, { itemId: b.itemId, quantity: 2 }] });
    const all = await ret('partner3', { lines: [{ itemId: a.itemId, quantity: 3 }, { itemId: b.itemId, quantity: 2 }] });
    expect(all.statusCode, all.body).toBe(200);
    await c.done('partner2', `${O}/receiveReturn`, { orderNo: placed.orderNo, returnNo: all.json().data.returnNo });
    await vi.waitFor(async () => expect((await detail('partner3', placed.orderNo)).refundStatus).toBe(2), { timeout: 8000, interval: 100 });
    const whole = await checkOrderLedger(placed.orderNo);
    expect(whole.refundsDone).toBe(placed.amountFen);
    expect(whole.entries).toBe(0);
    await refusal(await ret('partner3', { lines: [{ itemId: a.itemId, quantity: 1 }] }), 400, '没有可退的数量');
  });

  it('refunds a platform-sold order paid from the balance back to the balance at once, and a mixed one gateway part first', async () => {
    // partner1 buys from the platform: the administrator dispatches and takes the return.
    const recharge = await c.done('partner1', `${P}/addPartnerRecharge`, { amountFen: 2000_00 });
    await payByGateway(recharge.rechargeNo, 2000_00);
    const start = await checkBalance('partner1');
    const placed = await c.done('partner1', `${P}/addPaperOrder`, { items: [{ packId: packs[0].id, quantity: 6 }, { packId: packs[2].id, quantity: 2 }] });
    await c.done('partner1', `${O}/payByBalance`, { orderNo: placed.orderNo, balanceFen: placed.amountFen });
    const [a, b] = await lines('partner1', placed.orderNo);
    // The platform's list holds level-1 orders only; partner1 cannot dispatch what it bought.
    const platformList = await c.data('admin', `${PL}/page?fulfilStatus=1&size=100`);
    expect(platformList.records.map((r: { orderNo: string }) => r.orderNo)).toContain(placed.orderNo);
    expect(platformList.records.every((r: { buyerLevel: number; seller: boolean }) => r.buyerLevel === 1 && r.seller)).toBe(true);
    await refusal(await c.post('partner1', `${O}/ship`, { orderNo: placed.orderNo, ...parcel('SF1000000000003'), lines: [{ itemId: a.itemId, quantity: 1 }] }), 409, '只有该订单的供货方可以发货');
    await refusal(await c.post('partner1', `${PL}/ship`, { orderNo: placed.orderNo, ...parcel('SF1000000000003'), lines: [{ itemId: a.itemId, quantity: 1 }] }), 403, /无权/);
    await c.done('admin', `${PL}/ship`, { orderNo: placed.orderNo, ...parcel('SF1000000000003'), lines: [{ itemId: a.itemId, quantity: 6 }, { itemId: b.itemId, quantity: 2 }] });
    const r = await c.done('partner1', `${O}/applyReturn`, { orderNo: placed.orderNo, carrier: '顺丰速运', trackingNo: 'SF1000000000004', reason: '多订了', lines: [{ itemId: b.itemId, quantity: 1 }] });
    await c.done('admin', `${PL}/receiveReturn`, { orderNo: placed.orderNo, returnNo: r.returnNo });
    // No gateway part: done at once, the amount back on the balance.
    expect((await detail('partner1', placed.orderNo)).refundStatus).toBe(3);
    const after = await checkBalance('partner1');
    expect(after.balanceFen).toBe(start.balanceFen - placed.amountFen + b.unitPriceFen);
    const sums = await checkOrderLedger(placed.orderNo);
    expect(sums.balanceEntries).toBe(-placed.amountFen + b.unitPriceFen);

    // Mixed: part from the balance, the rest by the gateway; a return comes back from the gateway first.
    const mixed = await c.done('partner1', `${P}/addPaperOrder`, { items: [{ packId: packs[0].id, quantity: 10 }] });
    const [m] = await lines('partner1', mixed.orderNo);
    const part = m.unitPriceFen * 7;
    const paid = await c.done('partner1', `${O}/payByBalance`, { orderNo: mixed.orderNo, balanceFen: part });
    const [{ payTradeNo }] = await rows<{ payTradeNo: string }>(db(), sql`SELECT pay_trade_no AS "payTradeNo" FROM partner_orders WHERE order_no = ${mixed.orderNo}`);
    await payByGateway(payTradeNo, paid.amountFen);
    await c.done('admin', `${PL}/ship`, { orderNo: mixed.orderNo, ...parcel('SF1000000000005'), lines: [{ itemId: m.itemId, quantity: 10 }] });
    // 5 packs back: 3 packs' worth from the gateway (all it took), 2 from the balance.
    const back = await c.done('partner1', `${O}/applyReturn`, { orderNo: mixed.orderNo, carrier: '京东物流', trackingNo: 'JDVA12345678901', reason: '学校改用 A3 试卷', lines: [{ itemId: m.itemId, quantity: 5 }] });
    const done = await c.done('admin', `${PL}/receiveReturn`, { orderNo: mixed.orderNo, returnNo: back.returnNo });
    await vi.waitFor(async () => expect((await detail('partner1', mixed.orderNo)).refundStatus).toBe(3), { timeout: 8000, interval: 100 });
    const [refund] = await rows<{ amountFen: number; balanceFen: number }>(db(), sql`SELECT amount_fen AS "amountFen", balance_fen AS "balanceFen" FROM order_refunds WHERE refund_no = ${done.refundNo}`);
    expect(refund).toEqual({ amountFen: m.unitPriceFen * 5, balanceFen: m.unitPriceFen * 2 });
    const [sandbox] = await rows<{ amountFen: number }>(db(), sql`SELECT amount_fen AS "amountFen" FROM sandbox_refunds WHERE out_refund_no = ${done.refundNo}`);
    expect(sandbox.amountFen).toBe(m.unitPriceFen * 3);
    const mixedSums = await checkOrderLedger(mixed.orderNo);
    expect(mixedSums.balanceEntries).toBe(-part + m.unitPriceFen * 2);
    await checkBalance('partner1');
  });

  it('keeps statements equal to the entries they take, refunds by line included', async () => {
    // Every entry so far, margins and partial reversals, goes on next month's statements.
    const later = new Date(Date.now() + 40 * DAY);
    await buildStatements(db(), periodOf(later), new Date(later.getTime() + 40 * DAY));
    const mismatched = await rows<{ statementNo: string }>(db(), sql`
      SELECT s.statement_no AS "statementNo" FROM settlement_statements s
       WHERE s.amount_fen <> (SELECT COALESCE(sum(e.amount_fen), 0) FROM settlement_entries e WHERE e.statement_id = s.id)
          OR s.entry_count <> (SELECT count(*) FROM settlement_entries e WHERE e.statement_id = s.id)`);
    expect(mismatched).toEqual([]);
    // partner2's entries on orders with returns are margin less reversals of the returned lines.
    const orders = await rows<{ orderNo: string }>(db(), sql`SELECT DISTINCT o.order_no AS "orderNo" FROM order_returns r JOIN partner_orders o ON o.id = r.order_id`);
    expect(orders.length).toBeGreaterThan(0);
    for (const o of orders) await checkOrderLedger(o.orderNo);
  });
});
