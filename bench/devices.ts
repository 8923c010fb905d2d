// Device API ingestion: a real server process (on PostgreSQL in a fresh database
// `xz_bench_devices` when DATABASE_URL is set, on PGlite otherwise) and the device simulator's load
// mode over HTTP: signed heartbeats from many terminals at once, then batches of print jobs.
// Heartbeats/s and print jobs/s count accepted records only.
import { readFileSync } from 'node:fs';
import { httpTransport } from '../server/devices/client';
import { loadTest } from '../server/devices/simulator';
import { readDemoSecretsFile } from '../server/devices/demoSecrets';
import { startServer } from '../tests/support/serverProcess';
import type { BenchRow } from './table';
import { freshBenchDatabase } from './benchDatabase';

const DB = 'xz_bench_devices';
const SECONDS = Number(process.env.DEVICES_BENCH_SECONDS ?? 10);

/** CPU milliseconds the process has used so far (user + system; Linux clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function benchDevices(): Promise<BenchRow[]> {
  const pgUrl = process.env.DATABASE_URL;
  const label = pgUrl ? 'pg' : 'pglite';
  // The per-terminal limits would refuse most of this load: they are what is measured around.
  const env: Record<string, string> = { IN_PROCESS_WORKER: '0', DEVICE_RATE_LIMITS: '0' };
  if (pgUrl) env.DATABASE_URL = await freshBenchDatabase(pgUrl, DB);
  console.error(`  starting a server on ${label} (first start seeds the demo)…`);
  const server = await startServer({ env });
  try {
    const transport = httpTransport(server.url);
    const secrets = readDemoSecretsFile(server.dataDir);
    const pid = server.process.pid!;
    // The server's own CPU per record tells its capacity on a core apart from what else runs on the
    // machine (the load generator runs beside it).
    let cpu = cpuMs(pid);
    const beats = await loadTest(transport, { secrets, kind: 'heartbeat', seconds: SECONDS, concurrency: 64 });
    const beatCpu = (cpuMs(pid) - cpu) / Math.max(1, beats.records);
    cpu = cpuMs(pid);
    const jobs = await loadTest(transport, { secrets, kind: 'printJobs', seconds: SECONDS, concurrency: 8, batch: 200 });
    const jobCpu = (cpuMs(pid) - cpu) / Math.max(1, jobs.records);
    return [
      { name: `devices_heartbeats_per_s_${label}`, value: Math.round(beats.perSecond), unit: '/s', target: '≥ 2000' },
      { name: `devices_heartbeat_errors_${label}`, value: beats.errors, unit: '', target: '0' },
      { name: `devices_heartbeat_server_cpu_ms_${label}`, value: beatCpu, unit: 'ms', target: '' },
      { name: `devices_print_jobs_per_s_${label}`, value: Math.round(jobs.perSecond), unit: '/s', target: '≥ 500' },
      { name: `devices_print_job_errors_${label}`, value: jobs.errors, unit: '', target: '0' },
      { name: `devices_print_job_server_cpu_ms_${label}`, value: jobCpu, unit: 'ms', target: '' },
    ];
  } finally {
    await server.stop();
  }
}
