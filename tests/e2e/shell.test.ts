// Every demo account signs in through the real sign-in app, in a real browser, against the real
// server on a fresh database, and sees exactly what SPEC §2.4 and §6 allow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const menuEntries = (page: Page) => page.locator('nav[aria-label="主菜单"] .MuiTypography-root').allInnerTexts();
const hashPath = (page: Page) => new URL(page.url()).hash.replace(/^#/, '').split('?')[0];

const MP_TEACHER = ['AI批改', '布置作业', '学生错题本', '班级错题本', '班级管理', '使用教程', '学校资源'];
const MP_SCHOOL_ADMIN = ['数据概览', '班级管理', '学生管理', '教师管理', '角色任命', '教室管理', '学年管理', '学校资源', '心声隐私', '操作日志'];
const ACCOUNTS: { username: string; home: string; menu: string[]; title: string }[] = [
  { username: 'teacher', home: '/AICorrect/index', menu: MP_TEACHER, title: 'AI批改' },
  { username: 'teacher2', home: '/AICorrect/index', menu: MP_TEACHER, title: 'AI批改' },
  { username: 'classic', home: '/AICorrect/index', menu: MP_TEACHER, title: 'AI批改' },
  { username: 'schooladmin', home: '/school-dashboard', menu: MP_SCHOOL_ADMIN, title: '数据概览' },
  { username: 'schooladmin2', home: '/school-dashboard', menu: MP_SCHOOL_ADMIN, title: '数据概览' },
  { username: 'principal', home: '/analysis', menu: ['学情分析', '考试分析'], title: '学情分析' },
  { username: 'subjectleader', home: '/analysis', menu: ['学情分析', '考试分析'], title: '学情分析' },
  { username: 'gradeleader', home: '/analysis', menu: ['学情分析', '考试分析'], title: '学情分析' },
  { username: 'researcher', home: '/analysis', menu: ['学情分析'], title: '学情分析' },
  { username: 'psych', home: '/heart-sounds', menu: ['学生心声'], title: '学生心声' },
  { username: 'parttime', home: '/resource/teaching', menu: ['学校资源', '练习册'], title: '教学资源' },
  { username: 'admin', home: '/without/common', menu: [], title: '学情分析' },
  { username: 'partner1', home: '/overview-dashboard', menu: ['数据看板', '渠道结算', '直营学校', '设备管理', '订单管理', '我的账户', '下级合作商', '操作日志'], title: '数据看板' },
  { username: 'partner2', home: '/overview-dashboard', menu: ['数据看板', '渠道结算', '直营学校', '设备管理', '订单管理', '下级合作商', '操作日志'], title: '数据看板' },
  { username: 'partner3', home: '/overview-dashboard', menu: ['数据看板', '直营学校', '设备管理', '订单管理', '操作日志'], title: '数据看板' },
];

// The accounts sign in side by side, each in its own browser context: a sign-in mostly waits on
// the server and the page, so five at once take little longer than one.
describe.concurrent('each demo account', () => {
  for (const account of ACCOUNTS) {
    it(`${account.username} lands on ${account.home} and sees only its menu`, async ({ expect }) => {
      const page = await signIn(browser, server.url, account.username);
      await page.waitForFunction((home) => location.hash.startsWith(`#${home}`), account.home);
      await expect.poll(() => page.title()).toBe(`AI教学助手-${account.title}`);
      if (account.menu.length) {
        await page.locator('nav[aria-label="主菜单"]').waitFor();
        expect(await menuEntries(page)).toEqual(account.menu);
      } else {
        expect(await page.locator('nav[aria-label="主菜单"]').count()).toBe(0);
      }
      // The route's screen itself rendered (lazy-loaded), under its own heading.
      await page.getByRole('heading', { level: 1, name: account.title }).waitFor();
      await page.locator('#nprogress').waitFor({ state: 'detached' });
      await page.screenshot({ path: `${SHOTS}/shell-${account.username}.png` });
      await page.context().close();
    });
  }
});

describe('navigation guards', () => {
  it('an unknown path shows the 404 page', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    await page.goto(`${server.url}/#/no-such-page`);
    await expect.poll(() => page.getByText('页面不存在').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it("a partner's screen typed into the address bar does not render for a teacher", async () => {
    const page = await signIn(browser, server.url, 'teacher');
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    await page.goto(`${server.url}/#/orders`);
    await expect.poll(() => page.getByText('页面不存在').count()).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: '订单管理' }).count()).toBe(0);
    await page.context().close();
  });

  it('a level-3 partner cannot open channel settlement or my account', async () => {
    const page = await signIn(browser, server.url, 'partner3');
    await page.waitForFunction(() => location.hash.startsWith('#/overview-dashboard'));
    for (const path of ['/channel-info', '/account']) {
      await page.goto(`${server.url}/#${path}`);
      await expect.poll(() => page.getByText('页面不存在').count()).toBeGreaterThan(0);
    }
    await page.context().close();
  });

  it('an address typed without # opens that screen, and an unknown one the 404 page, never raw JSON', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    await page.waitForFunction(() => location.hash.startsWith('#/school-dashboard'));
    await page.goto(`${server.url}/studentManage`);
    await page.waitForFunction(() => location.hash.startsWith('#/studentManage'));
    await page.getByRole('heading', { level: 1, name: '学生管理' }).waitFor();
    await page.goto(`${server.url}/no-such-page`);
    await expect.poll(() => page.getByText('页面不存在').count()).toBeGreaterThan(0);
    expect(await page.getByText('接口不存在').count()).toBe(0);
    await page.context().close();
  });

  it("'/' goes to the role's home", async () => {
    const page = await signIn(browser, server.url, 'psych');
    await page.goto(`${server.url}/#/`);
    await page.waitForFunction(() => location.hash.startsWith('#/heart-sounds'));
    expect(hashPath(page)).toBe('/heart-sounds');
    await page.context().close();
  });
});

