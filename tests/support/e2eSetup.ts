// Runs once before the browser tests, in Vitest's main process: the web build and the seeded data
// directory every test server starts from are made here, so test files running side by side never
// build or seed the same thing at the same time.
import { ensureWebBuild } from '../../scripts/webBuild';
import { seededDataDir } from './serverProcess';

export default async function setup(): Promise<void> {
  await ensureWebBuild();
  await seededDataDir();
}
