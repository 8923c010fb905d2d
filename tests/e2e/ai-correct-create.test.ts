// 新建批改任务 in a real browser against the real server (in-process grading worker). The
// mini-program teacher designs a small roster answer sheet (five choice questions typed as one row
// of answers, one fill-in), creates the task, downloads the class set of sheets (a PDF with a page
// per student), and uploads three students' scans — rendered by the engine's corpus generator on
// the layout the server stored for the sheet — through the page's file input. A reload in the
// middle keeps the files already sent; an iPhone HEIC photo is refused before sending and a file
// that is no image gets the server's reason. 提交批改 follows the task to 已批改 and its report.
// Then a homework task, and an essay task: a student's photo uploaded, left, and continued from the task list.
// Then an answer sheet taken from an exam (使用试卷的答题卡): its key summary, and the task linked to the exam.
// Screenshots at 1440 px and 375 px.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser } from '../support/e2eFile';
import { pageApi, signIn } from '../support/browser';
import type { RunningServer } from '../support/serverProcess';
import { settled } from '../support/settle';
import { buildLayout, type SectionSpec, type SheetLayout } from '../../server/grading';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import type { CorrectTaskDetail } from '../../src/dataProvider/correct';
import type { Page as ApiPage } from '../../src/domain/envelope';

let server: RunningServer;
let browser: Browser;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-create';
const BASE = '/api/wrongbook/v1.0/correct';

beforeAll(async () => ({ server, browser } = await openServerAndBrowser(SHOTS)));
afterAll(() => closeServerAndBrowser(server, browser));

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });
const taskIdOf = (page: Page) => Number(new URL(page.url().replace('#/', '')).searchParams.get('taskId'));

/** Three students: all right; two wrong; one blank and a wrong fill-in. */
const MARKS: { objective: Record<number, string>; fill: string }[] = [
  { objective: { 1: 'A', 2: 'B', 3: 'C', 4: 'D', 5: 'A' }, fill: '3' },
  { objective: { 1: 'A', 2: 'C', 3: 'C', 4: 'A', 5: 'A' }, fill: '3' },
  { objective: { 1: 'A', 2: 'B', 4: 'D', 5: 'A' }, fill: '5' },
];

