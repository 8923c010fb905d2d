// Money that means one thing, in a real browser against the real server: partner1's 数据看板
// shows its own purchases and margin apart from its subtree's, and its own 渠道收入 is the figure
// 渠道结算 shows for the same month; on 渠道结算 the period drives every figure; a statement's
// detail lists its order lines with both prices and its history; at 375 px 渠道结算 and 我的账户
// keep every amount inside its box and the page does not scroll sideways.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pageApi, signIn } from '../support/browser';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const CHANNEL = '/api/wrongbook/v1.0/partner/channel';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const money = (fen: number) => `¥${(fen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const yuanTile = (fen: number) => `${(fen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}元`;

/** The China month `back` months ago: its value, its label on 渠道结算 and its days. */
function chinaMonth(back: number) {
  const now = new Date(Date.now() + 8 * 3600_000);
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  return { month: first.toISOString().slice(0, 7), label: `${first.getUTCFullYear()}年${first.getUTCMonth() + 1}月`, from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

interface Summary {
  totals: { boughtFen: number; refundedFen: number; marginFen: number };
  ledger: { frozenFen: number; refundingFen: number; settleableFen: number; onStatementFen: number };
}
interface Revenue {
  boughtFen: number;
  refundedFen: number;
  marginFen: number;
  own: { boughtFen: number; refundedFen: number; marginFen: number };
}

async function expectFigures(page: Page, api: Summary) {
  const figures: [string, number][] = [
    ['下级进货额', api.totals.boughtFen],
    ['下级退款额', api.totals.refundedFen],
    ['期间渠道收入', api.totals.marginFen],
    ['冻结中', api.ledger.frozenFen],
    ['退款中', api.ledger.refundingFen],
    ['待出账', api.ledger.settleableFen],
    ['已出账', api.ledger.onStatementFen],
  ];
  for (const [label, fen] of figures) await expect.poll(() => page.getByTestId(`amount-${label}`).innerText(), { message: label }).toBe(money(fen));
}

/** Every element matching `selector` lies inside the viewport's width and inside its own box. */
async function nothingOverflows(page: Page, selector: string) {
  const report = await page.evaluate((sel) => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      const box = el.getBoundingClientRect();
      const parent = el.parentElement!.getBoundingClientRect();
      if (box.right > width + 0.5 || box.right > parent.right + 0.5 || el.scrollWidth > el.clientWidth + 1) out.push(`${el.textContent} ${box.right} / ${parent.right}`);
    }
    return out;
  }, selector);
  expect(report).toEqual([]);
}

