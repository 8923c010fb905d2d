// Nobody lost, in a real browser against the real server: a roster quiz where two students hand
// in, one page is a blank sheet of paper and the rest of the class hands in nothing. The list
// counts the failed page and the students with no page; the report names them, shows the failed
// page, and the teacher replaces it with the right scan and adds a late student's page into the
// graded task — submitted again, only the new pages are graded and the report follows.
// Screenshots at 1440 px and 375 px.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn, pageSession, sessionCall, type SessionHeaders } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';
import { settled } from '../support/settle';
import { buildLayout, type SectionSpec, type SheetLayout } from '../../server/grading';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { CorrectTaskDetail } from '../../src/dataProvider/correct';
import type { TaskReport } from '../../src/domain/correct';
import type { Page as ApiPage } from '../../src/domain/envelope';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? `${process.env.TMPDIR ?? '/tmp'}/shots-aicorrect-coverage`;
const BASE = '/api/wrongbook/v1.0/correct';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

type Headers = SessionHeaders;
const call = <T>(headers: Headers, path: string, init: { method?: string; json?: unknown; form?: FormData } = {}) => sessionCall<T>(server.url, headers, path, init);
const upload = (headers: Headers, taskId: number, name: string, bytes: Buffer) => {
  const form = new FormData();
  form.append('taskId', String(taskId));
  form.append('file', new Blob([new Uint8Array(bytes)], { type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' }), name);
  return call(headers, `${BASE}/task/upload`, { form });
};
const SECTIONS: SectionSpec[] = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3].map((no) => ({ no, type: 'single' as const, options: 4 })) }];
const KEY = { items: Object.fromEntries(['A', 'B', 'C'].map((answer, i) => [String(i + 1), { answer, points: 5 }])) };
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const report = (headers: Headers, taskId: number) => call<TaskReport>(headers, `${BASE}/task/report?taskId=${taskId}`);

