// Foundation figures: start-up time, first-load JS of the shell, and p95 latency of the shell's
// hottest calls under 50 concurrent connections on embedded PGlite.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startServer } from '../tests/support/serverProcess';
import { openTestDatabase } from '../tests/support/testDatabase';
import { ensureWebBuild } from '../scripts/webBuild';
import type { BenchRow } from './table';

const root = join(import.meta.dirname, '..');

async function latencies(url: string, label: string): Promise<BenchRow[]> {
  const login = await fetch(`${url}/api/juno/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'teacher', password: 'Demo@2026' }),
  });
  const token = (await login.json()).data.accessToken as string;
  const calls = { myroles: '/api/juno/personal/myRoles', getteachclass: '/api/vesta/teaching/getTeachClass?leaderType=1' };
  const out: BenchRow[] = [];
  for (const [name, path] of Object.entries(calls)) {
    // Warm-up: JIT of server and load generator, connection pools, caches — steady state is measured.
    await p95(`${url}${path}`, token, 5000, 50);
    out.push({ name: `${name}_p95_ms_${label}`, value: await p95(`${url}${path}`, token, 3000, 50), unit: 'ms', target: '< 20' });
  }
  return out;
}

/** The same calls on PostgreSQL (a fresh database on the server DATABASE_URL names), for comparison. */
async function postgresLatencies(adminUrl: string): Promise<BenchRow[]> {
  // The server migrates and seeds the empty database itself, as on a first start.
  const database = await openTestDatabase({ url: adminUrl, seed: false });
  const server = await startServer({ env: { DATABASE_URL: database.url! } });
  try {
    return await latencies(server.url, 'postgres');
  } finally {
    await server.stop();
    await database.close();
  }
}

/** Gzipped size of the JS the browser loads before any lazy page: entry script and its preloads. */
function firstLoadJsKb(): number {
  const html = readFileSync(join(root, 'dist', 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(root, 'dist', f))).length, 0);
  return bytes / 1024;
}

async function p95(url: string, token: string, requests: number, concurrency: number): Promise<number> {
  const latencies: number[] = [];
  let sent = 0;
  const worker = async () => {
    while (sent < requests) {
      sent++;
      const t0 = performance.now();
      const res = await fetch(url, { headers: { 'blade-auth': `bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} → ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
  return latencies[Math.floor(latencies.length * 0.95)];
}

export async function benchFoundation(): Promise<BenchRow[]> {
  await ensureWebBuild();
  const rows: BenchRow[] = [];

  // First start migrates and seeds; the second start is what a returning user waits for.
  const first = await startServer({ entry: join(root, 'scripts', 'start.mjs'), keepData: true });
  await first.stop();
  const second = await startServer({ entry: join(root, 'scripts', 'start.mjs'), dataDir: first.dataDir });
  rows.push({ name: 'start_first_s', value: first.startMs / 1000, unit: 's', target: '' });
  rows.push({ name: 'start_second_s', value: second.startMs / 1000, unit: 's', target: '≤ 5' });

  if (existsSync(join(root, 'dist', 'index.html'))) {
    rows.push({ name: 'shell_first_load_js_kb_gzip', value: firstLoadJsKb(), unit: 'KB', target: '≤ 400' });
  }

  rows.push(...(await latencies(second.url, 'pglite')));
  await second.stop();
  const { rmSync } = await import('node:fs');
  rmSync(first.dataDir, { recursive: true, force: true });
  if (process.env.DATABASE_URL) rows.push(...(await postgresLatencies(process.env.DATABASE_URL)));
  return rows;
}