describe('partner money on screen', () => {
  it('partner1: 数据看板 own and subtree tiles; own 渠道收入 equals 渠道结算 of the same month; the period drives every figure', async () => {
    const page = await signIn(browser, server.url, 'partner1');
    const months = [chinaMonth(0), chinaMonth(1)];
    const board = await pageApi<{ revenue: Revenue }>(page, `/api/wrongbook/v1.0/partner/board/overview?queryMode=month&month=${months[1].month}&statistics=overall&metric=pages&userKind=0`);
    // The board reads its range from the address when it opens (signing in opened it already).
    await page.goto(`${server.url}/#/overview-dashboard?queryMode=month&month=${months[1].month}`);
    await page.reload();
    await page.getByTestId('card-revenue').scrollIntoViewIfNeeded();
    const tile = (label: string) => page.getByTestId(`tile-${label}`).innerText();
    await expect.poll(() => tile('本级渠道收入')).toBe(yuanTile(board.revenue.own.marginFen));
    expect(await tile('本级进货额')).toBe(yuanTile(board.revenue.own.boughtFen - board.revenue.own.refundedFen));
    expect(await tile('含下级进货额')).toBe(yuanTile(board.revenue.boughtFen - board.revenue.refundedFen));
    expect(await tile('含下级渠道收入')).toBe(yuanTile(board.revenue.marginFen));
    // partner2 earns too, so the subtree's margin is more than partner1's own.
    expect(board.revenue.marginFen).toBeGreaterThan(board.revenue.own.marginFen);
    await page.waitForTimeout(500);
    await page.getByTestId('card-revenue').screenshot({ path: join(SHOTS, 'partner-money-board-1440.png') });

    await page.goto(`${server.url}/#/channel-info`);
    await page.getByRole('table', { name: '下级渠道' }).locator('tbody tr').first().waitFor();
    await expectFigures(page, await pageApi<Summary>(page, `${CHANNEL}/children`));
    for (const m of months) {
      await page.getByRole('combobox', { name: /统计期间/ }).click();
      await page.getByRole('option', { name: m.label, exact: true }).click();
      const api = await pageApi<Summary>(page, `${CHANNEL}/children?dateFrom=${m.from}&dateTo=${m.to}`);
      await expectFigures(page, api);
      expect(api.ledger.frozenFen + api.ledger.refundingFen + api.ledger.settleableFen + api.ledger.onStatementFen).toBe(api.totals.marginFen);
    }
    // The last month chosen is the board's: the same 渠道收入.
    await expect.poll(() => page.getByTestId('amount-期间渠道收入').innerText()).toBe(money(board.revenue.own.marginFen));
    await page.screenshot({ path: join(SHOTS, 'partner-money-channel-1440.png'), fullPage: true });

    // A statement's detail: its lines with both prices, adding up; its history.
    await page.getByRole('tab', { name: '下级结算单' }).click();
    const rejected = page.getByRole('table', { name: '结算单' }).locator('tbody tr').filter({ hasText: '已驳回' }).first();
    await expect.poll(() => rejected.getByTestId('reject-reason').innerText()).toMatch(/^原因：.+/);
    const statementNo = (await rejected.locator('td').first().innerText()).trim();
    const detail = await pageApi<{ amountFen: number; entries: { lines: { unitPriceFen: number; unitCostFen: number; quantity: number; marginFen: number }[] }[]; history: { action: string }[] }>(
      page,
      `${CHANNEL}/statementDetail?statementNo=${statementNo}`,
    );
    await rejected.getByRole('button', { name: '明细' }).click();
    const dialog = page.getByRole('dialog', { name: '结算单明细' });
    const lines = dialog.getByTestId('statement-line');
    await expect.poll(() => lines.count()).toBe(detail.entries.reduce((n, e) => n + e.lines.length, 0));
    const first = detail.entries[0].lines[0];
    const cells = await lines.first().locator('td').allInnerTexts();
    expect(cells.slice(4, 8)).toEqual([String(first.quantity), money(first.unitPriceFen), money(first.unitCostFen), money(first.marginFen)]);
    expect(await dialog.getByTestId('statement-total').innerText()).toBe(money(detail.amountFen));
    await dialog.getByText(/驳回原因：/).waitFor();
    expect(await dialog.getByRole('table', { name: '处理记录' }).locator('tbody tr').count()).toBe(detail.history.length);
    await page.waitForTimeout(500); // the dialog fades in
    await dialog.screenshot({ path: join(SHOTS, 'partner-money-statement-1440.png') });
    await page.context().close();
  });

  it('at 375 px 渠道结算 and 我的账户 keep every amount in its box', async () => {
    const page = await signIn(browser, server.url, 'partner1');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${server.url}/#/channel-info`);
    await page.getByTestId('amount-期间渠道收入').waitFor();
    await expectFigures(page, await pageApi<Summary>(page, `${CHANNEL}/children`));
    await nothingOverflows(page, '[data-testid^="amount-"]');
    await page.screenshot({ path: join(SHOTS, 'partner-money-channel-375.png'), fullPage: true });
    await page.getByRole('button', { name: '明细' }).first().click();
    await page.getByRole('dialog', { name: '结算单明细' }).getByRole('table', { name: '处理记录' }).waitFor();
    await page.waitForTimeout(500); // the dialog fades in
    await page.screenshot({ path: join(SHOTS, 'partner-money-statement-375.png') });
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/#/account`);
    const balance = await pageApi<{ balanceFen: number }>(page, '/api/wrongbook/v1.0/partner/getPartnerBalance');
    await expect.poll(() => page.getByTestId('balance').innerText()).toBe(money(balance.balanceFen));
    await nothingOverflows(page, '[data-testid="balance"], [data-testid^="account-"]');
    await page.screenshot({ path: join(SHOTS, 'partner-money-account-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: join(SHOTS, 'partner-money-account-1440.png'), fullPage: true });
    await page.context().close();
  });

  it('partner1 hides 商品 in 订单管理, and after signing out and in again it is still hidden', async () => {
    let page = await signIn(browser, server.url, 'partner1');
    const headers = () => page.locator('.RaDatagrid-headerCell').allInnerTexts();
    await page.goto(`${server.url}/#/orders`);
    await page.locator('.RaDatagrid-tbody tr').first().waitFor();
    expect(await headers()).toContain('商品');
    await page.getByRole('button', { name: '显示列' }).click();
    await page.locator('.MuiPopover-paper').getByLabel('商品', { exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(headers).not.toContain('商品');
    await expect.poll(async () => (await pageApi<{ columns: string[] | null }>(page, '/api/juno/personal/savedFilters/columns?resource=orders')).columns).toEqual(
      expect.arrayContaining(['orderNo', 'amountFen']),
    );
    // A new session starts with an empty store, as signing out leaves it; the choice comes back from the server.
    await page.context().close();
    page = await signIn(browser, server.url, 'partner1');
    await page.goto(`${server.url}/#/orders`);
    await page.locator('.RaDatagrid-tbody tr').first().waitFor();
    await expect.poll(headers).not.toContain('商品');
    expect(await headers()).toContain('订单号');
    await page.context().close();
  });
});
