// 下级合作商 (issue 24 §5): a parent invites a child with a one-time password, edits it, prices its
// packs between its own price and the 建议零售价 (the child's orders use them), hands it terminals
// and schools and takes them back, suspends it (its sessions refused at the next request, sign-in
// and orders refused) and restores it; the platform does the same for level-1 partners. Wrong
// level, another subtree's id, prices out of bounds and hostile input are Chinese 4xx, and every
// write is in the 操作日志. Also: a parent cannot settle a child's statement beyond its available
// (not frozen) balance.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { rows } from '../../server/db/query';

let t: TestApp;
let c: ReturnType<typeof client>;
const K = '/api/wrongbook/v1.0/partner/children';
const P = '/api/wrongbook/v1.0/partner';
const CH = '/api/wrongbook/v1.0/partner/channel';
let ids: Record<string, number>;
let packs: { id: number; name: string; l1: number; l2: number; l3: number; list: number }[];

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const ps = await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM partners`);
  const id = (prefix: string) => ps.find((p) => p.name.startsWith(prefix))!.id;
  ids = { partner1: id('浙江智学'), partner2: id('杭州学联'), partner3: id('西湖区晨光') };
  packs = await rows(t.database.db, sql`SELECT id, name, price_l1_fen AS l1, price_l2_fen AS l2, price_l3_fen AS l3, list_price_fen AS list FROM paper_packs ORDER BY sort`);
}, 600_000);
afterAll(() => t.close());

const db = () => t.database.db;
const audit = async (kind: string, recordId: number) =>
  (await rows<{ action: string; summary: string }>(db(), sql`SELECT action, summary FROM audit_logs WHERE kind = ${kind} AND record_id = ${String(recordId)} ORDER BY id`)).map((a) => a.action);
const child = { name: '绍兴越城区启明教育', contactName: '沈一鸣', phone: '13905751234', region: '绍兴市越城区' };

async function invite(parent: string, username: string, fields = child) {
  return (await c.done(parent, `${K}/add`, { username, ...fields })) as { partnerId: number; password: string; username: string };
}

describe('下级合作商', () => {
  it('invites a child with a one-time password that must be changed at first sign-in, and lists it', async () => {
    const made = await invite('partner1', 'sx_qiming');
    expect(made.password).toMatch(/^\S{10}$/);
    const [row] = await rows<{ parentId: number; ancestors: string; status: number }>(db(), sql`SELECT parent_id AS "parentId", ancestors, status FROM partners WHERE id = ${made.partnerId}`);
    expect(row).toEqual({ parentId: ids.partner1, ancestors: `0,${ids.partner1}`, status: 0 });
    const login = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'sx_qiming', password: made.password } });
    expect(login.json().data.mustChangePassword).toBe(true);
    const token = login.json().data.accessToken;
    expect((await t.call(token, { method: 'GET', url: `${P}/getPartnerPaperConfig` })).json().msg).toBe('请先修改初始密码');
    const changed = await t.call(token, { method: 'POST', url: '/api/juno/auth/changePassword', payload: { oldPassword: made.password, newPassword: 'Qiming@2026x' } });
    expect(changed.statusCode, changed.body).toBe(200);
    const list = await c.data('partner1', K);
    expect(list.childLevel).toBe(2);
    expect(list.records.find((r: { id: number }) => r.id === made.partnerId)).toMatchObject({ name: child.name, username: 'sx_qiming', level: 2, status: 0, schoolCount: 0, deviceCount: 0, monthBoughtFen: 0 });
    expect(list.records.every((r: { level: number }) => r.level === 2)).toBe(true);
    expect(await audit('partner', made.partnerId)).toEqual(['create']);
    // The password never reaches the log.
    const [entry] = await rows<{ summary: string }>(db(), sql`SELECT summary FROM audit_logs WHERE kind = 'partner' AND record_id = ${String(made.partnerId)}`);
    expect(entry.summary).not.toContain(made.password);
  });

  it('refuses a level-3 partner, a taken login name, a bad phone and hostile input, in Chinese', async () => {
    const l3 = await c.post('partner3', `${K}/add`, { username: 'nobody1', ...child });
    expect(l3.statusCode).toBe(403);
    expect((await c.get('partner3', K)).statusCode).toBe(403);
    for (const role of ['teacher', 'schooladmin']) expect((await c.get(role, K)).statusCode).toBe(403);
    const taken = await c.post('partner1', `${K}/add`, { username: 'partner2', ...child });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().msg).toContain('已被使用');
    const phone = await c.post('partner1', `${K}/add`, { username: 'sx_new1', ...child, phone: '12345' });
    expect(phone.statusCode).toBe(400);
    expect(phone.json().msg).toBe('联系电话应为 11 位手机号');
    const long = await c.post('partner1', `${K}/add`, { username: 'sx_new2', ...child, name: '很'.repeat(41) });
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toMatch(/合作商名称/);
    const blank = await c.post('partner1', `${K}/add`, { username: 'sx_new3', ...child, name: '   ' });
    expect(blank.json().msg).toBe('请填写合作商名称');
    const badName = await c.post('partner1', `${K}/add`, { username: '中文 账号', ...child });
    expect(badName.statusCode).toBe(400);
  });

  it("answers 404 for another subtree's partner, a grandchild and an unknown id", async () => {
    // partner3 is partner2's child: partner1's grandchild, not its child.
    for (const [user, partnerId] of [
      ['partner1', ids.partner3],
      ['partner2', ids.partner1],
      ['partner1', 2_000_000_000],
    ] as const) {
      const res = await c.get(user, `${K}/detail?partnerId=${partnerId}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('下级合作商不存在');
      const edit = await c.post(user, `${K}/update`, { partnerId, ...child });
      expect(edit.statusCode).toBe(404);
      const price = await c.post(user, `${K}/setPrices`, { partnerId, prices: [{ packId: packs[0].id, priceFen: packs[0].l2 }] });
      expect(price.statusCode).toBe(404);
      const stop = await c.post(user, `${K}/setStatus`, { partnerId, status: 1 });
      expect(stop.statusCode).toBe(404);
    }
    expect((await c.get('partner1', `${K}/detail?partnerId=abc`)).statusCode).toBe(400);
  });

  it('edits a child, audited', async () => {
    const made = await invite('partner1', 'sx_edit');
    await c.done('partner1', `${K}/update`, { partnerId: made.partnerId, ...child, name: '绍兴柯桥区启明教育', region: '绍兴市柯桥区' });
    const detail = await c.data('partner1', `${K}/detail?partnerId=${made.partnerId}`);
    expect(detail).toMatchObject({ name: '绍兴柯桥区启明教育', region: '绍兴市柯桥区', username: 'sx_edit', awaitingPassword: true });
    expect(await audit('partner', made.partnerId)).toEqual(['create', 'update']);
  });

  it("prices a child's packs between the parent's price and the list price; the child's orders and its own children's costs follow", async () => {
    const made = await invite('partner2', 'sx_l3');
    const detail = await c.data('partner2', `${K}/detail?partnerId=${made.partnerId}`);
    const first = detail.prices.find((p: { packId: number }) => p.packId === packs[0].id);
    // Before any price is set: the level's price, bounded by partner2's own (level-2) price and the list price.
    expect(first).toMatchObject({ priceFen: packs[0].l3, setFen: null, minFen: packs[0].l2, maxFen: packs[0].list });
    const low = await c.post('partner2', `${K}/setPrices`, { partnerId: made.partnerId, prices: [{ packId: packs[0].id, priceFen: packs[0].l2 - 1 }] });
    expect(low.statusCode).toBe(400);
    expect(low.json().msg).toContain('的价格应在');
    const high = await c.post('partner2', `${K}/setPrices`, { partnerId: made.partnerId, prices: [{ packId: packs[0].id, priceFen: packs[0].list + 1 }] });
    expect(high.statusCode).toBe(400);
    expect(high.json().msg).toContain('建议零售价');
    for (const priceFen of [0, -5, 1.5, '2000', 1e12]) {
      const res = await c.post('partner2', `${K}/setPrices`, { partnerId: made.partnerId, prices: [{ packId: packs[0].id, priceFen }] });
      expect(res.statusCode, String(priceFen)).toBe(400);
    }
    const dup = await c.post('partner2', `${K}/setPrices`, { partnerId: made.partnerId, prices: [{ packId: packs[0].id, priceFen: 2300 }, { packId: packs[0].id, priceFen: 2300 }] });
    expect(dup.statusCode).toBe(400);
    const unknownPack = await c.post('partner2', `${K}/setPrices`, { partnerId: made.partnerId, prices: [{ packId: 999_999, priceFen: 2300 }] });
    expect(unknownPack.statusCode).toBe(404);
    const price = packs[0].l2 + 150;
    await c.done('partner2', `${K}/setPrices`, { partnerId: made.partnerId, prices: [{ packId: packs[0].id, priceFen: price }] });
    expect(await audit('partnerPrice', made.partnerId)).toEqual(['update']);
    // The child signs in, changes its password, and buys at that price; partner2's margin is the difference.
    const login = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'sx_l3', password: made.password } });
    const token = login.json().data.accessToken;
    await t.call(token, { method: 'POST', url: '/api/juno/auth/changePassword', payload: { oldPassword: made.password, newPassword: 'Sxl3@2026abc' } });
    const config = (await t.call(token, { method: 'GET', url: `${P}/getPartnerPaperConfig` })).json().data;
    expect(config.find((p: { packId: number }) => p.packId === packs[0].id).priceFen).toBe(price);
    expect(config.find((p: { packId: number }) => p.packId === packs[1].id).priceFen).toBe(packs[1].l3);
    // A new partner's first order needs its 收货地址 (the seller ships there).
    const address = await t.call(token, { method: 'POST', url: `${P}/addAddress`, payload: { receiver: '沈晓', phone: '13857160221', province: '浙江省', city: '绍兴市', district: '越城区', detail: '中兴中路 112 号' } });
    expect(address.statusCode, address.body).toBe(200);
    const order = (await t.call(token, { method: 'POST', url: `${P}/addPaperOrder`, payload: { items: [{ packId: packs[0].id, quantity: 3 }] } })).json().data;
    expect(order.amountFen).toBe(price * 3);
    const [o] = await rows<{ sellerId: number; sellerCostFen: number }>(db(), sql`SELECT seller_id AS "sellerId", seller_cost_fen AS "sellerCostFen" FROM partner_orders WHERE order_no = ${order.orderNo}`);
    expect(o).toEqual({ sellerId: ids.partner2, sellerCostFen: packs[0].l2 * 3 });
    // Back to the level's price.
    await c.done('partner2', `${K}/setPrices`, { partnerId: made.partnerId, prices: [{ packId: packs[0].id }] });
    const after = await c.data('partner2', `${K}/detail?partnerId=${made.partnerId}`);
    expect(after.prices[0]).toMatchObject({ priceFen: packs[0].l3, setFen: null });
  });

  it("the platform prices a level-1 partner; that partner's children never pay less than it does", async () => {
    const made = await invite('admin', 'nb_l1', { name: '宁波甬学教育科技有限公司', contactName: '贺晓', phone: '13805741234', region: '宁波市' });
    const list = await c.data('admin', K);
    expect(list.childLevel).toBe(1);
    expect(list.records.some((r: { id: number }) => r.id === ids.partner1)).toBe(true);
    const detail = await c.data('admin', `${K}/detail?partnerId=${made.partnerId}`);
    expect(detail.prices[0]).toMatchObject({ minFen: 1, maxFen: packs[0].list, priceFen: packs[0].l1 });
    // The level-1 price raised above the level-2 price: its children's default follows it up.
    const raised = packs[0].l2 + 100;
    await c.done('admin', `${K}/setPrices`, { partnerId: made.partnerId, prices: [{ packId: packs[0].id, priceFen: raised }] });
    const login = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'nb_l1', password: made.password } });
    const token = login.json().data.accessToken;
    await t.call(token, { method: 'POST', url: '/api/juno/auth/changePassword', payload: { oldPassword: made.password, newPassword: 'Nbl1@2026abc' } });
    const sub = (await t.call(token, { method: 'POST', url: `${K}/add`, payload: { username: 'nb_l2', ...child } })).json().data;
    const subDetail = (await t.call(token, { method: 'GET', url: `${K}/detail?partnerId=${sub.partnerId}` })).json().data;
    expect(subDetail.prices[0]).toMatchObject({ priceFen: raised, minFen: raised });
    // The platform hands out no terminals or schools.
    const assign = await c.post('admin', `${K}/assign`, { partnerId: made.partnerId, deviceIds: [1] });
    expect(assign.statusCode).toBe(403);
    // A level-1 partner's grandchildren are not the platform's to edit.
    expect((await c.get('admin', `${K}/detail?partnerId=${sub.partnerId}`)).statusCode).toBe(404);
  });

  it("assigns the parent's own terminals and schools to a child and takes them back, nothing else", async () => {
    const made = await invite('partner1', 'sx_assign');
    const own = await c.data('partner1', `${K}/detail?partnerId=${made.partnerId}`);
    expect(own.ownDevices.length).toBeGreaterThan(0);
    expect(own.ownSchools.length).toBeGreaterThan(0);
    const device = own.ownDevices[0].id;
    const school = own.ownSchools[0].id;
    await c.done('partner1', `${K}/assign`, { partnerId: made.partnerId, deviceIds: [device], schoolIds: [school] });
    const moved = await c.data('partner1', `${K}/detail?partnerId=${made.partnerId}`);
    expect(moved.devices.map((d: { id: number }) => d.id)).toEqual([device]);
    expect(moved.schools.map((s: { id: number }) => s.id)).toEqual([school]);
    // A terminal of partner2 (not partner1's own): refused, and nothing moves with it.
    const [p2device] = await rows<{ id: number }>(db(), sql`SELECT id FROM devices WHERE partner_id = ${ids.partner2} LIMIT 1`);
    const other = await c.post('partner1', `${K}/assign`, { partnerId: made.partnerId, deviceIds: [p2device.id, own.ownDevices[1]?.id ?? device] });
    expect(other.statusCode).toBe(404);
    expect((await c.data('partner1', `${K}/detail?partnerId=${made.partnerId}`)).devices).toHaveLength(1);
    expect((await c.post('partner1', `${K}/assign`, { partnerId: made.partnerId })).statusCode).toBe(400);
    await c.done('partner1', `${K}/reclaim`, { partnerId: made.partnerId, deviceIds: [device], schoolIds: [school] });
    const back = await c.data('partner1', `${K}/detail?partnerId=${made.partnerId}`);
    expect(back.devices).toEqual([]);
    expect(back.schools).toEqual([]);
    expect(await audit('partner', made.partnerId)).toEqual(['create', 'assign', 'unassign']);
  });

  it('suspends a child: its session is refused at the next request, it cannot sign in or order; restored, it can', async () => {
    const made = await invite('partner1', 'sx_stop');
    const first = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'sx_stop', password: made.password } });
    const token = first.json().data.accessToken;
    await t.call(token, { method: 'POST', url: '/api/juno/auth/changePassword', payload: { oldPassword: made.password, newPassword: 'Sxstop@2026ab' } });
    expect((await t.call(token, { method: 'GET', url: `${P}/getPartnerPaperConfig` })).statusCode).toBe(200);
    await c.done('partner1', `${K}/setStatus`, { partnerId: made.partnerId, status: 1 });
    expect((await t.call(token, { method: 'GET', url: `${P}/getPartnerPaperConfig` })).statusCode).toBe(401);
    const order = await t.call(token, { method: 'POST', url: `${P}/addPaperOrder`, payload: { items: [{ packId: packs[0].id, quantity: 1 }] } });
    expect(order.statusCode).toBe(401);
    const again = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'sx_stop', password: 'Sxstop@2026ab' } });
    expect(again.statusCode).toBe(403);
    expect(again.json().msg).toContain('已停用');
    expect((await c.post('partner1', `${K}/setStatus`, { partnerId: made.partnerId, status: 1 })).statusCode).toBe(409);
    expect((await c.post('partner1', `${K}/setStatus`, { partnerId: made.partnerId, status: 7 })).statusCode).toBe(400);
    await c.done('partner1', `${K}/setStatus`, { partnerId: made.partnerId, status: 0 });
    const back = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'sx_stop', password: 'Sxstop@2026ab' } });
    expect(back.statusCode).toBe(200);
    const backToken = back.json().data.accessToken;
    await t.call(backToken, { method: 'POST', url: `${P}/addAddress`, payload: { receiver: '沈晓', phone: '13857160221', province: '浙江省', city: '绍兴市', district: '越城区', detail: '中兴中路 112 号' } });
    const placed = await t.call(backToken, { method: 'POST', url: `${P}/addPaperOrder`, payload: { items: [{ packId: packs[0].id, quantity: 1 }] } });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await audit('partner', made.partnerId)).toEqual(['create', 'disable', 'enable']);
  });
});

