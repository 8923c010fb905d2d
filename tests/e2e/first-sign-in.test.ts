// The first sign-in of an account made by `npm run admin:create`, in a real browser: the one-time
// password opens the form for a new one (on a desktop and on a phone), a weak one is refused with the
// server's Chinese reason, and the new password leads into the product.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser } from '../support/browser';
import { seededDataDir, startServer, type RunningServer } from '../support/serverProcess';
import { openDatabase } from '../../server/db';
import { createPlatformAdmin } from '../../server/modules/juno/platformAdmin';

let server: RunningServer;
let browser: Browser;
let dataDir: string;
const passwords: Record<string, string> = {};
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

beforeAll(async () => {
  await ensureWebBuild();
  dataDir = mkdtempSync(join(tmpdir(), 'xz-first-sign-in-'));
  cpSync(await seededDataDir(), dataDir, { recursive: true });
  // As the operator would, before the server starts (one process opens the embedded database).
  const database = await openDatabase({ dataDir: join(dataDir, 'pg') });
  for (const username of ['ops.desk', 'ops.phone']) passwords[username] = (await createPlatformAdmin(database.db, { username, name: '运维管理员' })).password;
  await database.close();
  server = await startServer({ dataDir });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('first sign-in with a one-time password', () => {
  for (const [username, width] of [['ops.desk', 1440], ['ops.phone', 375]] as const) {
    it(`asks for a new password before entering (${width} px)`, async () => {
      const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 740 }, locale: 'zh-CN' });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.waitForURL(/account\.html/);
      await page.getByLabel('用户名').fill(username);
      await page.getByLabel('密码').fill(passwords[username]);
      await page.getByRole('button', { name: '登录' }).click();
      const form = page.getByRole('form', { name: '修改初始密码' });
      await form.waitFor();
      expect(page.url()).toContain('account.html');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: join(SHOTS, `first-sign-in-${width}.png`) });

      await page.getByLabel('新密码', { exact: true }).fill('abcdefgh');
      await page.getByLabel('确认新密码').fill('abcdefgh');
      await page.getByRole('button', { name: '设置新密码并进入' }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toBe('新密码需同时包含字母和数字');

      await page.getByLabel('新密码', { exact: true }).fill('Harbour7lights');
      await page.getByLabel('确认新密码').fill('Harbour7lights');
      await page.getByRole('button', { name: '设置新密码并进入' }).click();
      await page.waitForURL((url) => !url.pathname.endsWith('account.html'));
      await page.locator('main h1').first().waitFor();
      await context.close();

      // The one-time password is spent; the new one signs in directly.
      const old = await fetch(`${server.url}/api/juno/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: passwords[username] }) });
      expect(old.status).toBe(401);
      const next = await fetch(`${server.url}/api/juno/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'Harbour7lights' }) });
      expect((await next.json()).data.mustChangePassword).toBe(false);
    });
  }
});
