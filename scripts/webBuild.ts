// Builds the web app (dist/) unless it is newer than every source it is made from, so a second
// `npm start` does not pay for a build it does not need.
import { writeFileSync } from 'node:fs';
import { root, WEB_STAMP, webBuildIsFresh } from './buildStamps.mjs';

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
  writeFileSync(WEB_STAMP, new Date().toISOString());
}

if (import.meta.url === `file://${process.argv[1]}`) await ensureWebBuild();
