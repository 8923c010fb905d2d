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
/** The files the bundle was made from, as esbuild listed them, written beside it after a build. */
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

/**
 * The bundle is fresh when it is newer than every file it was made from (a new file matters only
 * once a listed file imports it, and that file then changed), the lock file and the build script.
 */
export function serverBuildIsFresh() {
  if (!existsSync(SERVER_BUNDLE) || !existsSync(SERVER_INPUTS)) return false;
  const built = statSync(SERVER_BUNDLE).mtimeMs;
  const inputs = [...JSON.parse(readFileSync(SERVER_INPUTS, 'utf8')), 'package-lock.json', 'scripts/serverBuild.ts'];
  return inputs.every((file) => newest(join(root, file)) <= built && existsSync(join(root, file)));
}
