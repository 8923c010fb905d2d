// 区域教研员 in a real browser: the platform admin opens a new account for 杭州市西湖区 on its screen,
// the one-time password shown once signs in, must be changed, and then 学情分析 compares that region's
// schools; the admin removes the researcher, and their next request is refused. Screenshots at
// 1440 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { pageApi, pageSession, signIn, submitSignIn } from '../support/browser';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import type { RunningServer } from '../support/serverProcess';
import type { Analysis } from '../../src/domain/analysis';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)), 180_000);
afterAll(() => closeServerAndBrowser(server, browser));

describe('区域教研员 screen', () => {
  it('the admin opens an account for a region; the researcher reads its schools; removal applies at the next request', async () => {
    const admin = await signIn(browser, server.url, 'admin');
    // From the admin's full-screen home, its menu's entries sit in the header.
    await admin.getByRole('navigation', { name: '快捷入口' }).getByRole('link', { name: '区域教研员' }).click();
    await admin.waitForFunction(() => location.hash.startsWith('#/researchers'));
    const region = admin.getByTestId('region-杭州市西湖区');
    await region.getByTestId('researcher-researcher').waitFor();
    const regions = await pageApi<{ regions: { region: string; schools: string }[] }>(admin, '/api/juno/admin/researchers');
    const westLake = regions.regions.find((r) => r.region === '杭州市西湖区')!;
    expect(await region.getByText(westLake.schools).count()).toBe(1);
    // In the admin's menu.
    expect(await admin.locator('nav[aria-label="主菜单"]').getByText('区域教研员', { exact: true }).count()).toBe(1);
    await admin.screenshot({ path: `${SHOTS}/researchers-1440.png`, fullPage: true });
    await admin.setViewportSize({ width: 375, height: 800 });
    await admin.waitForTimeout(300);
    await admin.screenshot({ path: `${SHOTS}/researchers-375.png`, fullPage: true });
    expect(await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await admin.setViewportSize({ width: 1440, height: 900 });

    await region.getByRole('button', { name: '任命教研员' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByRole('tab', { name: '开通新账号' }).click();
    await dialog.getByLabel('账号').fill('west.lake');
    await dialog.getByLabel('姓名').fill('卢教研');
    await dialog.getByRole('button', { name: '开通并任命' }).click();
    const password = (await admin.getByTestId('created-password').innerText()).trim();
    expect(password).toMatch(/^[A-Za-z2-9]{10}$/);
    await admin.screenshot({ path: `${SHOTS}/researchers-created-1440.png` });
    await admin.getByRole('button', { name: '我已记下，关闭' }).click();
    await region.getByTestId('researcher-west.lake').waitFor();

    // The new researcher: the one-time password opens the change form, then 学情分析 of the region.
    const page = await submitSignIn(browser, server.url, 'west.lake', password);
    await page.getByRole('form', { name: '修改初始密码' }).waitFor();
    await page.getByLabel('新密码', { exact: true }).fill('Region7lights');
    await page.getByLabel('确认新密码').fill('Region7lights');
    await page.getByRole('button', { name: '设置新密码并进入' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('account.html'));
    await page.goto(`${server.url}/#/analysis`);
    await page.getByTestId('total-score-rate').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('drill-current').innerText()).toBe('杭州市西湖区');
    const term = await page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}').learningTerm as string);
    const a = await pageApi<Analysis>(page, `/api/analysis/v1.0/overview?term=${term}&leaderType=9`);
    expect(a.groupBy).toBe('school');
    expect(a.groups.map((g) => g.name).sort()).toEqual(westLake.schools.split('、').sort());
    await expect.poll(() => page.getByTestId('card-groups').getByTestId('group-row').allInnerTexts().then((rows) => rows.map((r) => r.split('\t')[0].trim()).sort()), { timeout: 30_000 }).toEqual(
      westLake.schools.split('、').sort(),
    );

    // Removed: the researcher's next request is refused, without signing in again.
    const session = await pageSession(page);
    await region.getByTestId('researcher-west.lake').locator('.MuiChip-deleteIcon').click();
    await admin.getByRole('button', { name: '确认免去' }).click();
    await expect.poll(() => region.getByTestId('researcher-west.lake').count()).toBe(0);
    const res = await fetch(`${server.url}/api/analysis/v1.0/overview?term=${term}&leaderType=9`, { headers: session });
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('您已不再担任“区域教研员”，将切换到您的其他角色');
    await page.context().close();
    await admin.context().close();
  }, 180_000);
});
