// PGlite runs no autovacuum: the server's keeper (server/db/statistics.ts) vacuums and analyzes the
// tables autovacuum would, so the planner knows their sizes. Against the real test database: a
// table changed well past the threshold is analyzed (its row estimate follows), one barely
// touched is left alone, and a second pass finds nothing left to do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../support/testDatabase';
import { refreshStatistics } from '../../server/db/statistics';
import { rows } from '../../server/db/query';
import type { Database } from '../../server/db';

let database: Database;
const estimate = async (table: string) => (await rows<{ n: number }>(database.db, sql`SELECT reltuples::int AS n FROM pg_class WHERE oid = ${table}::regclass`))[0].n;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('planner statistics', () => {
  it('analyzes the tables changed past autovacuum\'s threshold, and only those', async () => {
    // Whatever opening the copy left due goes first.
    await refreshStatistics(database.db);
    const before = await estimate('rooms');
    // The insert's counts reach pg_stat_user_tables when its session next reports them, at most once
    // a second; the keeper runs every few minutes, the test at once, so the report is forced here.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO rooms (tenant_id, school_id, name, kind)
        SELECT s.tenant_id, s.id, '统计测试' || i, (SELECT kind FROM rooms LIMIT 1) FROM schools s, generate_series(1, 200) AS i WHERE s.id = (SELECT min(id) FROM schools)`);
      await tx.execute(sql`SELECT pg_stat_force_next_flush()`);
    });
    const done = await refreshStatistics(database.db);
    // On PostgreSQL autovacuum may have got there first; PGlite has only this keeper.
    if (!process.env.DATABASE_URL) expect(done).toContain('public.rooms');
    expect(done).not.toContain('public.students');
    expect(await estimate('rooms')).toBe(before + 200);
    expect(await refreshStatistics(database.db)).toEqual([]);
  });
});
