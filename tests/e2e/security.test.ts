// The built app under the production server's Content-Security-Policy, in a real Chromium: each
// kind of user signs in through the sign-in app and walks through their screens with no policy
// violation and no console error. And the sign-in app never sends anyone to another site,
// whatever the redirect parameter says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

interface Watched {
  page: Page;
  /** Policy violations and console errors, as text. */
  problems: string[];
  /** Every host the page sent a request to. */
  hosts: Set<string>;
}

/** A fresh browser profile whose page reports every policy violation and console error. */
async function watchedPage(): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  // Runs before the page's own scripts (through the debugging protocol, so the policy allows it).
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  const hosts = new Set<string>();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => hosts.add(new URL(r.url()).host));
  return { page, problems, hosts };
}

async function signIn(page: Page, username: string, entry = `${server.url}/`) {
  await page.goto(entry);
  await page.waitForURL(/account\.html/);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill('Demo@2026');
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('account.html'));
}

/** Opens each menu entry and waits for its screen. */
async function visitMenu(page: Page, entries: string[]) {
  const menu = page.locator('nav[aria-label="主菜单"]');
  await menu.waitFor();
  for (const entry of entries) {
    await menu.getByText(entry, { exact: true }).click();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.locator('#nprogress').waitFor({ state: 'detached' });
  }
}

const ACCOUNTS: { username: string; menu: string[] }[] = [
  { username: 'teacher', menu: ['AI批改', '布置作业', '学生错题本', '班级错题本', '班级管理', '使用教程', '学校资源'] },
  { username: 'schooladmin', menu: ['数据概览', '班级管理', '学生管理', '教师管理', '角色任命', '教室管理', '学校资源', '操作日志'] },
  { username: 'partner1', menu: ['数据看板', '渠道结算', '直营学校', '设备管理', '订单管理', '我的账户', '操作日志'] },
  { username: 'principal', menu: ['学情分析'] },
  { username: 'psych', menu: ['学生心声'] },
];

// Each test has its own browser context, so they run side by side: a walk through the screens mostly
// waits on the server and the page.
describe.concurrent('the Content-Security-Policy the app runs under', () => {
  for (const { username, menu } of ACCOUNTS) {
    it(`${username}: sign-in and every screen of the menu, without a violation or console error`, async ({ expect }) => {
      const { page, problems } = await watchedPage();
      await signIn(page, username);
      await visitMenu(page, menu);
      // Inline styles written at run time by MUI are allowed; scripts only from our files.
      expect(await page.evaluate(() => document.querySelectorAll('style').length)).toBeGreaterThan(0);
      await page.screenshot({ path: `${SHOTS}/csp-${username}.png` });
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it('previews of a PDF and an image from the resource library load under the policy', async ({ expect }) => {
    const { page, problems } = await watchedPage();
    await signIn(page, 'schooladmin');
    await page.goto(`${server.url}/#/schoolResource`);
    for (const title of ['七年级语文期中考试答题卡', '一元一次方程（第一课时）']) {
      const row = page.getByRole('row', { name: new RegExp(title) });
      await row.getByRole('button', { name: '预览' }).click();
      const dialog = page.getByRole('dialog', { name: title });
      const shown = dialog.locator(`iframe[title="预览：${title}"], img[alt="${title}"]`);
      await shown.waitFor();
      expect(await shown.getAttribute('src')).toMatch(/^blob:/);
      await page.waitForTimeout(1000); // let the frame load what it shows
      await page.screenshot({ path: `${SHOTS}/csp-preview-${title}.png` });
      await dialog.getByRole('button', { name: '关闭' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('refuses an inline script injected into the page', async ({ expect }) => {
    const { page } = await watchedPage();
    await page.goto(`${server.url}/account.html`);
    await page.getByLabel('用户名').waitFor();
    // The violation is reported by an event the page queues after refusing the script.
    const reported = page.waitForEvent('console', (m) => m.type() === 'error' && m.text().startsWith('CSP violation: script-src'));
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      return (window as unknown as { injected?: boolean }).injected === true;
    });
    expect(ran).toBe(false);
    await reported;
    await page.context().close();
  });
});

describe('sign-in limits, as the sign-in page shows them', () => {
  it('after three wrong passwords, says in Chinese how long to wait, even for the right one', async () => {
    const { page } = await watchedPage();
    await page.goto(`${server.url}/account.html`);
    const alert = page.getByRole('alert');
    const attempt = async (password: string) => {
      await page.getByLabel('用户名').fill('teacher2');
      await page.getByLabel('密码').fill(password);
      await page.getByRole('button', { name: '登录', exact: true }).click();
      // Busy ('登录中…') until the server answers.
      await page.getByRole('button', { name: '登录', exact: true }).waitFor();
    };
    for (let i = 0; i < 3; i++) {
      await attempt('wrong-password');
      await expect.poll(() => alert.innerText()).toBe('用户名或密码错误');
    }
    await attempt('Demo@2026');
    await expect.poll(() => alert.innerText()).toMatch(/^密码错误次数较多，请[1-5]秒后再试$/);
    expect(new URL(page.url()).pathname).toBe('/account.html');
    await page.context().close();
  });
});

describe.concurrent('the sign-in redirect', () => {
  const EVIL = [
    '/.//evil.example',
    '/%2e//evil.example',
    '/a/..//evil.example',
    '/./\\evil.example',
    '/.\\/evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    ' //evil.example',
    'https:/\\evil.example',
    'http:evil.example',
    'https://evil.example/',
    'javascript:alert(document.domain)',
  ];

  // Side by side, five at a time, each as another account: tries at one account from one address
  // are counted before the password is checked, so more than three at once would be held back.
  const USERS = ['psych', 'principal', 'subjectleader', 'gradeleader', 'researcher'];
  it.for(EVIL.map((target, i) => [target, USERS[i % USERS.length]]))('signing in with redirect=%s stays on our site', async ([target, username], { expect }) => {
    const { page, hosts } = await watchedPage();
    await signIn(page, username, `${server.url}/account.html?redirect=${encodeURIComponent(target)}`);
    await page.waitForLoadState('load');
    expect(new URL(page.url()).origin).toBe(server.url);
    expect([...hosts].filter((h) => h !== new URL(server.url).host)).toEqual([]);
    await page.context().close();
  });

  it('still returns to a screen of the product', async () => {
    const { page } = await watchedPage();
    await signIn(page, 'teacher', `${server.url}/account.html?redirect=${encodeURIComponent(`${server.url}/#/schoolResource`)}`);
    await page.waitForFunction(() => location.hash.startsWith('#/schoolResource'));
    await page.context().close();
  });
});
