// 作业 and 作业详情 of the classic teacher in a real browser against the real server: the list for
// the class, course and time range picked in the header shows the API's numbers; a homework opens
// with the API's figures per student and per question (stems typeset by KaTeX, a chart of accuracy
// per question); its export downloads an .xlsx whose rows are the same. Screenshots at 1440 px.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';
import type { HomeworkDetail, HomeworkRecord } from '../../src/dataProvider/minerva';
import type { Page as ApiPage } from '../../src/domain/envelope';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-homework';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS, { env: { TEACHER_CLASSIC_WEB: '1' } })));
afterAll(() => closeServerAndBrowser(server, browser));

const api = pageApi;

interface Selection {
  classId: string;
  courseId: string;
  dateType: number | null;
}
const selection = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}') as Selection);

const percent = (rate: number | null) => (rate === null ? '—' : `${(Math.round(rate * 1000) / 10).toFixed(1)}%`);
const points = (n: number | null) => (n === null ? '—' : Number.isInteger(n) ? String(n) : n.toFixed(1));
/** Times read in China time whatever the browser's zone: the wall clock in Asia/Shanghai is UTC+8, no daylight saving. */
function timeLabel(iso: string) {
  const d = new Date(new Date(iso).getTime() + 8 * 3600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const thisYear = new Date(Date.now() + 8 * 3600_000).getUTCFullYear();
  const year = d.getUTCFullYear() === thisYear ? '' : `${d.getUTCFullYear()}年`;
  return `${year}${d.getUTCMonth() + 1}月${d.getUTCDate()}日 ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

const rowOf = (page: Page, id: number) => page.locator('tr', { has: page.locator(`a[href="#/homeworkDetails?id=${id}"]`) });

/** Every listed row carries the API's title, class, completion, grading, accuracy and due date. */
async function expectRows(page: Page, records: HomeworkRecord[]) {
  await expect.poll(() => page.getByTestId('open-homework').count(), { timeout: 15_000 }).toBe(records.length);
  for (const r of records) {
    const row = rowOf(page, r.id);
    const cell = (source: string) => row.locator(`td.column-${source}`).innerText();
    expect(await cell('title')).toBe(r.title);
    expect(await cell('assignedAt')).toBe(timeLabel(r.assignedAt));
    expect(await cell('questionCount')).toBe(String(r.questionCount));
    expect(await cell('submittedCount')).toBe(`${r.submittedCount}/${r.studentCount}`);
    expect(await cell('gradedCount')).toBe(String(r.gradedCount));
    expect(await cell('accuracy')).toBe(percent(r.accuracy));
    expect(await cell('dueAt')).toBe(timeLabel(r.dueAt));
  }
}

describe('homework (classic teacher)', () => {
  it('lists the API’s homework, opens one with per-student and per-question numbers, and exports them', async () => {
    const page = await signIn(browser, server.url, 'classic');
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/homework'));
    await page.getByRole('heading', { level: 1, name: '作业' }).waitFor();
    await expect.poll(async () => { const s = await selection(page); return !!(s.classId && s.courseId); }).toBe(true);

    // The header's class, course and time range are the list's filters.
    const listFor = async () => {
      const s = await selection(page);
      return api<ApiPage<HomeworkRecord>>(page, `/api/minerva/v1.0/homeworks?classId=${s.classId}&courseId=${s.courseId}&dateType=${s.dateType ?? 0}&current=1&size=20`);
    };
    const term = await listFor();
    expect(term.total).toBeGreaterThan(0);
    await expectRows(page, term.records);
    expect(term.records.every((r) => String(r.classId) === String((term.records[0] as HomeworkRecord).classId))).toBe(true);
    await page.screenshot({ path: `${SHOTS}/homework-1440.png` });
    await page.setViewportSize({ width: 1440, height: 1500 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/homework-1440-full.png` });
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByRole('combobox', { name: '时间' }).click();
    await page.getByRole('option', { name: '近一周', exact: true }).click();
    await expect.poll(async () => (await selection(page)).dateType).toBe(1);
    const week = await listFor();
    expect(week.total).toBeLessThan(term.total);
    await expectRows(page, week.records);
    await page.getByRole('combobox', { name: '时间' }).click();
    await page.getByRole('option', { name: '本学期', exact: true }).click();
    await expectRows(page, term.records);

    // Open a homework some students have not handed in, so both states show.
    const chosen = term.records.find((r) => r.submittedCount > 0 && r.submittedCount < r.studentCount) ?? term.records.find((r) => r.submittedCount > 0)!;
    await rowOf(page, chosen.id).getByTestId('open-homework').click();
    await page.waitForFunction((id) => location.hash === `#/homeworkDetails?id=${id}`, chosen.id);
    await page.getByRole('heading', { level: 1, name: `作业详情：${chosen.title}` }).waitFor();
    const detail = await api<HomeworkDetail>(page, `/api/minerva/v1.0/homeworks/${chosen.id}`);

    expect(await page.getByTestId('tile-students').innerText()).toBe(String(detail.studentCount));
    expect(await page.getByTestId('tile-submitted').innerText()).toBe(`${detail.submittedCount}/${detail.studentCount}`);
    expect(await page.getByTestId('tile-graded').innerText()).toBe(String(detail.gradedCount));
    expect(await page.getByTestId('tile-accuracy').innerText()).toBe(percent(detail.accuracy));
    expect(await page.getByTestId('tile-score-rate').innerText()).toBe(percent(detail.scoreRate));
    // The list and the detail are the same figures.
    expect([detail.submittedCount, detail.gradedCount, detail.accuracy]).toEqual([chosen.submittedCount, chosen.gradedCount, chosen.accuracy]);

    const students = page.getByTestId('student-row');
    expect(await students.count()).toBe(detail.students.length);
    for (const [i, s] of detail.students.entries()) {
      const row = students.nth(i);
      expect(await row.getAttribute('data-student-no')).toBe(s.studentNo);
      expect(await row.innerText()).toContain(s.name);
      expect(await row.getByTestId('student-status').innerText()).toBe(s.submitted ? '已提交' : '未提交');
      expect(await row.getByTestId('student-score').innerText()).toBe(s.submitted ? `${points(s.score)}/${points(s.maxScore)}` : '—');
      expect(await row.getByTestId('student-correct').innerText()).toBe(s.submitted ? `${s.correct}/${s.answered}` : '—');
      expect(await row.getByTestId('student-accuracy').innerText()).toBe(percent(s.accuracy));
    }
    expect(detail.students.some((s) => !s.submitted)).toBe(chosen.submittedCount < chosen.studentCount);

    const questions = page.getByTestId('question-row');
    expect(await questions.count()).toBe(detail.questions.length);
    for (const [i, q] of detail.questions.entries()) {
      const row = questions.nth(i);
      expect(await row.getAttribute('data-no')).toBe(q.no);
      expect(await row.getByTestId('question-answered').innerText()).toBe(`作答 ${q.answered} 人`);
      expect(await row.getByTestId('question-correct').innerText()).toBe(`答对 ${q.correct} 人`);
      expect(await row.getByTestId('question-accuracy').innerText()).toBe(`正确率 ${percent(q.accuracy)}`);
      expect(await row.getByTestId('question-score-rate').innerText()).toBe(`得分率 ${percent(q.scoreRate)}`);
    }
    // Stems are typeset, not raw $…$ (when the homework has formulas at all).
    if (detail.questions.some((q) => /\$[^$]+\$/.test(q.question.stem))) {
      expect(await page.locator('[data-testid="question-stem"] .katex').count()).toBeGreaterThan(0);
    }
    expect(await page.getByTestId('question-stem').filter({ hasText: /\$[^$]+\$/ }).count()).toBe(0);
    // One bar per question with answers.
    await expect.poll(() => page.locator('[data-testid="accuracy-chart"] .MuiBarElement-root').count()).toBe(detail.questions.filter((q) => q.accuracy !== null).length);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${SHOTS}/homework-details-1440-top.png` });
    // The screen scrolls inside the shell: a tall window shows all of it at once.
    await page.setViewportSize({ width: 1440, height: 3000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/homework-details-1440-full.png` });
    await page.setViewportSize({ width: 1440, height: 900 });

    // The export: a real download, read back with exceljs.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出作业详情' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^作业详情_\d{14}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['概况', '学生', '题目']);
    const rows = (name: string) => {
      const out: unknown[][] = [];
      workbook.getWorksheet(name)!.eachRow((row) => out.push((row.values as unknown[]).slice(1).map((v) => v ?? null)));
      return out;
    };
    const pad = (r: unknown[], n: number) => [...r, ...Array(Math.max(0, n - r.length)).fill(null)];
    expect(rows('学生')[0]).toEqual(['学号', '姓名', '状态', '得分', '满分', '答题数', '答对数', '正确率']);
    expect(rows('学生').slice(1).map((r) => pad(r, 8))).toEqual(
      detail.students.map((s) => [s.studentNo, s.name, s.submitted ? '已提交' : '未提交', s.score, s.maxScore, s.answered, s.correct, s.accuracy]),
    );
    expect(rows('题目').slice(1).map((r) => { const p = pad(r, 9); return [p[0], p[2], p[3], p[4], p[5], p[6], p[7]]; })).toEqual(
      detail.questions.map((q) => [q.no, q.question.stem, q.points, q.answered, q.correct, q.accuracy, q.scoreRate]),
    );
    const summary = Object.fromEntries(rows('概况').slice(1));
    expect(summary).toMatchObject({ 作业: detail.title, 已提交: detail.submittedCount, 已批改: detail.gradedCount, 正确率: detail.accuracy });

    // Back to the list, where the filters are still the header's.
    await page.getByRole('link', { name: '返回', exact: true }).click();
    await expectRows(page, term.records);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('an id that is not the teacher’s shows 暂无数据, not an error screen', async () => {
    const page = await signIn(browser, server.url, 'classic');
    await page.waitForFunction(() => location.hash.startsWith('#/homework'));
    await page.goto(`${server.url}/#/homeworkDetails?id=2147483647`);
    await page.getByText('作业不存在').first().waitFor();
    await page.getByText('暂无数据').waitFor();
    await page.goto(`${server.url}/#/homeworkDetails`);
    await page.getByText('请从作业列表选择一份作业').waitFor();
    await page.context().close();
  });

  it('typesets the formulas of a mathematics homework with KaTeX', async () => {
    // The classic demo teacher teaches English; the mathematics teacher's homework has formulas.
    const page = await signIn(browser, server.url, 'teacher');
    await page.waitForFunction(() => location.hash.startsWith('#/homework'));
    const list = await api<ApiPage<HomeworkRecord>>(page, '/api/minerva/v1.0/homeworks?size=50');
    let chosen: HomeworkDetail | undefined;
    for (const r of list.records.filter((x) => x.courseName === '数学' && x.submittedCount > 0)) {
      const detail = await api<HomeworkDetail>(page, `/api/minerva/v1.0/homeworks/${r.id}`);
      if (detail.questions.some((q) => /\$[^$]+\$/.test(q.question.stem))) {
        chosen = detail;
        break;
      }
    }
    expect(chosen).toBeDefined();
    await page.goto(`${server.url}/#/homeworkDetails?id=${chosen!.id}`);
    await page.getByRole('heading', { level: 1, name: `作业详情：${chosen!.title}` }).waitFor();
    expect(await page.getByTestId('question-row').count()).toBe(chosen!.questions.length);
    expect(await page.locator('[data-testid="question-stem"] .katex').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('question-stem').filter({ hasText: /\$[^$]+\$/ }).count()).toBe(0);
    await page.waitForLoadState('networkidle');
    await page.getByText('题目分析').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/homework-details-1440-maths.png` });
    await page.context().close();
  });
});
