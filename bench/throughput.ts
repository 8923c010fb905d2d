// Throughput of a real server process under load from outside it (issue 26 §3): the school admin's
// student list (`student/page`) at 50 connections for 20 s, driven by wrk (Debian's `wrk` package),
// and heartbeats through the device API, one terminal a request and in relayed batches
// (docs/api-devices.md). On PGlite always; on PostgreSQL as well when DATABASE_URL is set or
// `--pg` is given (a fresh database `xz_bench_throughput` on that server, or on the local one).
// `THROUGHPUT_SECONDS` shortens the runs for a quick look.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { httpTransport } from '../server/devices/client';
import { loadTest } from '../server/devices/simulator';
import { readDemoSecretsFile } from '../server/devices/demoSecrets';
import { startServer, type RunningServer } from '../tests/support/serverProcess';
import type { BenchRow } from './table';
import { dropBenchDatabase, freshBenchDatabase } from './benchDatabase';

const run = promisify(execFile);
const DB = 'xz_bench_throughput';
const SECONDS = Number(process.env.THROUGHPUT_SECONDS ?? 20);
const CONNECTIONS = 50;
const BEAT_SECONDS = Math.min(SECONDS, 10);
const PAGE_PATH = '/api/vesta/student/page?current=1&size=20';
const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/test';

const TARGETS = {
  pg: { rps: '≥ 3000', p99: '≤ 50', beats: '≥ 2000' },
  pglite: { rps: '≥ 500', p99: '≤ 200', beats: '≥ 500' },
};

async function hasWrk(): Promise<boolean> {
  try {
    await run('wrk', ['--version']).catch((error: { stdout?: string }) => {
      // wrk --version prints its banner and exits 1.
      if (!String(error.stdout ?? '').includes('wrk')) throw error;
    });
    return true;
  } catch {
    return false;
  }
}

/** wrk's latency figure ("101.23ms", "850.00us", "1.20s") in milliseconds. */
function wrkMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`wrk latency not understood: ${text}`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(m[1]) * scale;
}

/** CPU milliseconds a process has used so far (user + system; Linux clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  /** Answers other than 2xx/3xx, and socket errors. */
  errors: number;
  requests: number;
}

/** `connections` kept-alive connections against one GET for `seconds`, by wrk. */
export async function wrkLoad(url: string, headers: Record<string, string>, seconds: number, connections = CONNECTIONS): Promise<LoadFigures> {
  const args = ['-t', '2', '-c', String(connections), '-d', `${seconds}s`, '--latency', '--timeout', '10s'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const { stdout } = await run('wrk', [...args, url], { maxBuffer: 1 << 20 });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const p99 = /^\s+99%\s+(\S+)/m.exec(stdout);
  if (!rps || !p99) throw new Error(`wrk output not understood:\n${stdout}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const socketErrors = socket ? socket.slice(1).reduce((s, n) => s + Number(n), 0) : 0;
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  return { requestsPerSecond: Number(rps[1]), p99Ms: wrkMs(p99[1]), errors: non2xx + socketErrors, requests };
}

async function signIn(server: RunningServer, username: string): Promise<string> {
  const res = await fetch(`${server.url}/api/juno/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'Demo@2026' }) });
  const json = (await res.json()) as { data?: { accessToken: string }; msg: string };
  if (!json.data) throw new Error(`sign-in of ${username} failed: ${json.msg}`);
  return json.data.accessToken;
}

