// Every screen of the menu, for each kind of demo user, on a 375 × 812 phone: nothing sticks out past
// the right edge unless it sits in a box that scrolls sideways, the menu opens from its button, and
// the header filters are all reachable in the 筛选 sheet. A screenshot of each screen is kept.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

/** Visible elements whose right edge passes the screen's and that no sideways-scrolling box holds. */
function stickingOut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (el: Element) => {
      const style = getComputedStyle(el);
      return /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth;
    };
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.right <= width + 1 || !el.checkVisibility({ visibilityProperty: true })) continue;
      let held = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (scrolls(up)) {
          held = true;
          break;
        }
      }
      if (!held) out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} “${(el.textContent ?? '').trim().slice(0, 20)}” right=${Math.round(box.right)}`);
    }
    return out;
  });
}

const ACCOUNTS = ['teacher', 'schooladmin', 'partner1', 'principal', 'psych'];

describe.concurrent('the product on a 375 px phone', () => {
  for (const username of ACCOUNTS) {
    it(`${username}: every menu screen fits, and its filters are reachable`, async ({ expect }) => {
      const page = await signIn(browser, server.url, username);
      await page.setViewportSize({ width: 375, height: 812 });
      await page.reload();
      await page.locator('main h1').first().waitFor();
      const menuButton = page.getByRole('button', { name: '打开菜单' });
      const hasMenu = (await menuButton.count()) > 0;
      const entries = hasMenu ? await (async () => {
        await menuButton.click();
        const names = await page.locator('nav[aria-label="主菜单"] .MuiTypography-root').allInnerTexts();
        await page.keyboard.press('Escape');
        return names;
      })() : [''];
      const problems: string[] = [];
      for (const entry of entries) {
        if (entry) {
          await menuButton.click();
          await page.locator('nav[aria-label="主菜单"]').getByText(entry, { exact: true }).click();
          await page.locator('nav[aria-label="主菜单"]').waitFor({ state: 'hidden' });
        }
        await page.locator('main h1').first().waitFor();
        await page.locator('#nprogress').waitFor({ state: 'detached' });
        // Measured once the screen has its data: no indeterminate progress bar or spinner left.
        await expect.poll(() => page.locator('[role="progressbar"]:not([aria-valuenow])').count()).toBe(0);
        for (const line of await stickingOut(page)) problems.push(`${entry || username}: ${line}`);
        await page.screenshot({ path: `${SHOTS}/phone-${username}-${entry || 'home'}.png` });
        // The header's filters: one 筛选 button opening every filter, or none on this screen.
        const filters = page.getByRole('button', { name: '筛选', exact: true });
        if (await filters.count()) {
          await filters.click();
          const sheet = page.getByRole('search', { name: '筛选' });
          await sheet.waitFor();
          // The sheet's filters render just after the sheet itself (seen with animations off).
          await expect.poll(() => sheet.getByRole('combobox').count(), { message: entry }).toBeGreaterThan(0);
          for (const box of await sheet.getByRole('combobox').all()) expect(await box.isVisible(), entry).toBe(true);
          await page.getByRole('button', { name: '完成' }).click();
          // Seen once in a full run (psych, 学生心声): the sheet still open 20 s after 完成, not
          // reproduced since; a picture of that moment says what was on the screen.
          await sheet.waitFor({ state: 'hidden' }).catch(async (error) => {
            await page.screenshot({ path: `${SHOTS}/phone-${username}-${entry || 'home'}-sheet-still-open.png` });
            throw error;
          });
        }
      }
      expect(problems).toEqual([]);
      await page.context().close();
      // A role walks every one of its menu screens (up to a dozen), five roles side by side.
    }, 240_000);
  }
});
