// A real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, for browser tests
// and screenshots.
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Opens the product, which sends a signed-out user to the sign-in app, and signs in there. */
export async function signIn(browser: Browser, baseUrl: string, username: string, password = 'Demo@2026'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/`);
  await page.waitForURL(/account\.html/);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('account.html'));
  return page;
}
