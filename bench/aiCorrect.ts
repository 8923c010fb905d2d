// AI-correction figures on the real server process (`npm start`'s server, PGlite, in-process worker):
// (a) a class of 45 roster answer sheets, rendered by the engine's corpus generator, scanned into
//     one 200 dpi PDF, uploaded through the API and submitted: seconds from submit to 已批改, and
//     the p95 of task/page and myRoles called by other users while it grades;
// (b) the first load of 「AI批改」 in Chromium: the JavaScript it fetches, in KB gzip.
import { gzipSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { buildLayout, type SectionSpec, type SheetLayout } from '../server/grading';
import { makeScan, randomFilling, CLEAN_MIX } from '../server/grading/corpus/generate';
import { rng } from '../server/grading/corpus/random';
import { launchBrowser, signIn } from '../tests/support/browser';
import { startServer, type RunningServer } from '../tests/support/serverProcess';
import { ensureWebBuild } from '../scripts/webBuild';
import type { BenchRow } from './table';
import { childPids, cpuSeconds } from './procStat';

const CLASS_SIZE = 45;
const BASE = '/api/wrongbook/v1.0/correct';

const SECTIONS: SectionSpec[] = [
  {
    kind: 'objective',
    title: '一、选择题（每题 3 分）',
    items: Array.from({ length: 20 }, (_, i) => ({ no: i + 1, type: 'single' as const, options: 4 })),
  },
  { kind: 'objective', title: '二、判断题（每题 2 分）', items: Array.from({ length: 5 }, (_, i) => ({ no: 21 + i, type: 'judge' as const })) },
];
const KEY = {
  items: Object.fromEntries([
    ...Array.from({ length: 20 }, (_, i) => [String(i + 1), { answer: 'ABCD'[(i * 7) % 4], points: 3 }]),
    ...Array.from({ length: 5 }, (_, i) => [String(21 + i), { answer: i % 2 ? 'B' : 'A', points: 2 }]),
  ]),
};

export async function login(url: string, username: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/juno/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'Demo@2026' }),
  });
  return { 'blade-auth': `bearer ${(await res.json()).data.accessToken}` };
}

export async function call<T>(url: string, headers: Record<string, string>, init: { json?: unknown; form?: FormData } = {}): Promise<T> {
  const res = await fetch(url, {
    method: init.json || init.form ? 'POST' : 'GET',
    headers: { ...headers, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : init.form,
  });
  const body = await res.json();
  if (!body.success) throw new Error(`${url}: ${body.msg}`);
  return body.data as T;
}

export const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))] ?? 0;

