// The grading lane runs in child processes, not threads: decoding scans, OMR and OCR (onnx) take
// whole cores for seconds and the OCR models hundreds of MB, so they run where the OS can put them
// behind the API (a lower priority: a nicer process yields the CPU to the API's event loop) and
// where their memory is not the API's. The API process keeps the database; a child gets plain
// data (the file's bytes, the layout) and sends back the result.
// A child that dies (killed, out of memory) fails the task it had with a Chinese reason the queue
// records and retries (jobs/worker.ts); the next task starts a new child.
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism, getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Settled, Task } from './run';

/** How much nicer than the API a grading child runs (the OS's scale: 0 normal … 19 nicest). */
const NICER_BY = 10;

/**
 * Grading processes: GRADING_PROCESSES, or half the cores (one on a 2-core machine), so at least
 * one core is always the API's.
 */
export function gradingProcesses(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.GRADING_PROCESSES);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 16) : Math.max(1, Math.floor(availableParallelism() / 2));
}

interface Pending {
  task: Task;
  resolve: (settled: Settled<unknown>) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Child {
  process: ChildProcess;
  ready: boolean;
  /** The task in hand (one at a time), with its id. */
  busy?: { id: number; pending: Pending };
  idleTimer?: NodeJS.Timeout;
}

export class QueueFull extends Error {}

export class ProcessPool {
  private readonly children = new Set<Child>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly options: { size: number; maxQueue: number; idleMs: number; entry?: string },
  ) {}

  /** The running children and whether each has a task in hand (for the test hooks). */
  list(): { pid: number; busy: boolean }[] {
    return [...this.children].filter((c) => c.process.pid).map((c) => ({ pid: c.process.pid!, busy: !!c.busy }));
  }

  run(task: Task, signal?: AbortSignal): Promise<Settled<unknown>> {
    if (this.closed) return Promise.reject(new Error('批改进程已关闭'));
    if (this.queue.length >= this.options.maxQueue) return Promise.reject(new QueueFull('Task queue is at limit'));
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const pending: Pending = { task, resolve, reject, signal };
      if (signal) {
        // An abandoned task (the worker stops, or lost its job) stops its child: compute cannot
        // be interrupted otherwise, and a new child is cheap next to a stale one running on.
        pending.onAbort = () => {
          const i = this.queue.indexOf(pending);
          if (i >= 0) this.queue.splice(i, 1);
          for (const c of this.children) if (c.busy?.pending === pending) c.process.kill('SIGKILL');
          reject(signal.reason instanceof Error ? signal.reason : new Error('批改已取消'));
        };
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Stops every child; tasks in hand or waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) this.settle(p, new Error('批改进程已关闭'));
    const exits = [...this.children].map((c) => new Promise<void>((r) => (c.process.exitCode !== null || c.process.signalCode !== null ? r() : c.process.once('exit', () => r()))));
    for (const c of this.children) {
      clearTimeout(c.idleTimer);
      c.process.kill('SIGTERM');
    }
    await Promise.all(exits);
  }

  private dispatch(): void {
    while (this.queue.length) {
      const idle = [...this.children].find((c) => c.ready && !c.busy);
      if (idle) {
        this.send(idle, this.queue.shift()!);
        continue;
      }
      const starting = [...this.children].filter((c) => !c.ready).length;
      if (starting < this.queue.length && this.children.size < this.options.size) {
        this.spawn();
        continue;
      }
      return;
    }
  }

  private send(child: Child, pending: Pending): void {
    clearTimeout(child.idleTimer);
    const id = this.nextId++;
    child.busy = { id, pending };
    this.hold(child, true);
    child.process.send({ id, task: pending.task });
  }

  private settle(pending: Pending, outcome: Error | Settled<unknown>): void {
    if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort);
    if (outcome instanceof Error) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  /**
   * A child with a task keeps this process running; an idle one does not, so a script or a test
   * that graded something can end without closing the pool (the child then ends with the channel).
   */
  private hold(child: Child, busy: boolean): void {
    const channel = child.process.channel as { ref?: () => void; unref?: () => void } | undefined;
    if (busy) {
      child.process.ref();
      channel?.ref?.();
    } else {
      child.process.unref();
      channel?.unref?.();
    }
  }

  private spawn(): void {
    const entry = this.options.entry ?? fileURLToPath(new URL('./child.mjs', import.meta.url));
    // No inherited flags: the host may be vitest or a debugger; the child loads tsx itself.
    const proc = fork(entry, [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const child: Child = { process: proc, ready: false };
    this.children.add(child);
    try {
      setPriority(proc.pid!, Math.min(19, getPriority() + NICER_BY));
    } catch {
      /* no such right on this OS: the child runs at the API's priority */
    }
    proc.on('message', (message: { ready?: true; id?: number; settled?: Settled<unknown>; error?: string }) => {
      if (message.ready) {
        child.ready = true;
      } else if (child.busy && message.id === child.busy.id) {
        const { pending } = child.busy;
        child.busy = undefined;
        this.settle(pending, message.settled ?? new Error(message.error ?? '批改出错'));
      }
      if (!child.busy) {
        this.hold(child, false);
        clearTimeout(child.idleTimer);
        child.idleTimer = setTimeout(() => proc.kill('SIGTERM'), this.options.idleMs).unref();
      }
      this.dispatch();
    });
    proc.on('error', () => undefined);
    proc.once('exit', (code, signal) => {
      this.children.delete(child);
      clearTimeout(child.idleTimer);
      if (child.busy) {
        const how = signal ? `被终止（${signal}）` : `退出（代码 ${code}）`;
        this.settle(child.busy.pending, new Error(`批改进程意外${how}，可能是文件过大或内容异常`));
      } else if (!child.ready && this.queue.length) {
        // A child that cannot even start fails the task it was started for, instead of being
        // started again and again.
        this.settle(this.queue.shift()!, new Error(`批改进程无法启动（${signal ?? `代码 ${code}`}）`));
      }
      if (!this.closed) this.dispatch();
    });
  }
}
