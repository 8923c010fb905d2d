// The teacher reviews AI grading in a real browser against the real server (in-process grading
// worker). The test makes a roster answer-sheet task through the API: three students' scans
// rendered by the engine's corpus generator, one with a half-filled bubble on item 2 (grading
// cannot tell, so it flags the item). From 「AI批改」 the task's 去复核 opens the first flagged
// student: the flagged item is first in the list and the scan shows the regions and bubbles as
// read; the teacher gives points (已保存), goes to the next student with J and scores an item with
// a digit key, opens the by-question view and scores a row there; the report's student row opens
// a detail too. The API then shows the teacher's points in the results and in the report.
// Screenshots at 1440 px and 375 px.
// Answer groups: a fill-in task where two students wrote the same wrong answer; in the by-question
// view they form one group (「3」 ×2) with both crops, marked 对 at once (one call); one paper's
// decision undone (撤销整组判分); one taken out and marked alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn, pageSession, sessionCall, type SessionHeaders } from '../support/browser';
import { refusalLines } from '../support/refusals';
import type { RunningServer } from '../support/serverProcess';
import { rosterSheet, uploadAndGrade } from '../support/correctTasks';
import { settled } from '../support/settle';
import { buildLayout, type SectionSpec } from '../../server/grading';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { MarkStyle } from '../../server/grading/corpus/marks';
import type { CorrectResultDetail, CorrectTaskDetail } from '../../src/dataProvider/correct';
import type { TaskReport } from '../../src/domain/correct';
import type { Page as ApiPage } from '../../src/domain/envelope';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-review';
const BASE = '/api/wrongbook/v1.0/correct';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const session = pageSession;
type Headers = SessionHeaders;
const call = <T>(headers: Headers, path: string, init: { method?: string; json?: unknown; form?: FormData } = {}) => sessionCall<T>(server.url, headers, path, init);

