// `npm run worker`: a grading worker process beside the API servers (needs DATABASE_URL).
import { loadConfig } from './config';
import { openDatabase } from './db';
import { createWorker } from './workers';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('独立的批改进程需要 PostgreSQL：请设置 DATABASE_URL。内置数据库（PGlite）时批改在服务进程内进行。');
  process.exit(1);
}
const database = await openDatabase({ url: config.databaseUrl, poolSize: 2 });
const worker = createWorker(database.db, config);
worker.start();
console.log(`批改进程已启动：${worker.id}`);
const stop = async () => {
  await worker.stop();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
