// A grading child process of the process lane (processes.ts). Like a thread (entry.mjs) it loads
// the runner through tsx's API, so it starts the same under tsx, vitest or plain node. It does
// pure compute: a task in (plain data, bytes included), its settled result out; the database stays
// with the API process. When the API process goes away the IPC channel closes, and so does this.
import { tsImport } from 'tsx/esm/api';

const { runTask } = await tsImport('./run.ts', import.meta.url);

process.on('message', async ({ id, task }) => {
  try {
    process.send({ id, settled: await runTask(task) });
  } catch (error) {
    process.send({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
