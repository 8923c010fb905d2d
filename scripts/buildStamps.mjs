// Whether the web build (dist/) and the server's bundle (dist-server/) are newer than what they are
// made from. Plain JavaScript: `npm start` (start.mjs) checks this before it runs the server without
// the TypeScript loader, and only then pays for a build.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..');
export const WEB_STAMP = join(root, 'dist', '.build-stamp');
export const WEB_SOURCES = ['src', 'index.html', 'account.html', 'public', 'vite.config.ts', 'package-lock.json'];
/** The server's bundle: `current` links to the newest build's folder (scripts/serverBuild.ts). */
export const SERVER_BUNDLE = join(root, 'dist-server', 'current', 'main.mjs');
/** The build's record, written beside it: where it was made, when it began, the files esbuild read. */
export const SERVER_INPUTS = join(root, 'dist-server', 'current', 'inputs.json');

/** The newest modification time under a path (0 when it does not exist). */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), info.mtimeMs);
}

export function webBuildIsFresh() {
  return existsSync(WEB_STAMP) && statSync(WEB_STAMP).mtimeMs >= Math.max(...WEB_SOURCES.map((s) => newest(join(root, s))));
}

/** What a server build reads besides the modules esbuild lists. */
const SERVER_BUILD_FILES = ['package-lock.json', 'tsconfig.json', 'scripts/serverBuild.ts', 'scripts/buildStamps.mjs'];

/**
 * The bundle is fresh when it was made in this folder (its paths are this checkout's) and no file it
 * was made from changed after its build began (a new file matters only once a listed file imports
 * it, and that file then changed). The build's start, not its end: a file saved while a build ran
 * may not be in it.
 */
export function serverBuildIsFresh() {
  if (!existsSync(SERVER_BUNDLE) || !existsSync(SERVER_INPUTS)) return false;
  const build = JSON.parse(readFileSync(SERVER_INPUTS, 'utf8'));
  if (build.root !== root) return false;
  return [...build.inputs, ...SERVER_BUILD_FILES].every((file) => existsSync(join(root, file)) && newest(join(root, file)) <= build.began);
}
