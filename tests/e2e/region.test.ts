// The region in a real browser: the researcher drills 学情分析 region → school → grade → class (each
// level's score rate what the API answers for it, the schools those of the region in the database)
// and opens the 联考 report with every school side by side; the principal picks 全部年级 and 全部学科,
// reads 学校概况 and their own school against the region in the 联考. Screenshots at 1440 and 375 px.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pageApi, signIn } from '../support/browser';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import type { RunningServer } from '../support/serverProcess';
import { selectionSettled, settled } from '../support/settle';
import type { Activity, Analysis, JointExamReport, JointExamSummary } from '../../src/domain/analysis';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? join(import.meta.dirname, '..', '..', '.tmp', 'screenshots');
const pct = (r: number | null) => (r === null ? '暂无数据' : `${(Math.round(r * 1000) / 10).toFixed(1)}%`);

beforeAll(async () => {
  ({ server, browser } = await openServerAndBrowser(SHOTS));
}, 180_000);
afterAll(() => closeServerAndBrowser(server, browser));

const term = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}').learningTerm as string);

/** The comparison table's rows: name and score rate as shown. */
async function groupRows(page: Page): Promise<{ name: string; rate: string }[]> {
  const rows = page.getByTestId('card-groups').getByTestId('group-row');
  const out: { name: string; rate: string }[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const cells = await rows.nth(i).locator('td').allInnerTexts();
    out.push({ name: cells[0].trim(), rate: cells[3].trim() });
  }
  return out;
}

