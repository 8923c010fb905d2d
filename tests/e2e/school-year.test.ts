// 升年级 end to end on a copy of the demo school: the school admin opens 学年管理, previews the
// promotion (七→八, 八→九, 九 graduates, class names renamed, a new 七年级), applies it, sees the
// classes under their new grades, and undoes it; everything is back as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuild();
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface GradeNode {
  gradeId: number;
  gradeName: string;
  graduatedYear: number | null;
  children: { classId: number; className: string; studentCount: number }[];
}

describe('学年管理 · 升年级', () => {
  it('previews, applies and undoes the promotion of the demo school', async () => {
    const page = await signIn(browser, server.url, 'schooladmin');
    const tree = () => pageApi<GradeNode[]>(page, '/api/vesta/class/treeClassBySchool?includeGraduated=true');
    const before = await tree();
    expect(before.map((g) => g.gradeName)).toEqual(['七年级', '八年级', '九年级']);
    const ninthStudents = before[2].children.reduce((n, c) => n + c.studentCount, 0);
    const year = new Date().getFullYear();

    await page.goto(`${server.url}/#/schoolYear`);
    await page.getByRole('heading', { name: '学年管理' }).waitFor();
    await page.getByRole('button', { name: '开始升年级' }).click();
    const dialog = page.getByRole('dialog');
    const preview = dialog.getByTestId('promotion-preview');
    await preview.waitFor();
    const rowText = async () => (await preview.locator('tbody tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    const rows = await rowText();
    expect(rows[0]).toBe(`九年级 ${year}年毕业 4 个班，${ninthStudents} 名在读学生将标记为已毕业`);
    expect(rows[1]).toMatch(/^八年级 九年级 八\(1\)班→九\(1\)班、/);
    expect(rows[2]).toMatch(/^七年级 八年级 七\(1\)班→八\(1\)班、/);
    expect(rows[3]).toBe('— 新建七年级 空年级，供新生入学后添加班级');

    await dialog.getByRole('button', { name: '确认升年级' }).click();
    const status = page.getByTestId('last-promotion');
    await expect.poll(() => status.innerText()).toContain(`${year}年升年级已于`);
    expect(await status.innerText()).toContain('前可以撤销');

    // The classes moved up with their students; the old 九年级 graduated; a new, empty 七年级.
    const after = await tree();
    const current = after.filter((g) => g.graduatedYear === null);
    expect(current.map((g) => g.gradeName)).toEqual(['七年级', '八年级', '九年级']);
    expect(current[0].children).toEqual([]);
    expect(current[2].children.map((c) => [c.classId, c.className])).toEqual(before[1].children.map((c) => [c.classId, c.className.replace('八', '九')]));
    expect(after.find((g) => g.gradeId === before[2].gradeId)?.graduatedYear).toBe(year);
    // What the class screen shows: 九(1)班 is the former 八(1)班.
    await page.goto(`${server.url}/#/class`);
    await page.getByText('九(1)班').first().waitFor();

    await page.goto(`${server.url}/#/schoolYear`);
    await status.getByRole('button', { name: '撤销' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定撤销' }).click();
    await expect.poll(() => status.innerText()).toContain('撤销。');
    expect(await status.getByRole('button', { name: '撤销' }).count()).toBe(0);
    expect(await tree()).toEqual(before);
    await page.close();
  }, 120_000);
});
