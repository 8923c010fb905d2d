// The homework lifecycle of the classic teacher in a real browser against the real server: she
// assigns from 作业 (布置作业, which the classic web had no screen for), the new homework opens in
// her 作业详情 with her note to the students (which she rewrites); the paper builder's 试题篮
// becomes a homework; one scheduled for tomorrow says so until then; one graded from photos shows
// each student's pages; from one some have not handed in she prints and exports the 未提交名单.
// Screenshots at 1440 and 375 px.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, pageSession, sessionCall, signIn } from '../support/browser';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import { settled } from '../support/settle';
import type { RunningServer } from '../support/serverProcess';
import type { HomeworkDetail, HomeworkRecord, MissingList } from '../../src/dataProvider/minerva';
import type { Page as ApiPage } from '../../src/domain/envelope';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-homework-lifecycle';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS, { env: { TEACHER_CLASSIC_WEB: '1' } })));
afterAll(() => closeServerAndBrowser(server, browser));

const isAssign = (r: Response) => r.url().endsWith('/api/minerva/v1.0/homeworks') && r.request().method() === 'POST';
// What a teacher types: China time, whatever zone the test machine or browser is in.
const toLocal = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 16);
const noOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Signs in as the classic teacher, with every console error collected. */
async function classic() {
  const page = await signIn(browser, server.url, 'classic');
  const problems: string[] = [];
  // The server's 409 when the seeded term gave these pages already (asked first) may log.
  page.on('console', (m) => m.type() === 'error' && !/status of 409/.test(m.text()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.waitForFunction(() => location.hash.startsWith('#/homework'));
  await page.getByRole('heading', { level: 1, name: '作业' }).waitFor();
  return { page, problems };
}

/** From 作业, the 布置作业 screen. */
async function openAssign(page: Page) {
  await page.getByRole('link', { name: '布置作业' }).click();
  await page.getByRole('heading', { level: 1, name: '布置作业' }).waitFor();
}

/** Nothing went wrong in the browser; the page is closed. */
async function finish(page: Page, problems: string[]) {
  expect(problems).toEqual([]);
  await page.context().close();
}

/** Presses 布置作业 and answers 仍要布置 when the server asks about pages given before. */
async function assign(page: Page): Promise<{ homeworks: { id: number; classId: number }[]; title: string; questionCount: number }> {
  let [response] = await Promise.all([page.waitForResponse(isAssign), page.getByRole('button', { name: '布置作业', exact: true }).click()]);
  if (response.status() === 409) {
    const dialog = page.getByRole('dialog', { name: '重复布置' });
    [response] = await Promise.all([page.waitForResponse(isAssign), dialog.getByRole('button', { name: '仍要布置' }).click()]);
  }
  const body = await response.json();
  expect(body.success, body.msg).toBe(true);
  return body.data;
}

describe('the classic teacher assigns homework', () => {
  it('opens 布置作业 from 作业, assigns book pages to her class, and finds it in 作业 and 作业详情', async () => {
    const { page, problems } = await classic();
    await openAssign(page);
    expect(await page.evaluate(() => location.hash)).toBe('#/homeworkAssign');

    const books = page.getByRole('combobox', { name: '练习册' });
    await books.click();
    await page.getByRole('option').first().click();
    const pageBoxes = page.getByRole('checkbox', { name: /^第 \d+ 页/ });
    await pageBoxes.first().waitFor();
    await pageBoxes.nth(0).check();
    await page.getByRole('heading', { name: '2. 选择页面（已选 1 页）' }).waitFor();
    const due = new Date(Date.now() + 2 * 86400_000);
    await page.getByLabel('截止时间').fill(toLocal(due));
    await page.getByLabel('给学生的留言（选填）').fill('第 2 题写出完整过程');
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/classic-assign-1440.png`, fullPage: true });
    const created = await assign(page);
    await page.getByText(`已布置「${created.title}」给 ${created.homeworks.length} 个班级`).waitFor();

    // Listed below with a link to the classic 作业详情, which shows it unsubmitted.
    const [mine] = created.homeworks;
    const row = page.locator(`[data-homework-id="${mine.id}"]`);
    await row.getByRole('link', { name: created.title }).click();
    await page.waitForFunction((id) => location.hash === `#/homeworkDetails?id=${id}`, mine.id);
    await page.getByRole('heading', { level: 1, name: `作业详情：${created.title}` }).waitFor();
    const detail = await pageApi<HomeworkDetail>(page, `/api/minerva/v1.0/homeworks/${mine.id}`);
    expect(detail.questionCount).toBe(created.questionCount);
    expect(Math.abs(new Date(detail.dueAt).getTime() - due.getTime())).toBeLessThan(60_000);
    expect(await page.getByTestId('tile-submitted').innerText()).toBe(`0/${detail.studentCount}`);
    // Her note to the students is kept and shown; she rewrites it.
    expect(detail.note).toBe('第 2 题写出完整过程');
    expect(await page.getByTestId('homework-note').innerText()).toBe('给学生的留言：第 2 题写出完整过程');
    await page.getByRole('button', { name: '修改作业' }).click();
    const edit = page.getByRole('dialog', { name: '修改作业' });
    await edit.getByLabel('给学生的留言').fill('第 2、3 题写出完整过程');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByTestId('homework-note').innerText()).toBe('给学生的留言：第 2、3 题写出完整过程');
    expect((await pageApi<HomeworkDetail>(page, `/api/minerva/v1.0/homeworks/${mine.id}`)).note).toBe('第 2、3 题写出完整过程');
    await page.screenshot({ path: `${SHOTS}/classic-detail-1440.png` });

    // Back on 作业, for the class picked in the header, it is the newest row.
    await page.getByRole('link', { name: '返回' }).click();
    await page.getByRole('heading', { level: 1, name: '作业' }).waitFor();
    await page.locator(`a[href="#/homeworkDetails?id=${mine.id}"]`).waitFor();

    await page.setViewportSize({ width: 375, height: 812 });
    await openAssign(page);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/classic-assign-375.png`, fullPage: true });
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await finish(page, problems);
  });
});

describe('homework from bank questions', () => {
  it('gives the questions of the paper builder’s 试题篮 as a homework, in the basket’s order', async () => {
    const { page, problems } = await classic();
    await page.goto(`${server.url}/#/paper`);
    await page.getByRole('heading', { level: 1, name: '试卷' }).waitFor();
    const cards = page.getByTestId('bank-question');
    await cards.nth(2).waitFor();
    const chosen: number[] = [];
    for (const i of [2, 0]) {
      chosen.push(Number(await cards.nth(i).getAttribute('data-question-id')));
      await cards.nth(i).getByRole('button', { name: '加入试题篮' }).click();
    }
    await page.getByTestId('basket-item').nth(1).waitFor();
    await page.getByRole('button', { name: '布置为作业' }).click();
    await page.getByRole('heading', { level: 1, name: '布置作业' }).waitFor();
    await page.getByRole('heading', { name: '1. 题库选题（2 题，分值按题库）' }).waitFor();
    const listed = (await page.getByTestId('basket-question').evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-question-id')))));
    expect([...listed].sort()).toEqual([...chosen].sort());
    // No book to pick: the questions are the homework.
    expect(await page.getByRole('combobox', { name: '练习册' }).count()).toBe(0);
    await page.getByLabel('作业标题').fill('第三单元 题库练习');
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/bank-assign-1440.png` });
    const created = await assign(page);
    expect([created.title, created.questionCount]).toEqual(['第三单元 题库练习', 2]);
    const detail = await pageApi<HomeworkDetail & { sourceType: number }>(page, `/api/minerva/v1.0/homeworks/${created.homeworks[0].id}`);
    expect(detail.sourceType).toBe(0);
    // Numbered as the basket listed them.
    expect(detail.questions.map((q) => q.question.id)).toEqual(listed);
    // Given once: the screen is back to book pages, and the homework is listed.
    await page.getByRole('heading', { name: '1. 选择练习册' }).waitFor();
    await page.locator(`[data-homework-id="${created.homeworks[0].id}"]`).getByRole('link', { name: '第三单元 题库练习' }).waitFor();
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await finish(page, problems);
  });
});

describe('scheduled publishing', () => {
  it('assigns a homework students see only from its start time, shown as such to the teacher until then', async () => {
    const { page, problems } = await classic();
    await openAssign(page);
    await page.getByRole('combobox', { name: '练习册' }).click();
    await page.getByRole('option').first().click();
    const pageBoxes = page.getByRole('checkbox', { name: /^第 \d+ 页/ });
    await pageBoxes.first().waitFor();
    await pageBoxes.nth(1).check();
    await page.getByRole('checkbox', { name: '定时发布' }).check();
    const start = new Date(Date.now() + 86400_000);
    start.setSeconds(0, 0);
    await page.getByLabel('发布时间').fill(toLocal(start));
    await page.getByLabel('截止时间').fill(toLocal(new Date(start.getTime() + 86400_000)));
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/scheduled-assign-1440.png` });
    const created = await assign(page);
    const [mine] = created.homeworks;
    const detail = await pageApi<HomeworkDetail>(page, `/api/minerva/v1.0/homeworks/${mine.id}`);
    expect([detail.published, new Date(detail.startAt!).getTime()]).toEqual([false, start.getTime()]);

    const row = page.locator(`[data-homework-id="${mine.id}"]`);
    await row.getByTestId('homework-scheduled').waitFor();
    expect(await row.getByTestId('homework-scheduled').innerText()).toMatch(/^定时发布 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await row.getByRole('link', { name: created.title }).click();
    await page.getByRole('heading', { level: 1, name: `作业详情：${created.title}` }).waitFor();
    expect(await page.getByTestId('homework-scheduled').innerText()).toContain('学生在此之前看不到这份作业');
    await page.screenshot({ path: `${SHOTS}/scheduled-detail-1440.png` });
    // In 作业 the row says when it will be published instead of when it was assigned.
    await page.getByRole('link', { name: '返回' }).click();
    const cell = page.locator('tr', { has: page.locator(`a[href="#/homeworkDetails?id=${mine.id}"]`) }).locator('td.column-assignedAt');
    await expect.poll(() => cell.innerText()).toMatch(/^定时 .+ 发布$/);
    // Nobody could hand it in: she withdraws it.
    await page.goto(`${server.url}/#/homeworkDetails?id=${mine.id}`);
    await page.getByRole('button', { name: '撤回作业' }).click();
    await page.getByRole('dialog', { name: '撤回作业' }).getByRole('button', { name: '撤回' }).click();
    await page.getByText(`已撤回「${created.title}」`).waitFor();
    await finish(page, problems);
  });
});

describe("the students' pages", () => {
  it('shows, per student, the pages of a homework graded from photos', async () => {
    const { page, problems } = await classic();
    const headers = await pageSession(page);
    const call = <T,>(path: string, init?: { json?: unknown; form?: FormData }) => sessionCall<T>(server.url, headers, path, init);
    const listed = await pageApi<ApiPage<HomeworkRecord>>(page, '/api/minerva/v1.0/homeworks?size=1');
    const hw = listed.records[0];
    // Photos of two pages handed in by the class's first student, uploaded to an AI批改 task of the homework.
    const task = await call<{ id: number }>('/api/wrongbook/v1.0/correct/task/create', { json: { type: 1, title: '拍照批改', homeworkId: hw.id } });
    const before = await pageApi<HomeworkDetail>(page, `/api/minerva/v1.0/homeworks/${hw.id}`);
    const student = before.students[0];
    for (const [i, seed] of [21, 22].entries()) {
      const form = new FormData();
      form.append('taskId', String(task.id));
      form.append('studentId', String(student.studentId));
      const photo = await homeworkPhoto([{ text: `${i + 1}. went`, hand: true }], seed);
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `第${i + 1}页.jpg`);
      await call('/api/wrongbook/v1.0/correct/task/upload', { form });
    }
    await page.goto(`${server.url}/#/homeworkDetails?id=${hw.id}`);
    await page.getByRole('heading', { level: 1, name: `作业详情：${hw.title}` }).waitFor();
    const row = page.locator(`[data-testid="student-row"][data-student-no="${student.studentNo}"]`);
    await row.getByRole('button', { name: '查看 2 页' }).click();
    const dialog = page.getByRole('dialog', { name: `${student.name}的作业页（2 页）` });
    const images = dialog.getByTestId('student-page-image');
    await expect.poll(() => images.count()).toBe(2);
    // Both photos loaded (decoded), not broken images.
    await expect.poll(() => images.evaluateAll((els) => els.every((e) => (e as HTMLImageElement).complete && (e as HTMLImageElement).naturalWidth > 0))).toBe(true);
    // The others handed in no photos.
    expect(await page.getByTestId('student-pages').filter({ hasText: '查看' }).count()).toBe(1);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/pages-1440.png` });
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/pages-375.png` });
    await finish(page, problems);
  });
});

