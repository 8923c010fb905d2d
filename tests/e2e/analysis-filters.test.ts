// The 学科 picker of /analysis for each leader-type role in a real browser: the principal, the
// grade leader and the subject leader see the courses their scope teaches
// in the chosen grade (checked against the database once the server has stopped), and choosing
// another course changes the figures to what the API answers for that course.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { selectionSettled } from '../support/settle';
import type { Analysis } from '../../src/domain/analysis';
import { currentSemester } from '../../src/domain/semester';

let server: RunningServer;
let browser: Browser;
const dataDir = mkdtempSync(join(tmpdir(), 'xz-analysis-filters-'));
const SHOTS = process.env.SCREENSHOT_DIR ?? join(import.meta.dirname, '..', '..', '.tmp', 'screenshots');
const pct = (r: number | null) => (r === null ? '暂无数据' : `${(Math.round(r * 1000) / 10).toFixed(1)}%`);

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

interface Seen {
  gradeId: string;
  courses: string[];
  /** The score rate shown for each course chosen, by course id. */
  rates: Record<string, string>;
}
/** What each user saw, checked against the database at the end. */
const seen: Record<string, Seen> = {};

const USERS = [
  { user: 'principal', role: 'schoolMaster' },
  { user: 'gradeleader', role: 'gradeLeader' },
  { user: 'subjectleader', role: 'subjectleader' },
  // The researcher's header has the term only; their drill and 学科 picker: tests/e2e/region.test.ts.
] as const;

const selectionOf = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}') as { gradeId?: string; courseId?: string; learningTerm?: string; courseName?: string });

async function figuresFor(page: Page, courseId: string): Promise<Analysis> {
  const s = await selectionOf(page);
  const role = await page.evaluate(() => sessionStorage.getItem('xuezhu.activeRole'));
  const leaderType = { gradeLeader: 3, subjectleader: 2 }[role ?? ''];
  const q = `term=${s.learningTerm || currentSemester()}&gradeId=${s.gradeId}&courseId=${courseId}${leaderType ? `&leaderType=${leaderType}` : ''}`;
  return pageApi<Analysis>(page, `/api/analysis/v1.0/overview?${q}`);
}

/** The header's course picker; its options (opening it when more than one can be chosen). */
async function courseOptions(page: Page): Promise<{ names: string[]; disabled: boolean }> {
  const picker = page.getByRole('combobox', { name: '学科' });
  const disabled = (await picker.getAttribute('aria-disabled')) === 'true';
  if (disabled) return { names: [(await picker.innerText()).trim()], disabled };
  await picker.click();
  const options = page.getByRole('listbox').getByRole('option');
  await options.first().waitFor();
  const names = await options.allInnerTexts();
  await page.screenshot({ path: `${SHOTS}/analysis-filters-${await page.evaluate(() => sessionStorage.getItem('xuezhu.activeRole'))}-open-1440.png`, clip: { x: 0, y: 0, width: 1440, height: 420 } });
  await page.keyboard.press('Escape');
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  const trimmed = names.map((n) => n.trim());
  // 全部学科 comes last, and only when there are two or more courses to sum.
  if (trimmed.length > 1) expect(trimmed.at(-1)).toBe('全部学科');
  return { names: trimmed.filter((n) => n !== '全部学科'), disabled };
}

