// School administration in a real browser against the real server: a school admin imports 120
// students from the downloaded template, finds them, filters, edits one and exports; a refused
// import hands back the marked-up workbook; a teacher cannot open the admin screens; the
// mini-program admin's data overview shows the seeded numbers.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Download, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';

let classic: RunningServer;
let miniProgram: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const work = mkdtempSync(join(tmpdir(), 'xz-e2e-school-'));

beforeAll(async () => {
  await ensureWebBuild();
  [classic, miniProgram] = await Promise.all([startServer({ env: { ADMIN_CLASSIC_WEB: '1' } }), startServer()]);
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await classic?.stop();
  await miniProgram?.stop();
});

async function saved(download: Download): Promise<Buffer> {
  const path = join(work, download.suggestedFilename());
  await download.saveAs(path);
  return readFileSync(path);
}

async function sheetRows(bytes: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v)))));
  return rows;
}

const totalText = (page: Page) => page.locator('.MuiTablePagination-displayedRows').innerText();

/** Types into the keyword filter once the list has settled (its pickers load after the rows). */
async function search(page: Page, text: string) {
  await page.waitForLoadState('networkidle');
  await page.getByLabel('姓名/学号').fill(text);
  await expect.poll(() => decodeURIComponent(page.url())).toContain(`"keyword":"${text}"`);
}

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('school admin (classic web)', () => {
  it('imports 120 students from the template, filters, edits one and exports them', async () => {
    const page = await signIn(browser, classic.url, 'schooladmin');
    await page.waitForFunction(() => location.hash.startsWith('#/academic/class'));
    await page.getByRole('heading', { level: 1, name: '班级管理' }).waitFor();
    await page.getByText('七(1)班').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/school-classes.png` });

    await page.goto(`${classic.url}/#/academic/student`);
    await page.getByRole('heading', { level: 1, name: '学生管理' }).waitFor();
    await expect.poll(() => totalText(page)).toContain('480');
    // 七(1)班's roll before the import (the demo's classes differ in size), as the class tree counts it.
    const tree = await pageApi<{ children: { className: string; studentCount: number }[] }[]>(page, '/api/vesta/class/treeClassBySchool');
    const seventhOne = tree.flatMap((g) => g.children).find((c) => c.className === '七(1)班')!.studentCount;

    // The template the server hands out, filled in as an admin would in Excel.
    const [templateDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载模板' }).click()]);
    expect(templateDownload.suggestedFilename()).toBe('学生导入模板.xlsx');
    const template = new ExcelJS.Workbook();
    await template.xlsx.load((await saved(templateDownload)) as unknown as ArrayBuffer);
    const sheet = template.getWorksheet('学生')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['姓名*', '学号*', '性别', '年级*', '班级*', '家长手机号', '出生日期', '终端PIN']);
    for (let i = 1; i <= 120; i++) {
      sheet.getRow(i + 1).values = [`导入学生${i}`, `E2E${String(i).padStart(4, '0')}`, i % 2 ? '男' : '女', '七年级', '七(1)班', `139${String(10000000 + i).slice(0, 8)}`];
    }
    const filled = join(work, '学生名单.xlsx');
    writeFileSync(filled, Buffer.from(await template.xlsx.writeBuffer()));

    await page.locator('input[aria-label="导入学生文件"]').setInputFiles(filled);
    await expect.poll(() => page.getByRole('status').innerText(), { timeout: 30_000 }).toContain('导入成功：新增120名');
    await page.getByRole('button', { name: '知道了' }).click();
    await expect.poll(() => totalText(page)).toContain('600');

    // Filters live in the URL: keyword, then grade and class (changing grade clears class).
    await search(page, 'E2E');
    await expect.poll(() => totalText(page)).toContain('共 120 条');
    await page.goto(`${classic.url}/#/academic/student?filter=%7B%7D`);
    await expect.poll(() => totalText(page)).toContain('600');
    await pick(page, '年级', '七年级');
    await expect.poll(() => totalText(page)).toContain('共 280 条');
    // The class picker reloads with the grade's classes: once it offers those alone, pick one.
    await page.getByRole('combobox', { name: '班级' }).click();
    await expect.poll(async () => {
      const classes = (await page.getByRole('option').allInnerTexts()).filter((name) => name !== '全部');
      return classes.length > 0 && classes.every((name) => name.startsWith('七'));
    }).toBe(true);
    await page.getByRole('option', { name: '七(1)班', exact: true }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"classId"');
    const classFiltered = page.url();
    await expect.poll(() => totalText(page)).toContain(`共 ${seventhOne + 120} 条`);
    await page.screenshot({ path: `${SHOTS}/school-students-filtered.png` });

    // Edit one imported student, pessimistically: the list shows the saved name.
    await search(page, 'E2E0001');
    await expect.poll(() => totalText(page)).toContain('共 1 条');
    await page.getByRole('button', { name: '编辑' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('姓名').fill('');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('姓名不能为空').waitFor();
    await dialog.getByLabel('姓名').fill('改名学生');
    await dialog.getByRole('button', { name: '保存' }).click();
    await page.getByRole('cell', { name: '改名学生' }).waitFor();

    // Export what the class filter shows, read back with exceljs.
    await page.goto(classFiltered);
    await expect.poll(() => totalText(page)).toContain(`共 ${seventhOne + 120} 条`);
    const [exportDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出' }).click()]);
    expect(exportDownload.suggestedFilename()).toMatch(/^学生数据_\d{14}\.xlsx$/);
    const exported = await sheetRows(await saved(exportDownload));
    expect(exported[0].slice(0, 5)).toEqual(['学号', '姓名', '性别', '年级', '班级']);
    expect(exported).toHaveLength(seventhOne + 120 + 1); // the heading row, then every student of the class
    expect(exported.filter((row) => row[1].startsWith('导入学生'))).toHaveLength(119);
    expect(exported.find((row) => row[0] === 'E2E0001')?.[1]).toBe('改名学生');
    expect(new Set(exported.slice(1).map((row) => row[4]))).toEqual(new Set(['七(1)班']));
    await page.context().close();
  });

  it('a refused import writes nothing and hands back the workbook with the reasons', async () => {
    const page = await signIn(browser, classic.url, 'schooladmin');
    await page.waitForFunction(() => location.hash.startsWith('#/academic/class'));
    await page.goto(`${classic.url}/#/academic/student`);
    await expect.poll(() => totalText(page)).toContain('共');
    const before = await totalText(page);
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('学生');
    sheet.addRow(['姓名*', '学号*', '性别', '年级*', '班级*', '家长手机号']);
    sheet.addRow(['好学生', 'BAD0001', '男', '七年级', '七(1)班', '']);
    sheet.addRow(['错学生', 'BAD0002', '男', '七年级', '七(99)班', '123']);
    const file = join(work, '错误名单.xlsx');
    writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
    const [annotated] = await Promise.all([page.waitForEvent('download'), page.locator('input[aria-label="导入学生文件"]').setInputFiles(file)]);
    await expect.poll(() => page.getByRole('status').innerText()).toContain('导入失败：1 行有错误');
    // The dialog itself names the bad row and why, not only the downloaded file.
    const badRows = page.getByRole('list', { name: '有错误的行' });
    expect(await badRows.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^第 3 行：.*七\(99\)班/)]);
    expect(annotated.suggestedFilename()).toBe('学生导入结果.xlsx');
    const rows = await sheetRows(await saved(annotated));
    expect(rows[0].at(-1)).toBe('错误原因');
    expect(rows[2].at(-1)).toContain('七(99)班');
    await page.screenshot({ path: `${SHOTS}/school-import-failed.png` });
    await page.getByRole('button', { name: '知道了' }).click();
    expect(await totalText(page)).toBe(before);
    await page.context().close();
  });

  it('a teacher cannot open the admin screens', async () => {
    const page = await signIn(browser, classic.url, 'teacher');
    await page.waitForFunction(() => location.hash.length > 2);
    for (const path of ['/academic/student', '/academic/class']) {
      await page.goto(`${classic.url}/#${path}`);
      await expect.poll(() => page.getByText(/页面不存在|无权访问/).count()).toBeGreaterThan(0);
      expect(await page.getByRole('heading', { name: '学生管理' }).count()).toBe(0);
    }
    await page.context().close();
  });
});

describe('mini-program school admin', () => {
  it('reads the student list as cards on a phone, each with its actions in sight', async () => {
    const page = await signIn(browser, miniProgram.url, 'schooladmin');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${miniProgram.url}/#/studentManage`);
    const cards = page.getByTestId('record-card');
    await expect.poll(() => cards.count()).toBe(20);
    // The title names the student; the class is under it; 编辑 and 删除 are buttons on the card.
    const first = cards.first();
    expect(await first.locator('p').first().innerText()).toMatch(/^\S+（\d{9}）$/);
    expect(await first.locator('dt').allInnerTexts()).toContain('班级');
    for (const action of ['编辑', '删除']) {
      const button = first.getByRole('button', { name: action });
      await button.scrollIntoViewIfNeeded();
      expect(await button.isVisible(), action).toBe(true);
      expect((await button.boundingBox())!.x + (await button.boundingBox())!.width).toBeLessThanOrEqual(375);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/students-cards-375.png` });
    await page.context().close();
  });

  it('sees the seeded school on the data overview', async () => {
    const page = await signIn(browser, miniProgram.url, 'schooladmin');
    await page.waitForFunction(() => location.hash.startsWith('#/school-dashboard'));
    await page.getByRole('heading', { level: 1, name: '数据概览' }).waitFor();
    const tile = (label: string) => page.getByTestId(`tile-${label}`).innerText();
    await expect.poll(() => tile('班级')).toMatch(/^12/);
    expect(await tile('在读学生')).toMatch(/^480/);
    expect(await tile('年级')).toMatch(/^3/);
    expect(await tile('已毕业')).toMatch(/^0/);
    const bound = Number((await tile('已绑定')).replace(/\D/g, ''));
    const unbound = Number((await tile('未绑定')).replace(/\D/g, ''));
    expect(bound + unbound).toBe(480);
    await page.getByText('各年级学生与绑定').waitFor();
    await page.screenshot({ path: `${SHOTS}/school-dashboard.png` });

    // 成绩公开范围: the admin chooses ranks; the server has it, and shows it again after a reload.
    const setting = page.getByRole('combobox', { name: '教师以外的人员可以看到' });
    await expect.poll(() => setting.innerText()).toBe('只显示等级（优秀、良好、及格、不及格）');
    await setting.click();
    await page.getByRole('option', { name: '显示名次（不显示分数）' }).click();
    await page.getByText('设置已保存').waitFor();
    const saved = (await pageApi<{ scoreDisclosure: number }>(page, '/api/vesta/school/settings')).scoreDisclosure;
    expect(saved).toBe(2);
    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: '教师以外的人员可以看到' }).innerText()).toBe('显示名次（不显示分数）');
    await setting.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/school-dashboard-setting.png` });
    for (const path of ['/class', '/studentManage', '/teacherManage', '/schoolResource']) {
      await page.goto(`${miniProgram.url}/#${path}`);
      await page.locator('#nprogress').waitFor({ state: 'detached' });
      await page.waitForTimeout(800);
      await page.screenshot({ path: `${SHOTS}/school-mp${path.replace('/', '-')}.png` });
    }
    await page.context().close();
  });

  it("resets a teacher's password: shown once, then that teacher signs in with it", async () => {
    const page = await signIn(browser, miniProgram.url, 'schooladmin');
    await page.goto(`${miniProgram.url}/#/teacherManage`);
    const row = page.getByRole('row').filter({ hasText: '林晓' });
    await row.getByRole('button', { name: '重置密码' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/确定要重置教师“.+”的密码吗/).waitFor();
    await dialog.getByRole('button', { name: '确认重置' }).click();
    const password = await dialog.getByTestId('one-time-password').innerText();
    expect(password).toMatch(/^[A-Za-z0-9]{10}$/);
    await page.screenshot({ path: `${SHOTS}/school-mp-reset-password.png` });
    // The shown password is not lost to a stray click beside the dialog.
    await page.mouse.click(5, 5);
    expect(await dialog.getByTestId('one-time-password').innerText()).toBe(password);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.screenshot({ path: `${SHOTS}/school-mp-reset-password-375.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await dialog.getByRole('button', { name: '我已记下' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();

    const teacher = await signIn(browser, miniProgram.url, 'teacher2', password);
    await teacher.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    await teacher.context().close();
  });
});
