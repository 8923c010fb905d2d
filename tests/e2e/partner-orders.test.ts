// Paper orders in a real browser against the real server: partner1 filters its orders by pay
// status, pays an unpaid one in the sandbox gateway's page (a second tab, as a phone would) and
// sees 已支付 in the list once the gateway's notice has reached the server; partner3 (level 3)
// has no 渠道结算 or 我的账户: not in the menu, and the address shows the access-denied screen.
// partner1's 渠道结算 shows its children's margin as the API counts it, and a reissue of a
// statement its child rejected.
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

const menuEntries = (page: Page) => page.locator('nav[aria-label="主菜单"] .MuiTypography-root').allInnerTexts();
const rowsOf = (page: Page) => page.locator('.RaDatagrid-tbody tr');

async function pickFilter(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('partner orders', () => {
  it('partner1 filters by pay status and pays an order in the sandbox', async () => {
    const page = await signIn(browser, server.url, 'partner1');
    // An order of its own to pay, placed through the API as the 新建订单 form would.
    const packs = await pageApi<{ packId: number }[]>(page, '/api/wrongbook/v1.0/partner/getPartnerPaperConfig');
    const placed = await page.evaluate(async (packId) => {
      const res = await fetch('/api/wrongbook/v1.0/partner/addPaperOrder', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Blade-Auth': `bearer ${localStorage.getItem('xuezhu.accessToken')}`, 'X-Active-Role': sessionStorage.getItem('xuezhu.activeRole') ?? '' },
        body: JSON.stringify({ items: [{ packId, quantity: 6 }], remark: '浏览器测试订单' }),
      });
      return (await res.json()).data as { orderNo: string; amountFen: number };
    }, packs[0].packId);

    await page.goto(`${server.url}/#/orders`);
    await page.locator('main h1', { hasText: '订单管理' }).waitFor();
    await rowsOf(page).first().waitFor();
    await pickFilter(page, '支付状态', '未支付');
    await expect.poll(async () => new Set(await rowsOf(page).locator('td.column-payStatus').allInnerTexts())).toEqual(new Set(['未支付']));
    const unpaid = await pageApi<{ total: number }>(page, '/api/mercury/v1/order/page?payStatus=0&size=1');
    await expect.poll(() => page.locator('.MuiTablePagination-displayedRows').innerText()).toContain(`共 ${unpaid.total} 条`);
    await page.screenshot({ path: join(SHOTS, 'orders.png') });

    const row = rowsOf(page).filter({ hasText: placed.orderNo });
    await row.getByRole('button', { name: '支付' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('img', { name: '支付二维码' }).waitFor();
    await expect.poll(() => dialog.getByTestId('pay-amount').innerText()).toBe(`¥${(placed.amountFen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2 })}`);
    await page.screenshot({ path: join(SHOTS, 'orders-pay-dialog.png') });
    expect(await dialog.getByText('已支付').count()).toBe(0);

    const [gatewayPage] = await Promise.all([page.context().waitForEvent('page'), dialog.getByRole('link', { name: '在浏览器中打开支付页面' }).click()]);
    await gatewayPage.getByRole('button', { name: '确认支付' }).waitFor();
    await gatewayPage.screenshot({ path: join(SHOTS, 'sandbox-pay.png') });
    await gatewayPage.getByRole('button', { name: '确认支付' }).click();
    await gatewayPage.getByText('支付成功').waitFor();
    await gatewayPage.close();

    await dialog.getByText('已支付').waitFor();
    await dialog.getByRole('button', { name: '完成' }).click();
    await pickFilter(page, '支付状态', '已支付');
    await page.getByLabel('订单号/下单方').fill(placed.orderNo);
    await expect.poll(() => rowsOf(page).count()).toBe(1);
    await expect.poll(() => rowsOf(page).first().locator('td.column-payStatus').innerText()).toBe('已支付');
    expect(await rowsOf(page).first().locator('td.column-status').innerText()).toBe('已支付');
    // The server says so too, and the payment came by the gateway's notice.
    const status = await pageApi<{ payStatus: number }>(page, `/api/mercury/v1/order/getOrderPayStatus?orderNo=${placed.orderNo}`);
    expect(status.payStatus).toBe(1);

    await page.goto(`${server.url}/#/account`);
    await page.getByTestId('balance').waitFor();
    await page.getByText('充值记录').waitFor();
    await page.locator('main table').last().locator('tbody tr').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'account.png'), fullPage: true });
    await page.context().close();
  });

  it('partner1 reads its channel on /channel-info and reissues a statement its child rejected', async () => {
    const page = await signIn(browser, server.url, 'partner1');
    await page.goto(`${server.url}/#/channel-info`);
    const children = page.getByRole('table', { name: '下级渠道' });
    await children.locator('tbody tr').first().waitFor();
    const api = await pageApi<{ children: { name: string; marginFen: number }[] }>(page, '/api/wrongbook/v1.0/partner/channel/children');
    const shown = await page.evaluate(() => [...document.querySelectorAll('table[aria-label="下级渠道"] tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(shown.map((r) => r[0])).toEqual(api.children.map((c) => c.name));
    expect(shown.map((r) => r[5])).toEqual(api.children.map((c) => `¥${(c.marginFen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2 })}`));
    await page.getByRole('table', { name: '结算单' }).locator('tbody tr').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'channel-info.png'), fullPage: true });

    await page.getByRole('tab', { name: '下级结算单' }).click();
    const rejected = page.getByRole('table', { name: '结算单' }).locator('tbody tr').filter({ hasText: '已驳回' }).first();
    const statementNo = (await rejected.locator('td').first().innerText()).trim();
    await rejected.getByRole('button', { name: '重新提交' }).click();
    const row = page.getByRole('table', { name: '结算单' }).locator('tbody tr').filter({ hasText: statementNo });
    await expect.poll(() => row.locator('td').nth(5).innerText()).toBe('待确认');
    const after = await pageApi<{ records: { statementNo: string; status: number }[] }>(page, '/api/wrongbook/v1.0/partner/channel/statements?side=payable&size=100');
    expect(after.records.find((r) => r.statementNo === statementNo)?.status).toBe(1);
    await page.context().close();
  });

  it('partner3 has neither 渠道结算 nor 我的账户', async () => {
    const page = await signIn(browser, server.url, 'partner3');
    const menu = await menuEntries(page);
    expect(menu).toContain('订单管理');
    expect(menu).not.toContain('渠道结算');
    expect(menu).not.toContain('我的账户');
    for (const path of ['/channel-info', '/account']) {
      await page.goto(`${server.url}/#${path}`);
      // Routes a role may not open are never registered: the catch-all says so.
      await page.getByText(/当前角色无权访问/).waitFor();
      expect(await page.locator('main').getByText('账户余额').count()).toBe(0);
    }
    await page.context().close();
  });
});
