// Exercise books in a real browser against the real server: the platform administrator opens a
// shared book from the list, edits a question (stem with a formula, answer, 解析, points) and sees it
// rendered with KaTeX, moves one down and deletes one, and the API agrees; imports questions from
// the template and adds a 综合 with sub-questions; reaches the list from its full-screen home. A
// school's part-timer reads the shared books without any edit action.
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-workbook';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

interface Question { id: number; no: number; stem: string; answer: string; analysis: string; points: number }
interface Book { chapters: { sections: { pages: { id: number; questions: Question[] }[] }[] }[] }

/** The book as the server has it, read with the signed-in user's token. */
async function bookFromApi(page: Page, bookId: string): Promise<Book> {
  return pageApi<Book>(page, `/api/minerva/v1.0/exercisebooks/${bookId}`);
}
const firstPage = (book: Book) => book.chapters[0].sections[0].pages[0];

describe('exercise books', () => {
  it('the platform administrator edits, reorders and deletes questions of a shared book', async () => {
    const page = await signIn(browser, server.url, 'admin');
    await page.waitForFunction(() => location.hash.startsWith('#/without/common'));
    await page.goto(`${server.url}/#/workbook`);
    await page.getByRole('link', { name: '打开' }).first().waitFor();
    await expect.poll(() => page.getByRole('row', { name: /七年级数学上册/ }).innerText()).toContain('可编辑');

    await page.getByRole('row', { name: /七年级数学上册/ }).getByRole('link', { name: '打开' }).click();
    await page.waitForURL(/\/workbook\/\d+$/);
    const bookId = page.url().split('/').pop()!;
    await page.locator('[data-question]').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/detail.png` });

    const before = firstPage(await bookFromApi(page, bookId));
    const [q1, q2] = before.questions;

    const first = page.locator(`[data-question="${q1.id}"]`);
    await first.getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('题干').fill('计算 $\\frac{3}{4}+\\sqrt{16}$ 的值');
    await dialog.getByLabel('分值').fill('7');
    await dialog.getByLabel('解析').fill('先开方得 $4$，再相加。');
    const typeText = await dialog.getByRole('combobox', { name: '题型' }).innerText();
    // A choice question keeps its option key as the answer; other types take the model answer.
    const answer = /选|判断/.test(typeText) ? q1.answer : '$4\\frac{3}{4}$';
    await dialog.getByLabel('答案').fill(answer);
    await page.screenshot({ path: `${SHOTS}/edit-dialog.png` });
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    await expect.poll(() => first.locator('[data-stem] .katex').count()).toBe(1);
    await expect.poll(() => first.locator('[data-stem]').innerText()).toContain('计算');
    await expect.poll(() => first.innerText()).toContain('（7 分）');
    await expect.poll(() => first.locator('[data-analysis]').innerText()).toContain('先开方得');
    await page.screenshot({ path: `${SHOTS}/after-edit.png` });

    let saved = firstPage(await bookFromApi(page, bookId)).questions.find((q) => q.id === q1.id)!;
    expect(saved).toMatchObject({ stem: '计算 $\\frac{3}{4}+\\sqrt{16}$ 的值', points: 7, analysis: '先开方得 $4$，再相加。', answer });

    // Move the first question down: it becomes no. 2.
    await first.getByRole('button', { name: '下移' }).click();
    await expect.poll(async () => firstPage(await bookFromApi(page, bookId)).questions.map((q) => q.id).slice(0, 2)).toEqual([q2.id, q1.id]);
    await expect.poll(() => page.locator('[data-question]').first().getAttribute('data-question')).toBe(String(q2.id));
    saved = firstPage(await bookFromApi(page, bookId)).questions.find((q) => q.id === q1.id)!;
    expect(saved.no).toBe(2);

    // A question added on the page is deleted again; delete asks first, cancelling keeps it.
    const count = before.questions.length;
    await page.getByRole('button', { name: '添加题目' }).first().click();
    await dialog.getByRole('combobox', { name: '题型' }).click();
    await page.getByRole('option', { name: '解答', exact: true }).click();
    await dialog.getByLabel('题干').fill('求 $x^2=9$ 的解');
    await dialog.getByLabel('答案').fill('$x=\\pm 3$');
    await dialog.getByRole('combobox', { name: '知识点' }).click();
    await page.getByRole('option').first().click();
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const added = firstPage(await bookFromApi(page, bookId)).questions;
    expect(added).toHaveLength(count + 1);
    const fresh = added.find((q) => q.stem === '求 $x^2=9$ 的解')!;
    expect(fresh.no).toBe(count + 1);
    const freshRow = page.locator(`[data-question="${fresh.id}"]`);
    await expect.poll(() => freshRow.locator('.katex').count()).toBe(2);

    await freshRow.getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '取消' }).click();
    expect(firstPage(await bookFromApi(page, bookId)).questions).toHaveLength(count + 1);
    await freshRow.getByRole('button', { name: '删除' }).click();
    await page.screenshot({ path: `${SHOTS}/delete-confirm.png` });
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await expect.poll(() => freshRow.count()).toBe(0);
    const after = firstPage(await bookFromApi(page, bookId)).questions;
    expect(after.map((q) => q.id)).toEqual(before.questions.map((q) => q.id).toSpliced(0, 2, q2.id, q1.id));
    await page.context().close();
  });

  it('the platform administrator imports questions from the template and adds a 综合 with two sub-questions', async () => {
    const page = await signIn(browser, server.url, 'admin');
    await page.waitForFunction(() => location.hash.startsWith('#/without/common'));
    await page.goto(`${server.url}/#/workbook`);
    await page.getByRole('row', { name: /七年级数学上册/ }).getByRole('link', { name: '打开' }).click();
    await page.waitForURL(/\/workbook\/\d+$/);
    const bookId = page.url().split('/').pop()!;
    await page.locator('[data-question]').first().waitFor();
    const before = firstPage(await bookFromApi(page, bookId));

    // The template as the user downloads it, filled in with exceljs as they would in Excel.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: '下载模板' }).click();
    const template = await download;
    expect(template.suggestedFilename()).toMatch(/题目导入模板\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await template.path())!);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as string[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['页码*', '题型*', '题干*']);
    const point = (sheet.getRow(2).values as string[])[14];
    // The two example rows are replaced by the user's own questions.
    expect(sheet.actualRowCount).toBe(3);
    sheet.getRow(2).values = [1, '填空', '计算：$(-8)+5=$______。', '', '', '', '', '', '', '$-3$', '异号相加。', 1, 2, point, ''];
    sheet.getRow(3).values = [1, '单选', '$-\\frac{1}{2}$ 的倒数是（　）', '$2$', '$-2$', '$\\frac{1}{2}$', '$-\\frac{1}{2}$', '', '', 'B', '乘积为 1 的两个数互为倒数。', 2, 3, point, ''];
    const filled = join(SHOTS, 'import.xlsx');
    await workbook.xlsx.writeFile(filled);
    await page.locator('input[type=file]').setInputFiles(filled);
    await page.getByRole('status').getByText('导入成功：共2道题').waitFor();
    await page.screenshot({ path: `${SHOTS}/import-done.png` });
    await page.getByRole('button', { name: '知道了' }).click();
    const imported = firstPage(await bookFromApi(page, bookId)).questions;
    expect(imported.map((q) => q.stem).slice(-2)).toEqual(['计算：$(-8)+5=$______。', '$-\\frac{1}{2}$ 的倒数是（　）']);
    const last = page.locator(`[data-question="${imported.at(-1)!.id}"]`);
    await expect.poll(() => last.locator('.katex').count()).toBeGreaterThan(2);
    expect(imported.length).toBe(before.questions.length + 2);

    // A 综合 with two sub-questions: worth their sum, shown under its stem.
    await page.getByRole('button', { name: '添加题目' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: '题型' }).click();
    await page.getByRole('option', { name: '综合', exact: true }).click();
    await dialog.getByLabel('题干').fill('某日最高气温 $5^\\circ C$，最低气温 $-3^\\circ C$。');
    await dialog.getByLabel('答案').fill('见各小题');
    await dialog.getByRole('combobox', { name: '知识点' }).click();
    await page.getByRole('option').first().click();
    await dialog.getByRole('button', { name: '添加小题' }).click();
    await dialog.getByRole('button', { name: '添加小题' }).click();
    const part1 = dialog.getByRole('group', { name: '第1小题' });
    await part1.getByLabel('小题题干').fill('这天的温差是（　）');
    await part1.getByLabel('小题选项').fill('A. 2℃\nB. 8℃');
    await part1.getByLabel('小题答案').fill('B');
    await part1.getByLabel('分值').fill('3');
    const part2 = dialog.getByRole('group', { name: '第2小题' });
    await part2.getByRole('combobox', { name: '题型' }).click();
    await page.getByRole('option', { name: '填空', exact: true }).click();
    await part2.getByLabel('小题题干').fill('最低气温比最高气温低______℃。');
    await part2.getByLabel('小题答案').fill('8');
    await part2.getByLabel('分值').fill('2.5');
    await expect.poll(() => dialog.getByLabel('分值').first().inputValue()).toBe('5.5');
    await page.screenshot({ path: `${SHOTS}/composite-dialog.png` });
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const composite = firstPage(await bookFromApi(page, bookId)).questions.at(-1)! as Question & { type: number; children: { stem: string; points: number }[] };
    expect(composite).toMatchObject({ type: 6, points: 5.5 });
    expect(composite.children.map((ch) => [ch.stem, ch.points])).toEqual([['这天的温差是（　）', 3], ['最低气温比最高气温低______℃。', 2.5]]);
    const shown = page.locator(`[data-question="${composite.id}"]`);
    await expect.poll(() => shown.locator('[data-child]').count()).toBe(2);
    await expect.poll(() => shown.innerText()).toContain('（5.5 分）');
    await shown.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/composite.png` });
    await page.context().close();
  });

  it("a school's part-timer reads a shared book, and is offered none of the edit actions", async () => {
    const page = await signIn(browser, server.url, 'parttime');
    await page.waitForFunction(() => location.hash.startsWith('#/resource/teaching'));
    await page.getByRole('heading', { level: 1, name: '教学资源' }).waitFor();
    await page.locator('nav[aria-label="主菜单"]').getByText('练习册', { exact: true }).click();
    await page.waitForURL(/\/workbook$/);
    const row = page.getByRole('row', { name: /七年级数学上册/ });
    await expect.poll(() => row.innerText()).toContain('仅查看（平台共享）');
    await page.screenshot({ path: `${SHOTS}/list-parttime.png` });

    await row.getByRole('link', { name: '打开' }).click();
    await page.waitForURL(/\/workbook\/\d+$/);
    await page.locator('[data-question]').first().waitFor();
    await page.getByText('这是平台共享练习册，仅平台管理员可以修改，本校只能查看。').waitFor();
    for (const name of ['添加题目', '编辑', '删除', '上移', '下移', '下载模板', '批量导入']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    expect(await page.locator('input[type=file]').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/detail-parttime.png` });
    await page.context().close();
  });

  it('an admin reaches the book list from the header of its full-screen home', async () => {
    const page = await signIn(browser, server.url, 'admin');
    await page.waitForFunction(() => location.hash.startsWith('#/without/common'));
    await page.getByRole('navigation', { name: '快捷入口' }).getByRole('link', { name: '练习册' }).click();
    await page.waitForURL(/\/workbook$/);
    await page.getByRole('link', { name: '打开' }).first().waitFor();
    await page.screenshot({ path: `${SHOTS}/list-admin.png` });
    await page.context().close();
  });
});
