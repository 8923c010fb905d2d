// A list's column choice (显示列) is kept on the server with the saved filters: it comes back in a
// new session (signing out clears the browser's store), stays the user's own, and is bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
const URL = '/api/juno/personal/savedFilters/columns';

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

describe('list columns', () => {
  it('are null until chosen, then kept per user and list, in order, across sessions', async () => {
    expect(await c.data('partner1', `${URL}?resource=orders`)).toEqual({ columns: null });
    await c.done('partner1', URL, { resource: 'orders', columns: ['orderNo', 'amountFen', 'paidAt', 'remark'] });
    await c.done('partner1', URL, { resource: 'orders', columns: ['remark', 'orderNo', 'paidAt'] });
    const token = await t.login('partner1');
    const again = await t.call(token, { method: 'GET', url: `${URL}?resource=orders` });
    expect(again.json().data).toEqual({ columns: ['remark', 'orderNo', 'paidAt'] });
    expect(await c.data('partner2', `${URL}?resource=orders`)).toEqual({ columns: null });
    expect(await c.data('partner1', `${URL}?resource=devices`)).toEqual({ columns: null });
  });

  it('refuses what is not a column list, in Chinese, and callers without a session', async () => {
    const bad: [object, RegExp][] = [
      [{ resource: 'orders', columns: ['a;DROP'] }, /显示列/],
      [{ resource: 'orders', columns: ['orderNo', 'orderNo'] }, /^显示列不能重复$/],
      [{ resource: 'orders', columns: Array.from({ length: 41 }, (_, i) => `c${i}`) }, /^显示列不能超过40项$/],
      [{ resource: '../x', columns: [] }, /格式不正确/],
      [{ resource: 'orders', columns: 'orderNo' }, /显示列/],
    ];
    for (const [body, msg] of bad) {
      const res = await c.post('partner2', URL, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toMatch(msg);
    }
    expect(await c.data('partner2', `${URL}?resource=orders`)).toEqual({ columns: null });
    expect((await t.app.inject({ method: 'GET', url: `${URL}?resource=orders` })).statusCode).toBe(401);
  });
});
