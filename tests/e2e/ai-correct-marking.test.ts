// 网上阅卷 in a real browser against the real server (in-process grading worker): a roster answer
// sheet with two choice questions and a 解答题 worth 6 points, four students' scans graded; from
// the report's 网上阅卷 section the teacher opens question 3 and marks the class with the keyboard
// (a typed score and Enter, F for full marks, 0 and Enter for zero) and a click on the score pad,
// each save moving on to the next unmarked paper, goes back with ↑ to change one; the progress,
// the report and the API totals follow every score. Then rubric items: two added on the screen,
// applied with their keys, one's points changed — the paper's score follows. Screenshots at 1440
// and 375 px.
// The marker's pen: ✓, a circle and a few words on a paper, one undone; the student view shows them.
// Split marking with 双评: the owner gives question 3 of a new task to teacher4 and themself with
// 双评 (分差 ≤ 1) in the 分配 dialog; teacher4 finds it under 我的阅卷 and marks their share; the owner
// marks too — one paper agrees (mean counts), one does not and waits for 仲裁, which the owner
// settles on the marking screen. Progress per teacher and 待仲裁 show on the report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn, pageSession, sessionCall, type SessionHeaders } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';
import { rosterSheet, uploadAndGrade } from '../support/correctTasks';
import type { SectionSpec } from '../../server/grading';
import { makeScan } from '../../server/grading/corpus/generate';
import type { TaskReport } from '../../src/domain/correct';

let server: RunningServer;
let browser: Browser;
/** The task owner's page, signed in once for the file. */
let owner: Page | undefined;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-marking';
const BASE = '/api/wrongbook/v1.0/correct';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const call = <T>(headers: SessionHeaders, path: string, init: { method?: string; json?: unknown; form?: FormData } = {}) => sessionCall<T>(server.url, headers, path, init);
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const SECTIONS: SectionSpec[] = [
  { kind: 'objective', title: '一、选择题', items: [1, 2].map((no) => ({ no, type: 'single' as const, options: 4 })) },
  { kind: 'short', title: '二、解答题', items: [{ no: 3, heightMm: 50 }] },
];
const KEY = { items: { '1': { answer: 'A', points: 2 }, '2': { answer: 'B', points: 2 }, '3': { manual: true, points: 6 } } };

type Klass = { id: number; className: string };

/** A roster sheet of SECTIONS for the class, a task with KEY, `n` students' scans uploaded and graded. */
async function gradedTask(headers: SessionHeaders, klass: Klass, title: string, taskTitle: string, n: number) {
  const { sheetId, students, layout } = await rosterSheet(call, headers, klass, title, SECTIONS);
  const task = await call<{ id: number }>(headers, `${BASE}/task/create`, { json: { type: 3, title: taskTitle, classId: klass.id, sheetId, answerKey: KEY } });
  const scans: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    scans.push(await makeScan(layout, { copy: { sheetId, page: 1, studentId: `s${students[i].id}` }, objective: { 1: [{ label: 'A', style: 'full' }], 2: [{ label: 'B', style: 'full' }] } }, { rotateDeg: i - 1.5, noise: 3 }, 500 + i));
  }
  const detail = await uploadAndGrade(call, headers, task.id, scans);
  return { roster: { records: students }, task, detail };
}

