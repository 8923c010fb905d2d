// The queue workers of this product and their handlers, shared by the server (in process) and
// `npm run worker` (separate processes, PostgreSQL only: PGlite belongs to one process).
import { join } from 'node:path';
import type { AppConfig } from './config';
import type { Db } from './db';
import { LocalFileStore } from './files/store';
import { Worker } from './jobs/worker';
import { correctionHandlers } from './modules/correct/jobs';

export function createWorker(db: Db, config: AppConfig): Worker {
  const store = new LocalFileStore(join(config.dataDir, 'files'));
  return new Worker(db, correctionHandlers(db, store), {
    leaseMs: 120_000,
    pollMs: 2_000,
    onError: (error) => console.error('批改任务出错', error),
  });
}
