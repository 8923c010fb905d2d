// 考试 and 考试报告 in a real browser against the real server (classic teacher web): the demo teacher
// `classic` opens the exam list, opens a report, switches between the class and the grade and
// downloads the xlsx. The figures on screen and in the workbook are checked against figures this
// test computes itself from the answer records, read with its own SQL from the server's database
// once the server has stopped (PGlite has one writer).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { PGlite } from '@electric-sql/pglite';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser, signIn } from '../support/browser';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
let browser: Browser;
const dataDir = mkdtempSync(join(tmpdir(), 'xz-exam-'));
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-exam';
const EXAM_TITLE = '八年级英语期中考试';

beforeAll(async () => {
  await ensureWebBuild();
  server = await startServer({ dataDir, env: { TEACHER_CLASSIC_WEB: '1' } });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Shown {
  participants: number;
  absent: number;
  average: number;
  highest: number;
  lowest: number;
  stdDev: number;
  bands: Record<'excellent' | 'good' | 'pass' | 'fail', number>;
  scoreRates: number[];
  rankingRows: number;
}

const number = (text: string) => Number(text.replace(/[^\d.-]/g, ''));

async function readReport(page: Page): Promise<Shown> {
  const text = (id: string) => page.getByTestId(id).innerText();
  const band = async (key: string) => number(await text(`band-${key}`));
  const rates = await page.getByTestId('question-row').evaluateAll((rows) => rows.map((r) => (r as HTMLTableRowElement).cells[5].innerText));
  return {
    participants: number(await text('stat-participants')),
    absent: number(await text('stat-participants-note')),
    average: number(await text('stat-average')),
    highest: number(await text('stat-highest')),
    lowest: number(await text('stat-lowest')),
    stdDev: number(await text('stat-stddev')),
    bands: { excellent: await band('excellent'), good: await band('good'), pass: await band('pass'), fail: await band('fail') },
    scoreRates: rates.map(number),
    rankingRows: await page.getByTestId('ranking-row').count(),
  };
}

/** Waits until the report on screen is the one for `scope` (a class name, or 全年级). */
async function reportShown(page: Page, scope: string) {
  await expect.poll(() => page.getByTestId('report-scope').innerText(), { timeout: 15_000 }).toContain(scope);
  await page.getByTestId('stat-average').waitFor();
  await page.getByTestId('question-row').first().waitFor();
}

/** The textbook figures, from raw answer records. */
async function expected(db: PGlite, examId: number, classIds: number[]) {
  const [exam] = (await db.query<{ fullMarks: number; items: { questionId: number; points: number }[] }>(
    'SELECT full_marks AS "fullMarks", items FROM exams WHERE id = $1',
    [examId],
  )).rows;
  const records = (await db.query<{ studentId: number; questionId: number; score: number }>(
    'SELECT student_id AS "studentId", question_id AS "questionId", score FROM answer_records WHERE source_type = 2 AND source_id = $1 AND class_id = ANY($2::int[])',
    [examId, classIds],
  )).rows;
  const [{ enrolled }] = (await db.query<{ enrolled: number }>('SELECT count(*)::int AS enrolled FROM students WHERE class_id = ANY($1::int[]) AND status = 0', [classIds])).rows;
  const totals = new Map<number, number>();
  for (const r of records) totals.set(r.studentId, (totals.get(r.studentId) ?? 0) + r.score);
  const scores = [...totals.values()];
  const n = scores.length;
  const mean = scores.reduce((s, x) => s + x, 0) / n;
  const share = (s: number) => s / exam.fullMarks;
  return {
    participants: n,
    absent: enrolled - n,
    average: Math.round(mean * 100) / 100,
    highest: Math.max(...scores),
    lowest: Math.min(...scores),
    stdDev: Math.round(Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / n) * 100) / 100,
    bands: {
      excellent: scores.filter((s) => share(s) >= 0.9).length,
      good: scores.filter((s) => share(s) >= 0.7 && share(s) < 0.9).length,
      pass: scores.filter((s) => share(s) >= 0.6 && share(s) < 0.7).length,
      fail: scores.filter((s) => share(s) < 0.6).length,
    },
    scoreRates: exam.items.map((item) => {
      const rs = records.filter((r) => r.questionId === item.questionId);
      return (rs.reduce((s, r) => s + r.score, 0) / rs.length / item.points) * 100;
    }),
    questionCount: exam.items.length,
  };
}

describe('exam report (classic teacher)', () => {
  it('shows the answer records’ figures for a class and the grade, and exports them to xlsx', async () => {
    const page = await signIn(browser, server.url, 'classic');
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/homework'));

    // The exam list under the header filters (class 八(2)班 and 英语 are chosen for this teacher).
    await page.goto(`${server.url}/#/exam`);
    await page.getByRole('heading', { level: 1, name: '考试' }).waitFor();
    const row = page.getByTestId('exam-row').filter({ hasText: EXAM_TITLE });
    await row.waitFor();
    expect(await row.innerText()).toContain('八(2)班、八(3)班');
    const listed = { participants: number(await row.getByTestId('exam-participants').innerText()), average: number(await row.getByTestId('exam-average').innerText()) };
    const examId = Number(await row.getAttribute('data-exam-id'));
    await page.screenshot({ path: `${SHOTS}/exam-list-1440.png` });

    await row.getByRole('button', { name: '查看报告' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/examReport?'));
    const query = new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]);
    expect(Number(query.get('id'))).toBe(examId);
    const classId = Number(query.get('classId'));
    await reportShown(page, '八(2)班');
    await page.getByRole('heading', { level: 1, name: `考试报告：${EXAM_TITLE}` }).waitFor();
    const classShown = await readReport(page);
    expect(await page.getByTestId('reliability-reading').innerText()).toMatch(/克隆巴赫 α = 0\.\d\d。信度/);
    await page.waitForTimeout(600); // charts animate in
    await page.screenshot({ path: `${SHOTS}/report-class-top-1440.png` });
    await page.getByRole('heading', { name: '班级对比（全年级）' }).evaluate((h) => h.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/report-class-compare-1440.png` });
    await page.getByRole('heading', { name: '小题分析' }).evaluate((h) => h.scrollIntoView());
    // A question number opens the question itself, as the bank holds it.
    await page.getByTestId('question-row').first().getByRole('button', { name: '1', exact: true }).click();
    await expect.poll(() => page.getByTestId('question-preview').innerText()).toContain('答案：');
    await page.screenshot({ path: `${SHOTS}/report-class-questions-1440.png` });
    await page.getByRole('heading', { name: '成绩排名' }).evaluate((h) => h.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/report-class-ranking-1440.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // The workbook of this class.
    await page.getByRole('button', { name: '导出成绩分析表' }).scrollIntoViewIfNeeded();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出成绩分析表' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${EXAM_TITLE}_成绩分析_八\\(2\\)班\\.xlsx$`));
    const file = join(dataDir, 'report.xlsx');
    await download.saveAs(file);

    // The whole grade.
    await page.getByRole('button', { name: '全年级' }).click();
    await reportShown(page, '全年级');
    expect(new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]).get('classId')).toBeNull();
    const gradeShown = await readReport(page);
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${SHOTS}/report-grade-top-1440.png` });
    expect(problems).toEqual([]);
    await page.context().close();

    // Now the database, read independently of the server.
    await server.stop();
    const db = await PGlite.create(join(dataDir, 'pg'));
    try {
      const [{ gradeClassIds, myClassIds }] = (await db.query<{ gradeClassIds: number[]; myClassIds: number[] }>(
        `SELECT ARRAY(SELECT class_id FROM exam_classes WHERE exam_id = $1 ORDER BY class_id) AS "gradeClassIds",
                ARRAY(SELECT ec.class_id FROM exam_classes ec JOIN exams e ON e.id = ec.exam_id
                        JOIN teaching_assignments ta ON ta.class_id = ec.class_id AND ta.course_id = e.course_id
                        JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id
                       WHERE ec.exam_id = $1 AND u.username = 'classic' ORDER BY 1) AS "myClassIds"`,
        [examId],
      )).rows;
      expect(myClassIds).toContain(classId);
      expect(gradeClassIds.length).toBeGreaterThan(myClassIds.length);

      const forClass = await expected(db, examId, [classId]);
      const forGrade = await expected(db, examId, gradeClassIds);
      const forMine = await expected(db, examId, myClassIds);
      expect(listed).toEqual({ participants: forMine.participants, average: forMine.average });

      for (const [shown, want] of [
        [classShown, forClass],
        [gradeShown, forGrade],
      ] as const) {
        expect(shown.participants).toBe(want.participants);
        expect(shown.absent).toBe(want.absent);
        expect(shown.average).toBeCloseTo(want.average, 2);
        expect(shown.highest).toBeCloseTo(want.highest, 2);
        expect(shown.lowest).toBeCloseTo(want.lowest, 2);
        expect(shown.stdDev).toBeCloseTo(want.stdDev, 2);
        expect(shown.bands).toEqual(want.bands);
        expect(shown.rankingRows).toBe(want.participants);
        expect(shown.scoreRates).toHaveLength(want.questionCount);
        // One decimal of a rate the server keeps to four (0.1235 → 12.4 %): within 0.05 + 0.005.
        shown.scoreRates.forEach((rate, k) => expect(Math.abs(rate - want.scoreRates[k])).toBeLessThanOrEqual(0.0551));
      }
      // A real school's spread: not everyone in one band.
      expect(Object.values(forGrade.bands).filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);

      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      expect(wb.worksheets.map((s) => s.name)).toEqual(['成绩概况', '成绩排名', '小题分析', '班级对比', '指标说明']);
      const summary = new Map<unknown, unknown>();
      wb.getWorksheet('成绩概况')!.eachRow((r, n) => n > 1 && summary.set(r.getCell(1).value, r.getCell(2).value));
      expect(summary.get('统计范围')).toBe('八(2)班');
      expect(summary.get('参考人数')).toBe(forClass.participants);
      expect(summary.get('缺考人数')).toBe(forClass.absent);
      expect(summary.get('平均分')).toBeCloseTo(forClass.average, 2);
      expect(summary.get('最高分')).toBeCloseTo(forClass.highest, 2);
      expect(summary.get('最低分')).toBeCloseTo(forClass.lowest, 2);
      expect(summary.get('标准差')).toBeCloseTo(forClass.stdDev, 2);
      expect(summary.get('优秀（≥90%）人数')).toBe(forClass.bands.excellent);
      expect(summary.get('良好（70%–90%）人数')).toBe(forClass.bands.good);
      expect(summary.get('及格（60%–70%）人数')).toBe(forClass.bands.pass);
      expect(summary.get('不及格（<60%）人数')).toBe(forClass.bands.fail);
      const ranking = wb.getWorksheet('成绩排名')!;
      expect(ranking.rowCount - 1).toBe(forClass.participants);
      expect(ranking.getRow(2).getCell(1).value).toBe(1);
      expect(ranking.getRow(2).getCell(5).value).toBeCloseTo(forClass.highest, 2);
      const questions = wb.getWorksheet('小题分析')!;
      expect(questions.rowCount - 1).toBe(forClass.questionCount);
      for (let k = 0; k < forClass.questionCount; k++) {
        const r = questions.getRow(k + 2);
        expect(Number(r.getCell(7).value) * 100).toBeCloseTo(forClass.scoreRates[k], 1);
        expect(String(r.getCell(11).value ?? '')).not.toBe('');
        expect(String(r.getCell(12).value ?? '')).toMatch(/第 \d+ 页|未收录于练习册/);
      }
    } finally {
      await db.close();
    }
  });
});
