// Builds the web app (dist/) unless it is newer than every source it is made from, so a second
// `npm start` does not pay for a build it does not need.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const SOURCES = ['src', 'index.html', 'account.html', 'public', 'vite.config.ts', 'package-lock.json'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), info.mtimeMs);
}

export function webBuildIsFresh(): boolean {
  return existsSync(stamp) && statSync(stamp).mtimeMs >= Math.max(...SOURCES.map((s) => newest(join(root, s))));
}

export async function ensureWebBuild(): Promise<void> {
  if (webBuildIsFresh()) return;
  console.log('正在构建前端…');
  const { build } = await import('vite');
  // Vite bundles React for whatever NODE_ENV the process has; under Vitest that is 'test', which
  // gave the browser tests a development build (slower, and not what schools run).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, logLevel: 'warn', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (import.meta.url === `file://${process.argv[1]}`) await ensureWebBuild();
