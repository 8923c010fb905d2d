// 打印错题本 on a student's 学生错题本 page, in a real browser against the real server: the button
// downloads the student's own PDF (name in its text, as many questions as the 未掌握 tile says),
// at 1440 and 375 px; the PDF's first page is rendered to PNG (pdftoppm) for a look.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const work = mkdtempSync(join(tmpdir(), 'xz-wbprint-'));
const SHOTS = process.env.SCREENSHOT_DIR ?? join(process.cwd(), '.tmp/screenshots');

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(async () => {
  await closeServerAndBrowser(server, browser);
  rmSync(work, { recursive: true, force: true });
});

describe('打印错题本', () => {
  for (const width of [1440, 375]) {
    it(`downloads the student's own 错题本 PDF at ${width} px`, async () => {
      const page = await signIn(browser, server.url, 'teacher');
      await page.setViewportSize({ width, height: 900 });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${server.url}/#/studentTracking`);
      const first = page.getByRole('button', { name: /^查看.+的错题$/ }).first();
      const name = ((await first.getAttribute('aria-label')) ?? '').replace(/^查看|的错题$/g, '');
      await first.click();
      await page.getByRole('heading', { name: new RegExp(name) }).waitFor();
      const unmastered = Number(await page.getByTestId('tile-未掌握').innerText());
      expect(unmastered).toBeGreaterThan(0);
      const button = page.getByRole('button', { name: '打印错题本' });
      await expect.poll(() => button.isEnabled()).toBe(true);
      // The button is on screen, not pushed off the side of a phone.
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SHOTS}/student-wrongbook-print-${width}.png` });

      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      expect(download.suggestedFilename()).toBe(`${name}的数学错题本.pdf`);
      const pdf = join(work, `book-${width}.pdf`);
      await download.saveAs(pdf);
      const text = execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
      expect(text).toContain(`${name}的数学错题本`);
      expect(text).toContain(`姓名：${name}`);
      expect(text).toContain(`共${unmastered}道未掌握的错题`);
      expect(text).toContain('答案与解析');
      execFileSync('pdftoppm', ['-r', '60', '-png', '-f', '1', '-l', '1', '-singlefile', pdf, join(SHOTS, `student-wrongbook-print-pdf-${width}`)]);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
