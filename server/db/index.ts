// Database access: embedded PGlite by default, PostgreSQL when DATABASE_URL is set.
// One schema and one set of migrations serve both drivers.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /**
   * Where the heavy reads go (analysis, boards, exports): a streaming replica when DATABASE_READ_URL
   * is set, otherwise the same database as `db`. A replica lags the primary by its replay delay, so
   * a screen that must show its own write at once reads from `db`.
   */
  readDb: Db;
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: its data directory as a tarball, to open copies with `loadDataDir`. */
  dump?: () => Promise<Blob | File>;
}

const migrationsFolder = join(import.meta.dirname, 'migrations');

export interface OpenOptions {
  /** postgres:// URL; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; omitted means in memory (tests). */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** postgres:// URL of a read-only replica of `url` (DATABASE_READ_URL); never migrated here. */
  readUrl?: string;
  /** PGlite in memory, starting from a dump of another PGlite's data (tests' seeded snapshot). */
  loadDataDir?: Blob;
  /**
   * PGlite: PostgreSQL's shared_buffers inside the WASM heap. PostgreSQL touches every buffer at
   * start, so its default (128MB) is 128 MB of the API process's memory from the first second; the
   * data directory's files stay in the OS's page cache either way, so a smaller pool costs a copy
   * per page read, not a disk read. On disk PGLITE_SHARED_BUFFERS, default 32MB; in memory
   * PostgreSQL's default unless set (test files set 16MB).
   */
  sharedBuffers?: string;
}

/** PGLITE_SHARED_BUFFERS as PostgreSQL reads it (e.g. 32MB), or the default. */
export function pgliteSharedBuffers(value: string | undefined): string {
  return value && /^\d{1,6}(kB|MB|GB)$/.test(value) ? value : '32MB';
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  if (options.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle connection the server drops (a restart, a terminated backend) is reported here; with
    // no listener Node would crash the process. The pool replaces the connection on next use.
    pool.on('error', (err) => console.warn(`[db] idle connection lost: ${err.message}`));
    const db = drizzle(pool, { schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder });
    if (!options.readUrl) return { db, readDb: db, driver: 'postgres', close: () => pool.end() };
    const readPool = new pg.Pool({ connectionString: options.readUrl, max: options.poolSize ?? 10 });
    readPool.on('error', (err) => console.warn(`[db] idle replica connection lost: ${err.message}`));
    const readDb = drizzle(readPool, { schema }) as unknown as Db;
    return { db, readDb, driver: 'postgres', close: async () => void (await Promise.all([pool.end(), readPool.end()])) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const buffers = (size: string | undefined) => ({ startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${pgliteSharedBuffers(size)}`] });
  const client = options.dataDir
    ? await PGlite.create(options.dataDir, buffers(options.sharedBuffers))
    : await PGlite.create({
        ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
        ...(options.sharedBuffers ? buffers(options.sharedBuffers) : {}),
      });
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder });
  return {
    db,
    readDb: db,
    driver: 'pglite',
    close: () => client.close(),
    dump: async () => {
      // A checkpoint first: a copy opened from this dump then starts without replaying the WAL
      // written since the last one, which halved the time to open the seeded test database.
      await client.query('CHECKPOINT');
      return client.dumpDataDir('none');
    },
  };
}
