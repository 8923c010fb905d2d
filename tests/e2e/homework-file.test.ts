// A homework given as a photo of the assignment with its answer key, in a real browser against the
// real server: the mini-program teacher (demo `teacher`) switches 布置作业 to 照片或文件, uploads the
// photo, types the key (选择/判断/填空/解答 with points), assigns it, and finds it in the list and in
// 作业详情 with its items and the original to open; the classic teacher's 布置作业 offers the same
// at 375 px without overflowing. Screenshots at 1440 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { startServer } from '../support/serverProcess';
import { pageApi, signIn } from '../support/browser';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import { settled } from '../support/settle';
import type { RunningServer } from '../support/serverProcess';
import type { HomeworkDetail } from '../../src/dataProvider/minerva';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-homework-file';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const isAssign = (r: Response) => r.url().endsWith('/api/minerva/v1.0/homeworks') && r.request().method() === 'POST';
const noOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function watched(user: string) {
  const page = await signIn(browser, server.url, user);
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  return { page, problems };
}

/** Fills row `i` of the key: number, kind, answer (none for 解答) and points. */
async function fillRow(page: Page, i: number, no: string, kind: string, answer: string | null, points: string) {
  await page.getByRole('textbox', { name: `第 ${i + 1} 行题号` }).fill(no);
  await page.getByTestId('key-row').nth(i).getByRole('combobox').click();
  await page.getByRole('option', { name: kind, exact: true }).click();
  if (answer !== null) await page.getByRole('textbox', { name: `第 ${i + 1} 行答案` }).fill(answer);
  await page.getByRole('spinbutton', { name: `第 ${i + 1} 行分值` }).fill(points);
}

describe('homework from a photo with an answer key', () => {
  it('the teacher uploads the photo, types the key, assigns it and finds it in the list and 作业详情', async () => {
    const { page, problems } = await watched('teacher');
    await page.goto(`${server.url}/#/assignHomework`);
    await page.getByRole('heading', { level: 1, name: '布置作业' }).waitFor();
    await page.getByRole('combobox', { name: '班级' }).click();
    await page.getByRole('option', { name: '七(1)班', exact: true }).click();
    // 七(1)班 is taught 数学 only: the subject follows.
    await expect.poll(() => page.getByRole('combobox', { name: '学科' }).innerText()).toBe('数学');
    await page.getByRole('button', { name: '照片或文件（附答案）' }).click();
    await page.getByRole('heading', { name: '1. 上传作业原件' }).waitFor();
    const assignButton = page.getByRole('button', { name: '布置作业', exact: true });
    expect(await assignButton.isDisabled()).toBe(true);

    await page.getByLabel('作业标题').fill('第三单元拍照练习');
    const photo = await homeworkPhoto([{ text: '1. 下列计算正确的是', hand: false }, { text: '2. 判断：0 是正数', hand: false }], 5);
    await page.getByTestId('homework-file-input').setInputFiles({ name: '第三单元.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect.poll(() => page.getByTestId('homework-file-name').innerText()).toMatch(/^第三单元\.jpg（\d+ KB）$/);

    await fillRow(page, 0, '1', '选择', 'b', '3');
    // An answer the key cannot take says so and keeps the button off.
    await page.getByRole('button', { name: '添加一题' }).click();
    await fillRow(page, 1, '2', '判断', '也许', '2');
    await page.getByText('填“对”或“错”').waitFor();
    expect(await assignButton.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: '第 2 行答案' }).fill('错');
    await page.getByRole('button', { name: '添加一题' }).click();
    await fillRow(page, 2, '3', '填空', '3；-3', '2');
    await page.getByRole('button', { name: '添加一题' }).click();
    await fillRow(page, 3, '4', '解答', null, '8');
    expect(await page.getByRole('textbox', { name: '第 4 行答案' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('key-total').innerText()).toBe('共 4 题，满分 15 分');
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/assign-file-1440.png`, fullPage: true });

    const [response] = await Promise.all([page.waitForResponse(isAssign), assignButton.click()]);
    const body = await response.json();
    expect(body.success, body.msg).toBe(true);
    const created = body.data as { homeworks: { id: number }[]; title: string; questionCount: number };
    expect(created).toMatchObject({ title: '第三单元拍照练习', questionCount: 4 });
    await page.getByText(`已布置「第三单元拍照练习」给 ${created.homeworks.length} 个班级`).waitFor();
    // The form starts afresh for the next one.
    expect(await page.getByTestId('homework-file-name').count()).toBe(0);

    // Listed below, marked as a photo homework; its 作业详情 shows the key's items and the original.
    const row = page.locator(`[data-homework-id="${created.homeworks[0].id}"]`);
    await expect.poll(() => row.innerText()).toContain('照片/文件作业 · 4 题');
    await row.getByRole('link', { name: '第三单元拍照练习' }).click();
    await page.getByRole('heading', { level: 1, name: '作业详情：第三单元拍照练习' }).waitFor();
    await page.getByRole('button', { name: '查看作业原件' }).waitFor();
    await page.getByRole('heading', { name: '题目分析（4 题）' }).waitFor();
    const detail = await pageApi<HomeworkDetail>(page, `/api/minerva/v1.0/homeworks/${created.homeworks[0].id}`);
    expect(detail.questions.map((q) => [q.no, q.points, q.question.answer])).toEqual([
      ['1', 3, 'B'],
      ['2', 2, '错'],
      ['3', 2, '3；-3'],
      ['4', 8, ''],
    ]);
    await page.getByText('第三单元拍照练习 第 1 题（选择题，见作业原件）').waitFor();
    // The original opens in a new tab as the image it was.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: '查看作业原件' }).click()]);
    await expect.poll(() => tab.url()).toMatch(/^blob:/);
    await tab.close();
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/detail-file-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/detail-file-375.png`, fullPage: true });
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the classic teacher’s 布置作业 offers the same at 375 px', async () => {
    // The classic teacher web is a start option of its own.
    const classicServer = await startServer({ env: { TEACHER_CLASSIC_WEB: '1' } });
    const page = await signIn(browser, classicServer.url, 'classic');
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${classicServer.url}/#/homeworkAssign`);
    await page.getByRole('heading', { level: 1, name: '布置作业' }).waitFor();
    await page.getByRole('button', { name: '照片或文件（附答案）' }).click();
    await fillRow(page, 0, '1', '填空', '12', '2');
    await page.getByRole('button', { name: '添加一题' }).click();
    expect(await page.getByRole('textbox', { name: '第 2 行题号' }).inputValue()).toBe('2');
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/assign-file-375.png`, fullPage: true });
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await page.context().close();
    await classicServer.stop();
  });
});
