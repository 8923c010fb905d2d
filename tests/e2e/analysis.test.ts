// 学情分析 and 使用统计 in a real browser against the real server: the principal and the regional
// researcher open /analysis, see the figures the API answers, and export a card to xlsx with the
// same numbers; the mini-program teacher opens /usageStatistics at 375 and 1440 px. At the end the
// shown totals are checked against a recount from the answer records, read with our own SQL
// once the server has stopped (PGlite has one writer).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { PGlite } from '@electric-sql/pglite';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { selectionSettled, settled } from '../support/settle';
import type { Analysis, Usage } from '../../src/domain/analysis';
import { currentSemester, termLabel } from '../../src/domain/semester';

let server: RunningServer;
let browser: Browser;
const dataDir = mkdtempSync(join(tmpdir(), 'xz-analysis-'));
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

/** What each user saw, and under which header filters, for the recount at the end. */
const shownTotals: Record<string, Filters & { text: string }> = {};

interface Filters { term?: string; gradeId?: string; courseId?: string; classId?: string }
const filtersOf = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}') as Filters);
const queryOf = (f: Filters, keys: (keyof Filters)[]) =>
  keys.filter((k) => f[k]).map((k) => `${k}=${encodeURIComponent(String(f[k]))}`).join('&');

async function openAnalysis(user: string): Promise<{ page: Page; api: Analysis; problems: string[]; filters: Filters }> {
  const page = await signIn(browser, server.url, user);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/#/analysis`);
  await page.getByRole('heading', { level: 1, name: '学情分析' }).waitFor();
  await page.getByTestId('total-score-rate').waitFor({ timeout: 30_000 });
  // The researcher's header has the term only (grades and courses are each school's own): the
  // whole region opens, with no grade or course.
  const researcher = user === 'researcher';
  if (researcher) await settled(page);
  else await selectionSettled(page);
  const f = await filtersOf(page);
  const filters = { term: (f as { learningTerm?: string }).learningTerm || currentSemester(), gradeId: researcher ? undefined : f.gradeId, courseId: researcher ? undefined : f.courseId };
  const api = await pageApi<Analysis>(page, `/api/analysis/v1.0/overview?${queryOf(filters, ['term', 'gradeId', 'courseId'])}`);
  return { page, api, problems, filters };
}

async function shownGroups(page: Page) {
  return page.getByTestId('group-row').evaluateAll((rows) => rows.map((r) => [(r as HTMLTableRowElement).cells[0].innerText, (r as HTMLTableRowElement).cells[3].innerText]));
}

