// Runs once before the API files, in Vitest's main process: the seeded demo every API file copies
// is made here, so the first files of a run on new sources do not each seed it at the same time
// while their set-up's time runs out.
import { prepareSeededDemo } from './testDatabase';

export default async function setup(): Promise<void> {
  await prepareSeededDemo();
}
