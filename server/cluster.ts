// WEB_CONCURRENCY=N: N API processes on one machine sharing its port through Node's cluster
// module (the supervisor accepts connections and hands them out in turn). Everything they must
// agree on lives in PostgreSQL: sessions and sign-in limits are rows, cache invalidations and the
// fleet's live events travel by LISTEN/NOTIFY, sweeps are claimed once per period, grading jobs
// are a queue, and with FILE_STORE=postgres the files too. The supervisor restarts a process that
// dies, and gives up (exit 1) when they keep dying right after starting.
import cluster, { type Worker } from 'node:cluster';
import { join } from 'node:path';

/** This process's place in the cluster, if it is an API process of one. */
export interface ClusterMember {
  /** 0 … N-1, kept by a restarted process; process 0 runs the demo's background duties. */
  index: number;
  /** The supervisor seeded the demo on this start (the demo's first-start duties are still to do). */
  seeded: boolean;
}

export function inCluster(): ClusterMember | undefined {
  if (cluster.isPrimary || process.env.XZ_CLUSTER_INDEX === undefined) return undefined;
  return { index: Number(process.env.XZ_CLUSTER_INDEX), seeded: process.env.XZ_CLUSTER_SEEDED === '1' };
}

/** A process that exits sooner than this after its start counts as failing to start. */
const EARLY_EXIT_MS = 10_000;
/** That many early exits in a row: the supervisor stops instead of restarting forever. */
const MAX_EARLY_EXITS = 5;

/** The entry of the server's bundle this process runs from (dist-server/build-…/main.mjs), defined by scripts/serverBuild.ts. */
declare const __SERVER_BUNDLE__: string | undefined;

export function superviseApiProcesses(count: number, { seeded, port }: { seeded: boolean; port: number }): void {
  // The API processes run the server's entry directly (not `npm start`'s build check again): the
  // bundle when this process runs from it (its build defines __SERVER_BUNDLE__), else main.ts.
  cluster.setupPrimary({ exec: typeof __SERVER_BUNDLE__ === 'string' ? __SERVER_BUNDLE__ : join(import.meta.dirname, 'main.ts') });
  let stopping = false;
  let earlyExits = 0;
  const running = new Map<Worker, { index: number; startedAt: number }>();

  const start = (index: number, firstStart: boolean) => {
    const worker = cluster.fork({ XZ_CLUSTER_INDEX: String(index), XZ_CLUSTER_SEEDED: firstStart && seeded ? '1' : '0' });
    running.set(worker, { index, startedAt: Date.now() });
  };

  cluster.on('exit', (worker, code, signal) => {
    const slot = running.get(worker);
    running.delete(worker);
    if (stopping || !slot) {
      if (stopping && running.size === 0) process.exit();
      return;
    }
    earlyExits = Date.now() - slot.startedAt < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    if (earlyExits >= MAX_EARLY_EXITS) {
      console.error(`服务进程连续 ${earlyExits} 次启动后立即退出，已停止重启。请查看上面的错误信息。`);
      stopping = true;
      for (const w of running.keys()) w.process.kill('SIGTERM');
      if (running.size === 0) process.exit(1);
      process.exitCode = 1;
      return;
    }
    console.error(`服务进程 ${slot.index + 1} 已退出（${signal ?? `退出码 ${code}`}），1 秒后重新启动`);
    setTimeout(() => !stopping && start(slot.index, false), 1000);
  });

  for (let i = 0; i < count; i++) start(i, true);
  console.log(`已启动 ${count} 个服务进程（WEB_CONCURRENCY=${count}），共用端口 ${port}`);

  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Each process finishes its requests and closes its connections (main.ts shutdown).
    for (const worker of running.keys()) worker.process.kill('SIGTERM');
    if (running.size === 0) process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
