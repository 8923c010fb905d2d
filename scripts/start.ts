// `npm start`: build the web app if its sources changed, then run the server.
import { ensureWebBuild } from './webBuild';

await ensureWebBuild();
await import('../server/main');