/** Callers of `url` back to back (one at a time each) until `stop()`; latencies in ms. */
async function callLoop(url: string, headers: Record<string, string>, stop: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!stop()) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} → ${res.status}`);
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  return out;
}

export async function classOf45(server: RunningServer, teacher: Record<string, string>) {
  const admin = await login(server.url, 'schooladmin');
  const [klass] = await call<{ id: number; className: string }[]>(`${server.url}/api/vesta/teaching/getTeachClass?leaderType=1`, teacher);
  const list = () => call<{ records: { id: number; name: string; studentNo: string }[] }>(`${server.url}/api/vesta/student/page?classId=${klass.id}&status=0&size=100`, teacher);
  let roster = (await list()).records;
  for (let i = roster.length; i < CLASS_SIZE; i++) {
    await call(`${server.url}/api/vesta/student/add`, admin, { json: { name: `插班生${i + 1}`, studentNo: `B${klass.id}${String(i).padStart(3, '0')}`, classId: klass.id } });
  }
  roster = (await list()).records;
  return { klass, roster };
}

async function classScanPdf(layout: SheetLayout, sheetId: string, studentIds: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const [i, studentId] of studentIds.entries()) {
    const r = rng(900 + i);
    const filling = randomFilling(layout, { sheetId, page: 1, studentId }, r, CLEAN_MIX);
    const jpeg = await makeScan(layout, filling, { rotateDeg: (i % 5) - 2, noise: 3 }, 900 + i, 200);
    const image = await pdf.embedJpg(jpeg);
    // 200 dpi: the page is the size of the paper.
    const page = pdf.addPage([(image.width * 72) / 200, (image.height * 72) / 200]);
    page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return Buffer.from(await pdf.save());
}

async function gradeAClass(server: RunningServer): Promise<BenchRow[]> {
  const teacher = await login(server.url, 'teacher');
  const { klass, roster } = await classOf45(server, teacher);
  const title = '七年级数学第二章单元测验';
  const sheet = await call<{ sheetId: string; copies: number }>(`${server.url}${BASE}/sheet/create`, teacher, {
    json: { title, paper: 'A4', identity: 'roster', classId: klass.id, sections: SECTIONS },
  });
  // The stored layout is built from the roster in student-number order, as here.
  const layout = buildLayout({
    sheetId: sheet.sheetId,
    title,
    paper: 'A4',
    identity: { mode: 'roster', students: roster.map((s) => ({ id: `s${s.id}`, name: s.name, className: klass.className })) },
    sections: SECTIONS,
  });
  const pdf = await classScanPdf(layout, sheet.sheetId, roster.slice(0, CLASS_SIZE).map((s) => `s${s.id}`));
  const task = await call<{ id: number }>(`${server.url}${BASE}/task/create`, teacher, {
    json: { type: 3, title, classId: klass.id, sheetId: sheet.sheetId, answerKey: KEY },
  });
  const form = new FormData();
  form.append('taskId', String(task.id));
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), '全班扫描.pdf');
  await call(`${server.url}${BASE}/task/upload`, teacher, { form });

  // Other users of the product while the class grades: a teacher's task list and anyone's myRoles;
  // first for a while with nothing grading, to tell the machine's own noise from grading's cost.
  const other = await login(server.url, 'teacher2');
  const idleUntil = performance.now() + 8000;
  const [idleTaskPage, idleMyRoles] = await Promise.all([
    callLoop(`${server.url}${BASE}/task/page?current=1&size=20`, teacher, () => performance.now() > idleUntil),
    callLoop(`${server.url}/api/juno/personal/myRoles`, other, () => performance.now() > idleUntil),
  ]);
  // The server's event-loop figures (TEST_HOOKS=1), reset here and read once graded.
  const loopStats = async () => {
    const res = await fetch(`${server.url}/api/test/grading/processes`);
    return res.ok ? ((await res.json()).data.eventLoop as { p99Ms: number; maxMs: number }) : { p99Ms: NaN, maxMs: NaN };
  };
  await loopStats();
  let graded = false;
  const loops = Promise.all([
    callLoop(`${server.url}${BASE}/task/page?current=1&size=20`, teacher, () => graded),
    callLoop(`${server.url}/api/juno/personal/myRoles`, other, () => graded),
  ]);
  // Where the CPU goes while grading: the API's main thread (its event loop, which every request
  // waits for), the rest of the API process (its worker threads), and its child processes.
  const pid = server.process.pid!;
  const cpu = () => ({ main: cpuSeconds(pid, pid), all: cpuSeconds(pid), children: childPids(pid).reduce((n, c) => n + cpuSeconds(c), 0) });
  const cpu0 = cpu();
  const t0 = performance.now();
  await call(`${server.url}${BASE}/task/submit`, teacher, { json: { taskId: task.id } });
  let detail: { task: { status: number; failReason?: string }; results: unknown[] };
  for (;;) {
    detail = await call(`${server.url}${BASE}/task/detail?taskId=${task.id}`, teacher);
    if (detail.task.status === 4 || detail.task.status === 7) break;
    if (performance.now() - t0 > 600_000) throw new Error('grading did not finish in 10 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpu();
  const eventLoop = await loopStats();
  graded = true;
  const [taskPage, myRoles] = await loops;
  if (detail.task.status !== 4) throw new Error(`task failed: ${detail.task.failReason}`);
  console.error(`  ${CLASS_SIZE} sheets (${(pdf.length / 1024 / 1024).toFixed(1)} MB PDF) → ${detail.results.length} results in ${seconds.toFixed(1)} s`);
  return [
    { name: 'aicorrect_class45_submit_to_graded_s', value: seconds, unit: 's', target: '≤ 60' },
    { name: 'aicorrect_class45_results', value: detail.results.length, unit: '', target: String(CLASS_SIZE) },
    { name: 'aicorrect_task_page_p95_ms_while_grading', value: p95(taskPage), unit: 'ms', target: '≤ 100' },
    { name: 'aicorrect_myroles_p95_ms_while_grading', value: p95(myRoles), unit: 'ms', target: '≤ 100' },
    { name: 'aicorrect_task_page_p95_ms_idle', value: p95(idleTaskPage), unit: 'ms', target: '' },
    { name: 'aicorrect_myroles_p95_ms_idle', value: p95(idleMyRoles), unit: 'ms', target: '' },
    { name: 'aicorrect_api_event_loop_delay_p99_ms_while_grading', value: eventLoop.p99Ms, unit: 'ms', target: '' },
    { name: 'aicorrect_api_event_loop_delay_max_ms_while_grading', value: eventLoop.maxMs, unit: 'ms', target: '' },
    { name: 'aicorrect_api_main_thread_cpu_s_while_grading', value: cpu1.main - cpu0.main, unit: 's', target: '' },
    { name: 'aicorrect_api_other_threads_cpu_s_while_grading', value: cpu1.all - cpu0.all - (cpu1.main - cpu0.main), unit: 's', target: '' },
    { name: 'aicorrect_grading_processes_cpu_s', value: cpu1.children - cpu0.children, unit: 's', target: '' },
  ];
}

/** JavaScript the browser fetches to show 「AI批改」 after sign-in, gzip-compressed as a CDN would serve it. */
async function firstLoad(server: RunningServer): Promise<BenchRow[]> {
  const browser = await launchBrowser();
  try {
    // Sign in first (the sign-in app is its own entry), then measure a cold load of the product.
    const signedIn = await signIn(browser, server.url, 'teacher');
    await signedIn.waitForFunction(() => location.hash.startsWith('#/AICorrect'));
    const storage = await signedIn.context().storageState();
    const cold = await browser.newContext({ storageState: storage });
    const tab = await cold.newPage();
    await tab.addInitScript(() => sessionStorage.setItem('xuezhu.activeRole', 'mpTeacher'));
    const scripts = new Map<string, Buffer>();
    tab.on('response', async (res) => {
      if (res.url().endsWith('.js')) scripts.set(res.url(), await res.body().catch(() => Buffer.alloc(0)));
    });
    await tab.goto(`${server.url}/#/AICorrect/index`);
    await tab.getByRole('heading', { level: 1, name: 'AI批改' }).waitFor();
    await tab.waitForLoadState('networkidle');
    const gz = [...scripts.values()].reduce((n, b) => n + gzipSync(b).length, 0);
    return [
      { name: 'aicorrect_first_load_js_kb_gzip', value: gz / 1024, unit: 'KB', target: '' },
      { name: 'aicorrect_first_load_js_files', value: scripts.size, unit: '', target: '' },
    ];
  } finally {
    await browser.close();
  }
}

export async function benchAiCorrect(): Promise<BenchRow[]> {
  await ensureWebBuild();
  // TEST_HOOKS=1: the server tells its event loop's delays (modules/correct/gradingHooks.ts).
  const server = await startServer({ env: { TEST_HOOKS: '1' } });
  try {
    const grading = await gradeAClass(server);
    // `npm run bench -- aicorrect --no-browser`: the grading rows alone.
    return process.argv.includes('--no-browser') ? grading : [...grading, ...(await firstLoad(server))];
  } finally {
    await server.stop();
  }
}
