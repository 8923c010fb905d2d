// 学生错题本 in a real browser against the real server (mini-program teacher `teacher`): the class
// list, a student's page, a cause set and still there after a reload, at 1440 and 375 px. The
// figures on screen are checked against counts this test makes with its own SQL once the server
// has stopped (PGlite has one writer).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { settled } from '../support/settle';
import { currentSemester } from '../../src/domain/semester';

let server: RunningServer;
let browser: Browser;
const dataDir = mkdtempSync(join(tmpdir(), 'xz-tracking-'));
const SHOTS = process.env.SCREENSHOT_DIR ?? join(process.cwd(), '.tmp/screenshots');

beforeAll(async () => {
  await ensureWebBuild();
  server = await startServer({ dataDir });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const numbers = (text: string) => (text.match(/\d+/g) ?? []).map(Number);

describe('学生错题本', () => {
  it('lists the class, opens a student, saves a cause that survives a reload; figures match the database', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));

    const listed = page.waitForResponse((r) => r.url().includes('/api/wrongbook/v1.0/web/student/list'));
    await page.goto(`${server.url}/#/studentTracking`);
    const listUrl = new URL((await listed).url());
    const classId = Number(listUrl.searchParams.get('classId'));
    const courseId = Number(listUrl.searchParams.get('courseId'));
    const totals = numbers(await page.getByTestId('class-totals').innerText());
    const cards = page.getByRole('button', { name: /^查看.+的错题$/ });
    expect(await cards.count()).toBe(totals[0]);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/student-tracking-list-1440.png`, fullPage: true });

    // The first student has the most unmastered questions.
    const first = cards.first();
    const name = ((await first.getAttribute('aria-label')) ?? '').replace(/^查看|的错题$/g, '');
    const detail = page.waitForResponse((r) => r.url().includes('/api/wrongbook/v1.0/web/student/detail'));
    await first.click();
    const studentId = Number(new URL((await detail).url()).searchParams.get('studentId'));
    await page.getByRole('heading', { name: new RegExp(name) }).waitFor();
    const wrongShown = Number(await page.getByTestId('tile-错题').innerText());
    const unmasteredShown = Number(await page.getByTestId('tile-未掌握').innerText());
    const firstQuestion = page.locator('[data-testid^="question-"]').first();
    const questionId = Number(((await firstQuestion.getAttribute('data-testid')) ?? '').replace('question-', ''));
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/student-tracking-student-1440.png`, fullPage: false });

    // Set the cause and see it again after a reload.
    await firstQuestion.getByRole('combobox', { name: '错因' }).click();
    await page.getByRole('option', { name: '计算失误' }).click();
    await page.getByText('错因已保存').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: new RegExp(name) }).waitFor();
    await expect.poll(() => page.getByTestId(`question-${questionId}`).getByRole('combobox', { name: '错因' }).innerText()).toBe('计算失误');

    // The mini-program width: the page fits, nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/student-tracking-student-375.png`, fullPage: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByText('本学期趋势').scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/student-tracking-trend-375.png`, fullPage: false });
    await page.getByTestId(`question-${questionId}`).scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/student-tracking-question-375.png`, fullPage: false });
    await page.getByRole('button', { name: '返回学生列表' }).click();
    await page.getByTestId('class-totals').waitFor();
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/student-tracking-list-375.png`, fullPage: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(problems).toEqual([]);
    await page.context().close();

    await server.stop();
    const db = await PGlite.create(join(dataDir, 'pg'));
    try {
      const term = currentSemester();
      const [cls] = (await db.query<{ students: number; questions: number }>(
        `SELECT (SELECT count(*)::int FROM students WHERE class_id = $1 AND status = 0) AS students,
                (SELECT count(DISTINCT (r.student_id, r.question_id))::int FROM answer_records r JOIN courses co ON co.id = $2
                  WHERE r.class_id = $1 AND NOT r.is_correct AND r.subject_id = co.subject_id AND r.term = $3) AS questions`,
        [classId, courseId, term],
      )).rows;
      expect(totals[0]).toBe(cls.students);
      expect(totals[1]).toBe(cls.questions);
      const [one] = (await db.query<{ questions: number }>(
        `SELECT count(DISTINCT r.question_id)::int AS questions FROM answer_records r JOIN courses co ON co.id = $2
          WHERE r.student_id = $1 AND NOT r.is_correct AND r.subject_id = co.subject_id AND r.term = $3`,
        [studentId, courseId, term],
      )).rows;
      expect(wrongShown).toBe(one.questions);
      expect(unmasteredShown).toBeLessThanOrEqual(wrongShown);
      const marks = (await db.query<{ cause: number }>('SELECT cause FROM student_wrong_marks WHERE student_id = $1 AND question_id = $2', [studentId, questionId])).rows;
      expect(marks).toEqual([{ cause: 2 }]);
    } finally {
      await db.close();
    }
  }, 240_000);
});
