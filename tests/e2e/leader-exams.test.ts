// 考试分析 in a real browser against the real server (in-process grading worker). The teacher first
// grades two students' scanned answer sheets of 七(1)班 for 七年级数学期中考试 in AI批改 (two of its
// choice questions and a worked answer, linked to the exam). Then the principal opens 考试分析 from
// the menu, the exam, 七(1)班 and one of those students, down to the scanned sheet; the figures on
// screen are the API's (which tests/api/leader-exams.test.ts recounts from the records). The grade
// leader sees exactly 七年级. Screenshots of every level at 1440 and 375 px, with no sideways scroll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, pageSession, sessionCall, signIn, type SessionHeaders } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';
import { rosterSheet, uploadAndGrade } from '../support/correctTasks';
import type { SectionSpec } from '../../server/grading';
import { makeScan } from '../../server/grading/corpus/generate';
import type { Page as ApiPage } from '../../src/domain/envelope';
import type { ExamSummary } from '../../src/domain/exams';
import type { ExamReport } from '../../src/dataProvider/exams';
import type { LeaderExamReport, LeaderExamSummary } from '../../src/domain/leaderExams';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-leader-exams';
const EXAM_TITLE = '七年级数学期中考试';
/** The students whose scans were graded (set by the first test). */
let scanned: { id: number; name: string }[] = [];

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const call = <T>(headers: SessionHeaders, path: string, init: { method?: string; json?: unknown; form?: FormData } = {}) => sessionCall<T>(server.url, headers, path, init);
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const number = (text: string) => Number(text.replace(/[^\d.-]/g, ''));

