// Database access: embedded PGlite by default, PostgreSQL when DATABASE_URL is set.
// One schema and one set of migrations serve both drivers.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
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
  /** PGlite in memory, starting from a dump of another PGlite's data (tests' seeded snapshot). */
  loadDataDir?: Blob;
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
    return { db, driver: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = options.dataDir ? await PGlite.create(options.dataDir) : await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder });
  return {
    db,
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
