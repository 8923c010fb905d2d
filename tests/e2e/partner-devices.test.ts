// 设备管理 in a real browser against a server whose demo terminals have uploaded 90 days of usage
// through the device API: partner3 (level 3) sees its own terminals, filters by online status and
// deployment and gets exactly the API's rows, opens a terminal's history; /channel-info and
// /account are not for level 3.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
let page: Page;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const API = '/api/wrongbook/v1.0/partner/devices/page?size=100';

beforeAll(async () => {
  await ensureWebBuild();
  server = await startServer({ demoDevices: true });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
  page = await signIn(browser, server.url, 'partner3');
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function pick(label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The serials the list shows, once it shows `count` rows. */
async function shownSerials(count: number): Promise<string[]> {
  await expect.poll(() => page.locator('td.column-serial').count()).toBe(count);
  return (await page.locator('td.column-serial').allInnerTexts()).map((s) => s.trim()).sort();
}

/** The list without filters (they live in the URL). */
async function openList() {
  await page.goto(`${server.url}/#/devices?filter=${encodeURIComponent('{}')}`);
  await page.locator('main h1', { hasText: '设备管理' }).waitFor();
  await page.locator('td.column-serial').first().waitFor();
}

const apiSerials = async (query: string) => (await pageApi<{ records: { serial: string }[] }>(page, `${API}${query}`)).records.map((r) => r.serial).sort();

describe('设备管理 for a level-3 partner', () => {
  it('lists its own terminals and filters them as the API does', async () => {
    await openList();
    const all = await apiSerials('');
    expect(all).toHaveLength(7);
    expect(await shownSerials(7)).toEqual(all);
    await page.screenshot({ path: `${SHOTS}/partner-devices.png`, fullPage: true });

    await pick('在线状态', '在线');
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"online":1');
    const online = await apiSerials('&online=1');
    expect(online.length).toBeGreaterThan(0);
    expect(online.length).toBeLessThan(7);
    expect(await shownSerials(online.length)).toEqual(online);
    expect(new Set((await page.locator('td.column-online').allInnerTexts()).map((s) => s.trim()))).toEqual(new Set(['在线']));

    await openList();
    await pick('部署状态', '未部署');
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"deployment":2');
    const stock = await apiSerials('&deployment=2');
    expect(stock).toHaveLength(1);
    expect(await shownSerials(1)).toEqual(stock);
  });

  it("opens a terminal's history: daily chart, events and print jobs", async () => {
    await openList();
    const [first] = (await pageApi<{ records: { serial: string; deployment: number }[] }>(page, `${API}&deployment=1`)).records;
    const row = page.locator('tr', { has: page.locator('td.column-serial', { hasText: first.serial }) });
    await row.getByRole('button', { name: '详情' }).click();
    const panel = page.getByRole('region', { name: '设备详情' });
    await panel.getByText(`设备 ${first.serial}`).waitFor();
    await expect.poll(() => panel.getByText(/近30天共打印 \d+ 次/).count()).toBe(1);
    // A day without prints is a bar of no height, which Playwright counts as hidden: the first day
    // of the 30 may be one (a weekend), so the chart is drawn once any bar shows.
    await panel.locator('svg .MuiBarElement-root').filter({ visible: true }).first().waitFor();
    await page.screenshot({ path: `${SHOTS}/partner-device-history.png` });
    await panel.getByRole('tab', { name: '状态记录' }).click();
    await panel.getByRole('cell', { name: '绑定学校' }).first().waitFor();
    await panel.getByRole('tab', { name: '打印记录' }).click();
    await expect.poll(() => panel.getByText(/共 \d+ 条/).innerText()).toMatch(/共 [1-9]\d* 条/);
    await page.screenshot({ path: `${SHOTS}/partner-device-jobs.png` });
    await panel.getByRole('button', { name: '关闭' }).click();
  });

  it('cannot open 渠道结算 or 我的账户', async () => {
    for (const path of ['/channel-info', '/account']) {
      await page.goto(`${server.url}/#${path}`);
      await expect.poll(() => page.getByText(/页面不存在|无权访问/).count()).toBeGreaterThan(0);
    }
    await expect.poll(() => page.getByRole('link', { name: '渠道结算' }).count()).toBe(0);
  });
});
