// The name of the seeded demo the tests start from: a hash of everything the seed is made of
// (migrations, seed code, the day it dates the work from), so any change to them seeds anew. Its
// own module, free of the seed and the database, so a browser test file that only copies a seeded
// directory does not load them.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** What the seeded database depends on. */
const SEED_SOURCES = ['server/db', 'server/seed', 'server/auth/passwords.ts', 'server/auth/terminalPins.ts', 'server/modules/devices/signature.ts', 'server/modules/minerva/answers.ts', 'server/modules/mercury', 'server/modules/partner', 'src/domain', 'package-lock.json'];

function files(path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).sort().flatMap((name) => files(join(path, name)));
}

export function fingerprint(): string {
  const hash = createHash('sha256');
  // The demo dates its homework back from the seeding day (China time).
  hash.update(new Date(Date.now() + 8 * 3600 * 1000).toISOString().slice(0, 10));
  for (const file of SEED_SOURCES.flatMap(files)) hash.update(relative(root, join(root, file))).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}