describe("settling a child's statement", () => {
  it("is refused when the payer's available balance, frozen withdrawals set aside, cannot cover it", async () => {
    // A confirmed statement partner1 pays partner2, made here so the amount is known.
    const [{ id: stId }] = await rows<{ id: number }>(db(), sql`
      INSERT INTO settlement_statements (statement_no, partner_id, payer_id, period, amount_fen, entry_count, status, confirmed_at)
      VALUES ('ST20200101000000000001', ${ids.partner2}, ${ids.partner1}, '2020-01', 1000, 0, 2, now()) RETURNING id`);
    const bal = await c.data('partner1', `${P}/getPartnerBalance`);
    // Freeze all but 5 yuan of partner1's available balance in a withdrawal under review.
    const freeze = bal.availableFen - 500;
    expect(freeze).toBeGreaterThan(0);
    await rows(db(), sql`
      WITH w AS (INSERT INTO partner_withdrawals (withdrawal_no, partner_id, amount_fen, bank_name, account_name, account_no)
                 VALUES ('WD20200101000000000001', ${ids.partner1}, ${freeze}, '中国银行', '浙江智学', '6216600000000000') RETURNING id)
      INSERT INTO balance_entries (partner_id, kind, frozen_fen, withdrawal_id) SELECT ${ids.partner1}, 3, ${freeze}, id FROM w RETURNING id`);
    const refused = await c.post('partner1', `${CH}/settleStatement`, { statementNo: 'ST20200101000000000001' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toContain('可用余额不足，不能结算');
    expect(refused.json().msg).toContain('提现审核中冻结');
    const [st] = await rows<{ status: number }>(db(), sql`SELECT status FROM settlement_statements WHERE id = ${stId}`);
    expect(st.status).toBe(2);
    // The withdrawal rejected (unfrozen): the statement settles.
    await c.done('admin', '/api/wrongbook/v1.0/platform/withdrawals/reject', { withdrawalNo: 'WD20200101000000000001', reason: '测试解冻' });
    await c.done('partner1', `${CH}/settleStatement`, { statementNo: 'ST20200101000000000001' });
  });
});
