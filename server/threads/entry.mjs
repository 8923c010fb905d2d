// A worker thread of the heavy-work pools (pool.ts). Threads start without the TypeScript loader
// the server runs under (tsx) when the host is vitest or plain node, so the runner is imported
// through tsx's own API, which works under either; the task modules it loads go through it too.
import { tsImport } from 'tsx/esm/api';

const { runTask } = await tsImport('./run.ts', import.meta.url);

export default runTask;
