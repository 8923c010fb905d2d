// What every browser test file starts with and ends with: the web build, one server on a copy of the
// seeded data (options as startServer's), one browser and the screenshot folder, then both stopped.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser } from './browser';
import { startServer, type RunningServer, type StartOptions } from './serverProcess';

export async function openServerAndBrowser(shots: string, options?: StartOptions): Promise<{ server: RunningServer; browser: Browser }> {
  await ensureWebBuild();
  mkdirSync(shots, { recursive: true });
  // Both at once: the browser launches while the server opens its database.
  const [server, browser] = await Promise.allSettled([startServer(options), launchBrowser()]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled') return { server: server.value, browser: browser.value };
  // One of them failed: the other would outlive the file.
  if (server.status === 'fulfilled') await server.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}

export async function closeServerAndBrowser(server: RunningServer | undefined, browser: Browser | undefined): Promise<void> {
  await Promise.all([browser?.close(), server?.stop()]);
}
