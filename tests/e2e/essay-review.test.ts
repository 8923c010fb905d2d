// 作文批改详情 in a real browser against the real server (in-process grading worker). The test
// makes an essay task through the API for the mini-program teacher's class, uploads photos of two
// students' handwritten essays (Chinese text rendered to an image with the repo's font by the
// engine's corpus generator), submits and waits for 已批改. The teacher opens the first student
// from the report, sees the photo, the recognised text with its notes marked, the four rubric
// dimensions; changes the score and comment and confirms — the API's result and the report change —
// steps to the next student and back, and opens the printable feedback. A stand-in model service
// gives its review, which the screen shows beside the rubric. Screenshots at 1440 and 375 px.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, signIn, pageSession, sessionCall, type SessionHeaders } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { settled } from '../support/settle';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import type { CorrectResultDetail, CorrectTaskDetail } from '../../src/dataProvider/correct';
import type { TaskReport } from '../../src/domain/correct';
import type { Page as ApiPage } from '../../src/domain/envelope';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-essay';
const BASE = '/api/wrongbook/v1.0/correct';

/** A stand-in for an OpenAI-compatible model service, so the screen shows the model's review. */
let model: Server;
const MODEL_REVIEW = { score: 40, comment: '感情真挚，事例具体。', suggestions: ['结尾可以再点题'] };

beforeAll(async () => {
  await ensureWebBuild();
  model = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(MODEL_REVIEW) } }] })),
    );
  });
  await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
  const { port } = model.address() as AddressInfo;
  server = await startServer({ env: { LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_API_KEY: 'test-key', LLM_MODEL: 'essay-model' } });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((r) => (model ? model.close(() => r()) : r()));
});

const session = pageSession;
type Headers = SessionHeaders;
const call = <T>(headers: Headers, path: string, init: { method?: string; json?: unknown; form?: FormData } = {}) => sessionCall<T>(server.url, headers, path, init);

