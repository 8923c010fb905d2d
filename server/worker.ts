// `npm run worker`: a grading worker process beside the API servers (needs DATABASE_URL).
import { loadConfig } from './config';
import { openDatabase } from './db';
import { createWorker } from './workers';
import { closePools } from './threads/pool';
import { gradingProcesses } from './threads/processes';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('独立的批改进程需要 PostgreSQL：请设置 DATABASE_URL。内置数据库（PGlite）时批改在服务进程内进行。');
  process.exit(1);
}
// A connection per job at once (GRADING_PROCESSES), and two for the leases' heartbeats.
const database = await openDatabase({ url: config.databaseUrl, poolSize: gradingProcesses() + 2 });
const worker = createWorker(database.db, config);
worker.start();
console.log(`批改进程已启动：${worker.id}`);
const stop = async () => {
  await worker.stop();
  await closePools();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