/** Screenshots at 1440 and 375 px; at 375 nothing may scroll sideways. */
async function shoot(page: Page, name: string) {
  for (const [width, height] of [[1440, 900], [375, 812]] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(400);
    if (width === 375) expect(await overflow(page), `${name} at 375 px`).toBeLessThanOrEqual(0);
    // The screen scrolls inside the layout, not the document: a window as tall as its content shows all of it.
    const tall = await page.evaluate(() => Math.max(...Array.from(document.querySelectorAll('main, main *')).map((e) => e.scrollHeight)));
    await page.setViewportSize({ width, height: Math.min(8000, Math.max(height, tall + 80)) });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('考试分析', () => {
  it('the teacher grades two scanned sheets of the exam in AI批改', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const headers = await pageSession(page);
    const [klass] = await call<{ id: number; className: string }[]>(headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const exam = (await call<ApiPage<ExamSummary>>(headers, '/api/minerva/v1.0/exams?size=50')).records.find((e) => e.title === EXAM_TITLE)!;
    const report = await call<ExamReport>(headers, `/api/minerva/v1.0/exams/${exam.id}/report?classId=${klass!.id}`);
    const singles = report.questions.filter((q) => q.type === 1 && /^\d+$/.test(q.no)).slice(0, 2);
    const worked = report.questions.find((q) => q.type === 5 && /^\d+$/.test(q.no));
    expect(singles).toHaveLength(2);
    const sections: SectionSpec[] = [
      { kind: 'objective', title: '一、选择题', items: singles.map((q) => ({ no: Number(q.no), type: 'single' as const, options: 4 })) },
      ...(worked ? [{ kind: 'short' as const, title: '二、解答题', items: [{ no: Number(worked.no), heightMm: 40 }] }] : []),
    ];
    const key = {
      items: {
        ...Object.fromEntries(singles.map((q) => [q.no, { answer: 'A', points: q.points }])),
        ...(worked ? { [worked.no]: { manual: true, points: worked.points } } : {}),
      },
    };
    const { sheetId, students, layout } = await rosterSheet(call, headers, klass!, '期中考试扫描', sections);
    const task = await call<{ id: number }>(headers, '/api/wrongbook/v1.0/correct/task/create', { json: { type: 3, title: '期中考试扫描批改', classId: klass!.id, sheetId, examId: exam.id, answerKey: key } });
    scanned = students.slice(0, 2).map((s) => ({ id: s.id, name: s.name }));
    const scans: Buffer[] = [];
    for (const [i, s] of scanned.entries()) {
      const objective = Object.fromEntries(singles.map((q) => [Number(q.no), [{ label: 'A', style: 'full' as const }]]));
      scans.push(await makeScan(layout, { copy: { sheetId, page: 1, studentId: `s${s.id}` }, objective }, { rotateDeg: i - 0.5, noise: 2 }, 610 + i));
    }
    const detail = await uploadAndGrade(call, headers, task.id, scans);
    expect(detail.task.status).toBe(4);
    expect(detail.results.filter((r) => r.studentId !== null)).toHaveLength(2);
    await page.close();
  });

  it('the principal opens the exam down to one student’s scanned sheet', async () => {
    const page = await signIn(browser, server.url, 'principal');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.locator('nav[aria-label="主菜单"]').getByText('考试分析').click();
    await page.waitForURL(/#\/leaderExams/);
    const exams = (await pageApi<ApiPage<LeaderExamSummary>>(page, '/api/minerva/v1.0/leader/exams?size=500')).records;
    // School level: every exam of the school, by grade.
    await expect.poll(() => page.getByTestId('leader-exam-row').count()).toBe(exams.length);
    const groups = await page.getByTestId('grade-group').locator('h2').allInnerTexts();
    expect(groups).toEqual([...new Set(exams.map((e) => e.gradeName))].sort());
    expect(groups.length).toBeGreaterThan(1);
    await shoot(page, '1-school');

    // Grade level.
    const exam = exams.find((e) => e.title === EXAM_TITLE)!;
    await page.getByTestId('leader-exam-row').filter({ hasText: EXAM_TITLE }).getByRole('button', { name: '查看分析' }).click();
    await page.getByTestId('stat-participants').waitFor();
    const grade = await pageApi<LeaderExamReport>(page, `/api/minerva/v1.0/leader/exams/${exam.id}/report`);
    expect(number(await page.getByTestId('stat-participants').innerText())).toBe(grade.participants);
    expect(await page.getByTestId('report-scope').innerText()).toContain(grade.scope.classNames.join('、'));
    expect(number(await page.getByTestId('band-excellent').innerText())).toBe(grade.bands.excellent.count);
    expect(await page.getByTestId('stat-highest').count()).toBe(0);
    await page.getByTestId('critical-pass').waitFor();
    await page.getByTestId('marking-progress').waitFor();
    expect(await page.getByTestId('marking-progress').innerText()).toContain('期中考试扫描批改');
    await shoot(page, '2-grade');

    // Class level: 七(1)班 from the class comparison.
    await page.getByRole('table', { name: '班级对比' }).getByRole('button', { name: '七(1)班' }).click();
    await page.waitForURL(/classId=\d+/);
    await expect.poll(() => page.getByTestId('report-scope').innerText()).toBe('统计范围：七(1)班');
    const classId = Number(new URL(page.url().replace('#/', '')).searchParams.get('classId'));
    const cls = await pageApi<LeaderExamReport>(page, `/api/minerva/v1.0/leader/exams/${exam.id}/report?classId=${classId}`);
    expect(number(await page.getByTestId('stat-participants').innerText())).toBe(cls.participants);
    await expect.poll(() => page.getByTestId('leader-student-row').count()).toBe(cls.students.length);
    await shoot(page, '3-class');

    // Student level: one of the scanned students, with the band the school discloses and the sheet.
    const student = scanned[0]!;
    await page.getByTestId('leader-student-row').getByRole('button', { name: student.name, exact: true }).first().click();
    await page.waitForURL(/studentId=\d+/);
    await page.getByTestId('leader-student').waitFor();
    const shown = cls.students.find((s) => s.studentId === student.id)!;
    expect(await page.getByTestId('student-result').innerText()).toBe(shown.band);
    const image = page.getByTestId('sheet-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(500);
    expect(await page.getByTestId('history-row').count()).toBeGreaterThanOrEqual(2);
    await shoot(page, '4-student');
    // Back up one level with the trail.
    await page.getByTestId('leader-trail').getByRole('button', { name: '七(1)班' }).click();
    await expect.poll(() => page.getByTestId('report-scope').innerText()).toBe('统计范围：七(1)班');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the grade leader sees exactly their grade', async () => {
    const page = await signIn(browser, server.url, 'gradeleader');
    await page.goto(`${server.url}/#/leaderExams`);
    await page.getByTestId('leader-exam-row').first().waitFor();
    expect(await page.getByTestId('grade-group').locator('h2').allInnerTexts()).toEqual(['七年级']);
    const exams = (await pageApi<ApiPage<LeaderExamSummary>>(page, '/api/minerva/v1.0/leader/exams?size=500')).records;
    expect(await page.getByTestId('leader-exam-row').count()).toBe(exams.length);
    await page.getByTestId('leader-exam-row').first().getByRole('button', { name: '查看分析' }).click();
    await page.getByTestId('stat-participants').waitFor();
    const examId = Number(new URL(page.url().replace('#/', '')).searchParams.get('id'));
    const report = await pageApi<LeaderExamReport>(page, `/api/minerva/v1.0/leader/exams/${examId}/report`);
    const toggles = (await page.getByRole('group', { name: '统计范围' }).getByRole('button').allInnerTexts()).map((t) => t.trim());
    expect(toggles).toEqual(['全年级', ...report.scope.classNames]);
    expect(report.scope.classNames.every((n) => n.startsWith('七('))).toBe(true);
    await page.close();
  });
});
