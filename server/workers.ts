// The queue workers of this product and their handlers, shared by the server (in process) and
// `npm run worker` (separate processes, PostgreSQL only: PGlite belongs to one process). Either way
// the compute of a job runs in the grading child processes of threads/processes.ts.
import type { AppConfig } from './config';
import type { Db } from './db';
import { fileStoreFor } from './files/stores';
import { Worker } from './jobs/worker';
import { gradingProcesses } from './threads/processes';
import { correctionHandlers } from './modules/correct/jobs';

export function createWorker(db: Db, config: AppConfig): Worker {
  // The uploads' store: with FILE_STORE=postgres a worker on another machine reads them too.
  const store = fileStoreFor(config, db);
  return new Worker(db, correctionHandlers(db, store), {
    leaseMs: 120_000,
    pollMs: 2_000,
    // One job per grading process (threads/processes.ts): the reading runs there, this process
    // only gathers its input and writes its result.
    concurrency: gradingProcesses(),
    onError: (error) => console.error('批改任务出错', error),
  });
}
