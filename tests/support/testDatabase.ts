// A fresh, migrated and seeded database per test file: in-memory PGlite by default, or a new
// database on the PostgreSQL server named by DATABASE_URL (so CI runs never collide), copied from
// a seeded template.
//
// On PGlite the demo seed (a term of homework and exams with every student's answers) is built
// once and kept as a snapshot of the data directory in the temp folder; each test file opens its
// own copy. The snapshot's name fingerprints everything the seed is made of (migrations, seed
// code, the day it dates the work from), so any change to them seeds anew.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db';
import { rows } from '../../server/db/query';
import { seedDemo } from '../../server/seed';
import { fingerprint } from './seedFingerprint';

/** The terminal PIN key of test apps (testConfig): the seeded students' PINs are hashed with it. */
export const TEST_PIN_KEY = new TextEncoder().encode('test-terminal-pin-key-test-terminal-pin-key');
/** The seeded demo's name (tests/support/seedFingerprint.ts). */
export { fingerprint };

/**
 * The snapshot's bytes as the Blob PGlite's loadDataDir takes. PGlite reads it with arrayBuffer(),
 * which in Node 20 copies 116 MB in chunks and joins them: 0.7 s for every test file. PGlite only
 * reads the tar (Emscripten's writeFile copies each file into the database's own file system), so
 * every test file can be given the same bytes.
 */
class Snapshot extends Blob {
  private readonly contents: ArrayBuffer;
  constructor(tar: Uint8Array) {
    super([], { type: 'application/x-tar' });
    // A buffer of its own, exactly the tar: a file's bytes may be a view into a larger one.
    this.contents = tar.buffer.slice(tar.byteOffset, tar.byteOffset + tar.byteLength) as ArrayBuffer;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.contents);
  }
}

/**
 * The snapshot read once per worker: API files share their worker's modules (isolate: false), and
 * reading 116 MB again for every file cost more than a small file's tests.
 */
let loaded: { name: string; blob: Blob } | undefined;

async function seededSnapshot(): Promise<Blob> {
  const name = `xz-seeded-${fingerprint()}.tar`;
  if (loaded?.name === name) return loaded.blob;
  const file = join(tmpdir(), name);
  if (existsSync(file)) return (loaded = { name, blob: new Snapshot(readFileSync(file)) }).blob;
  const database = await openDatabase();
  await seedDemo(database.db, { pinKey: TEST_PIN_KEY });
  const dump = Buffer.from(await (await database.dump!()).arrayBuffer());
  const [{ wal }] = await rows<{ wal: string }>(database.db, sql`SELECT pg_walfile_name(pg_current_wal_lsn()) AS wal`);
  await database.close();
  const snapshot = withoutSpareWal(dump, wal);
  // Another test file may be writing the same snapshot: write aside, then rename (atomic).
  const partial = `${file}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, snapshot);
  renameSync(partial, file);
  for (const old of readdirSync(tmpdir())) {
    if (old.startsWith('xz-seeded-') && old !== name && !old.startsWith(`${name}.`)) rmSync(join(tmpdir(), old), { force: true });
  }
  return (loaded = { name, blob: new Snapshot(snapshot) }).blob;
}

/**
 * The dump without the WAL segments PostgreSQL keeps for reuse: after the dump's checkpoint only
 * the current segment is needed to start, and the 4 spare ones (64 MB of 150) cost every test
 * file's copy time. A tar entry is a 512-byte header (name at 0, octal size at 124) and its data
 * padded to 512 bytes.
 */
function withoutSpareWal(tar: Buffer, current: string): Buffer {
  const kept: Buffer[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) {
      kept.push(tar.subarray(at));
      break;
    }
    const name = header.subarray(0, 100).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    const end = at + 512 + Math.ceil(size / 512) * 512;
    const segment = /(^|\/)pg_wal\/([0-9A-F]{24})$/.exec(name);
    if (!segment || segment[2] === current) kept.push(tar.subarray(at, end));
    at = end;
  }
  return Buffer.concat(kept);
}

/**
 * On PostgreSQL the seeded demo is built once into a template database named by the same
 * fingerprint (under an advisory lock, so parallel test files wait for one seeding), and each
 * test file's database is a copy of it: CREATE DATABASE … TEMPLATE copies files, far quicker than
 * seeding a term of work again.
 */
async function seededTemplate(admin: pg.Client, url: string): Promise<string> {
  const name = `xz_tpl_${fingerprint()}`;
  await admin.query('SELECT pg_advisory_lock(727274)');
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return name;
    // Templates of older sources are of no further use.
    const old = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'xz\_tpl\_%'");
    for (const { datname } of old.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    const building = `${name}_build`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const target = new URL(url);
    target.pathname = `/${building}`;
    const database = await openDatabase({ url: target.toString() });
    await seedDemo(database.db, { pinKey: TEST_PIN_KEY });
    await database.close();
    // Renamed only once complete: a run stopped halfway leaves no template that looks seeded.
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(727274)');
  }
}

/**
 * Makes the seeded demo the API files copy (the PGlite snapshot, or the PostgreSQL template) if this
 * run's sources have none yet. Run once before the API files (tests/support/apiSetup.ts): seeding a
 * term of work takes one to several minutes, longer than a test file's set-up may wait.
 */
export async function prepareSeededDemo(url = process.env.DATABASE_URL): Promise<void> {
  if (!url) {
    await seededSnapshot();
    return;
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await seededTemplate(admin, url);
  } finally {
    await admin.end();
  }
}

/**
 * The test database; `url` is set on PostgreSQL, for tests that start other processes on it.
 * `sharedBuffers`: PGlite's (createTestApp sets it); PostgreSQL's default otherwise, as benchmarks
 * that time queries need.
 */
export async function openTestDatabase({ seed = true, url = process.env.DATABASE_URL, sharedBuffers }: { seed?: boolean; url?: string; sharedBuffers?: string } = {}): Promise<Database & { url?: string }> {
  if (!url) return openDatabase({ sharedBuffers, ...(seed ? { loadDataDir: await seededSnapshot() } : {}) });
  const name = `xz_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    if (seed) await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await seededTemplate(admin, url)}`);
    else await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString() });
  return {
    ...database,
    url: target.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
