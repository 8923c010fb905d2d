// `npm start`: builds the web app and the server's bundle if their sources changed, then runs the
// server's bundle in this process. Plain JavaScript, so the server runs without the TypeScript
// loader (tsx) in its process: only a build goes through it, in a process of its own.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, SERVER_BUNDLE, serverBuildIsFresh, webBuildIsFresh } from './buildStamps.mjs';

if (!webBuildIsFresh() || !serverBuildIsFresh()) {
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(SERVER_BUNDLE).href);