/** The table of a card's export (below its four lines of title, scope, term and time, and a blank line). */
async function exported(page: Page, card: string): Promise<string[][]> {
  const button = page.getByTestId(card).getByRole('button', { name: '导出' });
  await button.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  // Scope and term in the name, as on the sheet.
  expect(download.suggestedFilename()).toMatch(new RegExp(`^学情分析_.+_${termLabel(currentSemester())}_\\d{14}\\.xlsx$`));
  const file = join(dataDir, download.suggestedFilename());
  await download.saveAs(file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const out: string[][] = [];
  const ws = wb.worksheets[0];
  expect(String(ws.getCell('A2').value)).toMatch(/^范围：/);
  expect(ws.getCell('A3').value).toBe(`学期：${termLabel(currentSemester())}`);
  for (let i = 6; i <= ws.rowCount; i++) out.push((ws.getRow(i).values as unknown[]).slice(1).map((v) => String(v ?? '')));
  return out;
}

describe('学情分析', () => {
  it('the principal sees every class compared, as the API answers, and exports the same numbers', async () => {
    const { page, api, problems, filters } = await openAnalysis('principal');
    expect(api.groupBy).toBe('class');
    expect(await page.getByTestId('total-score-rate').innerText()).toBe(pct(api.total.scoreRate));
    expect(await page.getByTestId('total-completion').innerText()).toBe(pct(api.total.completionRate));
    // Every tile says what it counts.
    for (const tile of ['total-score-rate', 'total-participation', 'total-completion', 'total-works']) {
      expect(await page.getByTestId(`${tile}-definition`).innerText(), tile).toMatch(/÷|份数/);
    }
    expect(await page.getByTestId('card-bands').innerText()).toContain('只统计考试和题目不少于 10 道的作业');
    expect(await shownGroups(page)).toEqual(api.groups.map((g) => [g.name, pct(g.scoreRate)]));
    expect(await page.getByText(/名次|排名第/).count()).toBe(0);
    await page.waitForTimeout(800); // charts animate in
    await page.screenshot({ path: `${SHOTS}/analysis-principal-1440.png`, fullPage: true });
    // The main area scrolls inside the layout: each card on its own.
    for (const card of ['card-bands', 'card-participation', 'card-trend', 'card-knowledge', 'card-questions']) {
      await page.getByTestId(card).scrollIntoViewIfNeeded();
      await page.getByTestId(card).screenshot({ path: `${SHOTS}/analysis-principal-${card}-1440.png` });
    }

    const sheet = await exported(page, 'card-groups');
    expect(sheet[0]).toEqual(['班级', '得分', '满分', '得分率']);
    expect(sheet.slice(1, -1).map((r) => [r[0], pct(Number(r[3]))])).toEqual(api.groups.map((g) => [g.name, pct(g.scoreRate)]));
    expect(Number(sheet.at(-1)?.[1])).toBeCloseTo(api.total.score, 2);
    const completion = await exported(page, 'card-participation');
    expect(completion.at(-1)?.slice(5, 7).map(Number)).toEqual([api.total.homeworkAssigned, api.total.homeworkSubmitted]);
    shownTotals.principal = { text: await page.getByTestId('total-score-rate').innerText(), ...filters };
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the regional researcher compares the region’s schools side by side', async () => {
    const { page, api, problems, filters } = await openAnalysis('researcher');
    expect(api.groupBy).toBe('school');
    expect(await shownGroups(page)).toEqual(api.groups.map((g) => [g.name, pct(g.scoreRate)]));
    expect(await page.getByText('学校对比：得分率').count()).toBe(1);
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${SHOTS}/analysis-researcher-1440.png`, fullPage: true });
    const sheet = await exported(page, 'card-knowledge');
    expect(sheet[0]).toEqual(['学校', ...api.knowledge.knowledgePoints.map((k) => k.name)]);
    shownTotals.researcher = { text: await page.getByTestId('total-score-rate').innerText(), ...filters };
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('学情分析 of the subject and grade leaders', () => {
  it('each opens /analysis under their header filters and sees the API’s figures for their scope', async () => {
    for (const user of ['subjectleader', 'gradeleader']) {
      const { page, api, problems } = await openAnalysis(user);
      expect(api.groups.length, user).toBeGreaterThan(0);
      expect(await shownGroups(page), user).toEqual(api.groups.map((g) => [g.name, pct(g.scoreRate)]));
      expect(await page.getByTestId('total-completion').innerText()).toBe(pct(api.total.completionRate));
      await page.waitForTimeout(800);
      await page.screenshot({ path: `${SHOTS}/analysis-${user}-1440.png` });
      expect(problems, user).toEqual([]);
      await page.context().close();
    }
  });
});

describe('使用统计 (mini-program teacher)', () => {
  it('shows own classes and students at 375 and 1440 px without overflow', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    await page.goto(`${server.url}/#/usageStatistics`);
    await page.getByTestId('usage-class').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('usage-student').first().waitFor();
    const f = await filtersOf(page);
    const filters = { ...f, term: (f as { learningTerm?: string }).learningTerm || currentSemester() };
    const api = await pageApi<Usage>(page, `/api/analysis/v1.0/usage?${queryOf(filters, ['term', 'courseId', 'classId'])}`);
    const cards = page.getByTestId('usage-class');
    expect(await cards.count()).toBe(api.classes.length);
    for (const [i, c] of api.classes.entries()) {
      expect(await cards.nth(i).getByTestId('usage-completion').innerText()).toBe(pct(c.completionRate));
      expect(await cards.nth(i).getByTestId('usage-accuracy').innerText()).toBe(pct(c.accuracy));
    }
    expect(await page.getByTestId('usage-student').count()).toBe(api.students.length);
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${SHOTS}/usage-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await settled(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${SHOTS}/usage-375.png`, fullPage: true });
    await page.getByTestId('usage-student').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/usage-375-students.png` });
    await page.context().close();
  });
});

describe('the figures on screen against the answer records', () => {
  it('the totals shown equal a recount from answer_records', async () => {
    await server.stop();
    const db = await PGlite.create(join(dataDir, 'pg'));
    try {
      // The same header filters the page had: a grade, a course (its subject), the term.
      const recount = async (who: keyof typeof shownTotals, where: string) => {
        const f = shownTotals[who];
        const [r] = (await db.query<{ s: number; m: number }>(
          `SELECT sum(score)::float8 AS s, sum(max_score)::float8 AS m FROM answer_records a JOIN schools sc ON sc.id = a.school_id
            WHERE a.term = $1 AND ${where}
              AND ($2::int IS NULL OR a.class_id IN (SELECT id FROM classes WHERE grade_id = $2))
              AND ($3::int IS NULL OR a.subject_id = (SELECT subject_id FROM courses WHERE id = $3))`,
          [(f as { term?: string }).term ?? currentSemester(), f.gradeId ? Number(f.gradeId) : null, f.courseId ? Number(f.courseId) : null],
        )).rows;
        expect(f.text, who).toBe(pct(Math.round((r.s / r.m) * 10000) / 10000));
      };
      await recount('principal', `a.school_id = (SELECT school_id FROM users WHERE username = 'principal')`);
      // Every school of the region, whatever its tenant (docs/api-analysis.md, "Region scope").
      await recount('researcher', `sc.region = (SELECT region FROM users WHERE username = 'researcher')`);
    } finally {
      await db.close();
    }
  });
});