const SECTIONS: SectionSpec[] = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3, 4, 5].map((no) => ({ no, type: 'single' as const, options: 4 })) }];
const KEY = { items: Object.fromEntries(['A', 'B', 'C', 'D', 'A'].map((answer, i) => [String(i + 1), { answer, points: 2 }])) };
/** All right; a half-filled bubble on item 2 (unsure); item 3 wrong. */
const MARKS: Record<number, [string, MarkStyle]>[] = [
  { 1: ['A', 'full'], 2: ['B', 'full'], 3: ['C', 'full'], 4: ['D', 'full'], 5: ['A', 'full'] },
  { 1: ['A', 'full'], 2: ['B', 'half'], 3: ['C', 'full'], 4: ['D', 'full'], 5: ['A', 'full'] },
  { 1: ['A', 'full'], 2: ['B', 'full'], 3: ['A', 'full'], 4: ['D', 'full'], 5: ['A', 'full'] },
];

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('AI批改 review (mini-program teacher)', () => {
  it('reviews a flagged item over the scan, moves between students with the keyboard and reviews by question', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    // The one refusal this test asks for (a score over full marks) may log; nothing else may.
    const refused = refusalLines([{ url: `${server.url}${BASE}/result/review`, status: 400, msg: '第 2 题得分不能超过满分 2 分' }]);
    page.on('console', (m) => m.type() === 'error' && !refused(m) && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    const headers = await session(page);

    // A roster sheet for the teacher's class, three students' scans, graded.
    const [klass] = await call<{ id: number; className: string }[]>(headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const { sheetId, students, layout } = await rosterSheet(call, headers, klass, '七年级数学小测', SECTIONS);
    const roster = { records: students };
    const task = await call<{ id: number }>(headers, `${BASE}/task/create`, { json: { type: 3, title: '小测复核', classId: klass.id, sheetId, answerKey: KEY } });
    const scans: Buffer[] = [];
    for (const [i, marks] of MARKS.entries()) {
      const filling: Filling = {
        copy: { sheetId, page: 1, studentId: `s${students[i].id}` },
        objective: Object.fromEntries(Object.entries(marks).map(([no, [label, style]]) => [Number(no), [{ label, style }]])),
      };
      scans.push(await makeScan(layout, filling, { rotateDeg: i - 1, noise: 3 }, 300 + i));
    }
    const detail = await uploadAndGrade(call, headers, task.id, scans);
    expect(detail.task.status).toBe(4);
    const results = detail.results;
    expect(results).toHaveLength(3);
    const unsure = results.find((r) => r.studentName === roster.records[1].name)!;
    const flaggedFirst = results.find((r) => r.needsReview)!;
    expect(flaggedFirst.id).toBe(unsure.id);
    const before = await call<CorrectResultDetail>(headers, `${BASE}/result/detail?resultId=${unsure.id}`);
    expect(before.result.items.find((i) => i.no === 2)!.needsReview).toBe(true);

    // 去复核 on the task's row opens the first flagged student.
    await page.reload();
    const row = page.locator(`[data-task-id="${task.id}"]`);
    await row.getByRole('link', { name: '去复核' }).click();
    await page.waitForURL(/#\/correctDetail\?taskId=\d+/);
    await expect.poll(() => page.getByTestId('detail-student').innerText()).toContain(roster.records[1].name);
    expect(page.url()).toContain(`resultId=${unsure.id}`);

    // The flagged item comes first; the scan shows every question's region, the unclear bubble dashed.
    const first = page.getByTestId('review-item').first();
    expect(await first.getAttribute('data-no')).toBe('2');
    expect(await first.getAttribute('data-flagged')).toBe('true');
    expect(await first.getByTestId('item-reasons').innerText()).toContain('涂写不清');
    await expect.poll(() => page.getByTestId('overlay-region').count()).toBe(5);
    expect(await page.locator('[data-testid="overlay-region"][data-no="2"]').getAttribute('data-verdict')).toBe('flagged');
    expect(await page.locator('[data-testid="overlay-region"][data-no="1"]').getAttribute('data-verdict')).toBe('right');
    expect(await page.locator('[data-testid="overlay-bubble"][data-no="2"]').getAttribute('data-state')).toBe('uncertain');
    await expect.poll(() => page.locator('[data-testid="overlay-bubble"][data-state="marked"]').count()).toBe(4);
    await page.getByTestId('shortcut-help').waitFor();
    await page.screenshot({ path: `${SHOTS}/detail-1440.png` });
    // The whole page, name and QR code included, on request.
    await page.getByTestId('whole-page').click();
    await page.screenshot({ path: `${SHOTS}/detail-1440-page.png` });
    await page.getByRole('button', { name: '只看作答区域' }).click();

    // A score over full marks: the server's reason beside the item, nothing saved.
    const input = first.getByTestId('points-input');
    await input.fill('9');
    const isReview = (r: Response) => r.url() === `${server.url}${BASE}/result/review` && r.request().method() === 'POST';
    const [refusal] = await Promise.all([page.waitForResponse(isReview), input.press('Enter')]);
    expect(refusal.status()).toBe(400);
    await expect.poll(() => first.getByTestId('save-state').innerText()).toBe('第 2 题得分不能超过满分 2 分');
    // The teacher's points: saved at once, the total follows.
    await input.fill('2');
    await input.press('Enter');
    await expect.poll(() => first.getByTestId('save-state').innerText()).toBe('已保存');
    await expect.poll(() => page.getByTestId('detail-score').innerText()).toBe('10/10 分');
    expect(await page.locator('[data-testid="overlay-region"][data-no="2"]').getAttribute('data-verdict')).toBe('right');
    await input.press('Escape');

    // J: the next student; ↓ selects the next item and a digit scores it.
    const position = await page.getByTestId('detail-position').innerText();
    await page.keyboard.press('j');
    await expect.poll(() => page.getByTestId('detail-position').innerText()).not.toBe(position);
    const index = results.findIndex((r) => r.id === unsure.id);
    const next = results[index + 1];
    await expect.poll(() => page.getByTestId('detail-student').innerText()).toContain(next.studentName!);
    await page.keyboard.press('ArrowDown');
    const selected = page.locator('[data-testid="review-item"][aria-current="true"]');
    await expect.poll(() => selected.getAttribute('data-no')).toBe('2');
    await page.keyboard.press('1');
    await expect.poll(() => selected.getByTestId('save-state').innerText()).toBe('已保存');
    expect(await selected.getByTestId('points-input').inputValue()).toBe('1');

    // By question: question 2 across all students, each with its crop of the scan.
    await page.getByRole('button', { name: '按题目' }).click();
    await page.locator('[data-testid="question-chip"][data-no="2"]').click();
    await expect.poll(() => page.url()).toMatch(/mode=question&no=2$/);
    await expect.poll(() => page.getByTestId('question-student').count()).toBe(3);
    await expect.poll(() => page.locator('[data-testid="question-student"] [data-testid="scan-overlay"]').count()).toBe(3);
    await expect.poll(() => page.getByTestId('question-heading').innerText()).toBe('第 2 题 · 共 3 名学生');
    // The student not yet reviewed on this question.
    const lastId = results.find((r) => r.id !== unsure.id && r.id !== next.id)!.id;
    const lastRow = page.locator(`[data-testid="question-student"][data-result-id="${lastId}"]`);
    await lastRow.getByTestId('points-input').fill('0');
    await lastRow.getByTestId('points-input').blur();
    await expect.poll(() => lastRow.getByTestId('save-state').innerText()).toBe('已保存');
    await page.screenshot({ path: `${SHOTS}/question-1440.png` });

    // Phone width: both views fit.
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/question-375.png` });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: '按学生' }).click();
    await page.getByTestId('review-item').first().waitFor();
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/detail-375.png` });
    await page.getByTestId('review-item').last().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/detail-375-items.png` });
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // The scan is about 330 px wide on a phone: two fingers spread zoom it, a tap on a question
    // zooms to that question and selects it, 整页显示 shows the whole crop again.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: [number, number][]) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
    const scan = page.getByTestId('scan-overlay').first();
    await scan.scrollIntoViewIfNeeded();
    const zoomOf = async () => Number(await scan.getAttribute('data-zoom'));
    expect(await zoomOf()).toBe(1);
    const box = (await scan.boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    await touch('touchStart', [[cx - 20, cy], [cx + 20, cy]]);
    for (const d of [30, 45, 60]) await touch('touchMove', [[cx - d, cy], [cx + d, cy]]);
    await touch('touchEnd', []);
    // Fingers 40 px apart, then 120 px: three times closer.
    await expect.poll(zoomOf).toBeCloseTo(3, 1);
    await page.screenshot({ path: `${SHOTS}/detail-375-pinch.png` });
    await page.getByRole('button', { name: '整页显示' }).click();
    await expect.poll(zoomOf).toBe(1);
    const region = (await page.locator('[data-testid="overlay-region"][data-no="4"] polygon').first().boundingBox())!;
    await touch('touchStart', [[region.x + region.width / 2, region.y + region.height / 2]]);
    await touch('touchEnd', []);
    // The question fills the scan's width, whole: a row of bubbles is as wide as the crop, so the
    // zoom is modest here; a short fill-in would come much closer.
    await expect.poll(zoomOf).toBeGreaterThan(1.05);
    const shown = (await page.locator('[data-testid="overlay-region"][data-no="4"] polygon').first().boundingBox())!;
    const frame = (await scan.boundingBox())!;
    expect(shown.x).toBeGreaterThanOrEqual(frame.x - 1);
    expect(shown.x + shown.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
    expect(shown.y).toBeGreaterThanOrEqual(frame.y - 1);
    expect(shown.y + shown.height).toBeLessThanOrEqual(frame.y + frame.height + 1);
    expect(shown.width / frame.width).toBeGreaterThan(0.7);
    expect(shown.height).toBeGreaterThan(region.height * 1.05);
    await expect.poll(() => page.locator('[data-testid="review-item"][aria-current="true"]').getAttribute('data-no')).toBe('4');
    await page.screenshot({ path: `${SHOTS}/detail-375-question.png` });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
    await cdp.detach();
    await page.setViewportSize({ width: 1440, height: 900 });
    // A mouse zooms with the buttons.
    await page.getByRole('button', { name: '整页显示' }).click();
    await expect.poll(zoomOf).toBe(1);
    await page.getByRole('button', { name: '放大' }).first().click();
    await expect.poll(zoomOf).toBe(1.5);

    // The report: every student row opens the student's detail.
    await page.goto(`${server.url}/#/AICorrect/report?taskId=${task.id}`);
    await page.locator(`[data-student-result="${results[0].id}"]`).getByRole('link').click();
    await page.waitForURL(new RegExp(`#/correctDetail\\?taskId=${task.id}&resultId=${results[0].id}`));
    await expect.poll(() => page.getByTestId('detail-student').innerText()).toContain(results[0].studentName!);

    // Through the API: the teacher's points are in the results and in the report.
    const after = await call<CorrectResultDetail>(headers, `${BASE}/result/detail?resultId=${unsure.id}`);
    expect(after.review).toEqual({ '2': 2 });
    expect(after.score).toBe(10);
    expect(after.needsReview).toBe(false);
    expect((await call<CorrectResultDetail>(headers, `${BASE}/result/detail?resultId=${next.id}`)).review).toMatchObject({ '2': 1 });
    expect((await call<CorrectResultDetail>(headers, `${BASE}/result/detail?resultId=${lastId}`)).review).toMatchObject({ '2': 0 });
    const report = await call<TaskReport>(headers, `${BASE}/task/report?taskId=${task.id}`);
    expect(report.students.find((s) => s.resultId === unsure.id)).toMatchObject({ score: 10, needsReview: false, flaggedCount: 0 });
    expect(report.summary.reviewCount).toBe(0);
    const q2 = report.questions.find((q) => q.no === 2)!;
    const points2 = (r: number) => (r === unsure.id ? 2 : r === lastId ? 0 : r === next.id ? 1 : 2);
    expect(q2.average).toBe(Math.round((results.reduce((s, r) => s + points2(r.id), 0) / 3) * 100) / 100);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 420_000);

  it('marks a fill-in by answer group: one decision for every student with the same reading, one taken out', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const headers = await session(page);
    const [klass] = await call<{ id: number; className: string }[]>(headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const roster = await call<ApiPage<{ id: number; name: string }>>(headers, `/api/vesta/student/page?classId=${klass.id}&status=0&size=100`);
    const sections: SectionSpec[] = [{ kind: 'fill', title: '一、填空题', items: [{ no: 1, blanks: 1 }] }];
    const title = '填空分组';
    const sheet = await call<{ sheetId: string }>(headers, `${BASE}/sheet/create`, { json: { title, paper: 'A4', identity: 'roster', classId: klass.id, sections } });
    const students = roster.records.map((s) => ({ id: `s${s.id}`, name: s.name, className: klass.className }));
    const layout = buildLayout({ sheetId: sheet.sheetId, title, paper: 'A4', identity: { mode: 'roster', students }, sections });
    // The key says 4: two students wrote 3, one wrote 5.
    const task = await call<{ id: number }>(headers, `${BASE}/task/create`, { json: { type: 3, title: '填空分组批改', classId: klass.id, sheetId: sheet.sheetId, answerKey: { items: { '1': { blanks: [['4']], points: 3 } } } } });
    for (const [i, written] of ['3', '5', '3'].entries()) {
      const form = new FormData();
      form.append('taskId', String(task.id));
      const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: students[i]!.id }, objective: {}, fill: { 1: [written] } }, { noise: 3 }, 700 + i);
      form.append('file', new Blob([new Uint8Array(scan)], { type: 'image/jpeg' }), `填空${i + 1}.jpg`);
      await call(headers, `${BASE}/task/upload`, { form });
    }
    await call(headers, `${BASE}/task/submit`, { json: { taskId: task.id } });
    await expect.poll(async () => (await call<CorrectTaskDetail>(headers, `${BASE}/task/detail?taskId=${task.id}`)).task.status, { timeout: 240_000, interval: 500 }).toBe(4);

    await page.goto(`${server.url}/#/correctDetail?taskId=${task.id}&mode=question&no=1`);
    await expect.poll(() => page.getByTestId('question-student').count()).toBe(3);
    const group = page.getByTestId('answer-group');
    await expect.poll(() => group.allInnerTexts()).toHaveLength(1);
    expect(await group.innerText()).toContain('「3」 ×2');
    await page.screenshot({ path: `${SHOTS}/groups-1440.png` });
    // 对 for the group: both students who wrote 3 get full marks, the report follows.
    await group.getByRole('button', { name: '对' }).click();
    await expect.poll(() => group.getByTestId('answer-group-given').innerText()).toContain('已给 3 分');
    const scores = async () => (await call<TaskReport>(headers, `${BASE}/task/report?taskId=${task.id}`)).students.map((s) => s.score).sort((a, b) => (a ?? 0) - (b ?? 0));
    await expect.poll(scores).toEqual([0, 3, 3]);
    // The group shows each of its students' crop of the question.
    await expect.poll(() => group.getByTestId('answer-group-crops').locator('svg').count()).toBe(2);
    const grouped = page.locator('[data-testid="question-student"]', { has: page.getByRole('button', { name: '移出分组' }) });
    await expect.poll(() => grouped.count()).toBe(2);
    const alone = page.locator(`[data-testid="question-student"][data-result-id="${await grouped.first().getAttribute('data-result-id')}"]`);
    // Undo for one paper: it is back to the machine's 0, the other keeps the group's 3.
    await expect.poll(() => page.getByTestId('group-undo').count()).toBe(2);
    await alone.getByTestId('group-undo').click();
    await expect.poll(scores).toEqual([0, 0, 3]);
    await expect.poll(() => alone.getByTestId('group-undo').count()).toBe(0);
    await expect.poll(() => alone.getByTestId('points-input').inputValue()).toBe('0');
    // Taken out of the group and marked alone: the group is gone (one left), the other keeps 3.
    await alone.getByRole('button', { name: '移出分组' }).click();
    await expect.poll(() => group.count()).toBe(0);
    await alone.getByTestId('points-input').fill('1');
    await alone.getByTestId('points-input').blur();
    await expect.poll(() => alone.getByTestId('save-state').innerText()).toBe('已保存');
    await expect.poll(scores).toEqual([0, 1, 3]);
    await alone.getByRole('button', { name: '放回分组' }).click();
    await expect.poll(() => group.count()).toBe(1);
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/groups-375.png` });
    expect(problems).toEqual([]);
    await page.context().close();
  }, 420_000);
});
