// 使用教程 for the mini-program teacher: the eight steps (AI批改, 布置作业, 错题本) in Chinese, each with its picture
// of the product (public/guide/, made by scripts/guideShots.ts), loaded and fitting the screen at
// desktop and phone width. Screenshots at 1440 px and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-records';
const STEPS = ['设计答题卡并打印', '学生作答', '扫描或拍照上传', '提交批改', '查看报告与复核', '作文批改', '布置作业', '错题本与错题组卷'];

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

/** Every picture scrolled into view as a reader would, then measured once it has loaded. */
async function loadedImages(page: Page) {
  const images = page.getByTestId('guide-step').locator('img');
  const widths: number[] = [];
  for (let i = 0; i < (await images.count()); i++) {
    const img = images.nth(i);
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    widths.push(await img.evaluate((el: HTMLImageElement) => el.naturalWidth));
  }
  return widths;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('使用教程 (mini-program teacher)', () => {
  it('shows the eight steps (AI批改, homework, wrong-answer books) with their pictures at desktop and phone width', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    await page.getByRole('link', { name: '使用教程' }).first().click();
    await page.getByRole('heading', { level: 1, name: '使用教程' }).waitFor();

    const headings = await page.getByTestId('guide-step').getByRole('heading', { level: 2 }).allInnerTexts();
    expect(headings.map((h) => h.replace(/^第.步\s*/, ''))).toEqual(STEPS);
    const widths = await loadedImages(page);
    expect(widths).toHaveLength(STEPS.length);
    for (const w of widths) expect(w).toBeLessThanOrEqual(1200);
    expect(await page.getByTestId('guide-step').locator('figcaption').allInnerTexts()).toHaveLength(STEPS.length);
    await page.getByRole('heading', { level: 1, name: '使用教程' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/guide-1440.png` });
    await page.getByRole('heading', { name: /查看报告与复核/ }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/guide-1440-report.png` });

    // Phone width: the pictures shrink to the screen, nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '使用教程' }).waitFor();
    expect(await loadedImages(page)).toHaveLength(STEPS.length);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    for (const box of await page.getByTestId('guide-step').locator('img').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right))) {
      expect(box).toBeLessThanOrEqual(375);
    }
    await page.getByRole('heading', { level: 1, name: '使用教程' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/guide-375.png` });
    await page.getByRole('heading', { name: /学生作答/ }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/guide-375-step2.png` });

    // The way on to AI批改.
    await page.getByRole('link', { name: '去 AI批改' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect/index'));
    expect(problems).toEqual([]);
  });
});
