// The first start of the product (`npm start` on an empty data directory, demo tasks on) leaves
// the demo teacher real AI-correction tasks made through the API and graded by the server's own
// worker: a class's unit quiz graded from rendered scans, an essay task, and a sheet not yet
// uploaded. What the teacher sees on the list and in the report comes from that grading.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
// Starting the product seeds the demo and grades its tasks before it answers: a minute and more on
// a busy two-core machine, beyond the API project's 60 s set-up limit.
beforeAll(async () => {
  server = await startServer({ env: { DEMO_GRADING: '1' } });
}, 240_000);
afterAll(() => server?.stop());

interface Task {
  id: number;
  type: number;
  status: number;
  title: string;
  fileCount: number;
  doneCount: number;
  reviewCount: number;
}

it('the demo teacher finds graded quiz and essay tasks and one still to upload', { timeout: 400_000 }, async () => {
  const base = `${server.url}/api/wrongbook/v1.0/correct`;
  const login = await fetch(`${server.url}/api/juno/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'teacher', password: 'Demo@2026' }),
  });
  const auth = { 'blade-auth': `bearer ${(await login.json()).data.accessToken}`, 'x-active-role': 'mpTeacher' };
  const get = async (path: string) => (await (await fetch(`${base}${path}`, { headers: auth })).json()).data;

  let tasks: Task[] = [];
  const deadline = Date.now() + 360_000;
  do {
    await new Promise((r) => setTimeout(r, 1000));
    tasks = (await get('/task/page?current=1&size=20')).records;
  } while (!(tasks.length === 3 && tasks.filter((t) => t.status === 4).length === 2) && Date.now() < deadline);

  const [pending, essay, quiz] = tasks;
  expect(pending).toMatchObject({ type: 3, status: 1, fileCount: 0, title: '七年级数学 第三章 整式及其加减 课堂练习批改' });
  expect(essay).toMatchObject({ type: 2, status: 4, fileCount: 4, doneCount: 4 });
  expect(quiz).toMatchObject({ type: 3, status: 4, title: '七年级数学 第二章 有理数 单元小测批改' });
  expect(quiz.fileCount).toBeGreaterThanOrEqual(30);
  expect(quiz.doneCount).toBe(quiz.fileCount);

  // Every scan became one named student's result; the report's figures are those results'.
  const detail = await get(`/task/detail?taskId=${quiz.id}`);
  expect(detail.results).toHaveLength(quiz.fileCount);
  expect(detail.results.every((r: { studentId: number | null; maxScore: number }) => r.studentId !== null && r.maxScore === 100)).toBe(true);
  const report = await get(`/task/report?taskId=${quiz.id}`);
  const scores: number[] = detail.results.map((r: { score: number }) => r.score);
  expect(report.summary.students).toBe(scores.length);
  expect(report.summary.average).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 1);
  expect(report.summary.highest).toBe(Math.max(...scores));
  expect(report.summary.lowest).toBe(Math.min(...scores));
  // Mostly right, some wrong, a few flagged for the teacher.
  expect(report.summary.average).toBeGreaterThan(60);
  expect(report.summary.lowest).toBeLessThan(100);
  expect(report.summary.reviewCount).toBeGreaterThan(0);
  expect(report.summary.reviewCount).toBe(quiz.reviewCount);
  expect(report.questions).toHaveLength(20);
  expect(report.questions.some((q: { wrongAnswers: unknown[] }) => q.wrongAnswers.length > 0)).toBe(true);
  // The students who handed nothing in are named, on the report and counted on the list.
  const roster = await fetch(`${server.url}/api/vesta/student/page?classId=${detail.task.classId}&status=0&size=1`, { headers: auth });
  const classSize: number = (await roster.json()).data.total;
  expect(report.coverage.absent).toHaveLength(classSize - quiz.fileCount);
  expect(report.coverage.absent.length).toBeGreaterThan(0);
  expect(report.coverage.absent.every((a: { name: string }) => a.name.length > 0)).toBe(true);
  expect((quiz as Task & { absentCount: number }).absentCount).toBe(report.coverage.absent.length);
  expect(report.coverage.failed).toEqual([]);
  const one = await get(`/result/detail?resultId=${detail.results[0].id}`);
  expect(one.result.kind).toBe('sheet');
  expect(one.result.items[0].expected).toBe('B');

  const essays = await get(`/task/detail?taskId=${essay.id}`);
  expect(essays.results).toHaveLength(4);
  for (const r of essays.results) expect(r).toMatchObject({ maxScore: 20, needsReview: true });
  expect(essays.results.every((r: { score: number }) => r.score > 0)).toBe(true);
  const text = (await get(`/result/detail?resultId=${essays.results[0].id}`)).result.detail.text;
  expect(text).toMatch(/负/);
});
