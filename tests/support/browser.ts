// A real Chromium driven by playwright-core, for browser tests and screenshots: Debian's
// chromium-headless-shell, the same engine as the chromium package without its window and browser
// interface (the build Playwright itself runs headless tests in). Measured on 4 signed-in product
// loads: 6.2–6.5 s of the browser's CPU against 7.8 s for /usr/bin/chromium in headless mode.
// CHROMIUM_PATH=/usr/bin/chromium runs the tests in the full browser.
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { TOKEN_KEY } from '../../src/authProvider/session';
import { ROUTES, type RouteDef } from '../../src/menu/routes';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * Chromium's features off for the tests. Playwright's own list first (from playwright-core's
 * chromiumSwitches): Chromium reads only the last --disable-features, so ours must repeat it.
 * Then the address bar's popups: Chromium 156 builds two hidden WebUI pages (chrome://omnibox-popup…)
 * in renderers of their own for every browser context, a window nobody types into here. They cost
 * about a third of the browser's CPU per signed-in page (measured: 4 product loads took 13.7–16.4 s
 * of Chromium CPU with them, 9.6–10.7 s without). The list must follow playwright-core's when it is
 * updated.
 */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--lang=zh-CN', `--disable-features=${DISABLED_FEATURES.join(',')}`],
    // The browser a Chinese teacher runs (with chromium-l10n installed), so native date and time
    // inputs read 2026/11/28 22:00 as they do for her, not the machine's en-US 11/28/2026, 10:00 PM.
    // LANGUAGE only: LANG stays the machine's UTF-8 locale, or Chinese download names would be lost.
    env: { ...process.env, LANGUAGE: 'zh_CN:zh' },
  });
}

/** A new context as a Chinese teacher's browser window (1440 px), with its first page. */
async function newPage(browser: Browser, storageState?: BrowserContextOptions['storageState']): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', ...(storageState ? { storageState } : {}) });
  // A wait that never ends fails at its own step, well inside the test's time limit.
  context.setDefaultTimeout(20_000);
  return context.newPage();
}

/** Opens the product in a new context, which sends a signed-out user to the sign-in app, and submits the form there. */
export async function submitSignIn(browser: Browser, baseUrl: string, username: string, password = 'Demo@2026'): Promise<Page> {
  const page = await newPage(browser);
  await page.goto(`${baseUrl}/`);
  await page.waitForURL(/account\.html/);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  return page;
}

/**
 * Signs in and waits for the product to show a screen. The sign-in call is the sign-in app's own
 * (the same endpoint, the token kept where that app keeps it), made by the test: loading the
 * sign-in app in Chromium for every signed-in page cost about 1 s of the browser's CPU, and the
 * sign-in app itself is tried by the tests that are about signing in (submitSignIn), as is an
 * account that must change its one-time password first.
 */
export async function signIn(browser: Browser, baseUrl: string, username: string, password = 'Demo@2026'): Promise<Page> {
  const res = await fetch(`${baseUrl}/api/juno/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const body = (await res.json()) as { success: boolean; msg: string; data: { accessToken: string; mustChangePassword?: boolean } | null };
  if (!body.success || !body.data) throw new Error(`${username} 登录失败：${body.msg}`);
  // Such an account is asked for a new password on the form, and reaches no screen before that.
  if (body.data.mustChangePassword) throw new Error(`${username} 须先修改初始密码：用 submitSignIn 走登录页`);
  const page = await newPage(browser, { cookies: [], origins: [{ origin: new URL(baseUrl).origin, localStorage: [{ name: TOKEN_KEY, value: body.data.accessToken }] }] });
  await page.goto(`${baseUrl}/`);
  await page.waitForURL((url) => !url.pathname.endsWith('account.html'));
  // The home of most roles is a menu group that redirects to its first screen (/academic →
  // /academic/class). A test that navigates while that redirect is pending is sent back to the
  // home screen, and one that navigates before the screen has rendered can lose its navigation
  // too; so signing in ends when the app shows a screen of its own, with its title.
  await page.waitForFunction((redirects) => {
    const path = location.hash.slice(1).split('?')[0];
    return path.length > 1 && !redirects.includes(path);
  }, REDIRECTING_PATHS);
  await page.locator('main h1').first().waitFor();
  return page;
}

const REDIRECTING_PATHS = (function collect(routes: RouteDef[]): string[] {
  return routes.flatMap((route) => [...(route.redirect ? [route.path] : []), ...collect(route.children ?? [])]);
})(ROUTES);

/** The API as the signed-in page sees it: same token, same active role; a refusal throws its message. */
export async function pageApi<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const res = await fetch(url, {
      headers: {
        'Blade-Auth': `bearer ${localStorage.getItem('xuezhu.accessToken')}`,
        'X-Active-Role': sessionStorage.getItem('xuezhu.activeRole') ?? '',
      },
    });
    const body = await res.json();
    if (!body.success) throw new Error(body.msg);
    return body.data;
  }, path);
}

/** The signed-in page's session (token and active role), for calls the test makes itself. */
export async function pageSession(page: Page) {
  return page.evaluate(() => ({
    'Blade-Auth': `bearer ${localStorage.getItem('xuezhu.accessToken')}`,
    'X-Active-Role': sessionStorage.getItem('xuezhu.activeRole') ?? '',
  }));
}
export type SessionHeaders = Awaited<ReturnType<typeof pageSession>>;

/** A real HTTP call with a page's session, from the test; a refusal throws its message. */
export async function sessionCall<T>(baseUrl: string, headers: SessionHeaders, path: string, init: { method?: string; json?: unknown; form?: FormData } = {}): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.json || init.form ? 'POST' : 'GET'),
    headers: { ...headers, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : init.form,
  });
  const body = await res.json();
  if (!body.success) throw new Error(`${path}: ${body.msg}`);
  return body.data as T;
}
