// 常用筛选: a user's saved list filters live on the server, survive signing out, stay the user's
// own, and are bounded (count, name, size, shape).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { MAX_SAVED_FILTERS } from '../../src/domain/savedFilters';

let t: TestApp;
let c: ReturnType<typeof client>;
const BASE = '/api/juno/personal/savedFilters';

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

describe('saved filters', () => {
  it('are kept per user and come back after signing out and in again', async () => {
    const saved = await c.done('partner1', `${BASE}/save`, { resource: 'orders', label: '待支付订单', filter: { payStatus: 0, keyword: '纸' } });
    expect(saved.name).toBe('待支付订单');
    // A new session: the filter is on the server, not in the browser.
    const token = await t.login('partner1');
    const res = await t.call(token, { method: 'GET', url: `${BASE}?resource=orders` });
    expect(res.json().data).toEqual([expect.objectContaining({ name: '待支付订单', filter: { payStatus: 0, keyword: '纸' } })]);
    // Another user, another resource: nothing.
    expect(await c.data('partner2', `${BASE}?resource=orders`)).toEqual([]);
    expect(await c.data('partner1', `${BASE}?resource=devices`)).toEqual([]);
  });

  it('saving under the same name replaces the filter', async () => {
    await c.done('partner2', `${BASE}/save`, { resource: 'devices', label: '离线设备', filter: { online: 2 } });
    await c.done('partner2', `${BASE}/save`, { resource: 'devices', label: '离线设备', filter: { online: 2, deployment: 1 } });
    const list = await c.data('partner2', `${BASE}?resource=devices`);
    expect(list).toHaveLength(1);
    expect(list[0].filter).toEqual({ online: 2, deployment: 1 });
  });

  it("another user's filter cannot be deleted; one's own can", async () => {
    const [mine] = await c.data('partner1', `${BASE}?resource=orders`);
    const res = await c.post('partner3', `${BASE}/remove`, { id: mine.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('常用筛选不存在');
    await c.done('partner1', `${BASE}/remove`, { id: mine.id });
    expect(await c.data('partner1', `${BASE}?resource=orders`)).toEqual([]);
  });

  it(`keeps at most ${MAX_SAVED_FILTERS} per list`, async () => {
    for (let i = 0; i < MAX_SAVED_FILTERS; i++) await c.done('teacher', `${BASE}/save`, { resource: 'homeworks', label: `筛选${i}`, filter: { page: i } });
    const res = await c.post('teacher', `${BASE}/save`, { resource: 'homeworks', label: '再多一个', filter: { page: 99 } });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe(`常用筛选最多保存${MAX_SAVED_FILTERS}个，请先删除不用的`);
  });

  it('refuses hostile input in Chinese', async () => {
    const cases: [object, string][] = [
      [{ resource: 'orders', label: '', filter: {} }, '名称不能为空'],
      [{ resource: 'orders', label: '   ', filter: { a: 1 } }, '名称不能为空'],
      [{ resource: 'orders', label: '名'.repeat(21), filter: {} }, '名称长度不能超过20个字符'],
      [{ resource: '../etc', label: 'x', filter: {} }, '列表格式不正确'],
      [{ resource: 'orders', label: 'x', filter: { nested: { deep: 1 } } }, '筛选条件'],
      [{ resource: 'orders', label: 'x', filter: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) }, '筛选条件'],
      [{ resource: 'orders', label: 'x', filter: { list: Array.from({ length: 51 }, () => 1) } }, '筛选条件'],
      [{ resource: 'orders', label: 'x', filter: { keyword: 'x'.repeat(101) } }, '筛选条件'],
      [{ resource: 'orders', label: 'x', filter: { 'bad key': 1 } }, ''],
      [{ resource: 'orders', label: 'x', filter: { n: null } }, '筛选条件格式不正确'],
    ];
    for (const [payload, message] of cases) {
      const res = await c.post('partner1', `${BASE}/save`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().msg).toContain(message);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const big = await c.post('partner1', `${BASE}/save`, {
      resource: 'orders',
      label: 'x',
      filter: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'x'.repeat(100)])),
    });
    expect(big.statusCode).toBe(400);
    expect(big.json().msg).toBe('筛选条件过多，无法保存');
    expect((await c.get('partner1', `${BASE}?resource=`)).statusCode).toBe(400);
    expect((await c.post('partner1', `${BASE}/remove`, { id: 1e12 })).statusCode).toBe(400);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}?resource=orders` });
    expect(res.statusCode).toBe(401);
  });
});
