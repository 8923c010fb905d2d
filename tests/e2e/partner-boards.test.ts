// The partner data boards in a real browser against the real server: partner2 opens 数据看板,
// switches statistics mode, role and metric and reads the API's numbers on the cards; opens
// 直营学校, a school's full-screen board and a student's usage detail. The usage is written into
// the server's database between a first start (the seed) and a second (PGlite has one writer).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { openDatabase } from '../../server/db';
import type { Overview, SchoolBoard, StudentUsage } from '../../src/dataProvider/partnerBoards';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { generateUsage } from '../support/usage';

let server: RunningServer;
let browser: Browser;
const dataDir = mkdtempSync(join(tmpdir(), 'xz-boards-'));
const SHOTS = process.env.SCREENSHOT_DIR ?? join(import.meta.dirname, '..', '..', '.tmp', 'screenshots');
const BASE = '/api/wrongbook/v1.0/partner/board';
const zh = (n: number) => n.toLocaleString('zh-CN');

beforeAll(async () => {
  await ensureWebBuild();
  const seeded = await startServer({ dataDir });
  await seeded.stop();
  const database = await openDatabase({ dataDir: join(dataDir, 'pg') });
  await generateUsage(database.db, { days: 60 });
  await database.close();
  server = await startServer({ dataDir });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const tile = (page: Page, label: string) => page.getByTestId(`tile-${label}`);
/** The tile's number without its unit. */
const tileNumber = async (page: Page, label: string) => (await tile(page, label).innerText()).replace(/[页次人所台]+$|人次$/u, '').trim();

async function expectKpis(page: Page, api: Overview) {
  expect(await tileNumber(page, '打印量')).toBe(zh(api.kpis.pages));
  expect(await tileNumber(page, '使用次数')).toBe(zh(api.kpis.uses));
  expect(await tile(page, '用户数').innerText()).toBe(`${zh(api.kpis.users)}人次`);
  expect(await tile(page, '活跃设备 / 设备总数').innerText()).toBe(`${zh(api.kpis.activeDevices)} / ${zh(api.kpis.devices)}台`);
}

/** Waits for the board to show a response for the query (the progress bar gone, the cards back). */
async function settled(page: Page) {
  // Not 'networkidle': the board keeps its live event stream open.
  await expect.poll(() => page.getByRole('progressbar').count()).toBe(0);
  await tile(page, '打印量').waitFor();
  await page.waitForTimeout(600); // charts animate in
}

describe('数据看板 → 直营学校 → 学校看板 → 学生详情', () => {
  it('partner2 reads the API’s figures in each mode and drills down to a student', async () => {
    const page = await signIn(browser, server.url, 'partner2');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/#/overview-dashboard`);
    await page.getByRole('heading', { level: 1, name: '数据看板' }).waitFor();
    await settled(page);
    const month = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);
    let api = await pageApi<Overview>(page, `${BASE}/overview?queryMode=month&month=${month}&statistics=overall&metric=pages&userKind=0`);
    expect(api.kpis.pages).toBeGreaterThan(0);
    await expectKpis(page, api);
    await page.screenshot({ path: `${SHOTS}/partner-overview-1440.png`, fullPage: true });
    // 进货与渠道收入: the API's money, in yuan.
    const yuanOf = (fen: number) => (fen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    await page.getByTestId('card-revenue').scrollIntoViewIfNeeded();
    expect(await tile(page, '含下级进货额').innerText()).toBe(`${yuanOf(api.revenue.boughtFen - api.revenue.refundedFen)}元`);
    expect(await tile(page, '含下级渠道收入').innerText()).toBe(`${yuanOf(api.revenue.marginFen)}元`);
    expect(await tile(page, '本级进货额').innerText()).toBe(`${yuanOf(api.revenue.own.boughtFen - api.revenue.own.refundedFen)}元`);
    expect(await tile(page, '本级渠道收入').innerText()).toBe(`${yuanOf(api.revenue.own.marginFen)}元`);
    await page.getByTestId('card-revenue').screenshot({ path: `${SHOTS}/partner-overview-revenue-1440.png` });

    // 按应用 · 学生 · 使用次数: the chart's lines are the API's apps.
    await page.getByRole('group', { name: '统计方式' }).getByRole('button', { name: '按应用' }).click();
    await page.getByRole('group', { name: '角色' }).getByRole('button', { name: '学生' }).click();
    await page.getByRole('group', { name: '统计指标' }).getByRole('button', { name: '使用次数' }).click();
    await settled(page);
    api = await pageApi<Overview>(page, `${BASE}/overview?queryMode=month&month=${month}&statistics=app&metric=uses&userKind=1`);
    await expectKpis(page, api);
    await expect.poll(() => page.getByText('按应用：使用次数').count()).toBe(1);
    for (const line of api.series.filter((s) => s.total > 0)) await page.getByTestId('card-share').getByText(line.name, { exact: true }).first().waitFor();
    await page.screenshot({ path: `${SHOTS}/partner-overview-app-1440.png`, fullPage: true });

    // 按学期 · 按学科 · 打印量.
    await page.getByRole('group', { name: '统计方式' }).getByRole('button', { name: '按学科' }).click();
    await page.getByRole('group', { name: '统计指标' }).getByRole('button', { name: '打印量' }).click();
    await page.getByLabel('查询方式').click();
    await page.getByRole('option', { name: '按学期' }).click();
    await settled(page);
    api = await pageApi<Overview>(page, `${BASE}/overview?queryMode=term&statistics=subject&metric=pages&userKind=1`);
    expect(api.range.bucket).toBe('week');
    await expectKpis(page, api);
    await page.screenshot({ path: `${SHOTS}/partner-overview-term-subject-1440.png`, fullPage: true });

    // 直营学校: partner2's three schools, by pages; a row opens the school's board.
    await page.getByRole('link', { name: '直营学校' }).click();
    await page.getByText('杭州市拱墅区文澜中学').waitFor();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/partner-direct-schools-1440.png`, fullPage: true });
    expect(await page.getByText('宁波市鄞州区东湖中学').count()).toBe(0);
    await rows.filter({ hasText: '杭州市拱墅区文澜中学' }).getByRole('link', { name: '学校看板' }).click();
    await page.getByRole('heading', { level: 1, name: '杭州市拱墅区文澜中学' }).waitFor();
    await settled(page);
    const schoolId = Number(new URL(page.url().replace('/#/', '/')).searchParams.get('schoolId'));
    const board = await pageApi<SchoolBoard>(page, `${BASE}/school?schoolId=${schoolId}&queryMode=month&month=${month}&userKind=0`);
    expect(await tileNumber(page, '打印量')).toBe(zh(board.kpis.pages));
    // Full screen: no menu.
    expect(await page.getByRole('link', { name: '数据看板' }).count()).toBe(0);
    expect(await page.getByTestId('card-devices').locator('tbody tr').count()).toBe(board.devices.length);
    await page.screenshot({ path: `${SHOTS}/partner-school-board-1440.png`, fullPage: true });
    for (const card of ['card-classes', 'card-top-students', 'card-devices']) {
      await page.getByTestId(card).scrollIntoViewIfNeeded();
      await page.getByTestId(card).screenshot({ path: `${SHOTS}/partner-school-${card}-1440.png` });
    }

    // The student who printed most → their detail.
    const top = board.topStudents[0];
    await page.getByTestId('top-student').first().click();
    await page.getByRole('heading', { level: 1, name: `${top.name} 的使用明细` }).waitFor();
    await settled(page);
    const detail = await pageApi<StudentUsage>(page, `${BASE}/student?schoolId=${schoolId}&studentId=${top.studentId}&queryMode=month&month=${month}`);
    expect(await tileNumber(page, '打印量')).toBe(zh(detail.kpis.pages));
    expect(await tileNumber(page, '登录次数')).toBe(zh(detail.kpis.signIns));
    await expect.poll(() => page.getByTestId('record-row').count()).toBe(Math.min(10, detail.kpis.jobs));
    expect(await page.getByText(/手机|成绩|分数/).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/partner-student-detail-1440.png`, fullPage: true });
    await page.getByTestId('card-records').scrollIntoViewIfNeeded();
    await page.getByTestId('card-records').screenshot({ path: `${SHOTS}/partner-student-records-1440.png` });
    // Sign-ins by day, without times (docs/api-partner-boards.md).
    const days = await pageApi<{ total: number }>(page, `${BASE}/student/signIns?schoolId=${schoolId}&studentId=${top.studentId}&queryMode=month&month=${month}`);
    await page.getByRole('tab', { name: '登录记录' }).click();
    await expect.poll(() => page.getByTestId('record-row').count()).toBe(Math.min(10, days.total));
    expect(await page.getByTestId('card-records').innerText()).not.toMatch(/\d{1,2}:\d{2}/);

    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the school admin still gets 数据概览 on the same path', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    await page.goto(`${server.url}/#/school-dashboard`);
    await page.getByRole('heading', { level: 1, name: '数据概览' }).waitFor();
    await tile(page, '在读学生').waitFor();
    await page.context().close();
  });
});