describe('学科 picker on /analysis per leader role', () => {
  for (const { user, role } of USERS) {
    it(`${user} (${role}) picks among the courses of the chosen grade, and the figures follow`, async () => {
      const page = await signIn(browser, server.url, user);
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${server.url}/#/analysis`);
      await page.getByRole('heading', { level: 1, name: '学情分析' }).waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem('xuezhu.activeRole'))).toBe(role);
      await page.getByTestId('total-score-rate').waitFor({ timeout: 30_000 });
      await selectionSettled(page);

      const picker = page.getByRole('combobox', { name: '学科' });
      expect(await picker.innerText(), user).not.toContain('暂无数据');
      const first = await selectionOf(page);
      expect(first.gradeId, user).toBeTruthy();
      expect(first.courseId, user).toBeTruthy();
      expect((await picker.innerText()).trim()).toBe(first.courseName);
      await page.screenshot({ path: `${SHOTS}/analysis-filters-${user}-1440.png`, clip: { x: 0, y: 0, width: 1440, height: 420 } });

      const { names, disabled } = await courseOptions(page);
      // The page shows the API's figures for the course chosen first.
      const api1 = await figuresFor(page, first.courseId!);
      expect(await page.getByTestId('total-score-rate').innerText()).toBe(pct(api1.total.scoreRate));
      const rates: Record<string, string> = { [first.courseId!]: pct(api1.total.scoreRate) };

      if (names.length > 1) {
        expect(disabled).toBe(false);
        const other = names.find((n) => n !== first.courseName)!;
        await picker.click();
        await page.getByRole('listbox').getByRole('option', { name: other, exact: true }).click();
        await page.waitForFunction((name) => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}').courseName === name, other);
        const second = await selectionOf(page);
        expect(second.courseId).not.toBe(first.courseId);
        const api2 = await figuresFor(page, second.courseId!);
        // Another course is other answer records: the figures change, to what the API answers.
        expect(api2.total.score !== api1.total.score || api2.total.maxScore !== api1.total.maxScore, user).toBe(true);
        await expect.poll(() => page.getByTestId('total-score-rate').innerText()).toBe(pct(api2.total.scoreRate));
        expect(await page.getByTestId('total-works').innerText()).toBe(String(api2.total.works));
        rates[second.courseId!] = pct(api2.total.scoreRate);
        expect((await picker.innerText()).trim()).toBe(other);
      } else {
        // A single course (a subject leader of one subject): shown by name, nothing to switch to,
        // in normal text without a dropdown arrow rather than greyed out like a broken control.
        expect(disabled).toBe(true);
        expect(await picker.evaluate((el) => getComputedStyle(el).webkitTextFillColor)).toBe('rgba(0, 0, 0, 0.87)');
        expect(await page.getByRole('search').locator('.MuiSelect-icon').first().isVisible()).toBe(true);
        expect(await picker.locator('xpath=..').locator('.MuiSelect-icon').isVisible()).toBe(false);
      }
      seen[user] = { gradeId: first.gradeId!, courses: names, rates };
      expect(problems, user).toEqual([]);
      await page.context().close();
    }, 120_000);
  }

  it('each saw exactly the courses their scope teaches in that grade, and the recounted score rates', async () => {
    expect(Object.keys(seen).sort()).toEqual(USERS.map((u) => u.user).sort());
    await server.stop();
    const db = await PGlite.create(join(dataDir, 'pg'));
    try {
      const scopes: Record<string, string> = {
        principal: `c.school_id = (SELECT school_id FROM users WHERE username = 'principal')`,
        gradeleader: `c.grade_id IN (SELECT grade_id FROM leader_scopes ls JOIN users u ON u.id = ls.user_id WHERE u.username = 'gradeleader' AND ls.role = 'gradeLeader')`,
        subjectleader: `c.school_id = (SELECT school_id FROM users WHERE username = 'subjectleader')
          AND co.subject_id IN (SELECT subject_id FROM leader_scopes ls JOIN users u ON u.id = ls.user_id WHERE u.username = 'subjectleader' AND ls.role = 'subjectleader')`,
      };
      for (const { user } of USERS) {
        const { rows } = await db.query<{ name: string }>(
          `SELECT co.name FROM courses co WHERE co.id IN (
             SELECT ta.course_id FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN courses co ON co.id = ta.course_id
              WHERE c.grade_id = $1 AND ${scopes[user]}) ORDER BY co.id`,
          [Number(seen[user].gradeId)],
        );
        expect(rows.length, user).toBeGreaterThan(0);
        expect(seen[user].courses, user).toEqual(rows.map((r) => r.name));
        // The score rate shown per course: sum of scores ÷ sum of full marks of that grade and subject.
        for (const [courseId, shown] of Object.entries(seen[user].rates)) {
          const [r] = (await db.query<{ s: number; m: number }>(
            `SELECT sum(a.score)::float8 AS s, sum(a.max_score)::float8 AS m FROM answer_records a
              WHERE a.term = $1 AND a.class_id IN (SELECT id FROM classes WHERE grade_id = $2)
                AND a.subject_id = (SELECT subject_id FROM courses WHERE id = $3)`,
            [currentSemester(), Number(seen[user].gradeId), Number(courseId)],
          )).rows;
          expect(shown, `${user} course ${courseId}`).toBe(r.m ? pct(Math.round((r.s / r.m) * 10000) / 10000) : '暂无数据');
        }
      }
      expect(seen.subjectleader.courses).toEqual(['数学']);
    } finally {
      await db.close();
    }
  }, 120_000);
});
