// A student's terminal PIN, end to end: the school admin resets it in the 学生 screen (a random PIN,
// then one typed in), the dialog shows it once, and a print terminal (the device simulator's client,
// signing with the demo terminal's own secret) sends a named 学生心声 with it; a wrong PIN and the
// replaced PIN are refused in Chinese.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { httpTransport, type DeviceClient } from '../../server/devices/client';
import { readDemoSecretsFile } from '../../server/devices/demoSecrets';
import { demoClients } from '../../server/devices/simulator';

let server: RunningServer;
let browser: Browser;
let terminal: DeviceClient;

beforeAll(async () => {
  await ensureWebBuild();
  server = await startServer();
  browser = await launchBrowser();
  // The demo school's first terminal, with the secret the server wrote when it seeded the demo.
  [terminal] = demoClients(httpTransport(server.url), readDemoSecretsFile(server.dataDir), 1);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Consent {
  studentId: number;
  name: string;
  studentNo: string;
  guardianName: string | null;
}

const namedVoice = (studentId: number, pin: string) =>
  terminal.send('POST', '/api/device/v1/heartVoices', { studentId, pin, anonymous: false, category: 5, mood: 4, content: '今天的科学课做了火山实验，太好玩了！' });

/** Opens the student's 终端PIN dialog from the 学生 screen, found by number. */
async function openPinDialog(page: Page, studentNo: string) {
  await page.goto(`${server.url}/#/studentManage`);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('姓名/学号').fill(studentNo);
  await expect.poll(() => page.locator('.MuiTablePagination-displayedRows').innerText()).toContain('共 1 条');
  await page.getByRole('button', { name: '终端PIN' }).click();
  return page.getByRole('dialog');
}

describe('终端PIN', () => {
  it('the school admin resets a student’s PIN; the PIN shown works for a named 学生心声, a wrong one is refused', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    // A student whose guardian's consent is recorded, so only the PIN decides.
    const consents = await pageApi<{ records: Consent[] }>(page, '/api/heart/v1/consents?size=500');
    const student = consents.records.filter((r) => r.guardianName).at(-1)!;

    let dialog = await openPinDialog(page, student.studentNo);
    await dialog.getByText('重置终端PIN').waitFor();
    await dialog.getByRole('button', { name: '确认重置' }).click();
    const drawn = await dialog.getByTestId('terminal-pin').innerText();
    expect(drawn).toMatch(/^\d{6}$/);
    await dialog.getByText('终端PIN只显示这一次').waitFor();
    await dialog.getByRole('button', { name: '我已记下' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // The list says 已设置 and never shows the PIN.
    await page.getByRole('cell', { name: '已设置' }).waitFor();
    expect(await page.locator('main').innerText()).not.toContain(drawn);

    const wrong = drawn.replace(/.$/, (d) => String((Number(d) + 1) % 10));
    const refused = await namedVoice(student.studentId, wrong);
    expect(refused.status).toBe(401);
    expect(refused.body.msg).toBe('终端PIN不正确，再错4次将暂时锁定');
    const accepted = await namedVoice(student.studentId, drawn);
    expect(accepted.status, accepted.body.msg).toBe(200);
    expect(accepted.body.data).toMatchObject({ message: '心声已送达学校心理老师' });

    // A PIN typed by the admin (e.g. from the student's card) replaces it.
    dialog = await openPinDialog(page, student.studentNo);
    await dialog.getByLabel('手动输入（如学生卡上的卡片码）').check();
    await dialog.getByLabel('终端PIN').fill('123456');
    await dialog.getByRole('button', { name: '确认重置' }).click();
    await page.getByText('终端PIN过于简单（如123456、000000），请换一个').waitFor();
    await dialog.getByLabel('终端PIN').fill('246813');
    await dialog.getByRole('button', { name: '确认重置' }).click();
    await expect.poll(() => dialog.getByTestId('terminal-pin').innerText()).toBe('246813');
    await dialog.getByRole('button', { name: '我已记下' }).click();

    expect((await namedVoice(student.studentId, drawn)).body).toMatchObject({ code: 401, msg: '终端PIN不正确，再错4次将暂时锁定' });
    expect((await namedVoice(student.studentId, '246813')).status).toBe(200);
    await page.context().close();
  });
});
