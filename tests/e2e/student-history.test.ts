// 学情档案 and 讲评样例 in a real browser against the real server. The mini-program teacher opens a
// student's 学情档案 from 学生错题本: the subject rates, knowledge-point rows (and the 薄弱 filter),
// exams and 临界 flags are those of the API's reply (which tests/api/student-history.test.ts
// recounts from the answer records), 打印学情诊断 downloads a one-page PDF with the name; the
// principal sees bands, no score. On 讲评 the teacher picks two graded papers of a question as
// samples: they show as 样例A and 样例B with their crops and without any name, stay after a reload,
// and ← → still change questions. Screenshots at 1440 and 375 px.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, pageSession, sessionCall, signIn, type SessionHeaders } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';
import { rosterSheet, uploadAndGrade } from '../support/correctTasks';
import { settled } from '../support/settle';
import type { SectionSpec } from '../../server/grading';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { StudentHistory } from '../../src/domain/studentHistory';
import type { LectureSample } from '../../src/domain/lecture';
import { percent } from '../../src/domain/format';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-history';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)), 300_000);
afterAll(() => closeServerAndBrowser(server, browser));

/** The screen scrolls inside the layout's main area: one shot per part. */
async function sectionShots(page: Page, width: number, prefix = 'student-history') {
  for (const [part, heading] of [['top', '学情档案'], ['trend', '各学科得分率'], ['points', '知识点掌握'], ['exams', '考试']] as const) {
    const target = page.getByRole('heading', { name: heading, exact: true });
    if (!(await target.count())) continue;
    await target.first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${SHOTS}/${prefix}-${width}-${part}.png` });
  }
}
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('学情档案', () => {
  it('opens from 学生错题本 with the API’s figures, filters 薄弱, prints a one-page diagnostic, and fits a phone', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/#/studentTracking`);
    const link = page.getByRole('link', { name: /^查看.+的学情档案$/ }).first();
    const name = ((await link.getAttribute('aria-label')) ?? '').replace(/^查看|的学情档案$/g, '');
    const reply = page.waitForResponse((r) => r.url().includes('/api/analysis/v1.0/student/history'));
    await link.click();
    const studentId = Number(new URL((await reply).url()).searchParams.get('studentId'));
    await page.getByRole('heading', { level: 1, name: '学情档案' }).waitFor();
    await expect.poll(() => page.getByTestId('history-student').innerText()).toContain(name);
    const h = await pageApi<StudentHistory>(page, `/api/analysis/v1.0/student/history?studentId=${studentId}`);
    expect(h.student.name).toBe(name);

    // Subject tiles: the rates of the reply; the trend is drawn; the summary's sentences.
    expect(h.subjects.length).toBeGreaterThan(0);
    for (const s of h.subjects) expect(await page.getByTestId(`subject-${s.name}`).getByTestId('subject-rate').innerText()).toBe(percent(s.scoreRate));
    await page.getByTestId('trend').locator('svg').first().waitFor();
    expect(await page.getByTestId('history-summary').innerText()).toContain(h.summary[0]);
    // 临界 flags and exam rows, one each.
    expect(await page.getByTestId('critical-flag').count()).toBe(h.critical.length);
    expect(await page.getByTestId('exam-row').count()).toBe(h.exams.length);
    for (const [i, e] of h.exams.entries()) expect(await page.getByTestId('exam-row').nth(i).innerText()).toContain(`${e.score} / ${e.fullMarks}`);
    // Knowledge points: all, then only the weak ones.
    expect(await page.getByTestId('point-row').count()).toBe(h.points.length);
    const weak = h.points.filter((p) => p.level === 'weak');
    await page.getByTestId('level-weak').click();
    await expect.poll(() => page.getByTestId('point-row').count()).toBe(weak.length);
    for (const row of await page.getByTestId('point-row').all()) expect(await row.innerText()).toContain('薄弱');
    await page.getByRole('button', { name: `全部 ${h.points.length}` }).click();
    await settled(page);
    await sectionShots(page, 1440);

    // The diagnostic for a parent meeting: one page with the name.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '打印学情诊断' }).click()]);
    expect(download.suggestedFilename()).toBe(`${name}_学情诊断_${h.termLabel}.pdf`);
    const pdf = join(SHOTS, 'student-diagnostic.pdf');
    await download.saveAs(pdf);
    expect(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' })).toMatch(/Pages:\s+1\n/);
    expect(execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' })).toContain(`姓名：${name}`);
    execFileSync('pdftoppm', ['-r', '70', '-png', '-singlefile', pdf, join(SHOTS, 'student-diagnostic')]);

    // A phone: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await sectionShots(page, 375);
    expect(problems).toEqual([]);
    await page.context().close();

    // The principal reads the same student with bands only: no score column, no print.
    const principal = await signIn(browser, server.url, 'principal');
    await principal.goto(`${server.url}/#/studentHistory?studentId=${studentId}`);
    await expect.poll(() => principal.getByTestId('history-student').innerText()).toContain(name);
    await principal.getByText('按学校的成绩公开范围，只显示等级，不显示分数', { exact: false }).waitFor();
    expect(await principal.getByRole('columnheader', { name: '得分' }).count()).toBe(0);
    expect(await principal.getByRole('button', { name: '打印学情诊断' }).count()).toBe(0);
    expect(await principal.getByTestId('exam-row').count()).toBe(h.exams.length);
    await sectionShots(principal, 1440, 'student-history-principal');
    await principal.context().close();
  }, 300_000);
});

