// The platform admin's home /without/common in a real browser: the admin signs in, picks a school
// and one of its classes, and reads that class's wrong questions as the API gives them. Screenshots
// at 1440 px and 375 px under .tmp/screenshots/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';
import { settled } from '../support/settle';
import { classLabel } from '../../src/domain/school';
import type { ClassMistakePage, PlatformClass, PlatformSchool } from '../../src/dataProvider/wrongbook';

const SHOTS = process.env.SCREENSHOT_DIR ?? '.tmp/screenshots';

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  await ensureWebBuild();
  browser = await launchBrowser();
  server = await startServer();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await server?.stop();
  await browser?.close();
});

async function shot(page: Page, name: string, width: number) {
  await page.setViewportSize({ width, height: width < 500 ? 812 : 900 });
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/platform-wrongbook-${name}-${width}.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('platform admin class wrong-answer book', () => {
  it('picks a school and a class and shows that class’s wrong questions', async () => {
    const page = await signIn(browser, server.url, 'admin');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/#/without/common`);
    await page.getByText('请先在上方选择班级').waitFor();
    await shot(page, 'empty', 375);

    const schools = await pageApi<PlatformSchool[]>(page, '/api/wrongbook/v1.0/platform/schools');
    const school = schools.find((s) => s.name === '杭州市西湖区实验中学')!;
    expect(school).toBeDefined();
    const classes = await pageApi<PlatformClass[]>(page, `/api/wrongbook/v1.0/platform/classes?schoolId=${school.id}`);
    const cls = classes[0];
    await choose(page, '学校', school.name);
    await choose(page, '班级', classLabel(cls.gradeName, cls.className));
    // The course starts at the school's first one; 学年 at the current learning year.
    await expect.poll(() => page.getByRole('combobox', { name: '学科' }).innerText()).not.toMatch(/请选择|暂无数据/);
    const courses = await pageApi<{ courseId: number; courseName: string }[]>(page, `/api/wrongbook/v1.0/platform/courses?schoolId=${school.id}`);
    const courseName = await page.getByRole('combobox', { name: '学科' }).innerText();
    const courseId = courses.find((c) => c.courseName === courseName.trim())!.courseId;
    const year = await page.evaluate(() => JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}').learningYear as string);
    const api = await pageApi<ClassMistakePage>(page, `/api/wrongbook/v1.0/web/class/mistakes?classId=${cls.id}&courseId=${courseId}&term=${year}&size=20`);
    expect(api.total).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('mistake-item').first().getAttribute('data-question-id')).toBe(String(api.records[0].question.id));
    await expect.poll(() => page.getByTestId('mistake-item').count()).toBe(api.records.length);
    await expect.poll(() => page.getByText(`共 ${api.total} 道错题`, { exact: false }).count()).toBe(1);
    // Reading only: no question to choose for 错题组卷 (a teacher's paper of the school).
    expect(await page.getByRole('checkbox', { name: /^选择第/ }).count()).toBe(0);
    await shot(page, 'class', 1440);
    await shot(page, 'class', 375);

    // Another school: the class and the book start over.
    const other = schools.find((s) => s.id !== school.id)!;
    await choose(page, '学校', other.name);
    await page.getByText('请先在上方选择班级').waitFor();
    expect(problems).toEqual([]);
  });
});
