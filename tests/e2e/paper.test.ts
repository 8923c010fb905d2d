// 试卷 in a real browser against the real server (classic web): the classic teacher searches the
// bank, puts questions in the basket, sets points, saves a paper and finds it listed with the
// API's figures; then opens /paperPrinter and downloads the PDF, which carries the paper and its
// answer sheet; edits and deletes it. /printer refuses addresses that are not this site's API.
// Screenshots at 1440 px.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';
import type { Page as ApiPage } from '../../src/domain/envelope';
import type { BankQuestion, PaperDetail, PaperSummary } from '../../src/dataProvider/papers';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-paper';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS, { env: { TEACHER_CLASSIC_WEB: '1' } })));
afterAll(() => closeServerAndBrowser(server, browser));

const api = pageApi;

const selection = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}') as { subjectId: string; gradeName: string; courseName: string });

describe('paper (classic teacher)', () => {
  it('builds a paper from the bank, saves it, lists it and prints it with its answer sheet', async () => {
    const page = await signIn(browser, server.url, 'classic');
    // No page error, console error or policy violation on these screens (the PDF frame included).
    const problems: string[] = [];
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`)),
    );
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/homework'));
    await page.goto(`${server.url}/#/paper`);
    await page.getByRole('heading', { level: 1, name: '试卷' }).waitFor();
    // The header's grade and course: the classic teacher teaches 八年级 英语.
    await page.getByRole('combobox', { name: '学科' }).click();
    await page.getByRole('option', { name: '英语', exact: true }).click();
    await expect.poll(async () => (await selection(page)).courseName).toBe('英语');
    const { subjectId, gradeName } = await selection(page);
    expect(gradeName).toBe('八年级');

    // The bank: the total shown is the API's for the same filters.
    const total = page.getByTestId('bank-total');
    await total.waitFor();
    const all = await api<ApiPage<BankQuestion>>(page, `/api/minerva/v1.0/questions?subjectId=${subjectId}&gradeLevel=8&size=1`);
    await expect.poll(() => total.innerText()).toBe(`共 ${all.total} 题`);
    expect(all.total).toBeGreaterThan(0);

    // Narrow by knowledge point and type: single choice under a top point of the tree that has some.
    const tree = await api<{ id: number; name: string }[]>(page, `/api/minerva/v1.0/knowledge-points?subjectId=${subjectId}&stage=2`);
    let point: { id: number; name: string } | undefined;
    let singles: ApiPage<BankQuestion> | undefined;
    for (const p of tree) {
      singles = await api<ApiPage<BankQuestion>>(page, `/api/minerva/v1.0/questions?subjectId=${subjectId}&gradeLevel=8&knowledgePointId=${p.id}&type=1&size=10`);
      point = p;
      if (singles.total >= 3) break;
    }
    expect(singles!.total).toBeGreaterThanOrEqual(3);
    await page.getByTestId('knowledge-point').filter({ hasText: point!.name }).first().click();
    await page.getByRole('combobox', { name: '题型' }).click();
    await page.getByRole('option', { name: '单选题' }).click();
    await expect.poll(() => total.innerText()).toBe(`共 ${singles!.total} 题`);
    const cards = page.getByTestId('bank-question');
    await expect.poll(() => cards.first().getAttribute('data-question-id')).toBe(String(singles!.records[0].id));
    for (let i = 0; i < 3; i++) await cards.nth(i).getByRole('button', { name: '加入试题篮' }).click();

    // Text search: the start of a fill-in's stem, found by keyword, goes in as well.
    await page.getByRole('combobox', { name: '题型' }).click();
    await page.getByRole('option', { name: '全部题型' }).click();
    await page.getByRole('button', { name: '全部知识点' }).click();
    const fills = await api<ApiPage<BankQuestion>>(page, `/api/minerva/v1.0/questions?subjectId=${subjectId}&gradeLevel=8&type=4&size=1`);
    const word = fills.records[0].stem.slice(0, 15);
    await page.getByLabel('题干关键词').fill(word);
    await page.getByRole('button', { name: '搜索' }).click();
    const found = await api<ApiPage<BankQuestion>>(page, `/api/minerva/v1.0/questions?subjectId=${subjectId}&gradeLevel=8&keyword=${encodeURIComponent(word)}&size=10`);
    await expect.poll(() => total.innerText()).toBe(`共 ${found.total} 题`);
    await page.locator(`[data-question-id="${fills.records[0].id}"]`).getByRole('button', { name: '加入试题篮' }).click();

    // The basket: two sections (选择题, 填空题); points set per section and per question.
    await expect.poll(() => page.getByTestId('basket-item').count()).toBe(4);
    expect(await page.getByTestId('basket-section').count()).toBe(2);
    await page.getByLabel('选择题每题分值').fill('5');
    await page.getByRole('button', { name: '统一设置' }).first().click();
    await page.getByLabel('第4题分值').fill('10');
    await expect.poll(() => page.getByTestId('basket-summary').innerText()).toBe('共 4 题，总分 25 分');
    const title = `八年级英语周测 ${Date.now() % 100000}`;
    await page.getByLabel('试卷标题').fill(title);
    await page.getByLabel('考试时长（分钟）').fill('45');
    await page.getByRole('heading', { level: 1, name: '试卷' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/paper-1440.png` });

    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/minerva/v1.0/papers') && r.request().method() === 'POST'),
      page.getByRole('button', { name: '保存试卷' }).click(),
    ]);
    const created = (await saved.json()).data as PaperDetail;
    expect(created).toMatchObject({ title, totalPoints: 25, durationMinutes: 45, gradeLevel: 8 });
    expect(created.sections.map((s) => [s.title, s.questions.map((q) => q.points)])).toEqual([
      ['选择题', [5, 5, 5]],
      ['填空题', [10]],
    ]);
    await page.getByText(`已保存试卷「${title}」，共 4 题，总分 25 分`).waitFor();

    // Listed with the API's figures.
    const listed = await api<ApiPage<PaperSummary>>(page, `/api/minerva/v1.0/papers?subjectId=${subjectId}&gradeLevel=8`);
    const summary = listed.records.find((p) => p.id === created.id)!;
    expect(summary).toMatchObject({ questionCount: 4, totalPoints: 25 });
    const row = page.locator(`[data-paper-id="${created.id}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain(title);
    expect(await row.getByTestId('paper-meta').innerText()).toContain(`${summary.questionCount} 题 · 总分 25 分 · 45 分钟`);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/paper-1440-list.png` });

    // Print: the full-screen printer shows the PDF and downloads it.
    await row.getByRole('button', { name: '打印' }).click();
    await page.waitForFunction((id) => location.hash === `#/paperPrinter?paperId=${id}`, created.id);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByTestId('paper-pdf').waitFor();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${SHOTS}/paperPrinter-1440.png` });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载 PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`${title}（A4）.pdf`);
    const file = `${SHOTS}/downloaded.pdf`;
    await download.saveAs(file);
    const doc = await PDFDocument.load(readFileSync(file));
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(2);
    const pages = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
    expect(pages[0]).toContain(title);
    expect(pages[0].replace(/\s+/g, ' ')).toContain('满分：25 分');
    expect(pages[pages.length - 1]).toContain(`${title} 答题卡`);

    // A3: the switch fetches the two-column layout.
    const [a3] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/papers/${created.id}/pdf?paper=A3`)),
      page.getByRole('button', { name: 'A3 横向（两栏）' }).click(),
    ]);
    expect(a3.status()).toBe(200);
    await expect.poll(() => page.getByTestId('paper-pdf').getAttribute('title')).toBe(`${title}（A3）`);
    const a3bytes = await page.evaluate(async (url) => {
      const res = await fetch(url, { headers: { 'Blade-Auth': `bearer ${localStorage.getItem('xuezhu.accessToken')}`, 'X-Active-Role': sessionStorage.getItem('xuezhu.activeRole') ?? '' } });
      return [...new Uint8Array(await res.arrayBuffer())];
    }, `/api/minerva/v1.0/papers/${created.id}/pdf?paper=A3`);
    const a3doc = await PDFDocument.load(Uint8Array.from(a3bytes));
    expect(Math.round(a3doc.getPage(0).getWidth())).toBe(1191);

    // The print preview of that PDF; a foreign address is refused and never fetched.
    await page.getByRole('button', { name: '打印预览' }).click();
    await page.getByRole('heading', { level: 1, name: '打印预览' }).waitFor();
    await page.getByTestId('printer-frame').waitFor();
    await page.waitForTimeout(1000);
    await page.screenshot({ path: `${SHOTS}/printer-1440.png` });
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    for (const bad of ['https://example.com/api/x.pdf', '//example.com/api/x.pdf', '/api/../index.html', 'javascript:alert(1)']) {
      await page.goto(`${server.url}/#/printer?url=${encodeURIComponent(bad)}`);
      await page.getByText('无法预览：只能预览本系统提供的打印文件').waitFor();
    }
    expect(asked.filter((u) => u.includes('example.com'))).toEqual([]);

    // Back on /paper: open the paper into the basket, change a point value, save the revision, delete it.
    await page.goto(`${server.url}/#/paper`);
    const again = page.locator(`[data-paper-id="${created.id}"]`);
    await again.getByRole('button', { name: '编辑' }).click();
    await expect.poll(() => page.getByLabel('试卷标题').inputValue()).toBe(title);
    await expect.poll(() => page.getByTestId('basket-summary').innerText()).toBe('共 4 题，总分 25 分');
    await page.getByLabel('第1题分值').fill('8');
    const [revised] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/minerva/v1.0/papers/${created.id}`) && r.request().method() === 'PUT'),
      page.getByRole('button', { name: '保存修改' }).click(),
    ]);
    expect((await revised.json()).data.totalPoints).toBe(28);
    await expect.poll(() => again.getByTestId('paper-meta').innerText()).toContain('总分 28 分');
    await again.getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await page.getByText(`已删除试卷「${title}」`).waitFor();
    await expect.poll(() => again.count()).toBe(0);
    const after = await api<ApiPage<PaperSummary>>(page, `/api/minerva/v1.0/papers?subjectId=${subjectId}&gradeLevel=8`);
    expect(after.records.some((p) => p.id === created.id)).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
