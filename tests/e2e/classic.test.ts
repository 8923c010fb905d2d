// With the classic-web flags (SPEC §6 "admin and teacher config flags") teacher and school admin
// keep their roles and get the classic routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuild();
  server = await startServer({ env: { TEACHER_CLASSIC_WEB: '1', ADMIN_CLASSIC_WEB: '1' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('classic web', () => {
  it('the classic teacher lands on homework with the teacher menu and its filters', async () => {
    const page = await signIn(browser, server.url, 'classic');
    await page.waitForFunction(() => location.hash.startsWith('#/homework'));
    await page.locator('nav[aria-label="主菜单"]').waitFor();
    expect(await page.locator('nav[aria-label="主菜单"] .MuiTypography-root').allInnerTexts()).toEqual(['作业', '考试', '试卷', '班级', '错题本', '学情分析']);
    // Header filters of /homework: class-grade, course, time. The class is chosen for the teacher.
    await expect.poll(() => page.getByText('八(2)班').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('the classic school admin lands on academic affairs', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    await page.waitForFunction(() => location.hash.startsWith('#/academic/class'));
    await page.locator('nav[aria-label="主菜单"]').waitFor();
    expect(await page.locator('nav[aria-label="主菜单"] .MuiTypography-root').allInnerTexts()).toEqual(['教务管理', '数据概览', '学校资源', '心声隐私', '操作日志']);
    // Each screen of 教务管理 has its own entry, not only the first one the group opens on.
    const academic = page.getByRole('navigation', { name: '教务管理菜单' });
    expect(await academic.getByRole('tab').allInnerTexts()).toEqual(['班级管理', '教师管理', '角色任命', '学生管理', '教室管理', '学年管理']);
    for (const [tab, path] of [['学生管理', '/academic/student'], ['教师管理', '/academic/teacher']] as const) {
      await academic.getByRole('tab', { name: tab }).click();
      await page.waitForFunction((p) => location.hash.startsWith(`#${p}`), path);
      await expect.poll(() => page.locator('main h1').first().innerText()).toBe(tab);
      expect(await academic.getByRole('tab', { selected: true }).innerText()).toBe(tab);
    }
    // 数据概览 shows the school's own counts, as the mini-program admin's does.
    await page.locator('nav[aria-label="主菜单"]').getByText('数据概览').click();
    await page.waitForFunction(() => location.hash.startsWith('#/school-dashboard'));
    await expect.poll(() => page.getByText('在读学生').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('a class added to a grade counts in the grade’s header at once, without a reload', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    await page.waitForFunction(() => location.hash.startsWith('#/academic/class'));
    const grade = page.getByRole('region', { name: '七年级' });
    const header = grade.getByText(/个班级 ·/);
    await header.waitFor();
    const classCount = async () => Number(/^(\d+) 个班级/.exec(await header.innerText())?.[1]);
    const before = await classCount();
    await grade.getByRole('button', { name: '新增班级' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('班级名称').fill('七(9)班');
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => grade.getByText('七(9)班').count()).toBe(1);
    await expect.poll(classCount).toBe(before + 1);
    await page.context().close();
  });

  it('the classic school admin’s bulk actions sit above the student list, clickable at 1440 px, and confirm in Chinese', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    await page.goto(`${server.url}/#/academic/student`);
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(2);
    const names = [(await rows.nth(0).locator('td').nth(2).innerText()).trim(), (await rows.nth(1).locator('td').nth(2).innerText()).trim()];
    expect(names.every((name) => name.length > 1)).toBe(true);
    await rows.nth(0).locator('input[type=checkbox]').check();
    await rows.nth(1).locator('input[type=checkbox]').check();
    await expect.poll(() => page.getByText('已选择 2 项').count()).toBe(1);
    // A plain click (no force): a bar drawn under the list toolbar would lose it to 导出.
    for (const label of ['批量绑定', '批量解绑', '批量删除']) await page.getByRole('button', { name: label }).click({ trial: true, timeout: 5000 });
    await page.getByRole('button', { name: '批量删除' }).click({ timeout: 5000 });
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toContain('确定要删除选中的 2 个学生吗？');
    expect(await dialog.innerText()).toContain('批量删除学生');
    expect(await dialog.innerText()).not.toMatch(/students/);
    await dialog.getByRole('button', { name: '取消' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // A re-import asks before it writes over students already on the roll; 否 by default.
    await page.getByRole('button', { name: '批量导入' }).click();
    const ask = page.getByRole('dialog', { name: '导入学生' });
    const update = ask.getByRole('checkbox', { name: '是否更新已经存在的数据' });
    expect(await update.isChecked()).toBe(false);
    expect(await ask.innerText()).toContain('文件中已存在的学生将保持不变');
    await update.check();
    expect(await ask.innerText()).toContain('文件中已存在的学生将按文件内容更新');
    await ask.getByRole('button', { name: '取消' }).click();
    // Cancelled: both students are still listed.
    for (const name of names) expect(await page.locator('tbody').innerText()).toContain(name);
    await page.context().close();
  });
});
