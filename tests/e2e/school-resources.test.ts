// School resources in a real browser: the demo library has files on first start; a school admin
// uploads a teaching plan image, previews it; a teacher of the school finds it but may not delete it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';
const TITLE = '七年级数学第一单元教案';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

describe('school resources', () => {
  it('an admin uploads and previews an image; a teacher sees it without a delete button', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'xz-e2e-res-')), '教案.png');
    writeFileSync(file, await sharp({ create: { width: 600, height: 400, channels: 3, background: '#e8f0fe' } }).png().toBuffer());

    const admin = await signIn(browser, server.url, 'schooladmin');
    await admin.goto(`${server.url}/#/schoolResource`);
    // The demo school starts with an answer-sheet PDF and a lesson slide made at first start.
    await admin.getByRole('cell', { name: '七年级语文期中考试答题卡' }).waitFor();
    await admin.getByRole('cell', { name: '一元一次方程（第一课时）' }).waitFor();
    await admin.getByRole('button', { name: '上传资源' }).click();
    const dialog = admin.getByRole('dialog', { name: '上传资源' });
    await dialog.getByLabel('资源文件').setInputFiles(file);
    await dialog.getByLabel('标题').fill(TITLE);
    await dialog.getByRole('combobox', { name: '类型' }).click();
    await admin.getByRole('option', { name: '教案' }).click();
    await dialog.getByRole('button', { name: '上传', exact: true }).click();
    const row = admin.getByRole('row', { name: new RegExp(TITLE) });
    await row.waitFor();

    await row.getByRole('button', { name: '预览' }).click();
    const image = admin.getByRole('img', { name: TITLE });
    await image.waitFor();
    // The browser decoded the stored bytes: the preview is the picture, not a broken icon.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(600);
    await admin.waitForTimeout(400); // the dialog's fade-in, for a clear screenshot
    await admin.screenshot({ path: `${SHOTS}/resource-preview.png` });
    await admin.getByRole('button', { name: '关闭' }).click();
    // Once the dialog has gone, the page is accessible again and the uploader may delete.
    await expect.poll(() => row.getByRole('button', { name: '删除' }).count()).toBe(1);
    await admin.context().close();

    const teacher = await signIn(browser, server.url, 'teacher');
    await teacher.goto(`${server.url}/#/schoolResource`);
    const teacherRow = teacher.getByRole('row', { name: new RegExp(TITLE) });
    await teacherRow.waitFor();
    // The row's actions are there (download), and delete is not among them for a non-uploader.
    await expect.poll(() => teacherRow.getByRole('button', { name: '下载' }).count()).toBe(1);
    expect(await teacher.getByRole('button', { name: '删除' }).count()).toBe(0);
    await teacher.screenshot({ path: `${SHOTS}/resource-teacher.png` });
    await teacher.context().close();
  });
});
