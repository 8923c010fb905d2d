// Runs the real server as a child process, as `npm start` would, on a free port and a fresh
// data directory. Used by browser tests and benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { ensureServerBuild, SERVER_BUNDLE } from '../../scripts/serverBuild';
import { fingerprint } from './seedFingerprint';
// The database, the seed and the device simulator load only where a start needs them (the run's
// first seeding, a test asking for the demo terminals' usage): a browser test file does not.

const root = join(import.meta.dirname, '..', '..');

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Milliseconds from spawn to the first answered HTTP request. */
  startMs: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Node's arguments for a script: JavaScript (start.mjs, the server's bundle) runs as it is, TypeScript through tsx. */
const nodeArgs = (script: string) => (/\.m?js$/.test(script) ? [script] : ['--import', 'tsx', script]);

/** The server as `npm start` runs it: its bundle, built first if its sources changed. */
export async function serverEntry(): Promise<string> {
  await ensureServerBuild();
  return SERVER_BUNDLE;
}

/** Runs a script of the repo (a path from its root, or absolute) to its end, as an operator would (a refused start, say): its output and exit code. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs(resolvePath(root, script)), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** The script to run: the server's bundle (the default), or scripts/start.mjs (build check + server) as `npm start` does. */
  entry?: string;
  keepData?: boolean;
  /**
   * Uploads the demo terminals' 90 days of usage through the device API before returning (the
   * partner screens need it). Off otherwise: DEMO_DEVICES=0, like DEMO_GRADING, so a test server
   * starts quiet and other tests do not share the machine with the upload.
   */
  demoDevices?: boolean;
  /** Seed the demo on this start instead of starting on a copy of a seeded directory. */
  fresh?: boolean;
}

/**
 * A seeded data directory to start from. A first start seeds the demo (a term of work for every
 * student), which costs each test server many seconds; so the first server of a run on these
 * sources seeds a directory once, stops cleanly, and later servers start on copies of it (the
 * database files, the demo uploads, the terminal PIN key the seeded PINs are hashed with and the
 * demo terminals' secrets file; each server makes its own sign-in secret). Named by the
 * same fingerprint as the API tests' snapshot, so any change to what the seed is made of seeds anew.
 */
export async function seededDataDir(): Promise<string> {
  const template = join(tmpdir(), `xz-datadir-${fingerprint()}`);
  if (existsSync(template)) return template;
  const building = mkdtempSync(join(tmpdir(), 'xz-datadir-build-'));
  const first = await startServer({ dataDir: building, fresh: true });
  await first.stop();
  rmSync(join(building, 'jwt-secret'), { force: true });
  // The seeding server ran its sweeps at start and recorded them (sweep_runs); a copy started within
  // a sweep's period would skip it. Each test server starts as a first start does: every sweep due.
  const [{ openDatabase }, { rows }, { sql }] = await Promise.all([import('../../server/db'), import('../../server/db/query'), import('drizzle-orm')]);
  const database = await openDatabase({ dataDir: join(building, 'pg') });
  await database.db.execute(sql`DELETE FROM sweep_runs`);
  await database.db.execute(sql`CHECKPOINT`);
  const [{ wal }] = await rows<{ wal: string }>(database.db, sql`SELECT pg_walfile_name(pg_current_wal_lsn()) AS wal`);
  await database.close();
  withoutSpareWal(join(building, 'pg', 'pg_wal'), wal);
  try {
    // Another test file may have finished the same template first: theirs is as good.
    renameSync(building, template);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  // Older templates go, but not one made in the last hour: with test files running side by side,
  // another may still be copying it (the fingerprint changes at China's midnight, say).
  for (const old of readdirSync(tmpdir())) {
    const path = join(tmpdir(), old);
    if (!old.startsWith('xz-datadir-') || old.startsWith('xz-datadir-build-') || path === template) continue;
    if (Date.now() - statSync(path).mtimeMs > 3600_000) rmSync(path, { recursive: true, force: true });
  }
  return template;
}

/**
 * Removes the WAL segments PostgreSQL keeps for reuse from a cleanly stopped data directory: after
 * the checkpoint only the segment it was written in is needed (and the next one, where the shutdown
 * checkpoint may have spilled). They were 129 MB of the template's 222, copied for every test server.
 */
function withoutSpareWal(walDir: string, current: string): void {
  // A name is timeline, log and segment, 8 hex digits each; a log holds 256 segments of 16 MB.
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
  const [timeline, log, segment] = [0, 8, 16].map((at) => parseInt(current.slice(at, at + 8), 16));
  const next = segment === 0xff ? hex(timeline) + hex(log + 1) + hex(0) : hex(timeline) + hex(log) + hex(segment + 1);
  for (const name of readdirSync(walDir)) {
    if (/^[0-9A-F]{24}$/.test(name) && name !== current && name !== next) rmSync(join(walDir, name));
  }
}

const isEmpty = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'xz-data-'));
  // A copy of the seeded directory, unless this start is about seeding itself: `npm start`'s own
  // script, a PostgreSQL database, demo grading (made on a first start only) or `fresh`.
  const env = { ...options.env };
  const seedsItself = options.fresh || options.entry || env.DATABASE_URL || env.DEMO_GRADING === '1';
  // Seeding a term of demo work (once per run) takes about a minute on an idle 2-core machine and
  // several under load; a start on a seeded copy takes seconds.
  const seeding = seedsItself && isEmpty(dataDir);
  if (!seedsItself && isEmpty(dataDir)) cpSync(await seededDataDir(), dataDir, { recursive: true });
  const entry = options.entry ?? (await serverEntry());
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, nodeArgs(entry), {
    cwd: root,
    // The server's request log stays out of test output unless a test asks (LOG_LEVEL in env);
    // the demo grading tasks too (DEMO_GRADING=1 in env), so a test starts from an empty AI批改;
    // the demo terminals' usage is uploaded when asked (demoDevices).
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', DEMO_GRADING: '0', DEMO_DEVICES: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      const res = await fetch(`${url}/api/app/config`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (performance.now() - began > (seeding ? 600_000 : 120_000)) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const startMs = performance.now() - began;
  if (options.demoDevices) await uploadDemoUsage(url, dataDir);
  return {
    url,
    port,
    dataDir,
    process: child,
    startMs,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The demo terminals' 90 days of usage, through the device API of the server at `url`. */
async function uploadDemoUsage(url: string, dataDir: string): Promise<void> {
  const [{ httpTransport }, { simulate }, { followUpDemoHeartVoices }, { readDemoSecretsFile }] = await Promise.all([
    import('../../server/devices/client'),
    import('../../server/devices/simulator'),
    import('../../server/devices/heartVoices'),
    import('../../server/devices/demoSecrets'),
  ]);
  await followUpDemoHeartVoices(url, (await simulate(httpTransport(url), { secrets: readDemoSecretsFile(dataDir) })).heartVoiceIds);
}