/** Waits until the screen shows the API's answer for the query: its groups by name and score rate. */
async function shows(page: Page, query: string): Promise<Analysis> {
  const api = await pageApi<Analysis>(page, `/api/analysis/v1.0/overview?term=${await term(page)}&leaderType=9${query}`);
  await expect.poll(async () => JSON.stringify(await groupRows(page)), { timeout: 30_000 }).toBe(JSON.stringify(api.groups.map((g) => ({ name: g.name, rate: pct(g.scoreRate) }))));
  expect(await page.getByTestId('total-score-rate').innerText()).toBe(pct(api.total.scoreRate));
  return api;
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/region-${name}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SHOTS}/region-${name}-375.png`, fullPage: true });
  // Nothing wider than the phone outside a sideways-scrolling table.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, name).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('区域教研员 and 校长 on 学情分析', () => {
  it('the researcher drills region → school → grade → class and opens the 联考 report', async () => {
    const page = await signIn(browser, server.url, 'researcher');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/#/analysis`);
    await page.getByTestId('total-score-rate').waitFor({ timeout: 30_000 });
    await settled(page);
    // The header keeps the term only: grades and courses are each school's own.
    expect(await page.getByRole('search').getByRole('combobox', { name: '年级' }).count()).toBe(0);

    const region = await shows(page, '');
    expect(region.groupBy).toBe('school');
    expect(region.groups.length).toBeGreaterThanOrEqual(3);
    expect(await page.getByTestId('drill-current').innerText()).toBe('杭州市西湖区');
    await shoot(page, 'researcher-region');

    const school = region.groups.find((g) => g.name === '杭州市西湖区文苑中学')!;
    await page.getByTestId('card-groups').getByRole('button', { name: school.name }).click();
    const grades = await shows(page, `&schoolId=${school.id}`);
    expect(grades.groupBy).toBe('grade');
    expect(grades.groups.map((g) => g.name)).toEqual(['七年级', '八年级', '九年级']);
    expect(await page.getByTestId('drill-current').innerText()).toBe(school.name);

    const grade = grades.groups.find((g) => g.name === '七年级')!;
    await page.getByTestId('card-groups').getByRole('button', { name: '七年级' }).click();
    const classes = await shows(page, `&schoolId=${school.id}&gradeId=${grade.id}`);
    expect(classes.groups.map((g) => g.name)).toEqual(['七(1)班', '七(2)班']);
    await shoot(page, 'researcher-grade');

    const klass = classes.groups[0];
    await page.getByTestId('card-groups').getByRole('button', { name: klass.name }).click();
    const one = await shows(page, `&schoolId=${school.id}&gradeId=${grade.id}&classId=${klass.id}`);
    expect(one.groups.map((g) => g.id)).toEqual([klass.id]);
    expect(await page.getByTestId('drill-current').innerText()).toBe(klass.name);
    // The class's score rate is the one its grade's comparison showed for it.
    expect(pct(one.total.scoreRate)).toBe(pct(klass.scoreRate));

    // Back up to the region by the breadcrumb; a subject narrows every school.
    await page.getByRole('navigation', { name: '下钻路径' }).getByRole('button', { name: '杭州市西湖区', exact: true }).click();
    await shows(page, '');
    await page.getByRole('combobox', { name: '学科' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '数学', exact: true }).click();
    const subjects = await pageApi<{ id: number; name: string }[]>(page, '/api/analysis/v1.0/subjects');
    const maths = subjects.find((s) => s.name === '数学')!;
    await shows(page, `&subjectId=${maths.id}`);

    // 联考: every school of the region side by side, as the API reports it.
    const list = await pageApi<JointExamSummary[]>(page, `/api/analysis/v1.0/jointExams?term=${await term(page)}`);
    expect(list.length).toBeGreaterThanOrEqual(1);
    const card = page.getByTestId('card-joint');
    await card.getByRole('button', { name: '查看报告' }).first().click();
    await card.getByTestId('joint-report').waitFor();
    const report = await pageApi<JointExamReport>(page, `/api/analysis/v1.0/jointExams/${list[0].id}`);
    const rows = card.getByTestId('joint-school');
    expect(await rows.count()).toBe(report.schools.length + 1);
    for (const [i, s] of report.schools.entries()) {
      const cells = (await rows.nth(i).locator('td').allInnerTexts()).map((c) => c.trim());
      expect(cells.slice(0, 3)).toEqual([s.schoolName, String(s.participants), String(s.average)]);
      expect(cells[6]).toBe(pct(s.excellentRate));
      expect(cells[8]).toBe(pct(s.lowRate));
    }
    expect((await rows.last().locator('td').first().innerText()).trim()).toBe(`全区域（${report.schoolCount} 所学校）`);
    await card.scrollIntoViewIfNeeded();
    await shoot(page, 'researcher-joint');
    await page.context().close();
  }, 180_000);

  it('the principal picks 全部年级 and 全部学科, reads 学校概况 and the 联考 of their own school', async () => {
    const page = await signIn(browser, server.url, 'principal');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/#/analysis`);
    await page.getByTestId('total-score-rate').waitFor({ timeout: 30_000 });
    await selectionSettled(page);
    const header = page.getByRole('search');
    await header.getByRole('combobox', { name: '年级' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '全部年级' }).click();
    await header.getByRole('combobox', { name: '学科' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '全部学科' }).click();
    // The whole school: every class, the figures of no grade or course filter.
    const whole = await pageApi<Analysis>(page, `/api/analysis/v1.0/overview?term=${await term(page)}`);
    expect(whole.groups.length).toBe(12);
    await expect.poll(() => page.getByTestId('card-groups').getByTestId('group-row').count(), { timeout: 30_000 }).toBe(12);
    await expect.poll(() => page.getByTestId('total-score-rate').innerText()).toBe(pct(whole.total.scoreRate));
    expect(await page.getByTestId('total-works').innerText()).toBe(String(whole.total.works));

    const activity = await pageApi<Activity>(page, `/api/analysis/v1.0/activity?term=${await term(page)}`);
    const card = page.getByTestId('card-activity');
    expect(await card.getByTestId('activity-homeworks').innerText()).toBe(String(activity.total.homeworks));
    expect(await card.getByTestId('activity-grading').innerText()).toBe(String(activity.total.gradingTasks));
    expect(await card.getByTestId('activity-teachers').innerText()).toBe(`${activity.total.activeTeachers} / ${activity.total.teachers}`);
    expect(await card.getByTestId('activity-completion-detail').innerText()).toBe(`已交 ${activity.total.submitted} / 应交 ${activity.total.assigned}`);
    // Grade by grade: 七年级 first.
    expect(await card.getByTestId('activity-class').first().locator('td').first().innerText()).toBe('七年级 七(1)班');
    expect(await card.getByTestId('activity-class').count()).toBe(activity.classes.length);
    expect(await card.getByText('说明：').count()).toBe(4);
    await card.scrollIntoViewIfNeeded();
    await shoot(page, 'principal-activity');

    const joint = page.getByTestId('card-joint');
    await joint.getByRole('button', { name: '查看报告' }).first().click();
    await joint.getByTestId('joint-report').waitFor();
    const names = (await joint.getByTestId('joint-school').allInnerTexts()).map((r) => r.split('\t')[0].trim());
    expect(names[0]).toBe('杭州市西湖区实验中学');
    expect(names[1]).toMatch(/^全区域（\d+ 所学校）$/);
    expect(names.length).toBe(2);
    await joint.scrollIntoViewIfNeeded();
    await shoot(page, 'principal-joint');
    await page.context().close();
  }, 180_000);
});