describe('网上阅卷 (mini-program teacher)', () => {
  it('marks a 解答题 for the class with the score pad and the keyboard; totals follow', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    owner = page;
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    const headers = await pageSession(page);

    const [klass] = await call<Klass[]>(headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const { roster, task, detail } = await gradedTask(headers, klass!, '七年级数学解答题', '解答题阅卷', 4);
    expect(detail.task.status).toBe(4);
    expect(detail.results).toHaveLength(4);

    // The report lists question 3 to mark; 阅卷 opens it at the first paper.
    await page.goto(`${server.url}/#/AICorrect/report?taskId=${task.id}`);
    const entry = page.locator('[data-testid="marking-question"][data-no="3"]');
    await expect.poll(() => entry.innerText()).toContain('已阅 0/4');
    await entry.getByRole('link', { name: '阅卷' }).click();
    await page.waitForURL(/#\/AICorrect\/marking\?taskId=\d+&no=3/);
    const progress = page.getByTestId('marking-progress');
    const student = page.getByTestId('marking-student');
    await expect.poll(() => progress.innerText()).toBe('已阅 0/4');
    await page.getByTestId('scan-overlay').waitFor();
    // Anonymous until the owner shows names.
    expect(await student.innerText()).toBe('试卷 1');
    await page.getByLabel('显示学生姓名').click();
    await expect.poll(() => student.innerText()).not.toBe('试卷 1');
    expect(roster.records.slice(0, 4).map((r) => r.name)).toContain((await student.innerText()).split(' ').pop());
    const order: string[] = [];
    const input = page.getByTestId('marking-input');

    // Typed 5 and Enter: saved, on to the next paper.
    order.push(await student.innerText());
    await input.focus();
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await expect.poll(() => progress.innerText()).toBe('已阅 1/4');
    await expect.poll(() => student.innerText()).not.toBe(order[0]);
    expect(await page.getByTestId('marking-message').innerText()).toContain('5 分，已保存');
    await page.screenshot({ path: `${SHOTS}/marking-1440.png` });
    // F: full marks.
    order.push(await student.innerText());
    await page.keyboard.press('f');
    await expect.poll(() => progress.innerText()).toBe('已阅 2/4');
    // A click on the pad: 2 points.
    order.push(await student.innerText());
    await page.getByTestId('pad-value').filter({ hasText: /^2$/ }).click();
    await expect.poll(() => progress.innerText()).toBe('已阅 3/4');
    // Over full marks is refused beside the pad, nothing saved.
    order.push(await student.innerText());
    await input.focus();
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('marking-message').innerText()).toBe('不能超过满分 6 分');
    await input.fill('');
    await page.keyboard.type('0');
    await page.keyboard.press('Enter');
    await expect.poll(() => progress.innerText()).toBe('已阅 4/4');
    await expect.poll(() => page.getByTestId('marking-message').innerText()).toBe('本题已全部阅完');

    const scoreOf = async () => {
      const report = await call<TaskReport>(headers, `${BASE}/task/report?taskId=${task.id}`);
      return Object.fromEntries(report.students.map((s) => [s.studentName, { q3: s.points['3'], total: s.score, max: s.maxScore }]));
    };
    const name = (label: string) => label.split(' ').pop()!;
    let scores = await scoreOf();
    expect([5, 6, 2, 0].map((q3, i) => scores[name(order[i])])).toEqual([5, 6, 2, 0].map((q3) => ({ q3, total: 4 + q3, max: 10 })));

    // ↑ back to the first paper: its score shows; changed to 3 it counts at once.
    await page.goto(`${server.url}/#/AICorrect/marking?taskId=${task.id}&no=3`);
    await expect.poll(() => progress.innerText()).toBe('已阅 4/4');
    while ((await student.innerText()) !== order[0]) {
      await input.focus();
      await page.keyboard.press('ArrowUp');
    }
    expect(await page.getByTestId('marking-score').innerText()).toBe('5');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await scoreOf())[name(order[0])]).toEqual({ q3: 3, total: 7, max: 10 });
    scores = await scoreOf();
    expect(scores[name(order[1])]).toEqual({ q3: 6, total: 10, max: 10 });

    // The report follows: question 3's average, the marking entry done.
    await page.goto(`${server.url}/#/AICorrect/report?taskId=${task.id}`);
    await expect.poll(() => entry.innerText()).toContain('已阅 4/4');
    // The report's question row may still show the copy cached before the marking; it refreshes.
    await expect.poll(() => page.locator('[data-testid="report-question"][data-no="3"]').innerText()).toContain('平均 2.75 分');

    // Rubric items: added on the marking screen, applied to the first paper with their keys (A, S),
    // Enter moves on; 列式正确 changed from 4 to 5 points, the paper's score follows.
    await page.goto(`${server.url}/#/AICorrect/marking?taskId=${task.id}&no=3`);
    await expect.poll(() => student.innerText()).toBe(order[0]);
    await page.getByRole('button', { name: '添加细则' }).click();
    const addItem = async (label: string, points: string) => {
      const editor = page.getByTestId('rubric-new');
      await editor.getByLabel('细则内容').fill(label);
      await editor.getByLabel('细则分值').fill(points);
      await editor.getByRole('button', { name: '添加' }).click();
      await expect.poll(() => page.getByTestId('rubric-item').filter({ hasText: label }).count()).toBe(1);
    };
    await addItem('列式正确', '4');
    await addItem('计算错误', '-1');
    await page.getByRole('button', { name: '完成' }).click();
    await input.focus();
    await page.keyboard.press('a');
    await expect.poll(() => page.getByTestId('marking-score').innerText()).toBe('4');
    await page.keyboard.press('s');
    await expect.poll(() => page.getByTestId('marking-score').innerText()).toBe('3');
    expect(await page.getByTestId('rubric-item').first().getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.getByTestId('pad-value').first().isEnabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/marking-rubric-1440.png` });
    await page.keyboard.press('Enter');
    await expect.poll(() => student.innerText()).not.toBe(order[0]);
    await expect.poll(async () => (await scoreOf())[name(order[0])]).toEqual({ q3: 3, total: 7, max: 10 });
    await page.getByRole('button', { name: '编辑细则' }).click();
    const edit = page.getByTestId('rubric-edit').first();
    await edit.getByLabel('细则分值').fill('5');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByTestId('rubric-item').first().getByTestId('rubric-points').innerText()).toBe('+5');
    await page.getByRole('button', { name: '完成' }).click();
    await expect.poll(async () => (await scoreOf())[name(order[0])]).toEqual({ q3: 4, total: 8, max: 10 });
    await input.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => student.innerText()).toBe(order[0]);
    expect(await page.getByTestId('marking-score').innerText()).toBe('4');

    // The pen: ✓ where clicked, a circle dragged round a step, a few words; 撤销 takes the last off.
    // The student's view then shows the marks over question 3.
    const marks = page.getByTestId('pen-mark');
    const crop = (await page.getByTestId('scan-overlay').boundingBox())!;
    const at = (fx: number, fy: number) => [crop.x + crop.width * fx, crop.y + crop.height * fy] as const;
    await page.getByRole('button', { name: '对号' }).click();
    await page.mouse.click(...at(0.3, 0.4));
    await expect.poll(() => marks.count()).toBe(1);
    await page.getByRole('button', { name: '圈画' }).click();
    await page.mouse.move(...at(0.45, 0.3));
    await page.mouse.down();
    await page.mouse.move(...at(0.7, 0.65), { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => marks.count()).toBe(2);
    await page.getByRole('button', { name: '文字' }).click();
    await page.getByLabel('批注文字').fill('单位漏写');
    await page.mouse.click(...at(0.1, 0.8));
    await expect.poll(() => marks.count()).toBe(3);
    expect(await page.locator('[data-testid="pen-mark"][data-kind="text"]').textContent()).toBe('单位漏写');
    // The circle spans the drag: about a quarter of the crop's width.
    const circle = (await page.locator('[data-testid="pen-mark"][data-kind="circle"]').boundingBox())!;
    expect(circle.width / crop.width).toBeGreaterThan(0.2);
    expect(circle.width / crop.width).toBeLessThan(0.3);
    await page.screenshot({ path: `${SHOTS}/marking-pen-1440.png` });
    await page.getByRole('button', { name: '撤销' }).click();
    await expect.poll(() => marks.count()).toBe(2);
    await page.getByRole('button', { name: '文字' }).click(); // the pen put down
    const firstResult = (await call<TaskReport>(headers, `${BASE}/task/report?taskId=${task.id}`)).students.find((s) => s.studentName === name(order[0]))!;
    await page.goto(`${server.url}/#/correctDetail?taskId=${task.id}&resultId=${firstResult.resultId}`);
    await expect.poll(() => page.locator('[data-testid="pen-marks"][data-no="3"] [data-testid="pen-mark"]').count()).toBe(2);
    await page.screenshot({ path: `${SHOTS}/marking-pen-detail-1440.png` });
    await page.goto(`${server.url}/#/AICorrect/marking?taskId=${task.id}&no=3`);
    await page.getByTestId('scan-overlay').waitFor();

    // On a phone: the crop above the pad, nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${server.url}/#/AICorrect/marking?taskId=${task.id}&no=3`);
    await page.getByTestId('scan-overlay').waitFor();
    await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/marking-375.png`, fullPage: true });
    // The rubric's editor fits the pad on a phone.
    await page.getByRole('button', { name: '编辑细则' }).click();
    const padBox = (await page.getByTestId('score-pad').boundingBox())!;
    for (const b of await page.getByTestId('rubric-edit').getByRole('button', { name: '保存' }).all()) {
      const box = (await b.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(padBox.x + padBox.width);
    }
    await page.screenshot({ path: `${SHOTS}/marking-375-rubric.png`, fullPage: true });
    expect(problems).toEqual([]);
  }, 300_000);

  it('splits a question between two teachers with 双评; one paper goes to 仲裁', async () => {
    const page = owner ?? (await signIn(browser, server.url, 'teacher'));
    await page.setViewportSize({ width: 1440, height: 900 });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const headers = await pageSession(page);
    const marker = await signIn(browser, server.url, 'teacher4');
    marker.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    marker.on('pageerror', (e) => problems.push(e.message));
    const markerHeaders = await pageSession(marker);
    // The class both teach: teacher4's only one.
    const [klass] = await call<Klass[]>(markerHeaders, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const { task } = await gradedTask(headers, klass!, '七年级数学双评', '解答题双评', 2);

    // 分配: both teachers, 双评 within 1 point.
    await page.goto(`${server.url}/#/AICorrect/report?taskId=${task.id}`);
    const entry = page.locator('[data-testid="marking-question"][data-no="3"]');
    await expect.poll(() => entry.innerText()).toContain('已阅 0/2');
    await entry.getByRole('button', { name: '分配第 3 题' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('陈静').check();
    await dialog.getByLabel('方远').check();
    await dialog.getByLabel('双评（每份试卷由两位老师各自打分）').check();
    await dialog.getByLabel('双评分差').fill('1');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/markers-dialog-1440.png` });
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => entry.getByTestId('marker-progress').allInnerTexts()).toEqual(['陈静 已阅 0/2', '方远 已阅 0/2']);

    // teacher4: 我的阅卷 on AI批改, their own share only, no totals or names.
    await marker.goto(`${server.url}/#/AICorrect`);
    const assigned = marker.getByTestId('assigned-question');
    await expect.poll(() => assigned.innerText()).toBe('第 3 题（双评） 已阅 0/2');
    await marker.screenshot({ path: `${SHOTS}/assigned-1440.png` });
    await assigned.click();
    await marker.waitForURL(/#\/AICorrect\/marking\?taskId=\d+&no=3/);
    await marker.getByTestId('scan-overlay').waitFor();
    const markerProgress = marker.getByTestId('marking-progress');
    await expect.poll(() => markerProgress.innerText()).toBe('已阅 0/2 · 双评（分差 ≤ 1 分）');
    expect(await marker.getByLabel('显示学生姓名').count()).toBe(0);
    expect(await marker.getByRole('button', { name: /细则/ }).count()).toBe(0);
    const markerInput = marker.getByTestId('marking-input');
    for (const [i, points] of ['4', '1'].entries()) {
      await markerInput.focus();
      await marker.keyboard.type(points);
      await marker.keyboard.press('Enter');
      await expect.poll(() => markerProgress.innerText()).toContain(`已阅 ${i + 1}/2`);
    }
    await expect.poll(() => marker.getByTestId('marking-message').innerText()).toBe('本题已全部阅完');
    await marker.screenshot({ path: `${SHOTS}/marking-marker-1440.png` });

    // The owner marks independently: teacher4's marks stay hidden until theirs is in.
    await page.goto(`${server.url}/#/AICorrect/marking?taskId=${task.id}&no=3`);
    await page.getByTestId('scan-overlay').waitFor();
    const progress = page.getByTestId('marking-progress');
    await expect.poll(() => progress.innerText()).toBe('已阅 0/2 · 双评（分差 ≤ 1 分）');
    expect(await page.getByTestId('marking-double').count()).toBe(0);
    const input = page.getByTestId('marking-input');
    await input.focus();
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    // 4 and 5 agree: 4.5 counts.
    await expect.poll(() => progress.innerText()).toBe('已阅 1/2 · 双评（分差 ≤ 1 分）');
    await input.focus();
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    // 1 and 5 do not: the paper stays, waiting for 仲裁, both marks shown.
    const double = page.getByTestId('marking-double');
    await expect.poll(() => double.innerText()).toContain('待仲裁');
    expect(await double.innerText()).toContain('方远 1 分');
    expect(await double.innerText()).toContain('陈静 5 分');
    await expect.poll(() => progress.innerText()).toBe('已阅 1/2 · 双评（分差 ≤ 1 分） · 待仲裁 1');
    await page.screenshot({ path: `${SHOTS}/marking-arbitration-1440.png` });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/marking-arbitration-375.png`, fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    // The report says so too.
    await page.getByRole('link', { name: '返回批改报告' }).click();
    await expect.poll(() => entry.innerText()).toContain('待仲裁 1');
    await expect.poll(() => entry.getByTestId('marker-progress').allInnerTexts()).toEqual(['陈静 已阅 2/2', '方远 已阅 2/2']);
    await entry.getByRole('link', { name: '仲裁' }).click();
    await page.getByTestId('scan-overlay').waitFor();
    await expect.poll(() => double.innerText()).toContain('待仲裁');
    await input.focus();
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await expect.poll(() => progress.innerText()).toBe('已阅 2/2 · 双评（分差 ≤ 1 分）');

    // Totals: 4 for the choices, plus 4.5 and the arbitrated 3.
    const report = await call<TaskReport>(headers, `${BASE}/task/report?taskId=${task.id}`);
    expect(report.students.map((s) => s.score).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([7, 8.5]);
    await page.goto(`${server.url}/#/AICorrect/report?taskId=${task.id}`);
    await expect.poll(() => entry.getByTestId('marking-question-progress').innerText()).toBe('满分 6 · 已阅 2/2');
    await entry.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/report-markers-1440.png` });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
    await entry.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/report-markers-375.png` });
    await entry.getByRole('button', { name: '分配第 3 题' }).click();
    // The dialog as it shows, not while it fades in (a screenshot only).
    await dialog.getByLabel('方远').waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/markers-dialog-375.png` });
    await dialog.getByRole('button', { name: '取消' }).click();
    await marker.setViewportSize({ width: 375, height: 800 });
    await marker.goto(`${server.url}/#/AICorrect`);
    await expect.poll(() => assigned.innerText()).toBe('第 3 题（双评） 已阅 2/2');
    await expect.poll(() => overflow(marker)).toBeLessThanOrEqual(0);
    await marker.screenshot({ path: `${SHOTS}/assigned-375.png` });
    await marker.goto(`${server.url}/#/AICorrect/marking?taskId=${task.id}&no=3`);
    await marker.getByTestId('scan-overlay').waitFor();
    await expect.poll(() => overflow(marker)).toBeLessThanOrEqual(0);
    await marker.screenshot({ path: `${SHOTS}/marking-marker-375.png`, fullPage: true });
    expect(problems).toEqual([]);
  }, 300_000);
});