describe('user menu', () => {
  it('switches role and reloads into the new role', async () => {
    const page = await signIn(browser, server.url, 'gradeleader');
    await page.waitForFunction(() => location.hash.startsWith('#/analysis'));
    await expect.poll(() => page.getByRole('button', { name: '用户菜单' }).innerText()).toContain('冯主任');
    await page.getByRole('button', { name: '用户菜单' }).click();
    await expect.poll(() => page.getByText('当前角色：年级组长').count()).toBe(1);
    await expect.poll(() => page.getByText('杭州市西湖区实验中学').count()).toBeGreaterThan(0);
    // The switch list offers 教师 (mpTeacher, since the user also teaches) and never 授课老师.
    await expect.poll(() => page.getByRole('menuitem', { name: /切换为教师/ }).count()).toBe(1);
    expect(await page.getByRole('menuitem', { name: /授课老师/ }).count()).toBe(0);
    await page.getByRole('menuitem', { name: /切换为教师/ }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    await page.locator('nav[aria-label="主菜单"]').waitFor();
    expect(await menuEntries(page)).toEqual(MP_TEACHER);
    await page.context().close();
  });

  it('switches role back and forth many times without ever signing the user out', async () => {
    const page = await signIn(browser, server.url, 'gradeleader');
    // Every answer the product gets, across the reloads: a switch must not leave a request of the
    // old page to go out under the new role (403, which signs the user out).
    const refused: string[] = [];
    page.on('response', (res) => {
      if (res.url().includes('/api/') && [401, 403].includes(res.status())) refused.push(`${res.status()} ${new URL(res.url()).pathname}`);
    });
    const switchTo = async (role: string, home: RegExp) => {
      await page.getByRole('button', { name: '用户菜单' }).click();
      await page.getByRole('menuitem', { name: `切换为${role}` }).click();
      await page.waitForFunction((source) => new RegExp(source).test(location.hash), home.source);
      await expect.poll(() => page.getByRole('button', { name: '用户菜单' }).innerText()).toContain(role);
      await page.locator('main h1').first().waitFor();
    };
    for (let round = 0; round < 4; round++) {
      await switchTo('教师', /^#\/AICorrect/);
      await switchTo('年级组长', /^#\/analysis/);
    }
    expect(page.url()).not.toContain('account.html');
    expect(refused).toEqual([]);
    await page.context().close();
  });

  it('logs out to the sign-in app with the logout flag and a redirect home', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    await expect.poll(() => page.getByRole('button', { name: '用户菜单' }).innerText()).toContain('陈静');
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByRole('menuitem', { name: '退出' }).click();
    await page.waitForURL(/account\.html/);
    const url = new URL(page.url());
    expect(url.searchParams.get('logout')).toBe('1');
    expect(url.searchParams.get('redirect')).toMatch(new RegExp(`^${server.url}`));
    // The old session is gone: opening the product sends us back to sign in.
    await page.goto(`${server.url}/`);
    await page.waitForURL(/account\.html/);
    await page.context().close();
  });

  it('shows a Chinese error for a wrong password', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/account.html`);
    await page.getByLabel('用户名').fill('teacher');
    await page.getByLabel('密码').fill('wrong-password');
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.getByText('用户名或密码错误').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('ignores a redirect to another site after sign-in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/account.html?redirect=${encodeURIComponent('https://evil.example.com/')}`);
    await page.getByLabel('用户名').fill('psych');
    await page.getByLabel('密码').fill('Demo@2026');
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('account.html'));
    expect(new URL(page.url()).origin).toBe(server.url);
    await context.close();
  });
});

describe('reduced motion', () => {
  it('plays no transitions or animations for a user who asks the system for less motion, and plays them otherwise', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    // The longest transition of the screen's buttons: MUI fades their hover backgrounds in.
    const longest = () =>
      page.evaluate(() => Math.max(...[...document.querySelectorAll('.MuiButtonBase-root')].flatMap((el) => getComputedStyle(el).transitionDuration.split(', ').map(parseFloat))));
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await longest()).toBeLessThan(0.001);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await longest()).toBeGreaterThanOrEqual(0.1);
    await page.context().close();
  });
});
