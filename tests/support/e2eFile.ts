// What every browser test file starts with and ends with: the web build, one server on a copy of the
// seeded data (options as startServer's), one browser and the screenshot folder, then both stopped.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/webBuild';
import { launchBrowser } from './browser';
import { startServer, type RunningServer, type StartOptions } from './serverProcess';

export async function openServerAndBrowser(shots: string, options?: StartOptions): Promise<{ server: RunningServer; browser: Browser }> {
  await ensureWebBuild();
  const server = await startServer(options);
  try {
    const browser = await launchBrowser();
    mkdirSync(shots, { recursive: true });
    return { server, browser };
  } catch (error) {
    // No browser: the server would outlive the file.
    await server.stop();
    throw error;
  }
}

export async function closeServerAndBrowser(server: RunningServer | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close();
  await server?.stop();
}
