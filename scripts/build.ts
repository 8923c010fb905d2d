// `npm run build`: the web app and the server's bundle, each only if its sources changed.
import { ensureServerBuild } from './serverBuild';
import { ensureWebBuild } from './webBuild';

await ensureWebBuild();
await ensureServerBuild();
