// A fresh, migrated and seeded database per test file: in-memory PGlite by default, or a new
// database on the PostgreSQL server named by DATABASE_URL (so CI runs never collide).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db';
import { seedDemo } from '../../server/db/seed';

/** The test database; `url` is set on PostgreSQL, for tests that start other processes on it. */
export async function openTestDatabase({ seed = true, url = process.env.DATABASE_URL } = {}): Promise<Database & { url?: string }> {
  if (!url) {
    const database = await openDatabase();
    if (seed) await seedDemo(database.db);
    return database;
  }
  const name = `xz_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString() });
  if (seed) await seedDemo(database.db);
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
