// Heavy work off the API's event loop: parsing uploaded workbooks and PDFs, decoding images, OCR,
// rendering printable PDFs. This layer knows no service: each owner names the module its threads
// run and the functions in it (heavyTasks), and a thread loads that module when first asked.
// Each lane is a small pool with a bounded queue, so a burst of uploads waits its turn (or is told
// the server is busy) instead of stalling every other request or taking the process's memory with
// it: worker threads for the work a request waits for, child processes at a lower OS priority for
// grading (processes.ts), whose CPU and memory must never be the API's.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { ApiError } from '../http/envelope';
import { gradingProcesses, ProcessPool } from './processes';
import type { Settled, Task } from './run';

/** 'requests' runs in threads of this process; 'grading' in child processes (processes.ts). */
export type Lane = 'requests' | 'grading';

// Work a request waits for (imports read, uploads checked, sheets rendered): half the cores, and
// a short queue behind them. The heap limit is a backstop; the readers bound their input first.
const REQUESTS: ConstructorParameters<typeof Piscina>[0] = { maxThreads: Math.max(1, Math.floor(availableParallelism() / 2)), maxQueue: 16, idleTimeout: 60_000, resourceLimits: { maxOldGenerationSizeMb: 512 } };

let threads: Piscina | undefined;
let processes: ProcessPool | undefined;

async function threadPool(): Promise<Piscina> {
  if (!threads) {
    // sharp's native library must be loaded by the main thread before any thread uses it, or it
    // may be unloaded while a thread still runs (sharp's documentation, "worker threads").
    await import('sharp');
    threads ??= new Piscina({ filename: new URL('./entry.mjs', import.meta.url).href, minThreads: 0, ...REQUESTS });
  }
  return threads;
}

/**
 * The grading processes: as many as the queue worker runs jobs at once (GRADING_PROCESSES); a
 * child stays a while after its last task so the OCR models are not reloaded for every file.
 */
export function gradingPool(): ProcessPool {
  processes ??= new ProcessPool({ size: gradingProcesses(), maxQueue: 64, idleMs: 10 * 60_000 });
  return processes;
}

/** Stops the threads and the grading processes (the server's shutdown). */
export async function closePools(): Promise<void> {
  const [t, p] = [threads, processes];
  threads = processes = undefined;
  await Promise.all([t?.destroy(), p?.close()]);
}

async function runIn(lane: Lane, task: Task, signal?: AbortSignal): Promise<Settled<unknown>> {
  if (lane === 'grading') return gradingPool().run(task, signal);
  return (await threadPool()).run(task, { signal });
}

const BUSY = '服务器繁忙，请稍后再试';

/** A function a thread can run: one plain-data input, a plain-data result. */
type TaskFunction = (input: never) => unknown;

/**
 * Runs the functions of one task module in the lanes' threads, e.g.
 * `heavyTasks<Pick<typeof reading, 'checkScan'>>(new URL('./reading.ts', import.meta.url))`:
 * the type names what may be run, the URL where it lives. The module is loaded in the threads
 * only, never by the caller.
 */
export function heavyTasks<T extends Record<string, TaskFunction>>(module: URL) {
  /** Runs a task in a thread of the lane; a refusal becomes the ApiError it was in the thread. */
  return async function runHeavy<N extends keyof T & string>(lane: Lane, name: N, input: Parameters<T[N]>[0], signal?: AbortSignal): Promise<Awaited<ReturnType<T[N]>>> {
    const task: Task = { module: module.href, name, input };
    let settled: Settled<Awaited<ReturnType<T[N]>>>;
    try {
      settled = (await runIn(lane, task, signal)) as typeof settled;
    } catch (error) {
      if ((error as Error).message === 'Task queue is at limit') throw new ApiError(503, BUSY);
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ApiError(422, '文件内容过多，无法处理，请精简后重新上传');
      throw error;
    }
    if ('refused' in settled) throw new ApiError(settled.refused.code, settled.refused.msg);
    return settled.ok;
  };
}