/** The screen scrolls inside the layout's main area: one shot per screenful, top to bottom (at most four). */
async function shot(page: Page, name: string, width: number) {
  await page.setViewportSize({ width, height: width < 500 ? 812 : 900 });
  await settled(page);
  const scrollable = () =>
    page.evaluate(() => {
      let el: HTMLElement | null = document.querySelector('h1');
      while (el && !(el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
      return el ? { height: el.clientHeight, total: el.scrollHeight } : null;
    });
  const box = await scrollable();
  const parts = box ? Math.min(4, Math.ceil(box.total / box.height)) : 1;
  for (let i = 0; i < parts; i++) {
    await page.evaluate((part) => {
      let el: HTMLElement | null = document.querySelector('h1');
      while (el && !(el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
      el?.scrollTo(0, part * el.clientHeight);
    }, i);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}-${i + 1}.png` });
  }
  expect(await overflow(page)).toBeLessThanOrEqual(0);
}

describe('新建批改任务 (mini-program teacher)', () => {
  it('designs an answer sheet with its key, prints it, uploads scans across a reload and follows grading to the report; an essay task continues from the list', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    const [klass] = await pageApi<{ id: number; className: string }[]>(page, '/api/vesta/teaching/getTeachClass?leaderType=1');
    const roster = (await pageApi<ApiPage<{ id: number; name: string; studentNo: string }>>(page, `/api/vesta/student/page?classId=${klass.id}&status=0&size=500`)).records;

    // From the list to the designer (答题卡 is the first tab).
    await page.getByRole('link', { name: '新建批改任务' }).first().click();
    await page.waitForURL(/createCorrectTask/);
    await page.getByRole('heading', { level: 1, name: '新建批改任务' }).waitFor();
    await page.getByLabel('答题卡标题').fill('单元小测');
    // Five single-choice questions by default: the key typed as one row.
    await page.getByTestId('answer-row').fill('ABCDA');
    expect(await page.getByLabel('第 4 题答案').inputValue()).toBe('D');
    // One fill-in with one blank, two accepted answers.
    await page.getByRole('button', { name: '填空题', exact: true }).click();
    await page.getByTestId('section-count').nth(1).fill('1');
    await page.getByLabel('第 6 题第 1 空答案').fill('3/三');
    await page.getByLabel('第 6 题分值').fill('4');
    expect(await page.getByTestId('sheet-total').innerText()).toBe('共 6 题，满分 14 分');
    // A wrong answer is caught before anything is sent, in Chinese.
    await page.getByLabel('第 2 题答案').fill('E');
    await page.getByRole('button', { name: '生成答题卡并创建任务' }).click();
    expect(await page.getByTestId('sheet-problem').innerText()).toBe('第 2 题：答案只能是 A、B、C、D');
    await page.getByLabel('第 2 题答案').fill('b');
    await shot(page, 'designer', 1440);
    await shot(page, 'designer', 375);
    await page.setViewportSize({ width: 1440, height: 900 });

    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes(`${BASE}/sheet/create`)),
      page.getByRole('button', { name: '生成答题卡并创建任务' }).click(),
    ]);
    await page.waitForURL(/createCorrectTask\?taskId=\d+/);
    const taskId = taskIdOf(page);
    const sent = request.postDataJSON() as { classId: number; sections: SectionSpec[] };
    expect(sent.classId).toBe(klass.id);
    const detail = await pageApi<CorrectTaskDetail>(page, `${BASE}/task/detail?taskId=${taskId}`);
    expect(detail.task.status).toBe(1);
    expect(detail.task.answerKey?.items).toEqual({
      '1': { answer: 'A', points: 2 },
      '2': { answer: 'B', points: 2 },
      '3': { answer: 'C', points: 2 },
      '4': { answer: 'D', points: 2 },
      '5': { answer: 'A', points: 2 },
      '6': { blanks: [['3', '三']], points: 4 },
    });
    const layout: SheetLayout = buildLayout({
      sheetId: detail.task.sheetId!,
      title: '单元小测',
      paper: 'A4',
      identity: { mode: 'roster', students: roster.map((s) => ({ id: `s${s.id}`, name: s.name, className: klass.className })) },
      sections: sent.sections,
    });

    // The class set: one copy per student.
    const info = await page.getByText(/答题卡已生成：共 \d+ 份/).innerText();
    expect(info).toContain(`共 ${roster.length} 份，每份 ${layout.pages.length} 页`);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByRole('button', { name: '下载答题卡 PDF' }).click()]);
    expect(download.suggestedFilename()).toBe('答题卡_单元小测.pdf');
    const pdfPath = join(SHOTS, 'sheet.pdf');
    await download.saveAs(pdfPath);
    const pdf = readFileSync(pdfPath);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(roster.length * layout.pages.length);

    // Scans of three students, as the engine would see a phone photo of each copy.
    const scans = await Promise.all(
      MARKS.map(async (m, i) => {
        const filling: Filling = {
          copy: { sheetId: layout.sheetId, page: 1, studentId: `s${roster[i].id}` },
          objective: Object.fromEntries(Object.entries(m.objective).map(([no, label]) => [Number(no), [{ label, style: 'full' as const }]])),
          fill: { 6: [m.fill] },
        };
        return file(`扫描${i + 1}.jpg`, 'image/jpeg', await makeScan(layout, filling, { rotateDeg: i - 1, noise: 3 }, 300 + i));
      }),
    );
    const input = page.getByTestId('upload-input');
    await input.setInputFiles([scans[0], scans[1]]);
    await expect.poll(() => page.getByTestId('uploaded-file').count()).toBe(2);
    await shot(page, 'upload', 1440);
    // Leave and come back: the files are the server's.
    await page.reload();
    await expect.poll(() => page.getByTestId('uploaded-name').allInnerTexts()).toEqual(['扫描1.jpg', '扫描2.jpg']);

    // An iPhone photo is refused before sending; a file that is no image, by the server.
    await input.setInputFiles([
      file('IMG_0001.HEIC', 'image/heic', Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic')),
      file('说明.jpg', 'image/jpeg', Buffer.from('这不是图片')),
      scans[2],
      file('扫描3-重复.jpg', 'image/jpeg', scans[2].buffer),
    ]);
    await expect.poll(() => page.getByTestId('uploaded-file').count()).toBe(4);
    const errors = page.getByTestId('upload-error');
    await expect.poll(() => errors.allInnerTexts()).toEqual([
      '不支持 HEIC/HEIF 格式的照片，请在相机设置中选择「兼容性最佳」或转为 JPG 后再上传',
      '只支持 JPG、PNG 图片或 PDF 文件',
    ]);
    // The server's refusal can be sent again (and is refused again); both are then put aside.
    await page.locator('[data-testid="pending-file"][data-state="failed"]').nth(1).getByRole('button', { name: '重试' }).click();
    await expect.poll(() => page.locator('[data-testid="pending-file"][data-state="failed"]').count()).toBe(2);
    await shot(page, 'upload-errors', 375);
    await page.setViewportSize({ width: 1440, height: 900 });
    for (let i = 0; i < 2; i++) await page.getByTestId('pending-file').first().getByRole('button', { name: '移除' }).click();
    // The duplicate is removed before submitting.
    await page.locator('[data-testid="uploaded-file"]', { hasText: '扫描3-重复.jpg' }).getByRole('button', { name: '删除' }).click();
    await expect.poll(() => page.getByTestId('uploaded-name').allInnerTexts()).toEqual(['扫描1.jpg', '扫描2.jpg', '扫描3.jpg']);

    // Submitted: the page follows grading to the end.
    await page.getByRole('button', { name: '提交批改' }).click();
    await expect.poll(() => page.getByTestId('task-status').innerText(), { timeout: 180_000, interval: 500 }).toBe('已批改');
    const report = page.getByRole('link', { name: '查看报告' });
    expect(await report.getAttribute('href')).toBe(`#/AICorrect/report?taskId=${taskId}`);
    const graded = await pageApi<CorrectTaskDetail>(page, `${BASE}/task/detail?taskId=${taskId}`);
    expect(graded.results.map((r) => r.studentId).sort()).toEqual(roster.slice(0, 3).map((s) => s.id).sort());
    expect(await page.getByText(/^已批改：3 名学生有结果/).count()).toBe(1);
    // Nothing can be added or removed any more.
    expect(await page.getByTestId('upload-input').count()).toBe(0);
    await shot(page, 'graded', 1440);
    await shot(page, 'graded', 375);
    await page.setViewportSize({ width: 1440, height: 900 });
    await report.click();
    await page.getByRole('heading', { level: 1, name: '批改报告：单元小测' }).waitFor();

    // A homework task from a title and a question count (the tab sets ?type=1).
    await page.goto(`${server.url}/#/AICorrect/createCorrectTask`);
    await page.getByRole('tab', { name: '作业' }).click();
    await page.waitForURL(/createCorrectTask\?type=1$/);
    await page.getByLabel('作业名称').fill('第三单元练习');
    await page.getByLabel('题目数量').fill('3');
    await page.getByRole('button', { name: '创建任务并上传照片' }).click();
    await page.waitForURL(/createCorrectTask\?taskId=\d+/);
    await page.getByText('共 3 题').waitFor();
    const homework = await pageApi<CorrectTaskDetail>(page, `${BASE}/task/detail?taskId=${taskIdOf(page)}`);
    expect(homework.task).toMatchObject({ type: 1, title: '第三单元练习', classId: klass.id, questions: [{ no: 1 }, { no: 2 }, { no: 3 }] });

    // An essay task, created by tab and left with one student's photo.
    await page.goto(`${server.url}/#/AICorrect/createCorrectTask?type=2`);
    await page.getByLabel('作文题目').fill('我的老师');
    await page.getByRole('combobox', { name: /文体/ }).click();
    await page.getByRole('option', { name: '议论文' }).click();
    await page.getByRole('button', { name: '创建任务并上传照片' }).click();
    await page.waitForURL(/createCorrectTask\?taskId=\d+/);
    const essayId = taskIdOf(page);
    await page.getByText('文体：议论文 · 最少 600 字 · 满分 50 分').waitFor();
    // Until a student is chosen, nothing can be picked.
    expect(await page.getByRole('button', { name: '选择文件' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('combobox', { name: /学生/ }).click();
    await page.getByRole('option', { name: `${roster[1].name}（${roster[1].studentNo}）` }).click();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200"><rect width="100%" height="100%" fill="#fff"/><text x="60" y="120" font-size="40" font-family="Noto Sans CJK SC, sans-serif">我的老师</text><text x="60" y="200" font-size="28" font-family="Noto Sans CJK SC, sans-serif">老师每天早早来到教室，耐心地为我们讲解题目。</text></svg>`;
    await page.getByTestId('upload-input').setInputFiles(file('作文.png', 'image/png', await sharp(Buffer.from(svg)).png().toBuffer()));
    const essayFile = page.getByTestId('uploaded-file');
    await expect.poll(() => essayFile.count()).toBe(1);
    expect(await essayFile.innerText()).toContain(roster[1].name);
    const essay = await pageApi<CorrectTaskDetail>(page, `${BASE}/task/detail?taskId=${essayId}`);
    expect(essay.files?.map((f) => f.studentId)).toEqual([roster[1].id]);
    expect(essay.task.essayBrief).toEqual({ title: '我的老师（议论文）', minChars: 600, fullMarks: 50 });
    await shot(page, 'essay', 375);
    await page.setViewportSize({ width: 1440, height: 900 });

    // From the list, 继续 opens the task where it was left.
    await page.getByRole('link', { name: '返回任务列表' }).click();
    const row = page.locator(`[data-task-id="${essayId}"]`);
    await row.getByRole('link', { name: '继续' }).click();
    await page.waitForURL(new RegExp(`createCorrectTask\\?taskId=${essayId}$`));
    await expect.poll(() => page.getByTestId('uploaded-name').allInnerTexts()).toEqual(['作文.png']);
    await page.goto(`${server.url}/#/AICorrect/index`);
    await page.locator(`[data-task-id="${essayId}"]`).waitFor();
    await shot(page, 'list', 375);
    await shot(page, 'list', 1440);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);
  it('takes the sheet of an exam: picks the exam and class, sees the key summary and creates the linked task', async () => {
    const page = await signIn(browser, server.url, 'teacher');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    const exams = (await pageApi<ApiPage<{ id: number; title: string; fullMarks: number; questionCount: number; classes: { classId: number; className: string }[] }>>(page, '/api/minerva/v1.0/exams?size=50')).records;
    const exam = exams.find((e) => e.title === '七年级数学第一次月考')!;
    await page.goto(`${server.url}/#/AICorrect/createCorrectTask?type=3`);
    await page.getByRole('button', { name: '使用试卷的答题卡' }).click();
    await page.getByRole('combobox', { name: /考试/ }).click();
    await page.getByRole('option', { name: new RegExp(`^${exam.title}（`) }).first().click();
    if (exam.classes.length > 1) {
      await page.getByRole('combobox', { name: /班级/ }).click();
      await page.getByRole('option', { name: exam.classes[0].className }).click();
    }
    const summary = page.getByTestId('exam-key-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toContain(`共 ${exam.questionCount} 题，满分 ${exam.fullMarks} 分`);
    await page.getByRole('button', { name: '下载答题卡 PDF' }).waitFor();
    await shot(page, 'exam-sheet', 375);
    await shot(page, 'exam-sheet', 1440);
    await page.getByRole('button', { name: '创建任务并上传' }).click();
    await page.waitForURL(/createCorrectTask\?taskId=\d+/);
    const detail = await pageApi<CorrectTaskDetail & { task: { answerKey: { work?: { sourceType: number; sourceId: number } } } }>(page, `${BASE}/task/detail?taskId=${taskIdOf(page)}`);
    expect(detail.task.answerKey.work).toMatchObject({ sourceType: 2, sourceId: exam.id });
    expect(detail.task.classId).toBe(exam.classes[0].classId);
    await page.getByRole('button', { name: '选择文件' }).waitFor();
    await shot(page, 'exam-task', 375);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 180_000);
});