/** `processes` API processes (WEB_CONCURRENCY, PostgreSQL only); their rows are named `…_2proc`. */
async function benchDriver(db: 'pg' | 'pglite', pgUrl: string | undefined, withWrk: boolean, processes = 1): Promise<BenchRow[]> {
  const label = processes > 1 ? `${db}_${processes}proc` : db;
  const env: Record<string, string> = { IN_PROCESS_WORKER: '0', DEVICE_RATE_LIMITS: '0', WEB_CONCURRENCY: String(processes) };
  if (pgUrl) env.DATABASE_URL = await freshBenchDatabase(pgUrl, DB);
  console.error(`  starting ${processes} API process(es) on ${db}${pgUrl ? ' (a fresh database seeds the demo: minutes)' : ''}…`);
  const server = await startServer({ env });
  const target = TARGETS[db];
  const out: BenchRow[] = [];
  try {
    if (withWrk) {
      const token = await signIn(server, 'schooladmin');
      const headers = { 'blade-auth': `bearer ${token}` };
      // Warm-up: the server's JIT, the pool, the session cache; the steady state is measured.
      await wrkLoad(`${server.url}${PAGE_PATH}`, headers, Math.min(5, SECONDS));
      console.error(`  student/page: ${CONNECTIONS} connections for ${SECONDS} s…`);
      // The server's own CPU per request tells its capacity apart from what else the machine runs
      // (wrk beside it, and on PostgreSQL the database).
      const cpu = cpuMs(server.process.pid!);
      const page = await wrkLoad(`${server.url}${PAGE_PATH}`, headers, SECONDS);
      const cpuPerRequest = (cpuMs(server.process.pid!) - cpu) / Math.max(1, page.requests);
      out.push(
        { name: `student_page_req_per_s_${label}`, value: Math.round(page.requestsPerSecond), unit: '/s', target: target.rps },
        { name: `student_page_p99_ms_${label}`, value: page.p99Ms, unit: 'ms', target: target.p99 },
        { name: `student_page_errors_${label}`, value: page.errors, unit: '', target: '0' },
      );
      // With several processes the spawned one is their supervisor, which serves nothing.
      if (processes === 1) out.push({ name: `student_page_server_cpu_ms_${label}`, value: cpuPerRequest, unit: 'ms', target: '' });
    }
    const transport = httpTransport(server.url);
    const secrets = readDemoSecretsFile(server.dataDir);
    console.error(`  heartbeats for ${BEAT_SECONDS} s, one a request, then in relayed batches…`);
    const single = await loadTest(transport, { secrets, kind: 'heartbeat', seconds: BEAT_SECONDS, concurrency: 64 });
    const batched = await loadTest(transport, { secrets, kind: 'heartbeatBatch', seconds: BEAT_SECONDS, concurrency: 8, batch: 100 });
    out.push(
      { name: `heartbeats_per_s_single_${label}`, value: Math.round(single.perSecond), unit: '/s', target: '' },
      { name: `heartbeats_per_s_batched_${label}`, value: Math.round(batched.perSecond), unit: '/s', target: target.beats },
      { name: `heartbeat_errors_${label}`, value: single.errors + batched.errors, unit: '', target: '0' },
    );
    return out;
  } finally {
    await server.stop();
    if (pgUrl) await dropBenchDatabase(pgUrl, DB);
  }
}

export async function benchThroughput(): Promise<BenchRow[]> {
  const withWrk = await hasWrk();
  if (!withWrk) {
    console.error('  wrk 未安装：student/page 的吞吐量不测（Debian: apt-get install -y wrk）；只测心跳。');
  }
  const pgUrl = process.env.DATABASE_URL || (process.argv.includes('--pg') ? LOCAL_PG : undefined);
  const out: BenchRow[] = [];
  if (!withWrk) out.push({ name: 'student_page_wrk_missing', value: 1, unit: '', target: '0' });
  if (pgUrl) out.push(...(await benchDriver('pg', pgUrl, withWrk)));
  // Two API processes on the same PostgreSQL (WEB_CONCURRENCY=2): on two cores they share them with
  // PostgreSQL and wrk, so this shows the cost of the cluster more than its gain.
  if (pgUrl) out.push(...(await benchDriver('pg', pgUrl, withWrk, 2)));
  out.push(...(await benchDriver('pglite', undefined, withWrk)));
  return out;
}
