// DATABASE_READ_URL: analysis, boards and exports read from a streaming replica. The test makes a
// real primary and replica (tests/support/replica.ts), loads the seeded demo into the primary, and
// pauses the replica's replay: a rename written on the primary is then missing from what those
// screens read and present in what the rest reads; once the replica replays, both agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db';
import { ConfigError, loadConfig } from '../../server/config';
import { openTestDatabase } from '../support/testDatabase';
import { testConfig } from '../support/testApp';
import { canStartReplicaPair, startReplicaPair, type ReplicaPair } from '../support/replica';
import { readRows } from '../support/school';

const SUFFIX = '（副本检验）';

describe('DATABASE_READ_URL', () => {
  it('is refused without DATABASE_URL, in Chinese', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://127.0.0.1:5433/x', DATA_DIR: '/tmp/xz-read-url' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://127.0.0.1:5433/x', DATA_DIR: '/tmp/xz-read-url' })).toThrow(/只读副本/);
  });
});

describe.skipIf(!process.env.DATABASE_URL || !canStartReplicaPair())('analysis, boards and exports on a streaming replica (PostgreSQL)', () => {
  let pair: ReplicaPair;
  let database: Database;
  let app: FastifyInstance;
  let primary: pg.Client;
  /** The replica's `postgres` database: replay is paused, resumed and watched there. */
  let replica: pg.Client;

  beforeAll(async () => {
    pair = await startReplicaPair();
    // The seeded demo, copied from the machine's cluster into the new primary.
    const seeded = await openTestDatabase();
    try {
      const dump = pair.tool('pg_dump', ['-Fc', '--no-owner', seeded.url!]);
      pair.tool('createdb', ['-h', '127.0.0.1', '-p', new URL(pair.primaryUrl).port, '-U', 'postgres', 'demo']);
      pair.tool('pg_restore', ['--no-owner', '-d', pair.primaryUrl.replace(/\/postgres$/, '/demo')], dump);
    } finally {
      await seeded.close();
    }
    const primaryUrl = pair.primaryUrl.replace(/\/postgres$/, '/demo');
    const replicaUrl = pair.replicaUrl.replace(/\/postgres$/, '/demo');
    primary = new pg.Client({ connectionString: primaryUrl });
    await primary.connect();
    // Replay is steered and watched from the replica's own maintenance database.
    replica = new pg.Client({ connectionString: pair.replicaUrl });
    await replica.connect();
    await caughtUp();
    database = await openDatabase({ url: primaryUrl, readUrl: replicaUrl, poolSize: 4 });
    app = await buildApp({ db: database.db, readDb: database.readDb, config: testConfig() });
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await primary?.end();
    await replica?.end();
    await pair?.stop();
  });

  /** Waits until the replica has replayed everything the primary has written. */
  async function caughtUp(): Promise<void> {
    const { rows: [{ lsn }] } = await primary.query('SELECT pg_current_wal_lsn()::text AS lsn');
    for (const deadline = Date.now() + 30_000; ; ) {
      const { rows: [{ done }] } = await replica.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]);
      if (done) return;
      if (Date.now() > deadline) throw new Error('the replica did not catch up in 30 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function signIn(username: string) {
    const res = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password: 'Demo@2026' } });
    expect(res.statusCode).toBe(200);
    return { 'blade-auth': `bearer ${res.json().data.accessToken}` };
  }

  /** What each reader sees: the principal's 学校概况 file name, partner1's board of schools, the rooms workbook and the rooms list. */
  async function look() {
    const principal = await signIn('principal');
    const partner = await signIn('partner1');
    const admin = await signIn('schooladmin');
    const activity = await app.inject({ url: '/api/analysis/v1.0/activity/export', headers: principal });
    expect(activity.statusCode).toBe(200);
    const board = await app.inject({ url: '/api/wrongbook/v1.0/partner/board/schools?size=50', headers: partner });
    expect(board.statusCode).toBe(200);
    const exported = await app.inject({ url: '/api/rooms/export', headers: admin });
    expect(exported.statusCode).toBe(200);
    const listed = await app.inject({ url: '/api/rooms?range=[0,99]', headers: admin });
    expect(listed.statusCode).toBe(200);
    const roomRows = await readRows(exported.rawPayload);
    return {
      activityFile: decodeURIComponent(String(activity.headers['content-disposition'])),
      boardSchools: (board.json().data.records as { schoolName: string }[]).map((s) => s.schoolName),
      exportedRooms: roomRows.slice(1).map((r) => r[roomRows[0].indexOf('名称')]),
      listedRooms: (listed.json().data as { name: string }[]).map((r) => r.name),
    };
  }

  it('reads from the replica: a write shows there only once it is replayed', async () => {
    const before = await look();
    expect(before.boardSchools.length).toBeGreaterThan(0);
    expect(before.exportedRooms.length).toBeGreaterThan(0);
    expect(before.exportedRooms.every((name) => name && !name.endsWith(SUFFIX))).toBe(true);
    expect(before.activityFile).not.toContain(SUFFIX);

    await replica.query('SELECT pg_wal_replay_pause()');
    for (;;) {
      const { rows: [{ state }] } = await replica.query('SELECT pg_get_wal_replay_pause_state() AS state');
      if (state === 'paused') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await primary.query(`UPDATE schools SET name = name || $1`, [SUFFIX]);
    await primary.query(`UPDATE rooms SET name = name || $1`, [SUFFIX]);
    // A moment for the WAL to reach the replica: it is received there, not replayed.
    await new Promise((r) => setTimeout(r, 300));

    const paused = await look();
    expect(paused.activityFile).not.toContain(SUFFIX);
    expect(paused.boardSchools).toEqual(before.boardSchools);
    expect(paused.exportedRooms).toEqual(before.exportedRooms);
    // The list is not a heavy read: it comes from the primary, renamed at once.
    expect(paused.listedRooms.length).toBeGreaterThan(0);
    expect(paused.listedRooms.every((name) => name.endsWith(SUFFIX))).toBe(true);

    await replica.query('SELECT pg_wal_replay_resume()');
    await caughtUp();
    const after = await look();
    expect(after.activityFile).toContain(SUFFIX);
    expect(after.boardSchools.every((name) => name.endsWith(SUFFIX))).toBe(true);
    expect(after.exportedRooms.sort()).toEqual(before.exportedRooms.map((n) => n + SUFFIX).sort());
  });
});
