// 班级错题本 in a real browser against the real server. The mini-program teacher filters the book
// to error rates above 40 %, sees the API's numbers, opens one question's wrong students and
// carries chosen questions to 错题组卷; the classic teacher reads /errorNote (and the same screen
// on /without/common) and turns the class's most-missed homework questions into a paper that
// opens in 试卷打印. Screenshots at 375 px and 1440 px under .tmp/screenshots/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { settled } from '../support/settle';
import type { ClassMistakePage, MistakeDetail } from '../../src/dataProvider/wrongbook';
import type { PaperDetail } from '../../src/dataProvider/papers';

const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const BASE = '/api/wrongbook/v1.0/web/class/mistakes';

let browser: Browser;
beforeAll(async () => {
  await ensureWebBuild();
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(() => browser?.close());

interface Stored {
  classId: string;
  courseId: string;
  learningYear: string;
  learningTerm: string;
  mistakeType: number | null;
}
const selection = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}') as Stored);

async function shot(page: Page, name: string, width: number) {
  await page.setViewportSize({ width, height: width < 500 ? 812 : 900 });
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/class-wrongbook-${name}-${width}.png` });
  // Nothing wider than the window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe('class wrong-answer book (mini-program teacher)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it('filters to >40 %, shows the API figures, opens the wrong students and passes chosen questions on', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/#/wrongbook/index`);
    await page.getByRole('heading', { level: 1, name: '班级错题本' }).waitFor();
    await page.getByTestId('mistake-item').first().waitFor();
    await expect.poll(async () => (await selection(page)).courseId).not.toBe('');
    const { classId, courseId, learningYear } = await selection(page);
    const scope = `classId=${classId}&courseId=${courseId}&term=${learningYear}`;

    await page.getByRole('button', { name: /^错误率 >40%/ }).click();
    const api = await pageApi<ClassMistakePage>(page, `${BASE}?${scope}&band=gt40&size=20`);
    expect(api.total).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('mistake-item').first().getAttribute('data-question-id')).toBe(String(api.records[0].question.id));
    await expect.poll(() => page.getByTestId('mistake-item').count()).toBe(api.records.length);
    const rates = await page.getByTestId('error-rate').allInnerTexts();
    expect(rates).toEqual(api.records.map((m) => `${(Math.round(m.errorRate * 1000) / 10).toFixed(1)}%`));
    expect(rates.every((r) => parseFloat(r) > 40)).toBe(true);
    expect(await page.getByTestId('wrong-count').first().innerText()).toBe(`错 ${api.records[0].wrong} / 答 ${api.records[0].answered} 人次`);
    await expect.poll(() => page.getByRole('button', { name: /^错误率 >40%/ }).innerText()).toBe(`错误率 >40%（${api.total}）`);
    await shot(page, 'gt40', 375);
    await shot(page, 'gt40', 1440);

    // The first question's wrong students: as many rows as the API's wrong answers.
    const first = api.records[0];
    const detail = await pageApi<MistakeDetail>(page, `${BASE}/${first.question.id}?${scope}`);
    await page.getByTestId('mistake-item').first().getByRole('button', { name: '做错的学生' }).click();
    const dialog = page.getByRole('dialog', { name: '错题详情' });
    await dialog.getByTestId('wrong-students').waitFor();
    expect(await dialog.getByTestId('detail-figures').innerText()).toBe(`错误率 ${(Math.round(detail.errorRate * 1000) / 10).toFixed(1)}% · 错 ${detail.wrong} / 答 ${detail.answered} 人次`);
    expect(await dialog.locator('tbody tr').count()).toBe(detail.students.length);
    expect(detail.students.length).toBe(first.wrong);
    await expect.poll(() => dialog.locator('tbody tr').first().innerText()).toContain(detail.students[0].name);
    await shot(page, 'students', 375);
    await shot(page, 'students', 1440);
    await dialog.getByRole('button', { name: '关闭' }).click();

    // Two questions chosen go to 错题组卷 in the address.
    await page.getByRole('checkbox', { name: '选择第1题' }).check();
    await page.getByRole('checkbox', { name: '选择第2题' }).check();
    await expect.poll(() => page.getByTestId('chosen-count').innerText()).toBe('已选 2 题');
    await page.getByRole('button', { name: '错题组卷' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/wrongbook/volumnPaper'));
    const query = new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]);
    expect(Object.fromEntries(query)).toEqual({ classId, courseId, questionIds: `${api.records[0].question.id},${api.records[1].question.id}` });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('class wrong-answer book (classic teacher)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { TEACHER_CLASSIC_WEB: '1' } });
  });
  afterAll(() => server?.stop());

  it('reads /errorNote and /without/common, and turns the most-missed homework questions into a printed paper', async () => {
    const page = await signIn(browser, server.url, 'classic');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/#/errorNote`);
    await page.getByRole('heading', { level: 1, name: '错题本' }).waitFor();
    await page.getByTestId('mistake-item').first().waitFor();
    const { classId, courseId, learningYear, learningTerm } = await selection(page);
    const book = await pageApi<ClassMistakePage>(page, `${BASE}?${classId && `classId=${classId}`}&courseId=${courseId}&term=${learningYear}&size=20`);
    await expect.poll(() => page.getByTestId('mistake-item').first().getAttribute('data-question-id')).toBe(String(book.records[0].question.id));
    await shot(page, 'errorNote', 1440);

    await page.goto(`${server.url}/#/without/common`);
    await expect.poll(() => page.getByTestId('mistake-item').first().getAttribute('data-question-id')).toBe(String(book.records[0].question.id));

    await page.goto(`${server.url}/#/learningGroup`);
    await page.getByRole('heading', { level: 1, name: '学情组卷' }).waitFor();
    const offered = await pageApi<ClassMistakePage>(page, `${BASE}?classId=${classId}&courseId=${courseId}&term=${learningTerm}&mistakeType=1&size=50`);
    expect(offered.records.every((m) => m.sources.some((s) => s !== 2))).toBe(true);
    await expect.poll(() => page.getByTestId('draft-summary').innerText()).toMatch(/^已选 10 题/);
    await shot(page, 'learningGroup', 1440);
    const wanted = offered.records.slice(0, 10).map((m) => m.question.id);
    await page.getByRole('button', { name: '生成试卷并打印' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/paperPrinter?paperId='));
    await expect.poll(() => page.getByTestId('printer-meta').innerText()).toMatch(/^10 题/);
    // The paper's sheet is no scan path of its own (no grading task can take it): the page says
    // where scanning is done instead of claiming the sheet is for it.
    const meta = await page.getByTestId('printer-meta').innerText();
    expect(meta).not.toContain('用于扫描阅卷');
    expect(meta).toContain('AI批改 中按考试生成答题卡');
    const paperId = new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]).get('paperId');
    const paper = await pageApi<PaperDetail>(page, `/api/minerva/v1.0/papers/${paperId}`);
    expect(paper.sections.flatMap((s) => s.questions.map((q) => q.question.id)).sort()).toEqual([...wanted].sort());
    await page.getByTestId('paper-pdf').waitFor({ timeout: 60_000 });
    await shot(page, 'paperPrinter', 1440);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
