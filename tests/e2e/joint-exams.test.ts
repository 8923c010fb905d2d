// 新建联考 in a real browser: the researcher picks the grade and subject, one exam of each of three
// schools of the region, creates the 联考, opens its report (every chosen school and the region),
// downloads it as xlsx (the figures of the screen, rates as percentage cells) and deletes it.
// The seeded region has no free exams, so each school gets one before the server starts.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { pageApi, signIn } from '../support/browser';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { seededDataDir, type RunningServer } from '../support/serverProcess';
import { openDatabase } from '../../server/db';
import { addFreeRegionExams, UNIT_TEST_TITLE } from '../support/jointExams';
import type { JointExamReport, JointExamSummary } from '../../src/domain/analysis';

let server: RunningServer;
let browser: Browser;
let dataDir: string;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const pct = (r: number | null) => (r === null ? '暂无数据' : `${(Math.round(r * 1000) / 10).toFixed(1)}%`);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'xz-joint-'));
  cpSync(await seededDataDir(), dataDir, { recursive: true });
  const database = await openDatabase({ dataDir: join(dataDir, 'pg') });
  await addFreeRegionExams(database.db);
  await database.close();
  ({ server, browser } = await openServerAndBrowser(SHOTS, { dataDir }));
}, 240_000);
afterAll(async () => {
  await closeServerAndBrowser(server, browser);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('新建联考', () => {
  it('the researcher makes a 联考 of three schools, reads and downloads its report, and deletes it', async () => {
    const page = await signIn(browser, server.url, 'researcher');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/#/analysis`);
    const card = page.getByTestId('card-joint');
    await card.getByTestId('joint-row').first().waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: '新建联考' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('联考名称').fill('西湖区七年级数学单元联考');
    await dialog.getByRole('combobox', { name: '年级' }).click();
    await page.getByRole('option', { name: '七年级' }).click();
    await dialog.getByRole('combobox', { name: '学科' }).click();
    await page.getByRole('option', { name: '数学', exact: true }).click();
    const schools = dialog.getByTestId('joint-candidate-school');
    await expect.poll(() => schools.count()).toBeGreaterThanOrEqual(3);
    const create = dialog.getByRole('button', { name: /^创建联考/ });
    expect(await create.isDisabled()).toBe(true);
    const chosen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const school = schools.nth(i);
      chosen.push((await school.locator('legend').innerText()).trim());
      await school.getByRole('radio', { name: new RegExp(`^${UNIT_TEST_TITLE}`) }).check();
    }
    // The exams already in the demo 联考 cannot be picked again.
    expect(await dialog.getByRole('radio', { name: /已属于/ }).first().isDisabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/joint-create-1440.png` });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/joint-create-375.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    await create.click();
    await expect.poll(() => page.getByText('已创建联考“西湖区七年级数学单元联考”（3 所学校）').count()).toBeGreaterThan(0);

    const list = await pageApi<JointExamSummary[]>(page, '/api/analysis/v1.0/jointExams');
    const made = list.find((j) => j.title === '西湖区七年级数学单元联考')!;
    expect(made.mine).toBe(true);
    const row = card.getByTestId('joint-row').filter({ hasText: '西湖区七年级数学单元联考' });
    expect((await row.locator('td').nth(3).innerText()).trim()).toBe('3');
    await row.getByRole('button', { name: '查看报告' }).click();
    await card.getByTestId('joint-report').waitFor();
    const report = await pageApi<JointExamReport>(page, `/api/analysis/v1.0/jointExams/${made.id}`);
    const rows = card.getByTestId('joint-school');
    expect(await rows.count()).toBe(4);
    expect(report.schools.map((s) => s.schoolName).sort()).toEqual([...chosen].sort());
    for (const [i, s] of report.schools.entries()) {
      const cells = (await rows.nth(i).locator('td').allInnerTexts()).map((c) => c.trim());
      expect([cells[0], cells[1], cells[6]]).toEqual([s.schoolName, String(s.participants), pct(s.excellentRate)]);
    }
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/joint-report-1440.png`, fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: '导出报告' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^联考_西湖区七年级数学单元联考_杭州市西湖区_.+_\d{14}\.xlsx$/);
    const file = join(dataDir, 'joint.xlsx');
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.worksheets[0];
    expect(ws.getCell('A7').value).toBe(report.schools[0].schoolName);
    expect(ws.getCell('G7').value as number).toBeCloseTo(report.schools[0].excellentRate!, 6);
    expect(ws.getCell('G7').numFmt).toBe('0.0%');

    await row.getByRole('button', { name: '删除' }).click();
    await page.getByRole('button', { name: '确认删除' }).click();
    await expect.poll(() => card.getByTestId('joint-row').filter({ hasText: '西湖区七年级数学单元联考' }).count()).toBe(0);
    // The demo's 联考 was made by no researcher: no 删除 beside it.
    expect(await card.getByTestId('joint-row').first().getByRole('button', { name: '删除' }).count()).toBe(0);
    await page.context().close();
  }, 180_000);
});
