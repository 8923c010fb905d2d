// A worker: claims jobs of the kinds it has handlers for, runs one at a time, renews its lease
// while it works, and writes results through complete() so each job's result lands once.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { claim, complete, fail, heartbeat, type Job } from './queue';

export interface JobContext {
  /** Aborted when the worker stops or loses the job to another worker. */
  signal: AbortSignal;
}

export interface JobHandler<R = unknown> {
  kind: string;
  /** Does the work; must not write results (that is `save`'s job). */
  run(job: Job, ctx: JobContext): Promise<R>;
  /** Writes the result inside the transaction that marks the job done. */
  save(tx: Db, job: Job, result: R): Promise<void>;
  /** After the last failed attempt: record the failure for users (e.g. status 7 with a Chinese reason). */
  onDead?(db: Db, job: Job, error: string): Promise<void>;
}

export interface WorkerOptions {
  leaseMs?: number;
  pollMs?: number;
  baseBackoffMs?: number;
  id?: string;
  /** Jobs run at once (each in its own loop); one unless told. */
  concurrency?: number;
  onError?: (error: unknown) => void;
}

export class Worker {
  readonly id: string;
  private readonly handlers = new Map<string, JobHandler>();
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly current = new Set<AbortController>();
  private readonly wakers = new Set<() => void>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly baseBackoffMs: number;

  constructor(
    private readonly db: Db,
    handlers: JobHandler[],
    private readonly options: WorkerOptions = {},
  ) {
    for (const h of handlers) this.handlers.set(h.kind, h as JobHandler);
    this.id = options.id ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.baseBackoffMs = options.baseBackoffMs ?? 2000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: Math.max(1, this.options.concurrency ?? 1) }, () => this.run());
  }

  /** Asks the worker to look for work now instead of at the next poll. */
  notify(): void {
    for (const wake of this.wakers) wake();
  }

  /**
   * Stops taking jobs and lets the job in hand finish for up to `graceMs`; after that it is
   * abandoned (aborted, no result written) and its lease runs out for another worker to retry.
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.running = false;
    this.notify();
    const timer = setTimeout(() => {
      for (const c of this.current) c.abort();
    }, graceMs);
    await Promise.all(this.loops);
    clearTimeout(timer);
  }

  /** Runs one job if one is due; returns whether it found one. */
  async runOnce(): Promise<boolean> {
    const job = await claim(this.db, this.id, [...this.handlers.keys()], this.leaseMs);
    if (!job) return false;
    const handler = this.handlers.get(job.kind)!;
    const controller = new AbortController();
    this.current.add(controller);
    const beat = setInterval(() => {
      heartbeat(this.db, job, this.id, this.leaseMs)
        .then((owned) => owned || controller.abort())
        .catch(() => undefined);
    }, Math.max(50, this.leaseMs / 3));
    try {
      const result = await handler.run(job, { signal: controller.signal });
      // Even after an abort the result may be written: complete() writes only while this worker
      // still owns the job, so a lease lost to another worker writes nothing.
      await complete(this.db, job, this.id, (tx) => handler.save(tx, job, result));
    } catch (error) {
      if (!controller.signal.aborted) {
        const message = error instanceof Error ? error.message : String(error);
        const outcome = await fail(this.db, job, this.id, message, this.baseBackoffMs);
        if (outcome === 'dead') await handler.onDead?.(this.db, job, message);
      }
    } finally {
      clearInterval(beat);
      this.current.delete(controller);
    }
    return true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let found = false;
      try {
        found = await this.runOnce();
      } catch (error) {
        this.options.onError?.(error);
      }
      if (!found && this.running) {
        let wake!: () => void;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          this.wakers.add(wake);
        });
        this.wakers.delete(wake);
      }
    }
  }
}
