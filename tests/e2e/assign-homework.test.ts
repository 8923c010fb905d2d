// 布置作业 in a real browser against the real server: the demo teacher picks a book and two pages,
// assigns them to 七(1)班 and 七(2)班 with a due time, and finds the new homework listed for each
// class; the list's completion and accuracy are the API's. Screenshots at desktop and phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, signIn } from '../support/browser';
import { refusalLines } from '../support/refusals';
import { settled } from '../support/settle';
import type { RunningServer } from '../support/serverProcess';
import type { HomeworkRecord } from '../../src/dataProvider/minerva';
import type { Page as ApiPage } from '../../src/domain/envelope';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-assign';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const api = pageApi;

const percent = (rate: number | null) => (rate === null ? '—' : `${(Math.round(rate * 1000) / 10).toFixed(1)}%`);

describe('assign homework (mini-program teacher)', () => {
  it('assigns book pages to two classes and lists them with the API’s completion and accuracy', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    // The served policy (server/http/security.ts) must let KaTeX's stylesheet and fonts through.
    const problems: string[] = [];
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`)),
    );
    // The one refusal this test asks for (a due time already past) may log; nothing else may.
    const refused = refusalLines([{ url: `${server.url}/api/minerva/v1.0/homeworks`, status: 400, msg: '截止时间必须晚于现在' }]);
    // The seeded term has given these pages already: the server's 409 (asked first) may log once too.
    let asked = 0;
    const askedLine = (m: { text: () => string; location: () => { url: string } }) =>
      asked++ === 0 && m.location().url === `${server.url}/api/minerva/v1.0/homeworks` && m.text().startsWith('Failed to load resource: the server responded with a status of 409 (');
    page.on('console', (m) => m.type() === 'error' && !refused(m) && !askedLine(m) && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    await page.goto(`${server.url}/#/assignHomework`);
    await page.getByRole('heading', { level: 1, name: '布置作业' }).waitFor();
    await pick(page, '班级', '七(1)班');
    // The teacher teaches 七(1)班 数学 only: the 学科 filter shows it, fixed.
    await expect.poll(() => page.getByRole('combobox', { name: '学科' }).innerText()).toBe('数学');

    const books = page.getByRole('combobox', { name: '练习册' });
    await books.click();
    const firstBook = page.getByRole('option').first();
    const bookTitle = await firstBook.innerText();
    expect(bookTitle).toContain('数学');
    await firstBook.click();

    const pageBoxes = page.getByRole('checkbox', { name: /^第 \d+ 页/ });
    await pageBoxes.first().waitFor();
    await pageBoxes.nth(0).check();
    await pageBoxes.nth(1).check();
    await page.getByRole('heading', { name: '2. 选择页面（已选 2 页）' }).waitFor();
    // Stems with LaTeX are typeset by KaTeX, not shown as raw $…$.
    expect(await page.locator('[data-testid="question-preview"] .katex').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('question-preview').filter({ hasText: /\$[^$]+\$/ }).count()).toBe(0);
    await page.waitForLoadState('networkidle');
    const katexFonts = () =>
      page.evaluate(() => [...document.fonts].filter((f) => f.family.replace(/"/g, '').startsWith('KaTeX_') && f.status === 'loaded').length);
    await expect.poll(katexFonts).toBeGreaterThan(0);

    await expect.poll(() => page.getByRole('checkbox', { name: '七(1)班' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: '七(2)班' }).check();
    // A due time already past: the server refuses and its own message is shown.
    // What a teacher types: China time, whatever zone the test machine or browser is in.
    const toLocal = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 16);
    await page.getByLabel('截止时间').fill(toLocal(new Date(Date.now() - 86400_000)));
    const isAssign = (r: Response) => r.url().endsWith('/api/minerva/v1.0/homeworks') && r.request().method() === 'POST';
    const [refusal] = await Promise.all([page.waitForResponse(isAssign), page.getByRole('button', { name: '布置作业' }).click()]);
    expect(refusal.status()).toBe(400);
    await page.getByText('截止时间必须晚于现在').waitFor();
    const due = new Date(Date.now() + 3 * 86400_000);
    await page.getByLabel('截止时间').fill(toLocal(due));
    await page.getByRole('heading', { level: 1, name: '布置作业' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/assign-1440-book.png` });
    await page.getByRole('button', { name: '布置作业' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/assign-1440-form.png` });

    const [question] = await Promise.all([page.waitForResponse(isAssign), page.getByRole('button', { name: '布置作业' }).click()]);
    expect(question.status()).toBe(409);
    const dialog = page.getByRole('dialog', { name: '重复布置' });
    await dialog.getByText(/^七\([12]\)班已布置过「.+」中的页面，仍要再布置一次吗？$/).waitFor();
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/assign-1440-duplicate.png` });
    const [response] = await Promise.all([page.waitForResponse(isAssign), dialog.getByRole('button', { name: '仍要布置' }).click()]);
    const created = (await response.json()) as { success: boolean; data: { homeworks: { id: number; classId: number }[]; title: string; questionCount: number } };
    expect(created.success).toBe(true);
    expect(created.data.homeworks).toHaveLength(2);
    await page.getByText(`已布置「${created.data.title}」给 2 个班级`).waitFor();

    // What the server now holds: the new homework of each class, with the two pages' questions.
    const courseId = await page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}').courseId);
    const listed = await api<ApiPage<HomeworkRecord>>(page, `/api/minerva/v1.0/homeworks?courseId=${courseId}&current=1&size=20`);
    const mine = listed.records.filter((r) => created.data.homeworks.some((h) => h.id === r.id));
    expect(mine.map((r) => r.className).sort()).toEqual(['七(1)班', '七(2)班']);
    for (const record of mine) {
      expect(record.questionCount).toBe(created.data.questionCount);
      expect(Math.abs(new Date(record.dueAt).getTime() - due.getTime())).toBeLessThan(60_000);
      const row = page.locator(`[data-homework-id="${record.id}"]`);
      await row.waitFor();
      await expect.poll(() => row.innerText()).toContain(record.className);
      expect(await row.innerText()).toContain(record.title);
    }

    // Every listed row shows the API's completion and accuracy (the seeded homework has answers).
    const rows = page.getByTestId('homework-row');
    await expect.poll(() => rows.count()).toBe(listed.records.length);
    for (const record of listed.records) {
      const row = page.locator(`[data-homework-id="${record.id}"]`);
      expect(await row.getByTestId('homework-completion').innerText()).toBe(`完成 ${record.submittedCount}/${record.studentCount}`);
      expect(await row.getByTestId('homework-accuracy').innerText()).toBe(`正确率 ${percent(record.accuracy)}`);
    }
    expect(listed.records.some((r) => r.accuracy !== null && r.submittedCount > 0)).toBe(true);
    await page.getByRole('heading', { name: '已布置的作业' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/assign-1440-list.png` });

    // Phone width: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.getByRole('heading', { level: 1, name: '布置作业' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/assign-375-book.png` });
    await page.getByRole('button', { name: '布置作业' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/assign-375-form.png` });
    await rows.nth(3).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/assign-375-list.png` });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // The homework just assigned opens: nobody has handed it in yet, every student is named.
    const fresh = mine.find((r) => r.className === '七(1)班')!;
    await page.locator(`[data-homework-id="${fresh.id}"]`).getByRole('link', { name: fresh.title }).click();
    await page.getByRole('heading', { level: 1, name: `作业详情：${fresh.title}` }).waitFor();
    const students = page.getByTestId('student-row');
    await expect.poll(() => students.count()).toBe(fresh.studentCount);
    expect(await page.getByTestId('student-status').filter({ hasText: '未提交' }).count()).toBe(fresh.studentCount);
    expect(await page.getByTestId('tile-submitted').innerText()).toBe(`0/${fresh.studentCount}`);
    await page.screenshot({ path: `${SHOTS}/details-375.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    // She renames it, then withdraws it (nobody has handed it in): back on 布置作业, it is gone.
    await page.getByRole('button', { name: '修改作业' }).click();
    const edit = page.getByRole('dialog', { name: '修改作业' });
    await edit.getByLabel('标题').fill('周末练习（改）');
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/details-375-edit.png` });
    await edit.getByRole('button', { name: '保存' }).click();
    await page.getByRole('heading', { level: 1, name: '作业详情：周末练习（改）' }).waitFor();
    await page.getByRole('button', { name: '撤回作业' }).click();
    await page.getByRole('dialog', { name: '撤回作业' }).getByRole('button', { name: '撤回' }).click();
    await page.getByRole('heading', { level: 1, name: '布置作业' }).waitFor();
    await page.getByText('已撤回「周末练习（改）」').waitFor();
    await expect.poll(() => page.locator(`[data-homework-id="${fresh.id}"]`).count()).toBe(0);
    // A seeded one with hand-ins: the answers given per question; then the desktop view.
    const seeded = listed.records.find((r) => r.submittedCount > 0)!;
    await page.goto(`${server.url}/#/assignHomework/details?id=${seeded.id}`);
    await page.getByTestId('question-answers').first().waitFor();
    await page.setViewportSize({ width: 1440, height: 900 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/details-1440.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