describe('未提交名单', () => {
  it('prints the students who have not handed in (only the sheet on paper) and downloads them as an .xlsx', async () => {
    const { page, problems } = await classic();
    const listed = await pageApi<ApiPage<HomeworkRecord>>(page, '/api/minerva/v1.0/homeworks?size=50');
    const hw = listed.records.find((r) => r.submittedCount > 0 && r.submittedCount < r.studentCount)!;
    const missing = await pageApi<MissingList>(page, `/api/minerva/v1.0/homeworks/${hw.id}/missing`);
    expect(missing.students.length).toBeGreaterThan(0);
    await page.goto(`${server.url}/#/homeworkDetails?id=${hw.id}`);
    await page.getByRole('heading', { level: 1, name: `作业详情：${hw.title}` }).waitFor();
    await page.getByRole('link', { name: `未提交名单（${missing.students.length} 人）` }).click();
    await page.getByRole('heading', { level: 1, name: '未提交名单' }).waitFor();
    const rows = page.getByTestId('missing-row');
    await expect.poll(() => rows.count()).toBe(missing.students.length);
    for (const [i, s] of missing.students.entries()) expect(await rows.nth(i).innerText()).toBe(`${i + 1}\t${s.studentNo}\t${s.name}\t`);
    expect(await page.getByTestId('missing-count').innerText()).toBe(`未提交 ${missing.students.length} 人 / 共 ${missing.studentCount} 人`);
    expect(await page.getByTestId('missing-due').innerText()).toContain('（已截止）');
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/missing-1440.png`, fullPage: true });

    // On paper: the sheet without the buttons.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: '打印' }).isVisible()).toBe(false);
    expect(await rows.first().isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/missing-print.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出名单' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^未提交名单_\d{14}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const names: unknown[] = [];
    workbook.getWorksheet('未提交名单')!.eachRow((row, n) => n > 1 && names.push(row.getCell(2).value));
    expect(names).toEqual(missing.students.map((s) => s.name));

    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/missing-375.png`, fullPage: true });
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('link', { name: '返回' }).click();
    await page.getByRole('heading', { level: 1, name: `作业详情：${hw.title}` }).waitFor();
    await finish(page, problems);
  });
});
