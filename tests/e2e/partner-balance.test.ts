// Balance and payouts in a real browser against the real server: partner1 pays half of a new
// order from its balance in the order's pay dialog and the rest on the sandbox gateway's page;
// partner2 asks for a withdrawal to its bank account on 渠道结算 (frozen meanwhile); the platform
// admin approves it on 提现审核 with the transfer reference, and partner2 sees it 已打款.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pageApi, signIn } from '../support/browser';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const P = '/api/wrongbook/v1.0/partner';
const CH = `${P}/channel`;

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const money = (fen: number) => `¥${(fen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const plain = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

/** A POST the test makes in the signed-in page's session. */
async function pagePost<T>(page: Page, path: string, body: object): Promise<T> {
  return page.evaluate(
    async ([url, payload]) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Blade-Auth': `bearer ${localStorage.getItem('xuezhu.accessToken')}`, 'X-Active-Role': sessionStorage.getItem('xuezhu.activeRole') ?? '' },
        body: JSON.stringify(payload),
      });
      const reply = await res.json();
      if (!reply.success) throw new Error(reply.msg);
      return reply.data;
    },
    [path, body] as const,
  );
}

describe('balance and payouts', () => {
  it('partner1 pays half of an order from its balance and the rest by the QR code', async () => {
    const page = await signIn(browser, server.url, 'partner1');
    const packs = await pageApi<{ packId: number }[]>(page, `${P}/getPartnerPaperConfig`);
    const placed = await pagePost<{ orderNo: string; amountFen: number }>(page, `${P}/addPaperOrder`, { items: [{ packId: packs[0].packId, quantity: 4 }] });
    const before = await pageApi<{ availableFen: number }>(page, `${P}/getPartnerBalance`);
    const half = Math.floor(placed.amountFen / 2);
    expect(before.availableFen).toBeGreaterThan(half);
    await page.goto(`${server.url}/#/orders`);
    const row = page.locator('tr', { hasText: placed.orderNo });
    await row.getByRole('button', { name: '支付', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('balance-pay').innerText()).toContain(`可用余额 ${money(before.availableFen)}`);
    await dialog.getByLabel('余额支付金额').fill(plain(half));
    await page.screenshot({ path: join(SHOTS, 'balance-pay-dialog-1440.png') });
    await dialog.getByRole('button', { name: '余额支付' }).click();
    await expect.poll(() => dialog.getByTestId('balance-used').innerText()).toBe(`已用余额支付 ${money(half)}，请扫码支付剩余金额`);
    expect(await dialog.getByTestId('pay-amount').innerText()).toBe(money(placed.amountFen - half));
    expect((await pageApi<{ availableFen: number }>(page, `${P}/getPartnerBalance`)).availableFen).toBe(before.availableFen - half);
    // The rest on the gateway's page, as a payer's phone would.
    const [gatewayPage] = await Promise.all([page.waitForEvent('popup'), dialog.getByRole('link', { name: '在浏览器中打开支付页面' }).click()]);
    await gatewayPage.getByRole('button', { name: '确认支付' }).click();
    await gatewayPage.getByText('支付成功').waitFor();
    await gatewayPage.close();
    await dialog.getByText('已支付').waitFor({ timeout: 15_000 });
    const detail = await pageApi<{ status: number; balanceFen: number; payments: { amountFen: number }[] }>(page, `/api/mercury/v1/order/detail?orderNo=${placed.orderNo}`);
    expect(detail).toMatchObject({ status: 2, balanceFen: half, payments: [{ amountFen: placed.amountFen - half }] });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: join(SHOTS, 'balance-paid-375.png') });
    await page.close();
  });

  it('partner2 asks for a withdrawal on 渠道结算; the platform admin approves it with the transfer reference', async () => {
    // partner2 earns first: it confirms the statements waiting for it and partner1 settles them.
    const p2 = await signIn(browser, server.url, 'partner2');
    const p1 = await signIn(browser, server.url, 'partner1');
    const pending = (await pageApi<{ records: { statementNo: string; amountFen: number }[] }>(p2, `${CH}/statements?size=100&side=earned&status=1`)).records.filter((s) => s.amountFen > 0);
    for (const s of pending) {
      await pagePost(p2, `${CH}/confirmStatement`, { statementNo: s.statementNo });
      await pagePost(p1, `${CH}/settleStatement`, { statementNo: s.statementNo });
    }
    await p1.close();
    const before = await pageApi<{ availableFen: number; frozenFen: number }>(p2, `${P}/getPartnerBalance`);
    const amountFen = Math.min(before.availableFen, 300_00);
    expect(amountFen).toBeGreaterThan(100);

    await p2.goto(`${server.url}/#/channel-info`);
    await expect.poll(() => p2.getByTestId('balance-可用余额').innerText()).toContain(money(before.availableFen));
    await p2.getByRole('button', { name: '申请提现' }).click();
    const dialog = p2.getByRole('dialog', { name: '申请提现' });
    await dialog.getByLabel('提现金额').fill(plain(amountFen));
    await dialog.getByLabel('开户银行').fill('招商银行杭州分行');
    await dialog.getByLabel('户名').fill('杭州学联教育科技有限公司');
    await dialog.getByLabel('银行账号').fill('6214 8301 2345 6789');
    await p2.screenshot({ path: join(SHOTS, 'balance-withdraw-dialog-1440.png') });
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const history = p2.getByRole('table', { name: '提现记录' });
    await expect.poll(() => history.locator('tbody tr').first().innerText()).toContain('待审核');
    expect(await history.locator('tbody tr').first().innerText()).toContain('**** 6789');
    await expect.poll(() => p2.getByTestId('balance-冻结金额').innerText()).toContain(money(before.frozenFen + amountFen));
    await expect.poll(() => p2.getByTestId('balance-可用余额').innerText()).toContain(money(before.availableFen - amountFen));
    await p2.screenshot({ path: join(SHOTS, 'balance-channel-1440.png'), fullPage: true });
    await p2.setViewportSize({ width: 375, height: 812 });
    await p2.screenshot({ path: join(SHOTS, 'balance-channel-375.png'), fullPage: true });
    const withdrawalNo = (await pageApi<{ records: { withdrawalNo: string }[] }>(p2, `${P}/withdrawals?current=1&size=1`)).records[0].withdrawalNo;

    const admin = await signIn(browser, server.url, 'admin');
    await admin.goto(`${server.url}/#/withdrawal-review`);
    const row = admin.getByTestId(`review-${withdrawalNo}`);
    await expect.poll(() => row.innerText()).toContain('杭州学联');
    expect(await row.innerText()).toContain('6214830123456789');
    await admin.screenshot({ path: join(SHOTS, 'withdrawal-review-1440.png'), fullPage: true });
    await row.getByRole('button', { name: '通过' }).click();
    const approve = admin.getByRole('dialog', { name: '审核通过提现' });
    await approve.getByLabel('转账流水号').fill('CMB20261127000123');
    await approve.getByRole('button', { name: '确认通过' }).click();
    await approve.waitFor({ state: 'hidden' });
    // Pending only: the approved row leaves the list.
    await row.waitFor({ state: 'detached' });
    await admin.setViewportSize({ width: 375, height: 812 });
    await admin.getByRole('combobox', { name: /状态/ }).click();
    await admin.getByRole('option', { name: '已打款' }).click();
    await expect.poll(() => admin.getByTestId(`review-${withdrawalNo}`).innerText()).toContain('CMB20261127000123');
    await admin.screenshot({ path: join(SHOTS, 'withdrawal-review-375.png'), fullPage: true });

    await p2.reload();
    await expect.poll(() => p2.getByRole('table', { name: '提现记录' }).locator('tbody tr').first().innerText()).toContain('已打款');
    expect(await p2.getByRole('table', { name: '提现记录' }).locator('tbody tr').first().innerText()).toContain('CMB20261127000123');
    await expect.poll(() => p2.getByTestId('balance-冻结金额').innerText()).toContain(money(before.frozenFen));
    await expect.poll(() => p2.getByTestId('balance-累计提现').innerText()).toContain(money(amountFen));
  });
});
