// 操作日志 in a real browser against the real server: the school admin's writes appear on the
// screen with the admin's name and a Chinese summary, the 对象类型 filter narrows the list, the
// export downloads the filtered rows, the screen fits 1440 and 375 px wide, and the platform admin
// reaches the log from its home’s header and sees the school's and the partners' entries.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageSession, sessionCall, signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const work = mkdtempSync(join(tmpdir(), 'xz-e2e-audit-'));

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const rowsShown = (page: Page) => page.locator('main tbody tr');

describe('操作日志', () => {
  it('lists the school admin’s own writes, filters, exports, and fits 1440 and 375 px', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    const session = await pageSession(page);
    const room = await sessionCall<{ id: number }>(server.url, session, '/api/rooms', { json: { name: '审计演示实验室', kind: '实验室', building: '格致楼' } });
    await sessionCall(server.url, session, `/api/rooms/${room.id}`, { method: 'PUT', json: { name: '审计演示实验室', kind: '实验室', building: '格致楼', capacity: 48 } });
    await sessionCall(server.url, session, '/api/vesta/school/settings', { method: 'PUT', json: { scoreDisclosure: 1 } });

    await page.locator('nav[aria-label="主菜单"]').getByText('操作日志', { exact: true }).click();
    await page.getByRole('heading', { level: 1, name: '操作日志' }).waitFor();
    const created = page.getByRole('row', { name: /新增教室 审计演示实验室/ });
    await created.waitFor();
    await expect.poll(() => created.innerText()).toMatch(/赵校务[\s\S]*学校管理员[\s\S]*杭州市西湖区实验中学[\s\S]*新增[\s\S]*教室/);
    expect(await created.innerText()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    // Newest first: the three writes just made, above the demo term's own entries.
    const texts = await rowsShown(page).allInnerTexts();
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.slice(0, 3).map((t) => /修改成绩公开范围|修改教室|新增教室/.exec(t)?.[0])).toEqual(['修改成绩公开范围', '修改教室', '新增教室']);
    expect(await overflow(page)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/audit-log-1440.png`, fullPage: true });

    await page.getByRole('combobox', { name: '对象类型' }).click();
    await page.getByRole('option', { name: '学校设置' }).click();
    // The setting just changed and the one the admin chose at the start of term.
    await expect.poll(() => rowsShown(page).count()).toBe(2);
    expect(await rowsShown(page).first().innerText()).toMatch(/修改成绩公开范围/);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^操作日志_\d{14}\.xlsx$/);
    const path = join(work, download.suggestedFilename());
    await download.saveAs(path);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(path) as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect(sheet.rowCount).toBe(3);
    expect(String(sheet.getRow(2).getCell(8).value)).toMatch(/^修改成绩公开范围为/);

    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(300);
    expect(await overflow(page)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/audit-log-375.png`, fullPage: true });
    await page.context().close();
  });

  it('the platform admin opens it from its home’s header and sees the schools’ and partners’ entries', async () => {
    const partner = await signIn(browser, server.url, 'partner1');
    const partnerSession = await pageSession(partner);
    const packs = await sessionCall<{ packId: number }[]>(server.url, partnerSession, '/api/wrongbook/v1.0/partner/getPartnerPaperConfig');
    const order = await sessionCall<{ orderNo: string }>(server.url, partnerSession, '/api/wrongbook/v1.0/partner/addPaperOrder', { json: { items: [{ packId: packs[0].packId, quantity: 3 }] } });
    await partner.context().close();

    const page = await signIn(browser, server.url, 'admin');
    await page.getByRole('navigation', { name: '快捷入口' }).getByRole('link', { name: '操作日志' }).click();
    await page.getByRole('heading', { level: 1, name: '操作日志' }).waitFor();
    await page.getByRole('row', { name: /新增教室 审计演示实验室/ }).waitFor();
    await expect.poll(() => page.getByRole('row', { name: new RegExp(`提交纸张订单 ${order.orderNo}`) }).innerText()).toMatch(/周明[\s\S]*合作伙伴[\s\S]*浙江智学/);
    expect(await overflow(page)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/audit-log-admin-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(300);
    expect(await overflow(page)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/audit-log-admin-375.png`, fullPage: true });
    await page.context().close();
  });
});
