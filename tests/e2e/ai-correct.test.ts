// AI批改 in a real browser against the real server (in-process grading worker). The demo data has
// no grading tasks, so the test makes real ones through the API first: a roster answer sheet for
// the mini-program teacher's class, scans of five students' copies rendered with the engine's
// corpus generator (pencil marks on the printed layout), uploaded and submitted; a blank page that
// cannot be read (批改失败); and a task never submitted. The teacher watches the graded task finish
// on 「AI批改」 without reloading, sees each task's status as the API reports it, deletes the
// unsubmitted one, opens the report — average and per-question score rates equal to the task's
// own results — and downloads the report workbook. Screenshots at 1440 px and 375 px.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn, pageSession, sessionCall, type SessionHeaders } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';
import { rosterSheet } from '../support/correctTasks';
import { settled } from '../support/settle';
import type { SectionSpec } from '../../server/grading';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { MarkStyle } from '../../server/grading/corpus/marks';
import type { CorrectTask, CorrectTaskDetail } from '../../src/dataProvider/correct';
import type { TaskReport } from '../../src/domain/correct';
import type { Page as ApiPage } from '../../src/domain/envelope';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-aicorrect';
const BASE = '/api/wrongbook/v1.0/correct';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const session = pageSession;
type Headers = SessionHeaders;
const call = <T>(headers: Headers, path: string, init: { method?: string; json?: unknown; form?: FormData } = {}) => sessionCall<T>(server.url, headers, path, init);

const upload = (headers: Headers, taskId: number, name: string, bytes: Buffer) => {
  const form = new FormData();
  form.append('taskId', String(taskId));
  form.append('file', new Blob([new Uint8Array(bytes)], { type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' }), name);
  return call(headers, `${BASE}/task/upload`, { form });
};

const SECTIONS: SectionSpec[] = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3, 4, 5].map((no) => ({ no, type: 'single' as const, options: 4 })) }];
const KEY = { items: Object.fromEntries(['A', 'B', 'C', 'D', 'A'].map((answer, i) => [String(i + 1), { answer, points: 2 }])) };
/** Five students' marks: all right; two wrong; a wrong one and a blank; two wrong; a half-filled bubble (unsure). */
const MARKS: Record<number, [string, MarkStyle]>[] = [
  { 1: ['A', 'full'], 2: ['B', 'full'], 3: ['C', 'full'], 4: ['D', 'full'], 5: ['A', 'full'] },
  { 1: ['A', 'full'], 2: ['C', 'full'], 3: ['C', 'full'], 4: ['A', 'full'], 5: ['A', 'full'] },
  { 1: ['A', 'full'], 2: ['C', 'full'], 4: ['D', 'full'], 5: ['A', 'full'] },
  { 1: ['B', 'full'], 2: ['C', 'full'], 3: ['C', 'full'], 4: ['D', 'full'], 5: ['A', 'full'] },
  { 1: ['A', 'full'], 2: ['B', 'full'], 3: ['C', 'full'], 4: ['D', 'full'], 5: ['A', 'half'] },
];

/**
 * A roster answer sheet for the teacher's first class, and its layout. The server keeps the layout
 * it printed; the test builds the same one from the same spec (sheet id, the class roster in
 * student-number order) to know where a pencil mark goes.
 */
