// Runs once before the API files, in Vitest's main process: the seeded demo every API file copies
// is made here, so the first files of a run on new sources do not each seed it at the same time
// while their set-up's time runs out.
import type { TestProject } from 'vitest/node';
import { seededDataDir } from './serverProcess';
import { prepareSeededDemo } from './testDatabase';

export default async function setup(project: TestProject): Promise<void> {
  // When the browser project is in the run (npm test, not npm run test:server), the data directory
  // its servers copy is seeded at the same time, by a server process of its own: on new sources each
  // seeding keeps one core busy for most of a minute, and one after the other they left the other
  // core idle. e2eSetup then finds it made; a run of API files alone keeps it for the next one.
  const browserTests = project.vitest.projects.some((p) => p.name === 'e2e');
  await Promise.all([prepareSeededDemo(), browserTests ? seededDataDir() : undefined]);
}
