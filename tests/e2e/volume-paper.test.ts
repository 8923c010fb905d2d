// 错题组卷 in a real browser against the real server (mini-program teacher): opened without chosen
// questions, the screen offers the class's most-missed ones; the teacher takes them all, switches
// to 个性化 with one similar question each, sees each student's share and downloads the PDF, which
// holds a section per student with their name. Screenshots at 1440 px and 375 px.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

describe('错题组卷 (mini-program teacher)', () => {
  it('builds a personalised paper from the class’s most-missed questions and downloads it', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const sel = await page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}') as { classId: string; courseId: string });
    expect(sel.classId).toBeTruthy();
    await page.goto(`${server.url}/#/wrongbook/volumnPaper?classId=${sel.classId}&courseId=${sel.courseId}`);
    await page.getByRole('heading', { level: 1, name: '错题组卷' }).waitFor();

    const candidates = page.getByTestId('volume-candidates').locator('li');
    await candidates.first().waitFor();
    const offered = await candidates.count();
    expect(offered).toBeGreaterThan(0);
    expect(offered).toBeLessThanOrEqual(20);
    await page.getByRole('button', { name: '全选' }).click();
    await expect.poll(() => page.getByTestId('volume-questions').locator(':scope > li').count()).toBe(offered);

    await page.getByRole('button', { name: '个性化' }).click();
    await page.getByRole('button', { name: '1 道' }).click();
    const students = page.getByTestId('volume-students').locator('.MuiChip-root');
    await students.first().waitFor();
    const names = (await students.allInnerTexts()).map((t) => t.replace(/\s+\d+题$/, ''));
    expect(names.length).toBeGreaterThan(1);
    // A question printed from the scan: the demo has none, and the screen says it prints re-typeset.
    await page.getByRole('group', { name: '第 1 题打印方式' }).getByRole('button', { name: '原题图片' }).click();
    await page.getByText('该题没有批改扫描件，将重新排版').first().waitFor();
    await expect.poll(() => page.getByTestId('volume-summary').innerText()).toContain('名学生各一节');

    await page.getByRole('heading', { level: 1, name: '错题组卷' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/volume-paper-1440.png` });
    await page.getByText('组卷设置').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/volume-paper-1440-settings.png` });
    // Each student's 家长查看 QR code, printed after their questions.
    await page.getByLabel(/附家长查看二维码/).check();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByRole('button', { name: '生成PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^错题卷_.*个性化\.pdf$/);
    const path = `${SHOTS}/volume-paper.pdf`;
    await download.saveAs(path);
    const text = execFileSync('pdftotext', [path, '-']).toString();
    for (const name of names) expect(text).toContain(name);
    expect(text.split('家长扫码查看学习情况').length - 1).toBe(names.length);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path]).toString())![1]);
    // Each student's section is their own answer sheet with their questions below it: at least a
    // page each (this paper's many questions run on; tests/api/volume-paper.test.ts holds the demo
    // paper to ≤ 1.5 pages a student).
    expect(pages).toBeGreaterThanOrEqual(names.length);
    await page.getByTestId('volume-sheet').waitFor();
    expect(await page.getByTestId('volume-sheet').innerText()).toContain('答题卡编号 V');

    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('heading', { level: 1, name: '错题组卷' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/volume-paper-375.png` });
    await page.getByTestId('volume-sheet').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/volume-paper-375-settings.png` });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(375);

    // The loop closes: a grading task on the paper's answer sheet.
    await page.getByRole('button', { name: '创建批改任务' }).click();
    await page.waitForFunction(() => location.hash.includes('/AICorrect/createCorrectTask?taskId='));
    expect(problems).toEqual([]);
  });
});
