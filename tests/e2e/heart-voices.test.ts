// 学生心声 in a real browser against the real server: the demo school's terminal posts the demo
// messages through the device API (as the demo's first start does), and the psychology teacher
// follows some up through the API. 宋心语 then sees the unhandled suspected 高危 messages pinned on
// top with the menu badge counting them, opens the newest, confirms its level, adds a follow-up,
// reveals its anonymous writer with a reason, and filters the list by the header's grade and class;
// the principal sees the reveal's notice on 学情分析. Screenshots at 1440 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { httpTransport, type DeviceClient } from '../../server/devices/client';
import { readDemoSecretsFile } from '../../server/devices/demoSecrets';
import { demoClients } from '../../server/devices/simulator';
import { DEMO_VOICES, followUpDemoHeartVoices, postDemoHeartVoices } from '../../server/devices/heartVoices';
import type { HeartVoiceRow } from '../../src/dataProvider/heartVoices';

let server: RunningServer;
let browser: Browser;
let page: Page;
const SHOTS = process.env.SCREENSHOT_DIR ?? join(import.meta.dirname, '..', '..', '.tmp', 'screenshots');

beforeAll(async () => {
  await ensureWebBuild();
  server = await startServer();
  // The demo school's terminals (seed order 1–6) post the demo messages in turn, as the simulator
  // does on the demo's first start (a terminal takes a limited number of messages in ten minutes).
  const terminals = demoClients(httpTransport(server.url), readDemoSecretsFile(server.dataDir), 6);
  const rosters = new Map<DeviceClient, { schoolName: string; students: { userId: number; studentNo: string }[] }>();
  for (const terminal of terminals) rosters.set(terminal, await terminal.call('GET', '/api/device/v1/roster'));
  const posted = await postDemoHeartVoices(terminals, rosters);
  expect(posted.size).toBe(DEMO_VOICES.length);
  await followUpDemoHeartVoices(server.url, posted);
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const rows = () => page.getByTestId('heart-row');

describe('学生心声', () => {
  it('pins the unhandled suspected 高危 messages on top, counted on the menu badge, with the alert', async () => {
    page = await signIn(browser, server.url, 'psych');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/heart-sounds');
    await rows().first().waitFor();
    const list = await pageApi<{ records: HeartVoiceRow[]; total: number }>(page, '/api/heart/v1/voices?size=50');
    const pinned = list.records.filter((r) => r.pinned).length;
    // Demo: 不想活, 刀片, 车棚堵我 unconfirmed; 活着没意思 and 爸爸打我 confirmed 高危, not yet handled.
    expect(pinned).toBe(5);
    const flags = await rows().evaluateAll((els) => els.map((e) => e.getAttribute('data-pinned')));
    expect(flags.slice(0, pinned)).toEqual(Array(pinned).fill('true'));
    expect(flags.slice(pinned).every((f) => f === 'false')).toBe(true);
    await expect.poll(() => page.locator('[aria-current=page] .MuiBadge-badge').innerText()).toBe(String(pinned));
    // The three not yet judged still alert; confirmed ones no longer do.
    await expect.poll(() => page.getByTestId('heart-alert').innerText()).toContain('收到 3 条疑似高危的学生心声');
    await expect.poll(() => page.getByTestId('heart-mood').locator('svg').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'heart-voices-list.png') });
    await page.getByTestId('heart-mood').locator('..').screenshot({ path: join(SHOTS, 'heart-voices-mood.png') });
  });

  it('opens the newest, confirms 高危, adds a follow-up and reveals the anonymous writer with a reason', async () => {
    await rows().first().getByRole('link', { name: '查看' }).click();
    await expect.poll(() => page.getByTestId('heart-content').innerText()).toBe('我不想活了，没有人在乎我。');
    await expect.poll(() => page.getByTestId('heart-confirmed').innerText()).toBe('尚未确认');
    await page.getByRole('button', { name: '高危', exact: true }).click();
    await page.getByRole('button', { name: '确认', exact: true }).click();
    await expect.poll(() => page.getByTestId('heart-confirmed').innerText()).toBe('当前：高危');
    await page.getByTestId('heart-note').fill('已约该班班主任下午放学前一起找学生谈话。');
    await page.getByRole('button', { name: '添加记录' }).click();
    await expect.poll(() => page.getByTestId('heart-follow-ups').innerText()).toContain('已约该班班主任下午放学前一起找学生谈话。');
    expect(await page.getByTestId('heart-follow-ups').innerText()).toContain('确认为高危');

    await page.getByRole('button', { name: '查看写信人身份' }).click();
    const confirm = page.getByRole('button', { name: '确认查看' });
    await page.getByLabel('查看理由').fill('太短');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel('查看理由').fill('学生明确表达轻生念头，需要立即联系监护人并当面评估');
    await confirm.click();
    await expect.poll(() => page.getByTestId('heart-writer').innerText()).toMatch(/^写信人：\S+（/);
    await page.screenshot({ path: join(SHOTS, 'heart-voices-reveal.png') });
    await page.getByRole('button', { name: '关闭' }).click();
    await expect.poll(() => page.getByTestId('heart-follow-ups').innerText()).toContain('查看了写信人身份');
    await page.screenshot({ path: join(SHOTS, 'heart-voices-detail.png') });
  });

  it('filters the list by the header’s grade and class', async () => {
    await page.getByRole('link', { name: '返回学生心声' }).click();
    await rows().first().waitFor();
    await page.getByRole('combobox', { name: '年级' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '七年级', exact: true }).click();
    await page.getByRole('combobox', { name: '班级' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '七(1)班', exact: true }).click();
    await expect.poll(() => page.getByText('七(1)班学生在打印终端写下的心声', { exact: false }).count()).toBe(1);
    // The list reloads for the class: every row shown is of 七(1)班, as many as the school's list holds.
    const all = await pageApi<{ records: HeartVoiceRow[] }>(page, '/api/heart/v1/voices?size=100');
    const expected = all.records.filter((r) => r.className === '七(1)班').length;
    expect(expected).toBeGreaterThan(0);
    await expect.poll(async () => [...new Set(await rows().locator('td:nth-child(2)').allInnerTexts())]).toEqual(['七(1)班']);
    expect(await rows().count()).toBe(Math.min(expected, 10));
    await page.screenshot({ path: join(SHOTS, 'heart-voices-class.png') });
  });

  it('tells the principal of the reveal on 学情分析', async () => {
    const principal = await signIn(browser, server.url, 'principal');
    await expect.poll(() => principal.getByTestId('principal-notices').innerText()).toContain('学生明确表达轻生念头，需要立即联系监护人并当面评估');
    await principal.screenshot({ path: join(SHOTS, 'heart-voices-principal.png') });
    await principal.getByRole('button', { name: '知道了' }).click();
    await expect.poll(() => principal.getByTestId('principal-notices').count()).toBe(0);
  });
});