describe('AI批改: nobody lost', () => {
  it('shows the failed page and the absent students, and takes a replaced and a late page into the graded task', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    const headers = await pageSession(page);

    const [klass] = await call<{ id: number; className: string }[]>(headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const roster = await call<ApiPage<{ id: number; name: string }>>(headers, `/api/vesta/student/page?classId=${klass.id}&status=0&size=100`);
    const students = roster.records;
    const sheet = await call<{ sheetId: string }>(headers, `${BASE}/sheet/create`, { json: { title: '单元小测', paper: 'A4', identity: 'roster', classId: klass.id, sections: SECTIONS } });
    const layout: SheetLayout = buildLayout({
      sheetId: sheet.sheetId,
      title: '单元小测',
      paper: 'A4',
      identity: { mode: 'roster', students: students.map((s) => ({ id: `s${s.id}`, name: s.name, className: klass.className })) },
      sections: SECTIONS,
    });
    const scan = (i: number) => {
      const filling: Filling = { copy: { sheetId: sheet.sheetId, page: 1, studentId: `s${students[i].id}` }, objective: { 1: [{ label: 'A', style: 'full' }], 2: [{ label: 'B', style: 'full' }], 3: [{ label: 'D', style: 'full' }] } };
      return makeScan(layout, filling, { noise: 3 }, 300 + i);
    };
    const task = await call<{ id: number }>(headers, `${BASE}/task/create`, { json: { type: 3, title: '单元小测批改', classId: klass.id, sheetId: sheet.sheetId, answerKey: KEY } });
    await upload(headers, task.id, '扫描1.jpg', await scan(0));
    await upload(headers, task.id, '扫描2.jpg', await scan(1));
    await upload(headers, task.id, '拍糊了.png', await sharp({ create: { width: 800, height: 1100, channels: 3, background: '#ffffff' } }).png().toBuffer());
    await call(headers, `${BASE}/task/submit`, { json: { taskId: task.id } });
    for (let i = 0; i < 600 && (await call<CorrectTaskDetail>(headers, `${BASE}/task/detail?taskId=${task.id}`)).task.status !== 4; i++) await new Promise((r) => setTimeout(r, 500));

    // The list counts the failed page and the students with no page.
    await page.reload();
    const row = page.locator(`[data-task-id="${task.id}"]`);
    await expect.poll(() => row.getByTestId('task-status').innerText(), { timeout: 60_000 }).toBe('已批改');
    expect(await row.getByTestId('task-failed').innerText()).toBe('识别失败 1 份');
    expect(await row.getByTestId('task-absent').innerText()).toBe(`未交 ${students.length - 2} 人`);
    expect(await row.getByTestId('task-files').innerText()).toBe('文件 3 份');
    await page.screenshot({ path: `${SHOTS}/list-1440.png` });

    // The report names them.
    await row.getByRole('link', { name: '查看报告' }).click();
    await page.getByRole('heading', { level: 1, name: '批改报告：单元小测批改' }).waitFor();
    expect(await page.getByTestId('coverage-failed').innerText()).toBe('识别失败 1 份');
    expect(await page.getByTestId('coverage-absent').innerText()).toBe(`未交 ${students.length - 2} 人`);
    const failed = page.getByTestId('failed-page');
    expect(await failed.innerText()).toContain('拍糊了.png');
    const api = await report(headers, task.id);
    expect(await failed.getByTestId('failed-reason').innerText()).toBe(api.coverage.failed[0].reason);
    expect(await page.getByTestId('absent-student').allInnerTexts()).toEqual(students.slice(2).map((s) => s.name));
    await page.screenshot({ path: `${SHOTS}/report-1440.png` });
    // The failed page can be looked at.
    await failed.getByRole('button', { name: '查看图片' }).click();
    await page.getByTestId('failed-page-image').waitFor();
    expect(await page.getByTestId('failed-page-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
    await page.getByRole('dialog').getByRole('button', { name: '关闭' }).click();

    // Replace the failed page with student 3's scan, add student 4's late page, submit again.
    let chooser = page.waitForEvent('filechooser');
    await failed.getByRole('button', { name: '重新上传' }).click();
    await (await chooser).setFiles({ name: '重拍.jpg', mimeType: 'image/jpeg', buffer: await scan(2) });
    await page.getByText('已替换，提交批改后重新批改这一页').waitFor();
    await expect.poll(() => page.getByTestId('failed-page').count()).toBe(0);
    chooser = page.waitForEvent('filechooser');
    await page.getByTestId('upload-more').click();
    await (await chooser).setFiles({ name: '补交.jpg', mimeType: 'image/jpeg', buffer: await scan(3) });
    await page.getByRole('button', { name: '提交批改（新上传 2 份）' }).waitFor();
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/report-375.png`, fullPage: true });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: '提交批改（新上传 2 份）' }).click();

    // Graded: both new students are in, the two graded before kept their results.
    const before = (await call<CorrectTaskDetail>(headers, `${BASE}/task/detail?taskId=${task.id}`)).results.map((r) => r.id);
    await expect.poll(async () => (await page.getByTestId('report-student').count()), { timeout: 180_000, interval: 1000 }).toBe(4);
    const after = await report(headers, task.id);
    expect(after.task.status).toBe(4);
    expect(after.coverage.failed).toEqual([]);
    for (const id of before) expect(after.students.some((s) => s.resultId === id)).toBe(true);
    expect(await page.getByTestId('coverage-absent').innerText()).toBe(`未交 ${students.length - 4} 人`);
    expect(await page.getByTestId('absent-student').allInnerTexts()).not.toContain(students[2].name);
    expect(await page.getByTestId('absent-student').allInnerTexts()).not.toContain(students[3].name);
    await page.screenshot({ path: `${SHOTS}/report-1440-after.png` });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${server.url}/#/AICorrect/index`);
    await page.locator(`[data-task-id="${task.id}"]`).waitFor();
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/list-375.png`, fullPage: true });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
  });
});