/** Two students' essays, one line of handwriting per line of the exercise book. */
const ESSAYS = [
  ['我的老师姓王，她和蔼可亲。', '记得有一次我生病了，', '王老师专门来我家补课。', '她上课总是全神贯注，', '声音像清泉一样动听。', '后来我的成绩越来越好，', '我们我们都很喜欢她。', '我爱我的老师。'],
  ['我的老师是数学老师。', '他上课很认真。', '我喜欢我的老师。'],
];

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('作文批改详情 (mini-program teacher)', () => {
  it('reviews a graded essay beside its photo, changes score and comment, steps between students and prints the feedback', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    const headers = await session(page);

    const [klass] = await call<{ id: number }[]>(headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const roster = await call<ApiPage<{ id: number; name: string }>>(headers, `/api/vesta/student/page?classId=${klass.id}&status=0&size=100`);
    const students = roster.records.slice(0, 2);
    const task = await call<{ id: number }>(headers, `${BASE}/task/create`, {
      json: { type: 2, title: '作文：我的老师', classId: klass.id, essayBrief: { title: '我的老师', minChars: 100, fullMarks: 50 } },
    });
    for (const [i, lines] of ESSAYS.entries()) {
      const form = new FormData();
      form.append('taskId', String(task.id));
      form.append('studentId', String(students[i]!.id));
      const photo = await homeworkPhoto(lines.map((text) => ({ text, hand: true })), 11 + i);
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `作文${i + 1}.jpg`);
      await call(headers, `${BASE}/task/upload`, { form });
    }
    await call(headers, `${BASE}/task/submit`, { json: { taskId: task.id } });
    let detail: CorrectTaskDetail | undefined;
    for (let i = 0; i < 600 && detail?.task.status !== 4; i++) {
      if (i) await new Promise((r) => setTimeout(r, 500));
      detail = await call<CorrectTaskDetail>(headers, `${BASE}/task/detail?taskId=${task.id}`);
      expect(detail.task.status).not.toBe(7);
    }
    expect(detail!.results).toHaveLength(2);
    const first = detail!.results.find((r) => r.studentId === students[0]!.id)!;
    const second = detail!.results.find((r) => r.studentId === students[1]!.id)!;

    // From the report's student row to the correcting screen.
    await page.goto(`${server.url}/#/AICorrect/report?taskId=${task.id}`);
    await page.locator(`[data-result-id="${first.id}"]`).getByRole('link', { name: '批改' }).click();
    await page.waitForURL(/compositionCorrectDetail\?taskId=\d+&resultId=\d+/);
    await page.getByRole('heading', { level: 1, name: '作文批改详情' }).waitFor();
    const position = detail!.results.findIndex((r) => r.id === first.id) + 1;
    await expect.poll(() => page.getByTestId('essay-subtitle').innerText()).toBe(`作文：我的老师 · ${students[0]!.name} · 第 ${position}/2 份`);

    // The photo, the recognised text with its notes, the four dimensions as the engine gave them.
    const before = await call<CorrectResultDetail>(headers, `${BASE}/result/detail?resultId=${first.id}`);
    const essay = before.result.detail.essay!;
    await expect.poll(() => page.getByTestId('essay-photo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect(await page.getByTestId('essay-text').innerText()).toContain('全神贯注');
    expect(await page.locator('[data-testid="essay-text"] mark[data-kind~="idiom"]').first().innerText()).toContain('全神贯注');
    expect(await page.locator('[data-testid="essay-text"] mark[data-kind~="repeat"]').first().innerText()).toContain('我们我们');
    expect(await page.getByTestId('essay-note').count()).toBe(essay.rubric.notes.length);
    expect(await page.getByTestId('essay-dimension').count()).toBe(4);
    for (const d of essay.rubric.dimensions) {
      expect(await page.locator(`[data-testid="essay-dimension"][data-key="${d.key}"]`).getByTestId('dimension-score').innerText()).toBe(`${d.score}/${d.max} 分`);
    }
    expect(await page.getByTestId('essay-score').innerText()).toBe(String(first.score));
    // The model's review, as the engine stored it.
    expect(essay.llm).toEqual({ ok: true, review: MODEL_REVIEW });
    const llm = await page.getByTestId('essay-llm').innerText();
    expect(llm).toContain('建议得分 40 分');
    expect(llm).toContain(MODEL_REVIEW.comment);
    expect(llm).toContain('结尾可以再点题');
    await page.screenshot({ path: `${SHOTS}/essay-1440.png`, fullPage: true });
    await page.getByTestId('essay-review').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/essay-1440-review.png` });

    // The teacher's score and comment.
    const comment = '字迹工整，事例真实。注意删去重复的"我们"。';
    await page.getByLabel(/^得分/).fill('42.5');
    await page.getByLabel('评语').fill(comment);
    await page.getByRole('button', { name: '确认批改' }).click();
    await page.getByText('已保存批改').waitFor();
    await expect.poll(() => page.getByTestId('essay-score').innerText()).toBe('42.5');
    const after = await call<CorrectResultDetail>(headers, `${BASE}/result/detail?resultId=${first.id}`);
    expect(after.review).toEqual({ '1': 42.5 });
    expect(after.result.teacherComment).toBe(comment);
    expect(after).toMatchObject({ score: 42.5, needsReview: false });
    const report = await call<TaskReport>(headers, `${BASE}/task/report?taskId=${task.id}`);
    expect(report.students.find((s) => s.resultId === first.id)).toMatchObject({ score: 42.5, needsReview: false });
    expect(report.summary.reviewCount).toBe(1);
    expect(report.summary.highest).toBe(Math.max(42.5, second.score!));

    // Next student and back.
    await page.getByRole('button', { name: position === 1 ? '下一份' : '上一份' }).click();
    await expect.poll(() => page.getByTestId('essay-subtitle').innerText()).toContain(students[1]!.name);
    expect(await page.getByTestId('essay-text').innerText()).toContain('数学老师');
    await page.getByRole('button', { name: position === 1 ? '上一份' : '下一份' }).click();
    await expect.poll(() => page.getByTestId('essay-subtitle').innerText()).toContain(students[0]!.name);
    // The saved comment is what the form shows again.
    await expect.poll(() => page.getByLabel('评语').inputValue()).toBe(comment);

    // Phone width.
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/essay-375.png`, fullPage: true });
    for (const part of ['essay-text', 'essay-review'] as const) {
      await page.getByTestId(part).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/essay-375-${part}.png` });
    }
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1440, height: 900 });

    // The printable feedback: title, student, score, dimensions, the teacher's comment, the notes.
    await page.getByRole('button', { name: '打印评语' }).click();
    await page.getByTestId('print-feedback').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('作文评语');
    expect(await page.getByTestId('print-task').innerText()).toBe('作文：我的老师');
    expect(await page.getByTestId('print-student').innerText()).toBe(`学生：${students[0]!.name}`);
    expect(await page.getByTestId('print-score').innerText()).toBe('得分：42.5 / 50 分');
    expect(await page.getByTestId('print-dimension').count()).toBe(4);
    // The printed dimensions add up to the teacher's total, each within its own full marks.
    const printed = (await page.getByTestId('print-dimension').allInnerTexts()).map((row) => /(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)/.exec(row)!.slice(1).map(Number));
    expect(Math.round(printed.reduce((s, [score]) => s + score!, 0) * 10) / 10).toBe(42.5);
    expect(printed.reduce((s, [, max]) => s + max!, 0)).toBe(50);
    for (const [score, max] of printed) expect(score!).toBeLessThanOrEqual(max!);
    expect(await page.getByTestId('print-comment').innerText()).toBe(comment);
    expect(await page.locator('[data-testid="print-feedback"] mark[data-kind~="idiom"]').count()).toBeGreaterThan(0);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: '打印' }).isVisible()).toBe(false);
    await page.screenshot({ path: `${SHOTS}/print-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.emulateMedia({ media: 'screen' });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/print-375.png`, fullPage: true });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: '返回' }).click();
    await page.getByRole('button', { name: '确认批改' }).waitFor();

    // The read-only view from the task shows the comment and leads to the correcting view.
    await page.goto(`${server.url}/#/composition-detail?taskId=${task.id}&resultId=${first.id}`);
    await expect.poll(() => page.getByTestId('essay-comment').innerText()).toBe(comment);
    await page.screenshot({ path: `${SHOTS}/essay-view-375.png`, fullPage: true });
    await page.getByRole('button', { name: '修改评分和评语' }).click();
    await page.waitForURL(/compositionCorrectDetail/);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 420_000);
});
