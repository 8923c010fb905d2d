// Heavy work off the API's event loop: parsing uploaded workbooks and PDFs, decoding images, OCR,
// rendering printable PDFs. This layer knows no service: each owner names the module its threads
// run and the functions in it (heavyTasks), and a thread loads that module when first asked.
// Each lane is a small pool of worker threads with a bounded queue, so a burst of uploads waits
// its turn (or is told the server is busy) instead of stalling every other request or taking the
// process's memory with it.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { ApiError } from '../http/envelope';
import type { Settled, Task } from './run';

export type Lane = 'requests' | 'grading';

const LANES: Record<Lane, ConstructorParameters<typeof Piscina>[0]> = {
  // Work a request waits for (imports read, uploads checked, sheets rendered): half the cores, and
  // a short queue behind them. The heap limit is a backstop; the readers bound their input first.
  requests: { maxThreads: Math.max(1, Math.floor(availableParallelism() / 2)), maxQueue: 16, idleTimeout: 60_000, resourceLimits: { maxOldGenerationSizeMb: 512 } },
  // Grading jobs: one at a time per process, as the queue worker takes them; the thread stays a
  // while so the OCR model is not reloaded for every file.
  grading: { maxThreads: 1, maxQueue: 64, idleTimeout: 10 * 60_000 },
};

const pools = new Map<Lane, Piscina>();

async function pool(lane: Lane): Promise<Piscina> {
  let p = pools.get(lane);
  if (!p) {
    // sharp's native library must be loaded by the main thread before any thread uses it, or it
    // may be unloaded while a thread still runs (sharp's documentation, "worker threads").
    await import('sharp');
    p = pools.get(lane) ?? new Piscina({ filename: new URL('./entry.mjs', import.meta.url).href, minThreads: 0, ...LANES[lane] });
    pools.set(lane, p);
  }
  return p;
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
      settled = await (await pool(lane)).run(task, { signal });
    } catch (error) {
      if ((error as Error).message === 'Task queue is at limit') throw new ApiError(503, BUSY);
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ApiError(422, '文件内容过多，无法处理，请精简后重新上传');
      throw error;
    }
    if ('refused' in settled) throw new ApiError(settled.refused.code, settled.refused.msg);
    return settled.ok;
  };
}
