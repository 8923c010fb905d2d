// 下级合作商 in a real browser against the real server: partner1 invites a child on the screen (the
// initial password shown once), prices one pack for it; the child signs in with that password, is
// made to change it, and sees its price when ordering. The platform admin settles a level-1
// partner's confirmed statement on 一级合作商 → 结算单. Screens looked at 1440 and 375 px wide.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pageApi, signIn, submitSignIn } from '../support/browser';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const P = '/api/wrongbook/v1.0/partner';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('下级合作商', () => {
  let password = '';
  const PRICE = '23.50';

  it('partner1 invites a child and prices a pack for it', async () => {
    const page = await signIn(browser, server.url, 'partner1');
    await page.goto(`${server.url}/#/child-partners`);
    await page.getByRole('button', { name: '邀请下级' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('登录账号').fill('sx_qiming');
    await dialog.getByLabel('合作商名称').fill('绍兴越城区启明教育');
    await dialog.getByLabel('所在地区').fill('绍兴市越城区');
    await dialog.getByLabel('联系人').fill('沈一鸣');
    await dialog.getByLabel('联系电话').fill('13905751234');
    await dialog.getByRole('button', { name: '邀请' }).click();
    const shown = page.getByTestId('initial-password');
    await shown.waitFor();
    password = (await shown.innerText()).trim();
    expect(password).toMatch(/^\S{10}$/);
    await page.screenshot({ path: join(SHOTS, 'child-partners-invited-1440.png') });
    await page.getByRole('button', { name: '我已告知对方' }).click();
    const row = page.locator('tr', { hasText: '绍兴越城区启明教育' });
    await expect.poll(() => row.innerText()).toContain('sx_qiming');
    expect(await row.innerText()).toContain('启用');

    await row.getByRole('button', { name: '价格与资源' }).click();
    const packs = await pageApi<{ packId: number; name: string }[]>(page, `${P}/getPartnerPaperConfig`);
    const detail = page.getByRole('dialog');
    const input = detail.getByLabel(`${packs[0].name} 进货价`);
    await input.waitFor();
    // Below partner1's own price: refused on the screen before anything is sent.
    await input.fill('1.00');
    await expect.poll(() => detail.getByTestId(`price-${packs[0].packId}`).innerText()).toContain('应在');
    expect(await detail.getByRole('button', { name: '保存价格' }).isDisabled()).toBe(true);
    await input.fill(PRICE);
    await detail.getByRole('button', { name: '保存价格' }).click();
    await expect.poll(() => detail.getByTestId(`price-${packs[0].packId}`).innerText()).toContain(`现价 ¥${PRICE}`);
    await page.screenshot({ path: join(SHOTS, 'child-partners-prices-1440.png') });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: join(SHOTS, 'child-partners-prices-375.png') });
    await detail.getByRole('button', { name: '关闭' }).click();
    await page.getByTestId(/^child-/).first().waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'child-partners-375.png') });
    await page.context().close();
  });

  it('the child signs in with the initial password, changes it and orders at its price', async () => {
    expect(password).not.toBe('');
    const page = await submitSignIn(browser, server.url, 'sx_qiming', password);
    await page.getByRole('form', { name: '修改初始密码' }).waitFor();
    await page.getByLabel('新密码', { exact: true }).fill('Qiming2026x');
    await page.getByLabel('确认新密码').fill('Qiming2026x');
    await page.getByRole('button', { name: '设置新密码并进入' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('account.html'));
    await page.locator('main h1').first().waitFor();
    await page.goto(`${server.url}/#/orders`);
    await page.getByRole('button', { name: '新建订单' }).click();
    const dialog = page.getByRole('dialog');
    const packs = await pageApi<{ packId: number; name: string; priceFen: number }[]>(page, `${P}/getPartnerPaperConfig`);
    expect(packs[0].priceFen).toBe(2350);
    await expect.poll(() => dialog.innerText()).toContain(`¥${PRICE}`);
    await dialog.getByLabel(`${packs[0].name} 数量`).fill('2');
    await expect.poll(() => dialog.innerText()).toContain('合计 ¥47.00');
    await page.screenshot({ path: join(SHOTS, 'child-partner-order-1440.png') });
    await page.context().close();
  });
});

describe('一级合作商', () => {
  it('the platform admin settles a level-1 statement on the screen', async () => {
    const page = await signIn(browser, server.url, 'admin');
    const confirmed = await pageApi<{ records: { statementNo: string; partnerName: string }[] }>(page, `${P}/channel/statements?status=2&size=100`);
    expect(confirmed.records.length).toBeGreaterThan(0);
    const target = confirmed.records[0];
    await page.goto(`${server.url}/#/level-one-partners`);
    await page.locator('tr', { hasText: '浙江智学' }).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'level-one-partners-1440.png') });
    await page.getByRole('tab', { name: '结算单' }).click();
    const row = page.locator('tr', { hasText: target.statementNo });
    await row.getByRole('button', { name: '标记已结算' }).click();
    await expect.poll(() => row.innerText()).toContain('已结算');
    await page.screenshot({ path: join(SHOTS, 'level-one-statements-1440.png') });
    const after = await pageApi<{ records: { statementNo: string; status: number }[] }>(page, `${P}/channel/statements?size=100`);
    expect(after.records.find((s) => s.statementNo === target.statementNo)?.status).toBe(3);
    await page.setViewportSize({ width: 375, height: 812 });
    // On a phone each statement is a card with its buttons in view.
    await page.getByTestId(`statement-${target.statementNo}`).waitFor();
    expect(await page.getByTestId(`statement-${target.statementNo}`).getByRole('button', { name: '明细' }).isVisible()).toBe(true);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'level-one-statements-375.png') });
    await page.context().close();
  });
});

describe('375 px', () => {
  it("我的账户's 纸张进货 is one card per pack, the page never scrolls sideways", async () => {
    const page = await signIn(browser, server.url, 'partner1');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${server.url}/#/account`);
    const packs = await pageApi<{ packId: number; name: string; priceFen: number }[]>(page, `${P}/getPartnerPaperConfig`);
    const card = page.getByTestId(`pack-${packs[0].packId}`);
    await card.scrollIntoViewIfNeeded();
    await card.getByLabel(`${packs[0].name} 数量`).fill('3');
    await expect.poll(() => card.innerText()).toContain(`小计 ¥${((packs[0].priceFen * 3) / 100).toFixed(2)}`);
    const box = await card.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'account-packs-375.png'), fullPage: true });
    await page.context().close();
  });

  it('a level-3 partner has no 下级合作商', async () => {
    const page = await signIn(browser, server.url, 'partner3');
    await page.goto(`${server.url}/#/child-partners`);
    await page.getByText(/当前角色无权访问/).waitFor();
    expect(await page.getByRole('button', { name: '邀请下级' }).count()).toBe(0);
    await page.context().close();
  });
});
