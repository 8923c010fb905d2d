// Pictures for 使用教程 (/useGuide), taken from the product itself: starts the server on a fresh
// data directory with its demo AI批改 tasks, waits until the worker has graded them, signs in as
// the demo teacher in Chromium and saves screenshots (AI批改, 布置作业, 班级错题本), plus the demo quiz's answer sheet and one
// student's scan as the engine renders them. Written to public/guide/ (served as /guide/…),
// 1200 px wide at most, palette PNGs. Run: `npx tsx scripts/guideShots.ts`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { ensureWebBuild } from './webBuild';
import { startServer } from '../tests/support/serverProcess';
import { launchBrowser, pageApi, signIn } from '../tests/support/browser';
import { buildLayout } from '../server/grading/layout/build';
import { renderPageSvg } from '../server/grading/render/svg';
import { makeScan, type Filling } from '../server/grading/corpus/generate';
import { QUIZ_KEY, QUIZ_SECTIONS, QUIZ_TITLE } from '../server/seed/grading';

const OUT = join(import.meta.dirname, '..', 'public', 'guide');
const BASE = '/api/wrongbook/v1.0/correct';
const WIDTH = 1200;

interface Task {
  id: number;
  type: number;
  status: number;
  title: string;
}

/** Small enough to load quickly on a phone: at most 1200 px wide, 256-colour PNG. */
async function save(name: string, image: Buffer, crop?: { height: number }, colours = 64) {
  let pipeline = sharp(image).resize({ width: WIDTH, withoutEnlargement: true });
  if (crop) pipeline = sharp(await pipeline.toBuffer()).extract({ left: 0, top: 0, width: Math.min(WIDTH, (await sharp(image).metadata()).width!), height: crop.height });
  // Few colours and no dithering: screens are flat colour, scans are grey; noise would not compress.
  const png = await pipeline.png({ palette: true, colours, dither: 0, compressionLevel: 9, effort: 10 }).toBuffer();
  writeFileSync(join(OUT, name), png);
  console.log(`${name}: ${Math.round(png.length / 1024)} KB`);
}

mkdirSync(OUT, { recursive: true });
await ensureWebBuild();
const server = await startServer({ env: { DEMO_GRADING: '1' } });
const browser = await launchBrowser();
try {
  const page = await signIn(browser, server.url, 'teacher');
  await page.setViewportSize({ width: WIDTH, height: 760 });
  let tasks: Task[] = [];
  for (let i = 0; i < 600; i++) {
    tasks = (await pageApi<{ records: Task[] }>(page, `${BASE}/task/page?current=1&size=20`)).records;
    if (tasks.length === 3 && tasks.filter((t) => t.status === 4).length === 2) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const quiz = tasks.find((t) => t.type === 3 && t.status === 4)!;
  const essay = tasks.find((t) => t.type === 2)!;

  // The quiz's sheet exactly as the server printed it (its id and roster), and one filled copy.
  const detail = await pageApi<{ task: { sheetId: string; classId: number } }>(page, `${BASE}/task/detail?taskId=${quiz.id}`);
  const [klass] = (await pageApi<{ id: number; className: string }[]>(page, '/api/vesta/teaching/getTeachClass?leaderType=1')).filter((c) => c.id === detail.task.classId);
  const roster = await pageApi<{ records: { id: number; name: string; studentNo: string }[] }>(page, `/api/vesta/student/page?classId=${klass.id}&status=0&size=100`);
  const layout = buildLayout({
    sheetId: detail.task.sheetId,
    title: QUIZ_TITLE,
    paper: 'A4',
    identity: { mode: 'roster', students: roster.records.map((s) => ({ id: `s${s.id}`, name: s.name, className: klass.className, studentNo: s.studentNo })) },
    sections: QUIZ_SECTIONS,
  });
  const copy = { sheetId: detail.task.sheetId, page: 1, studentId: `s${roster.records[0].id}` };
  const blank = await sharp(Buffer.from(renderPageSvg(layout, copy, '', 150)), { density: 72 }).flatten({ background: '#ffffff' }).png().toBuffer();
  await save('sheet.png', blank, { height: 900 }, 8);
  const answers = QUIZ_KEY.map((a, i) => (i === 6 ? 'B' : i === 15 ? 'A' : a));
  const filling: Filling = { copy, objective: Object.fromEntries(answers.map((a, i) => [i + 1, [...a].map((label) => ({ label, style: 'full' as const }))])) };
  await save('scan.png', await makeScan(layout, filling, { rotateDeg: 0.8, noise: 1 }, 11, 150), { height: 900 }, 8);

  // The product's own screens.
  // A fresh load: the list the sign-in opened was fetched before the demo tasks were graded.
  await page.goto(`${server.url}/#/AICorrect/index`);
  await page.reload();
  await page.locator(`[data-task-id="${essay.id}"]`).getByText('已批改', { exact: true }).waitFor();
  await page.locator(`[data-task-id="${quiz.id}"]`).getByText('已批改', { exact: true }).waitFor();
  await page.waitForTimeout(500);
  await save('list.png', await page.screenshot());
  await save('task.png', await page.locator(`[data-task-id="${quiz.id}"]`).screenshot());
  await page.goto(`${server.url}/#/AICorrect/report?taskId=${quiz.id}`);
  await page.getByRole('heading', { name: /^批改报告/ }).first().waitFor();
  await page.waitForTimeout(800);
  await save('report.png', await page.screenshot());
  await page.goto(`${server.url}/#/AICorrect/report?taskId=${essay.id}`);
  await page.getByRole('heading', { name: /^批改报告/ }).first().waitFor();
  await page.getByRole('heading', { name: /^需要复核的学生/ }).first().scrollIntoViewIfNeeded();
  await page.waitForTimeout(800);
  await save('essay.png', await page.screenshot());

  // Homework and wrong answers, the teacher's other weekly work.
  await page.goto(`${server.url}/#/assignHomework`);
  await page.getByRole('heading', { level: 1, name: '布置作业' }).waitFor();
  await page.waitForTimeout(1200);
  await save('homework.png', await page.screenshot());
  await page.goto(`${server.url}/#/wrongbook/index`);
  await page.getByRole('heading', { level: 1, name: '班级错题本' }).waitFor();
  await page.waitForTimeout(1200);
  await save('wrongbook.png', await page.screenshot());
} finally {
  await browser.close();
  await server.stop();
}