const SECTIONS: SectionSpec[] = [{ kind: 'objective', title: '一、选择题', items: [1, 2, 3].map((no) => ({ no, type: 'single' as const, options: 4 })) }];
const KEY = { items: { '1': { answer: 'A', points: 5 }, '2': { answer: 'B', points: 5 }, '3': { answer: 'C', points: 5 } } };
const ANSWERS = [
  { 1: 'A', 2: 'B', 3: 'C' },
  { 1: 'A', 2: 'C', 3: 'C' },
  { 1: 'B', 2: 'D', 3: 'C' },
  { 1: 'A', 2: 'C', 3: 'D' },
];

describe('讲评样例', () => {
  it('picks two papers of a question as 样例A and 样例B, shown without names, kept, with ← → still working', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const headers: SessionHeaders = await pageSession(page);
    const call = <T,>(h: SessionHeaders, path: string, init?: { method?: string; json?: unknown; form?: FormData }) => sessionCall<T>(server.url, h, path, init);
    const [klass] = await call<{ id: number; className: string }[]>(headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const { sheetId, students, layout } = await rosterSheet(call, headers, klass, '讲评样例小测', SECTIONS);
    const task = await call<{ id: number }>(headers, '/api/wrongbook/v1.0/correct/task/create', { json: { type: 3, title: '讲评样例小测', classId: klass.id, sheetId, answerKey: KEY } });
    const scans = await Promise.all(
      ANSWERS.map((a, i) => {
        const filling: Filling = { copy: { sheetId, page: 1, studentId: `s${students[i].id}` }, objective: Object.fromEntries(Object.entries(a).map(([no, label]) => [Number(no), [{ label, style: 'full' as const }]])) };
        return makeScan(layout, filling, { noise: 3 }, 200 + i);
      }),
    );
    const graded = await uploadAndGrade(call, headers, task.id, scans);
    expect(graded.task.status).toBe(4);

    await page.goto(`${server.url}/#/AICorrect/lecture?taskId=${task.id}`);
    await page.getByRole('button', { name: '按题号' }).click();
    await page.getByRole('button', { name: '下一题' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText(), { timeout: 10_000 }).toBe('第 2 题');
    expect(await page.getByTestId('lecture-sample').count()).toBe(0);

    // The picker: every paper's crop of question 2, numbered, no names.
    await page.getByRole('button', { name: '选择样例' }).click();
    const dialog = page.getByRole('dialog', { name: '选择第 2 题的样例' });
    await expect.poll(() => dialog.getByTestId('sample-candidate').count(), { timeout: 20_000 }).toBe(ANSWERS.length);
    await expect.poll(() => dialog.getByTestId('scan-overlay').count(), { timeout: 20_000 }).toBe(ANSWERS.length);
    // The arrows do not change the question while the picker is open.
    await page.keyboard.press('ArrowRight');
    for (const s of students.slice(0, ANSWERS.length)) expect(await dialog.innerText()).not.toContain(s.name);
    // Most points first: 第 1 份 got 5, the others 0. Pick a wrong one first, then the right one.
    expect(await dialog.getByTestId('sample-candidate').first().innerText()).toContain('5 / 5 分');
    await dialog.getByRole('checkbox', { name: '第 2 份作答' }).check();
    await dialog.getByRole('checkbox', { name: '第 1 份作答' }).check();
    await page.screenshot({ path: `${SHOTS}/lecture-picker-1440.png` });
    await dialog.getByRole('button', { name: '保存样例' }).click();
    await page.getByText('样例已保存').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe('第 2 题');

    const samples = page.getByTestId('lecture-sample');
    await expect.poll(() => samples.count()).toBe(2);
    expect(await samples.nth(0).innerText()).toMatch(/^样例A\s+0 \/ 5 分/);
    expect(await samples.nth(1).innerText()).toMatch(/^样例B\s+5 \/ 5 分/);
    await expect.poll(() => samples.locator('[data-testid="scan-overlay"]').count()).toBe(2);
    const body = await page.locator('body').innerText();
    for (const s of students) {
      expect(body).not.toContain(s.name);
      expect(body).not.toContain(s.studentNo);
    }
    const saved = await call<{ samples: LectureSample[] }>(headers, `/api/wrongbook/v1.0/correct/lecture/samples?taskId=${task.id}`);
    expect(saved.samples.map((s) => [s.no, s.label, s.score])).toEqual([[2, '样例A', 0], [2, '样例B', 5]]);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/lecture-samples-1440.png` });

    // ← → go on as before; question 3 has no samples, question 2 has them again.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText(), { timeout: 10_000 }).toBe('第 3 题');
    expect(await samples.count()).toBe(0);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText(), { timeout: 10_000 }).toBe('第 2 题');
    await expect.poll(() => samples.count()).toBe(2);

    // Kept: after a reload the same samples.
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText(), { timeout: 10_000 }).toBe('第 2 题');
    await expect.poll(() => samples.count()).toBe(2);
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/lecture-samples-375.png`, fullPage: true });
    await page.getByRole('button', { name: '选择样例' }).click();
    // Each crop appears once its scan has downloaded: four images from a busy server can take more
    // than the default five seconds, so wait for the papers first, then for every picture.
    await expect.poll(() => page.getByRole('dialog').getByTestId('sample-candidate').count(), { timeout: 20_000 }).toBe(ANSWERS.length);
    await expect.poll(() => page.getByRole('dialog').getByTestId('scan-overlay').count(), { timeout: 20_000 }).toBe(ANSWERS.length);
    await page.screenshot({ path: `${SHOTS}/lecture-picker-375.png` });
    await page.getByRole('button', { name: '取消' }).click();
    expect(problems).toEqual([]);
    await page.context().close();
  }, 420_000);
});
