// Fulfilment in a real browser (issue 24 §2): partner2 dispatches its child partner3's paid order
// from /orders — part of it, then the rest, with carrier and tracking number — and the list's
// 发货状态 column follows (待发货 → 部分发货 → 已发货); partner3, on a phone, confirms receipt and
// sees 已收货, the shipments and who did what in the detail's 订单动态, and its 收货地址 book. The
// pages never scroll sideways at 375 px.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const rowsOf = (page: Page) => page.locator('.RaDatagrid-tbody tr');
const fulfilOf = (page: Page, orderNo: string) => rowsOf(page).filter({ hasText: orderNo }).locator('td.column-fulfilStatus').innerText();
/** On a phone the list is cards: the order's card and its 发货状态 line. */
const cardOf = (page: Page, orderNo: string) => page.getByTestId('record-card').filter({ hasText: orderNo });
const cardFulfil = (page: Page, orderNo: string) => cardOf(page, orderNo).locator('dt:text-is("发货状态") + dd').innerText();
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function pickFilter(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

interface Item {
  itemId: number;
  name: string;
  quantity: number;
}

describe('partner fulfilment', () => {
  let orderNo: string;
  let items: Item[];

  it('partner2 dispatches partner3’s order in two parcels, and the list shows each state', async () => {
    const page = await signIn(browser, server.url, 'partner2');
    await page.setViewportSize({ width: 1440, height: 900 });
    // The demo's paid order of partner3 still waiting for its goods.
    const waiting = await pageApi<{ records: { orderNo: string; buyerName: string; seller: boolean }[] }>(page, '/api/mercury/v1/order/page?fulfilStatus=1&size=100');
    const order = waiting.records.find((r) => r.seller && r.buyerName.startsWith('西湖区晨光'));
    expect(order, '演示数据中应有 partner3 待发货的订单').toBeDefined();
    orderNo = order!.orderNo;
    items = (await pageApi<{ items: Item[] }>(page, `/api/mercury/v1/order/detail?orderNo=${orderNo}`)).items;
    const total = items.reduce((s, i) => s + i.quantity, 0);
    expect(total).toBeGreaterThan(1);

    await page.goto(`${server.url}/#/orders`);
    await page.locator('main h1', { hasText: '订单管理' }).waitFor();
    await pickFilter(page, '发货状态', '待发货');
    await page.getByLabel('订单号/下单方').fill(orderNo);
    await expect.poll(() => rowsOf(page).count()).toBe(1);
    expect(await fulfilOf(page, orderNo)).toBe('待发货');

    // First parcel: everything but one pack of the first line.
    await rowsOf(page).first().getByRole('button', { name: '发货' }).click();
    const dialog = page.getByRole('dialog', { name: '订单发货' });
    await dialog.getByText(/^寄往：/).waitFor();
    for (const [i, item] of items.entries()) await dialog.getByLabel(`${item.name} 数量`).fill(String(i === 0 ? item.quantity - 1 : item.quantity));
    if (items[0].quantity - 1 === 0 && items.length === 1) throw new Error('需要至少两包才能分两次发货');
    await dialog.getByLabel('运单号').fill('SF1357924680135');
    await page.screenshot({ path: join(SHOTS, 'fulfilment-ship-dialog.png') });
    await dialog.getByRole('button', { name: '确认发货' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The list keeps its 待发货 filter: the order leaves it; without the filter it reads 部分发货.
    await pickFilter(page, '发货状态', '部分发货');
    await expect.poll(() => rowsOf(page).count()).toBe(1);
    await expect.poll(() => fulfilOf(page, orderNo)).toBe('部分发货');
    await page.screenshot({ path: join(SHOTS, 'fulfilment-list-partial.png') });

    // Second parcel: the one pack left (the dialog offers exactly what is left), another carrier.
    await rowsOf(page).first().getByRole('button', { name: '发货' }).click();
    const second = page.getByRole('dialog', { name: '订单发货' });
    await expect.poll(() => second.getByLabel(`${items[0].name} 数量`).inputValue()).toBe('1');
    await second.getByLabel('承运商').click();
    await page.getByRole('option', { name: '中通快递', exact: true }).click();
    await second.getByLabel('运单号').fill('<b>x');
    await second.getByText('6–32 位字母、数字或短横线').waitFor();
    expect(await second.getByRole('button', { name: '确认发货' }).isDisabled()).toBe(true);
    await second.getByLabel('运单号').fill('77123456789012');
    await second.getByRole('button', { name: '确认发货' }).click();
    await second.waitFor({ state: 'detached' });
    await pickFilter(page, '发货状态', '已发货');
    await expect.poll(() => fulfilOf(page, orderNo)).toBe('已发货');
    // The seller has no 确认收货 on the row: that is the buyer's.
    expect(await rowsOf(page).first().getByRole('button', { name: '确认收货' }).count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'fulfilment-list-1440.png') });
    await page.close();
  });

  it('partner3 confirms receipt on a phone and reads who did what', async () => {
    const page = await signIn(browser, server.url, 'partner3');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${server.url}/#/orders`);
    await page.locator('main h1', { hasText: '订单管理' }).waitFor();
    await page.getByLabel('订单号/下单方').fill(orderNo);
    await expect.poll(() => page.getByTestId('record-card').count()).toBe(1);
    await expect.poll(() => cardFulfil(page, orderNo)).toBe('已发货');
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'fulfilment-list-375.png') });

    await cardOf(page, orderNo).getByRole('button', { name: '确认收货' }).click();
    const confirm = page.getByRole('dialog', { name: '确认收货' });
    await confirm.getByRole('button', { name: '确认收货' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.screenshot({ path: join(SHOTS, 'fulfilment-received-375.png') });
    await expect.poll(() => cardFulfil(page, orderNo)).toBe('已收货');
    const server3 = await pageApi<{ fulfilStatus: number }>(page, `/api/mercury/v1/order/detail?orderNo=${orderNo}`);
    expect(server3.fulfilStatus).toBe(4);

    await cardOf(page, orderNo).getByRole('button', { name: '详情' }).click();
    const detail = page.getByRole('dialog', { name: '订单详情' });
    await expect.poll(() => detail.getByTestId('order-shipment').count()).toBe(2);
    const events = await detail.getByTestId('order-event').allInnerTexts();
    expect(events.some((e) => e.includes('发货：顺丰速运 SF1357924680135') && e.includes('吴芳'))).toBe(true);
    expect(events.some((e) => e.includes('发货：中通快递 77123456789012'))).toBe(true);
    expect(events.some((e) => e.startsWith('确认收货') && e.includes('郑凯'))).toBe(true);
    await detail.getByText('收货地址').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'fulfilment-detail-375.png'), fullPage: true });
    await detail.getByRole('button', { name: '关闭' }).click();

    // The address book, reachable from the list's toolbar on a phone.
    await page.getByRole('button', { name: '收货地址' }).click();
    const book = page.getByRole('dialog', { name: '收货地址' });
    await expect.poll(() => book.getByTestId('address').count()).toBeGreaterThan(0);
    await book.getByText('默认', { exact: false }).first().waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'fulfilment-addresses-375.png') });
    const defaultAddress = await pageApi<{ receiver: string; detail: string; isDefault: boolean }[]>(page, '/api/wrongbook/v1.0/partner/addresses');
    await book.getByRole('button', { name: '关闭' }).click();
    await book.waitFor({ state: 'detached' });

    // A new order has the default address chosen already.
    await page.getByRole('button', { name: '新建订单' }).click();
    const form = page.getByRole('dialog', { name: '新建纸张订单' });
    await expect.poll(() => form.getByLabel('收货地址').innerText()).toContain(defaultAddress.find((a) => a.isDefault)!.detail);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'fulfilment-new-order-375.png') });
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('the platform administrator sees the level-1 orders it sells on 平台订单发货', async () => {
    const page = await signIn(browser, server.url, 'admin');
    await page.setViewportSize({ width: 1440, height: 900 });
    const all = await pageApi<{ total: number; records: { orderNo: string; buyerLevel: number }[] }>(page, '/api/mercury/v1/platform/order/page?size=50');
    expect(all.total).toBeGreaterThan(0);
    expect(all.records.every((r) => r.buyerLevel === 1)).toBe(true);
    await page.goto(`${server.url}/#/platform-orders`);
    await page.locator('main h1', { hasText: '平台订单发货' }).waitFor();
    await page.getByLabel('发货状态').click();
    await page.getByRole('option', { name: '已收货', exact: true }).click();
    const received = await pageApi<{ total: number; records: { orderNo: string }[] }>(page, '/api/mercury/v1/platform/order/page?size=10&fulfilStatus=4');
    expect(received.total).toBeGreaterThan(0);
    await page.getByTestId(`platform-order-${received.records[0].orderNo}`).waitFor();
    await page.screenshot({ path: join(SHOTS, 'platform-orders-1440.png') });
    await page.getByTestId(`platform-order-${received.records[0].orderNo}`).getByRole('button', { name: '详情' }).click();
    const detail = page.getByRole('dialog', { name: '订单详情' });
    await expect.poll(() => detail.getByTestId('order-shipment').count()).toBeGreaterThan(0);
    await detail.getByRole('button', { name: '关闭' }).click();
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByTestId(`platform-order-${received.records[0].orderNo}`).waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'platform-orders-375.png'), fullPage: true });
    await page.close();
  });
});
