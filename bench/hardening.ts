// Hardening figures, measured on the real server process (`npm start`'s server, PGlite):
// (a) the uploads of the incident — the 1.9-million-cell workbook ×4 at once, a denser one ×4,
//     and PDF bombs — while other users call myRoles in a loop: the server's peak RSS and the
//     p99 of those calls; (b) the student list at 50 connections for 20 s: req/s and p99, on
//     PGlite and, when DATABASE_URL is set, on PostgreSQL.
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { blackPng, hugeWorkbook, pdfBomb } from '../tests/support/bombs';
import { startServer, type RunningServer } from '../tests/support/serverProcess';
import { openTestDatabase } from '../tests/support/testDatabase';
import type { BenchRow } from './table';
import { importWorkbook } from './school';

const MB = 1024 * 1024;

async function login(url: string, username: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/juno/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'Demo@2026' }),
  });
  return { 'blade-auth': `bearer ${(await res.json()).data.accessToken}` };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** Resident set size of a process, from /proc (Linux). */
const rssOf = (pid: number) => Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;

/** One GET on a kept-alive connection; resolves with the status once the body is read. */
function get(agent: Agent, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

/** `connections` clients calling `url` back to back until `until()` says stop; latencies in ms. */
async function loop(url: string, headers: Record<string, string>, connections: number, until: () => boolean): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const client = async () => {
    while (!until()) {
      const t0 = performance.now();
      const status = await get(agent, url, headers);
      if (status !== 200) throw new Error(`${url} → ${status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  agent.destroy();
  return latencies.sort((a, b) => a - b);
}

async function upload(url: string, headers: Record<string, string>, fields: Record<string, string>, name: string, bytes: Buffer): Promise<{ status: number; msg: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(url, { method: 'POST', headers, body: form });
  return { status: res.status, msg: (await res.json()).msg };
}

async function uploadsUnderLoad(server: RunningServer): Promise<BenchRow[]> {
  const admin = await login(server.url, 'schooladmin');
  const teacher = await login(server.url, 'teacher');
  const correct = `${server.url}/api/wrongbook/v1.0/correct`;
  const created = await fetch(`${correct}/task/create`, { method: 'POST', headers: { ...teacher, 'content-type': 'application/json' }, body: JSON.stringify({ type: 2, title: '压测' }) });
  const taskId = String((await created.json()).data.id);

  const incident = hugeWorkbook(1_900_000);
  const dense = hugeWorkbook(1_900_000, { compact: true });
  const bombs = [
    await pdfBomb({ width: 2000, height: 2000, megabytes: 1600 }),
    await pdfBomb({ width: 40000, height: 40000, megabytes: 1600 }),
    await pdfBomb({ width: 200, height: 200, megabytes: 1600, objectStream: true }),
  ];
  const png = blackPng(16000, 16000);
  console.error(`  incident xlsx ${(incident.length / MB).toFixed(1)} MB, dense xlsx ${(dense.length / MB).toFixed(1)} MB, PDF bombs ${(bombs[0].length / MB).toFixed(1)} MB`);

  const myRoles = `${server.url}/api/juno/personal/myRoles`;
  await loop(myRoles, teacher, 4, ((end) => () => performance.now() > end)(performance.now() + 2000)); // warm-up
  const baseline = rssOf(server.process.pid!);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.process.pid!))), 10);
  let heavyDone = false;
  const calls = loop(myRoles, teacher, 4, () => heavyDone);
  const heavyStart = performance.now();
  const refusals: { status: number; msg: string }[] = [];
  for (let round = 0; round < 3; round++) {
    refusals.push(
      ...(await Promise.all([
        ...Array.from({ length: 4 }, () => upload(`${server.url}/api/vesta/student/importData`, admin, {}, '学生.xlsx', incident)),
        ...Array.from({ length: 4 }, () => upload(`${server.url}/api/vesta/student/importData`, admin, {}, '学生.xlsx', dense)),
        ...bombs.map((bomb) => upload(`${correct}/task/upload`, teacher, { taskId }, '扫描.pdf', bomb)),
        upload(`${correct}/task/upload`, teacher, { taskId }, '照片.png', png),
      ])),
    );
  }
  const heavySeconds = (performance.now() - heavyStart) / 1000;
  heavyDone = true;
  const latencies = await calls;
  clearInterval(sampler);
  const wrong = refusals.filter((r) => r.status !== 400);
  if (wrong.length) throw new Error(`uploads not refused: ${JSON.stringify(wrong)}`);
  return [
    { name: 'hardening_uploads_peak_rss_mb', value: peak / MB, unit: 'MB', target: '≤ 800' },
    { name: 'hardening_uploads_rss_before_mb', value: baseline / MB, unit: 'MB', target: '' },
    { name: 'hardening_uploads_seconds', value: heavySeconds, unit: 's', target: '' },
    { name: 'hardening_myroles_p99_ms', value: percentile(latencies, 0.99), unit: 'ms', target: '≤ 200' },
    { name: 'hardening_myroles_calls', value: latencies.length, unit: '', target: '' },
  ];
}

/**
 * The API process's memory: at rest once started (no grading, nothing imported; the grading
 * processes are its children and not counted), and its growth while a 5,000-student workbook is
 * imported over HTTP (peak RSS sampled every 10 ms, minus the RSS just before).
 */
async function apiMemory(server: RunningServer): Promise<BenchRow[]> {
  const admin = await login(server.url, 'schooladmin');
  // Settled: the start's own work (migrations check, caches) done and collected.
  await new Promise((r) => setTimeout(r, 5000));
  const atRest = rssOf(server.process.pid!);
  const tree = (await (await fetch(`${server.url}/api/vesta/class/treeClassBySchool`, { headers: admin })).json()).data as { gradeName: string; children: { className: string }[] }[];
  const bytes = await importWorkbook(tree.flatMap((g) => g.children.map((c) => ({ gradeName: g.gradeName, className: c.className }))));
  const before = rssOf(server.process.pid!);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.process.pid!))), 10);
  const result = await upload(`${server.url}/api/vesta/student/importData`, admin, {}, '学生.xlsx', bytes);
  clearInterval(sampler);
  if (result.status !== 200) throw new Error(`import failed: ${result.status} ${result.msg}`);
  return [
    { name: 'api_rss_at_rest_mb', value: atRest / MB, unit: 'MB', target: '≤ 400' },
    { name: 'import_5000_students_rss_growth_mb', value: (peak - before) / MB, unit: 'MB', target: '≤ 150' },
    { name: 'import_5000_students_peak_rss_mb', value: peak / MB, unit: 'MB', target: '' },
  ];
}

async function studentPage(server: RunningServer, label: string): Promise<BenchRow[]> {
  const admin = await login(server.url, 'schooladmin');
  const url = `${server.url}/api/vesta/student/page?current=1&size=20`;
  await loop(url, admin, 50, ((end) => () => performance.now() > end)(performance.now() + 3000)); // warm-up
  const seconds = 20;
  const end = performance.now() + seconds * 1000;
  const latencies = await loop(url, admin, 50, () => performance.now() > end);
  return [
    { name: `student_page_50c_rps_${label}`, value: latencies.length / seconds, unit: 'req/s', target: '' },
    { name: `student_page_50c_p99_ms_${label}`, value: percentile(latencies, 0.99), unit: 'ms', target: '' },
  ];
}

export async function benchHardening(): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  // `npm run bench -- hardening --memory`: the API's memory rows alone.
  if (process.argv.includes('--memory')) {
    const server = await startServer();
    try {
      return await apiMemory(server);
    } finally {
      await server.stop();
    }
  }
  // Measured on a restarted server, as it runs day to day: the first start seeds the demo school,
  // which grows PGlite's memory (a WASM heap never shrinks) by some 100 MB.
  const seeded = await startServer({ keepData: true });
  await seeded.stop();
  let server = await startServer({ dataDir: seeded.dataDir });
  try {
    out.push(...(await uploadsUnderLoad(server)));
  } finally {
    await server.stop();
    rmSync(seeded.dataDir, { recursive: true, force: true });
  }
  server = await startServer();
  try {
    out.push(...(await apiMemory(server)));
    out.push(...(await studentPage(server, 'pglite')));
  } finally {
    await server.stop();
  }
  if (process.env.DATABASE_URL) {
    // A fresh database the server migrates and seeds itself, as on a first start.
    const database = await openTestDatabase({ url: process.env.DATABASE_URL, seed: false });
    server = await startServer({ env: { DATABASE_URL: database.url! } });
    try {
      out.push(...(await studentPage(server, 'postgres')));
    } finally {
      await server.stop();
      await database.close();
    }
  }
  return out;
}
