// 家长查看 end to end in a real browser: the school admin issues a link from the 学生 screen (shown
// once, with a QR code; a teacher issues one for her course from 班级), a family opens it on a 375 px phone without an account and sees what the
// school's 成绩公开范围 allows (the demo: bands only), files a regrade request on a wrong question, the
// teacher answers it on the homework's details, the family sees the answer; once revoked, the link
// answers a Chinese page with no data.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, pageApi, pageSession, sessionCall, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? join(process.cwd(), '.tmp/screenshots');

beforeAll(async () => {
  await ensureWebBuild();
  // The classic teacher web, whose 作业详情 carries the regrade requests.
  server = await startServer({ env: { TEACHER_CLASSIC_WEB: '1' } });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface FamilyWork {
  sourceType: number;
  sourceId: number;
  kind: string;
  submitted: boolean;
  result: { band?: string; rank?: number };
  wrong: { questionId: number; no: string; regrade: unknown }[];
}

describe('家长查看', () => {
  it('issue, open on a phone, ask for a regrade, the teacher answers, revoke', async () => {
    const teacher = await signIn(browser, server.url, 'teacher');
    const [cls] = await pageApi<{ id: number; gradeId: number }[]>(teacher, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const courses = await pageApi<{ courseId: number; courseName: string }[]>(teacher, `/api/vesta/teaching/getCourseList?classId=${cls.id}&gradeId=${cls.gradeId}&leaderType=1`);
    const math = courses.find((c) => c.courseName === '数学')!;
    const { students } = await pageApi<{ students: { studentId: number; name: string; studentNo: string }[] }>(
      teacher,
      `/api/wrongbook/v1.0/web/student/list?classId=${cls.id}&courseId=${math.courseId}`,
    );
    const student = students[0];

    // The school admin issues a link for all the child's courses from the 学生 screen.
    const admin = await signIn(browser, server.url, 'schooladmin');
    await admin.goto(`${server.url}/#/studentManage`);
    await admin.waitForLoadState('networkidle');
    await admin.getByLabel('姓名/学号').fill(student.studentNo);
    await expect.poll(() => admin.locator('.MuiTablePagination-displayedRows').innerText()).toContain('共 1 条');
    await admin.getByRole('button', { name: '家长查看' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('还没有发放过链接').waitFor();
    await dialog.getByLabel('发给谁（选填）').fill('妈妈');
    await dialog.getByRole('button', { name: '生成链接' }).click();
    const url = (await dialog.getByTestId('family-link-url').innerText()).trim();
    expect(url).toMatch(new RegExp(`^${server.url}/f/[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole('img', { name: '家长查看二维码' }).waitFor();
    await dialog.getByText('链接只显示这一次').waitFor();
    await dialog.getByTestId('family-link-list').getByText('全部课程 · 妈妈').waitFor();
    await admin.screenshot({ path: `${SHOTS}/family-link-issued-1440.png` });
    await dialog.getByRole('button', { name: '关闭' }).click();

    // A homework of 陈静's with a wrong question of the student: the one the family asks about.
    const token = url.split('/f/')[1];
    const view = (await (await fetch(`${server.url}/api/family/v1.0/view/${token}`)).json()).data as { works: FamilyWork[] };
    const session = await pageSession(teacher);
    let target: { work: FamilyWork; questionId: number } | undefined;
    for (const work of view.works.filter((w) => w.kind === '作业' && w.wrong.some((q) => !q.regrade))) {
      const mine = await sessionCall(server.url, session, `/api/family/v1.0/regrades?homeworkId=${work.sourceId}`).then(
        () => true,
        () => false,
      );
      if (mine) {
        target = { work, questionId: work.wrong.find((q) => !q.regrade)!.questionId };
        break;
      }
    }
    expect(target).toBeTruthy();
    const { work, questionId } = target!;
    const anchor = `q-${work.sourceType}-${work.sourceId}-${questionId}`;

    // The family, on a phone, without an account.
    const phoneContext = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
    const phone = await phoneContext.newPage();
    const problems: string[] = [];
    phone.on('pageerror', (e) => problems.push(e.message));
    phone.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const opened = await phone.goto(url);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['x-robots-tag']).toContain('noindex');
    await phone.getByRole('heading', { name: `${student.name}的学习情况` }).waitFor();
    // The demo school shows bands: each submitted work shows its band, nothing shows a rank or score.
    const submitted = view.works.filter((w) => w.submitted);
    const works = phone.locator('#works');
    expect(await works.getByText(/^等级：/).count()).toBe(submitted.length);
    for (const w of submitted) expect(['优秀', '良好', '及格', '不及格']).toContain(w.result.band);
    const text = await phone.locator('main').innerText();
    expect(text).not.toMatch(/班级第|名次|分数：|\d+\s*分/);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.screenshot({ path: `${SHOTS}/family-page-375.png`, fullPage: true });

    // Open the work, ask about the wrong question.
    await phone.locator('#works li', { has: phone.locator(`#${anchor}`) }).locator('summary').click();
    const question = phone.locator(`#${anchor}`);
    await question.getByText('正确答案').waitFor();
    await question.getByText('解析').waitFor();
    await question.getByLabel(/请老师复核/).fill('孩子说这道题的列式和老师讲的一样，麻烦再看一下。');
    await question.getByRole('button', { name: '申请复核' }).click();
    await phone.waitForURL(/sent=1/);
    await phone.getByRole('status').getByText('复核申请已提交').waitFor();
    await phone.locator(`#${anchor}`).getByText('已申请复核').waitFor();
    await phone.locator('#regrades').getByText('待答复').waitFor();
    await phone.screenshot({ path: `${SHOTS}/family-regrade-filed-375.png` });

    // The teacher reads it on the homework's details and answers.
    await teacher.goto(`${server.url}/#/homeworkDetails?id=${work.sourceId}`);
    const panel = teacher.getByRole('region', { name: '复核申请' });
    const asked = panel.locator('[data-testid^="regrade-"]', { hasText: '孩子说这道题的列式和老师讲的一样，麻烦再看一下。' });
    await asked.getByText('待答复').waitFor();
    await asked.getByLabel(`答复${student.name}`).fill('已重新查看，第二步移项时符号写错了，维持原判。');
    await asked.getByRole('button', { name: '答复' }).click();
    await asked.getByText('已答复').waitFor();
    await asked.getByText(/陈静 答复：已重新查看/).waitFor();
    await teacher.screenshot({ path: `${SHOTS}/family-regrade-teacher-1440.png`, fullPage: true });

    await phone.goto(url);
    await phone.locator('#regrades').getByText('已重新查看，第二步移项时符号写错了，维持原判。').waitFor();
    await phone.locator('#regrades').getByText('已答复').waitFor();
    expect(problems).toEqual([]);

    // Revoked, the link answers a Chinese page and no data.
    await admin.getByRole('button', { name: '家长查看' }).click();
    await dialog.getByRole('button', { name: '撤销' }).click();
    await dialog.getByText('已撤销').waitFor();
    const dead = await phone.goto(url);
    expect(dead?.status()).toBe(410);
    await phone.getByRole('heading', { name: '链接已失效' }).waitFor();
    const deadText = await phone.locator('body').innerText();
    expect(deadText).toContain('请联系老师重新获取');
    expect(deadText).not.toContain(student.name);
    await phone.screenshot({ path: `${SHOTS}/family-revoked-375.png` });
    const made = await phone.goto(`${server.url}/f/${'x'.repeat(43)}`);
    expect(made?.status()).toBe(404);
    await phone.getByRole('heading', { name: '链接无效' }).waitFor();
    await phoneContext.close();

    // The classic teacher issues one for her course from 班级, on a 375 px screen; the admin's links
    // for all courses are not hers to see.
    await teacher.setViewportSize({ width: 375, height: 812 });
    await teacher.goto(`${server.url}/#/classManage`);
    await teacher.getByRole('heading', { level: 1, name: '班级' }).waitFor();
    // The first student of the list (by number), whichever page the one above is on.
    // On a phone the list is cards, each titled 姓名（学号）.
    const card = teacher.getByTestId('record-card').filter({ has: teacher.getByRole('button', { name: '家长查看' }) }).first();
    const rowNo = /（(\d+)）/.exec(await card.locator('p').first().innerText())![1];
    await card.getByRole('button', { name: '家长查看' }).click();
    const own = teacher.getByRole('dialog');
    await own.getByRole('heading', { name: new RegExp(`家长查看链接 · .+（${rowNo}）`) }).waitFor();
    await own.getByLabel('查看范围').click();
    // 班级 opens on her first class, 七(1)班, where she teaches 数学 only (her 物理 is in 八年级).
    expect(await teacher.getByRole('option').allInnerTexts()).toEqual(['数学']);
    await teacher.getByRole('option', { name: '数学' }).click();
    await own.getByRole('button', { name: '生成链接' }).click();
    await own.getByTestId('family-link-url').waitFor();
    await own.getByTestId('family-link-list').getByText('数学', { exact: true }).waitFor();
    expect(await teacher.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await teacher.screenshot({ path: `${SHOTS}/family-link-teacher-375.png` });
  });
});
