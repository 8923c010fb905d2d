// With the classic-web flags (SPEC §6 "admin and teacher config flags") teacher and school admin
// keep their roles and get the classic routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuild();
  server = await startServer({ env: { TEACHER_CLASSIC_WEB: '1', ADMIN_CLASSIC_WEB: '1' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('classic web', () => {
  it('the classic teacher lands on homework with the teacher menu and its filters', async () => {
    const page = await signIn(browser, server.url, 'classic');
    await page.waitForFunction(() => location.hash.startsWith('#/homework'));
    await page.locator('nav[aria-label="主菜单"]').waitFor();
    expect(await page.locator('nav[aria-label="主菜单"] .MuiTypography-root').allInnerTexts()).toEqual(['作业', '考试', '试卷', '班级', '错题本', '学情分析']);
    // Header filters of /homework: class-grade, course, time. The class is chosen for the teacher.
    await expect.poll(() => page.getByText('八(2)班').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('the classic school admin lands on academic affairs', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    await page.waitForFunction(() => location.hash.startsWith('#/academic/class'));
    await page.locator('nav[aria-label="主菜单"]').waitFor();
    expect(await page.locator('nav[aria-label="主菜单"] .MuiTypography-root').allInnerTexts()).toEqual(['教务管理', '学校资源', '心声隐私', '操作日志']);
    await page.context().close();
  });
});
