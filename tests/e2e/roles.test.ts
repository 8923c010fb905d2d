// 角色任命 in a real browser against the real server: a school admin appoints 林晓 年级组长 of 八年级,
// and she, signed in already, switches to it and sees exactly that grade; taken away again, her
// open page says so and switches back. A teacher set to 离职 cannot sign in, and her classes show
// their new teacher. 批量开通账号 prints a sheet per class, and its password must be changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, signIn, submitSignIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const activeRole = (page: Page) => page.evaluate(() => sessionStorage.getItem('xuezhu.activeRole'));

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('appointing a grade leader', () => {
  it('applies at her next request, shows exactly that grade, and a removal switches her back', async () => {
    const leader = await signIn(browser, server.url, 'teacher2');
    await leader.waitForFunction(() => location.hash.startsWith('#/AICorrect'));

    const admin = await signIn(browser, server.url, 'schooladmin');
    await admin.goto(`${server.url}/#/roleManage`);
    const card = admin.getByTestId('role-gradeLeader');
    await card.getByText('冯主任').waitFor();
    await card.getByRole('button', { name: '任命年级组长' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('教师').fill('林晓');
    await admin.getByRole('option', { name: /^林晓/ }).click();
    await pick(admin, '年级', '八年级');
    await admin.screenshot({ path: `${SHOTS}/roles-appoint-1440.png` });
    await dialog.getByRole('button', { name: '任命', exact: true }).click();
    await card.getByText('年级组长 · 八年级').waitFor();
    await expect.poll(() => admin.getByText('已任命 林晓 为 八年级 的年级组长').count()).toBeGreaterThan(0);
    await admin.screenshot({ path: `${SHOTS}/roles-holders-1440.png`, fullPage: true });

    // Her open session gains the role without signing in again.
    await leader.reload();
    await leader.locator('main h1').first().waitFor();
    await leader.getByRole('button', { name: '用户菜单' }).click();
    await leader.getByRole('menuitem', { name: /切换为年级组长/ }).click();
    // A reload of the whole app: slow on a busy machine.
    await leader.waitForFunction(() => location.hash.startsWith('#/analysis'), undefined, { timeout: 40_000 });
    const grade = leader.getByRole('combobox', { name: '年级' });
    await expect.poll(() => grade.innerText()).toBe('八年级');
    // One grade: the picker has nothing else to offer (SPEC §2.1 disables it).
    expect(await grade.getAttribute('aria-disabled')).toBe('true');
    expect((await pageApi<{ name: string }[]>(leader, '/api/vesta/teaching/getGradeInSchool?leaderType=3')).map((g) => g.name)).toEqual(['八年级']);
    const classes = await pageApi<{ gradeName: string }[]>(leader, '/api/vesta/teaching/getTeachClass?leaderType=3');
    expect(new Set(classes.map((c) => c.gradeName))).toEqual(new Set(['八年级']));
    await leader.screenshot({ path: `${SHOTS}/roles-grade-leader-1440.png` });

    // Taken away: her next call is refused with the reason, and the page goes back to her other role.
    await admin.getByTestId('role-gradeLeader').getByText('年级组长 · 八年级').locator('..').locator('.MuiChip-deleteIcon').click();
    await admin.getByRole('button', { name: '确认免去' }).click();
    await expect.poll(() => admin.getByTestId('role-gradeLeader').getByText('年级组长 · 八年级').count()).toBe(0);
    await pick(leader, '学科', await otherOption(leader, '学科'));
    await leader.getByText('您已不再担任“年级组长”，将切换到您的其他角色').waitFor();
    // Switching back reloads the whole app too: the same allowance as the switch above.
    await leader.waitForFunction(() => location.hash.startsWith('#/AICorrect'), undefined, { timeout: 40_000 });
    expect(await activeRole(leader)).toBe('mpTeacher');
    expect(new URL(leader.url()).pathname).not.toContain('account.html');
    await leader.context().close();

    await admin.setViewportSize({ width: 375, height: 740 });
    await admin.reload();
    await admin.getByTestId('role-gradeLeader').waitFor();
    await admin.screenshot({ path: `${SHOTS}/roles-holders-375.png`, fullPage: true });
    expect(await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await admin.context().close();
  });
});

/** An option of a header picker other than the one shown. */
async function otherOption(page: Page, label: string): Promise<string> {
  const picker = page.getByRole('combobox', { name: label });
  const shown = (await picker.innerText()).trim();
  await picker.click();
  const names = await page.getByRole('listbox').getByRole('option').allInnerTexts();
  await page.keyboard.press('Escape');
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  return names.map((n) => n.trim()).find((n) => n !== shown)!;
}

describe('离职', () => {
  it('a teacher who left cannot sign in, and her class has its new teacher', async () => {
    const admin = await signIn(browser, server.url, 'schooladmin');
    await admin.goto(`${server.url}/#/teacherManage`);
    // 黄蕾's roles and classes, before she takes 林晓's over: the demo has her 班主任 of 八(3)班.
    await admin.getByRole('row').filter({ hasText: '黄蕾' }).getByRole('button', { name: '角色' }).click();
    await admin.getByRole('dialog').getByText('八(2)班 英语').waitFor();
    await admin.getByRole('dialog').getByText('班主任 · 八(3)班').waitFor();
    await admin.screenshot({ path: `${SHOTS}/roles-teacher-roles-1440.png` });
    await admin.getByRole('dialog').getByRole('button', { name: '关闭' }).click();
    await admin.getByRole('dialog').waitFor({ state: 'detached' });
    const row = admin.getByRole('row').filter({ hasText: '林晓' });
    await row.getByRole('button', { name: '停用/离职' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('七(1)班 语文 的接任教师').waitFor();
    // Every class needs a successor before 离职 can be confirmed.
    expect(await dialog.getByRole('button', { name: '确认离职' }).isDisabled()).toBe(true);
    await pick(admin, '全部交给', '黄蕾');
    await admin.getByRole('listbox').waitFor({ state: 'detached' });
    await admin.screenshot({ path: `${SHOTS}/roles-leave-1440.png` });
    await dialog.getByRole('button', { name: '确认离职' }).click();
    await expect.poll(() => admin.getByText('已设为离职，班级已交接').count()).toBeGreaterThan(0);
    await expect.poll(() => admin.getByRole('row').filter({ hasText: '林晓' }).innerText()).toContain('离职');
    const successor = admin.getByRole('row').filter({ hasText: '黄蕾' });
    await expect.poll(() => successor.innerText()).toContain('七(1)班 语文');
    await admin.setViewportSize({ width: 375, height: 740 });
    await admin.getByText('林晓').first().waitFor();
    await admin.screenshot({ path: `${SHOTS}/roles-teachers-375.png`, fullPage: true });
    await admin.context().close();

    const page = await submitSignIn(browser, server.url, 'teacher2');
    await expect.poll(() => page.getByText('该教师已离职，账号不能登录').count()).toBeGreaterThan(0);
    expect(page.url()).toContain('account.html');
    await page.context().close();
  });
});

describe('批量开通账号', () => {
  it('prints a sheet per class, and the printed password must be changed at first sign-in', async () => {
    const admin = await signIn(browser, server.url, 'schooladmin');
    await admin.goto(`${server.url}/#/teacherManage`);
    await admin.getByRole('button', { name: '批量开通账号' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('方远').waitFor();
    await dialog.getByRole('checkbox', { name: /方远/ }).check();
    await dialog.getByRole('button', { name: '生成 1 名教师的初始密码' }).click();
    const sheets = admin.getByTestId('password-sheets');
    await sheets.waitFor();
    expect(await sheets.locator('h2').allInnerTexts()).toEqual(['七(1)班 · 教师初始密码']);
    const password = (await sheets.getByTestId('sheet-password').innerText()).trim();
    expect(password).toMatch(/^[A-Za-z2-9]{10}$/);
    await admin.screenshot({ path: `${SHOTS}/roles-password-sheets-1440.png` });
    // On paper only the sheets: the product behind the dialog and the dialog's buttons are left out.
    await admin.emulateMedia({ media: 'print' });
    expect(await admin.locator('#root').evaluate((el) => getComputedStyle(el).display)).toBe('none');
    expect(await admin.getByRole('button', { name: '打印密码单' }).isVisible()).toBe(false);
    expect(await sheets.isVisible()).toBe(true);
    await admin.emulateMedia({ media: 'screen' });
    await admin.setViewportSize({ width: 375, height: 740 });
    await admin.screenshot({ path: `${SHOTS}/roles-password-sheets-375.png` });
    await admin.getByRole('button', { name: '我已打印，关闭' }).click();
    await admin.context().close();

    const page = await submitSignIn(browser, server.url, 'teacher4', password);
    await page.getByRole('form', { name: '修改初始密码' }).waitFor();
    expect(page.url()).toContain('account.html');
    await page.context().close();
  });
});