async function printSheet(headers: Headers) {
  const [klass] = await call<{ id: number; className: string }[]>(headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
  const { sheetId, copies, students, layout } = await rosterSheet(call, headers, klass, '七年级数学周测', SECTIONS);
  expect(copies).toBe(students.length);
  return { klass, layout, sheetId, students };
}

async function waitForStatus(headers: Headers, taskId: number, done: (status: number) => boolean) {
  for (let i = 0; i < 600; i++) {
    const detail = await call<CorrectTaskDetail>(headers, `${BASE}/task/detail?taskId=${taskId}`);
    if (done(detail.task.status)) return detail;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`task ${taskId} did not finish`);
}

const STATUS: Record<number, string> = { 1: '待提交', 3: '批改中', 4: '已批改', 7: '批改失败' };
const percent = (rate: number) => `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
/** The report scrolls inside the layout's main area: one shot per part. */
async function reportShots(page: Page, width: number) {
  for (const [part, heading] of [['top', /^批改报告/], ['questions', '小题得分率'], ['review', /^需要复核的学生/]] as const) {
    await page.getByRole('heading', { name: heading }).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/report-${width}-${part}.png` });
  }
}
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('AI批改 (mini-program teacher)', () => {
  it('follows a graded task on the list, deletes an unsubmitted one and reads the report and its workbook', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    const headers = await session(page);
    expect(headers['X-Active-Role']).toBe('mpTeacher');

    // Nothing yet: the home is empty.
    await page.getByRole('heading', { level: 1, name: 'AI批改' }).waitFor();
    // A new teacher's empty home says the first step and links to it and to 使用教程.
    await page.getByText('还没有批改任务').waitFor();
    await page.getByText(/第一步：点「新建批改任务」/).waitFor();
    expect(await page.getByRole('link', { name: '查看使用教程' }).getAttribute('href')).toBe('#/useGuide');

    // A task that fails: a blank page is no answer sheet.
    const { klass, layout, sheetId, students } = await printSheet(headers);
    const failed = await call<{ id: number }>(headers, `${BASE}/task/create`, { json: { type: 3, title: '拍糊了的答题卡', classId: klass.id, sheetId, answerKey: KEY } });
    await upload(headers, failed.id, '白纸.png', await sharp({ create: { width: 800, height: 1100, channels: 3, background: '#ffffff' } }).png().toBuffer());
    await call(headers, `${BASE}/task/submit`, { json: { taskId: failed.id } });
    await waitForStatus(headers, failed.id, (s) => s === 7);

    // The graded task: five students' scans.
    const task = await call<{ id: number }>(headers, `${BASE}/task/create`, { json: { type: 3, title: '数学周测批改', classId: klass.id, sheetId, answerKey: KEY } });
    for (const [i, marks] of MARKS.entries()) {
      const filling: Filling = {
        copy: { sheetId, page: 1, studentId: `s${students[i].id}` },
        objective: Object.fromEntries(Object.entries(marks).map(([no, [label, style]]) => [Number(no), [{ label, style }]])),
      };
      await upload(headers, task.id, `扫描${i + 1}.jpg`, await makeScan(layout, filling, { rotateDeg: i - 2, noise: 3 }, 100 + i));
    }
    const pending = await call<{ id: number }>(headers, `${BASE}/task/create`, { json: { type: 2, title: '待删除的作文任务', classId: klass.id } });
    await call(headers, `${BASE}/task/submit`, { json: { taskId: task.id } });

    // The list, opened while the task grades: its row follows the task to 已批改 without a reload.
    await page.reload();
    const row = page.locator(`[data-task-id="${task.id}"]`);
    await row.waitFor();
    // Status and progress are read in one step: the task may finish between two reads, and its
    // progress line goes with the 批改中 status.
    const first = await row.evaluate((el) => ({
      status: (el.querySelector('[data-testid="task-status"]') as HTMLElement | null)?.innerText,
      progress: (el.querySelector('[data-testid="task-progress"]') as HTMLElement | null)?.innerText,
    }));
    if (first.status === '批改中') {
      expect(first.progress).toMatch(/^已识别 \d\/5$/);
      await page.screenshot({ path: `${SHOTS}/list-1440-grading.png` });
    }
    await expect.poll(() => row.getByTestId('task-status').innerText(), { timeout: 180_000, interval: 500 }).toBe('已批改');

    // Every row shows the status, files and review count the API reports.
    const listed = await call<ApiPage<CorrectTask>>(headers, `${BASE}/task/page?current=1&size=20`);
    expect(listed.records.map((r) => r.id)).toEqual([pending.id, task.id, failed.id]);
    await expect.poll(() => page.getByTestId('correct-task').count()).toBe(3);
    expect(await page.getByTestId('task-title').allInnerTexts()).toEqual(listed.records.map((r) => r.title));
    for (const record of listed.records) {
      const r = page.locator(`[data-task-id="${record.id}"]`);
      expect(await r.getByTestId('task-status').innerText()).toBe(STATUS[record.status]);
      expect(await r.getByTestId('task-files').innerText()).toBe(`文件 ${record.fileCount} 份`);
      if (record.status === 4) expect(await r.getByTestId('task-review').innerText()).toBe(`待复核 ${record.reviewCount} 份`);
      if (record.status === 7) expect(await r.getByTestId('task-fail-reason').innerText()).toBe(`失败原因：${record.failReason}`);
    }
    expect(listed.records.find((r) => r.id === failed.id)?.failReason).toMatch(/[\u4e00-\u9fa5]/);
    await page.screenshot({ path: `${SHOTS}/list-1440.png` });

    // Tabs by type: no homework tasks; the essay tab has the one never submitted.
    await page.getByRole('tab', { name: '作业' }).click();
    await page.getByText('暂无作业批改任务').waitFor();
    await page.getByRole('tab', { name: '作文' }).click();
    await expect.poll(() => page.getByTestId('correct-task').count()).toBe(1);
    // Deleting it: gone from the screen and from the API.
    await page.locator(`[data-task-id="${pending.id}"]`).getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await page.getByText('已删除批改任务').waitFor();
    await page.getByText('暂无作文批改任务').waitFor();
    expect((await call<ApiPage<CorrectTask>>(headers, `${BASE}/task/page?current=1&size=20`)).records.map((r) => r.id)).toEqual([task.id, failed.id]);
    await page.getByRole('tab', { name: '全部' }).click();
    await expect.poll(() => page.getByTestId('correct-task').count()).toBe(2);

    // Phone width.
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/list-375.png`, fullPage: true });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    // All four type tabs are on screen, none scrolled out of sight.
    const lastTab = (await page.getByRole('tab', { name: '答题卡' }).boundingBox())!;
    expect(lastTab.x + lastTab.width).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1440, height: 900 });

    // The report, from the graded task's row.
    await row.getByRole('link', { name: '查看报告' }).click();
    await page.waitForURL(/AICorrect\/report\?taskId=/);
    await page.getByRole('heading', { level: 1, name: '批改报告：数学周测批改' }).waitFor();
    const detail = await call<CorrectTaskDetail>(headers, `${BASE}/task/detail?taskId=${task.id}`);
    expect(detail.results).toHaveLength(5);
    const scores = detail.results.map((r) => r.score!);
    const average = Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100;
    expect(await page.getByTestId('report-average').innerText()).toBe(String(average));
    expect(await page.getByTestId('report-highest').innerText()).toBe(String(Math.max(...scores)));
    expect(await page.getByTestId('report-lowest').innerText()).toBe(String(Math.min(...scores)));
    // Per question, from each student's items.
    const items: { no: number; score: number; max: number; needsReview: boolean }[] = [];
    for (const r of detail.results) {
      const full = await call<{ result: { items: typeof items } }>(headers, `${BASE}/result/detail?resultId=${r.id}`);
      items.push(...full.result.items);
    }
    for (const no of [1, 2, 3, 4, 5]) {
      const mine = items.filter((i) => i.no === no);
      const rate = mine.reduce((s, i) => s + i.score, 0) / mine.reduce((s, i) => s + i.max, 0);
      expect(await page.locator(`[data-testid="report-question"][data-no="${no}"]`).getByTestId('question-rate').innerText()).toBe(percent(rate));
    }
    // Item 2: answered C by three students, the most common wrong answer.
    expect(await page.locator('[data-testid="report-question"][data-no="2"]').getByTestId('question-wrong').innerText()).toContain('常见错误：C（3人）');
    // The students needing review are the results the API flags.
    const flagged = detail.results.filter((r) => r.needsReview);
    await expect.poll(() => page.getByTestId('review-student').count()).toBe(flagged.length);
    for (const r of flagged) {
      expect(await page.locator(`[data-result-id="${r.id}"]`).getByTestId('review-score').innerText()).toBe(`${r.score}/${r.maxScore} 分`);
    }
    await reportShots(page, 1440);

    // The workbook, as downloaded.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出报告' }).click()]);
    expect(download.suggestedFilename()).toBe('批改报告_数学周测批改.xlsx');
    const path = join(SHOTS, download.suggestedFilename());
    await download.saveAs(path);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(path) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('学生成绩')!;
    const exported = new Map<string, number>();
    sheet.eachRow((r, n) => n > 1 && exported.set(String(r.getCell(2).value), Number(r.getCell(3).value)));
    expect(exported).toEqual(new Map(detail.results.map((r) => [r.studentName!, r.score!])));
    expect(book.getWorksheet('小题分析')!.rowCount).toBe(6);

    // The report agrees with itself through the API too.
    const report = await call<TaskReport>(headers, `${BASE}/task/report?taskId=${task.id}`);
    expect(report.summary.average).toBe(average);

    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await reportShots(page, 375);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // 讲评 on the projector: the hardest question first, its right answer and the wrong answers with
    // how many gave each; the arrow keys go through the questions.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('link', { name: '讲评模式' }).click();
    await page.getByRole('heading', { level: 1, name: /^讲评：数学周测批改/ }).waitFor();
    const hardest = [...report.questions].sort((a, b) => (a.scoreRate ?? 2) - (b.scoreRate ?? 2) || a.no - b.no);
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe(`第 ${hardest[0].no} 题`);
    expect(await page.getByTestId('lecture-rate').innerText()).toBe(`得分率 ${percent(hardest[0].scoreRate!)}`);
    expect(await page.getByTestId('lecture-position').innerText()).toBe(`1 / ${report.questions.length}`);
    await page.screenshot({ path: `${SHOTS}/lecture-1440.png` });
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe(`第 ${hardest[1].no} 题`);
    // Item 2 in number order: C three times, the common wrong answer, beside the right one.
    await page.getByRole('button', { name: '按题号' }).click();
    await page.getByRole('button', { name: '下一题' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('第 2 题');
    expect(await page.getByTestId('lecture-answer').allInnerTexts()).toContainEqual(expect.stringMatching(/^C\s+3 人$/));
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/lecture-375.png` });
    expect(problems).toEqual([]);
    await page.context().close();
  }, 420_000);
});
