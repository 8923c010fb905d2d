// The demo fleet (issue 24 §4, §8): re-running the device simulator adds nothing — no print job,
// sign-in or terminal event; a few sheets more is not a refill, a stack is; and the background
// beats keep the simulated terminals 在线 through the real device API, reporting their last
// state (no invented event), while the demo's silent terminals stay 离线, and stop cleanly.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { demoDevice, injectTransport, simulateUsage } from '../support/devices';
import { rows } from '../../server/db/query';
import { keepDemoFleetAlive } from '../../server/devices/keepAlive';
import { demoSerial } from '../../server/seed/partners';
import { OFFLINE_AFTER_SECONDS, REFILL_MIN_SHEETS } from '../../src/domain/partner';

let t: TestApp;
const DEVICES = 10;

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t.close());

const counts = async () =>
  (
    await rows<{ jobs: number; signIns: number; events: number; state: string }>(t.database.db, sql`
      SELECT (SELECT count(*)::int FROM print_jobs) AS jobs, (SELECT count(*)::int FROM device_sign_ins) AS "signIns",
             (SELECT count(*)::int FROM device_events) AS events,
             (SELECT string_agg(serial || ':' || paper_left || ':' || jammed || ':' || firmware, ',' ORDER BY serial) FROM devices) AS state`)
  )[0];

describe('the device simulator', () => {
  it('adds nothing when run again: no job, sign-in or terminal event', async () => {
    const first = await simulateUsage(t.app, { days: 4, devices: DEVICES, heartVoices: false });
    expect(first.jobs).toBeGreaterThan(0);
    const after = await counts();
    expect(after.events).toBeGreaterThan(0);
    const again = await simulateUsage(t.app, { days: 4, devices: DEVICES, heartVoices: false });
    expect(again.deployed).toBe(first.deployed);
    expect(await counts()).toEqual(after);
  });
});

describe('paper refills', () => {
  it(`counts a rise of ${REFILL_MIN_SHEETS} sheets or more as a refill, not a rise of 5`, async () => {
    const client = await demoDevice(t.app, DEVICES + 5);
    const beat = (paperLeft: number) => client.call<{ events: string[] }>('POST', '/api/device/v1/heartbeat', { paperLeft, jammed: false, firmware: '2.4.0' });
    await beat(200);
    expect((await beat(205)).events).toEqual([]);
    expect((await beat(205 + REFILL_MIN_SHEETS - 1)).events).toEqual([]);
    expect((await beat(120)).events).toEqual([]);
    expect((await beat(120 + REFILL_MIN_SHEETS)).events).toEqual(['paperRefilled']);
  });
});

describe('the demo fleet’s background beats', () => {
  it('bring the simulated terminals back online with their last state, leave the silent ones offline, and stop', async () => {
    const db = t.database.db;
    const serials = Array.from({ length: DEVICES }, (_, i) => demoSerial(i + 1));
    const list = sql.join(serials.map((s) => sql`${s}`), sql`, `);
    // Four minutes without a beat: every terminal reads 离线.
    await db.execute(sql`UPDATE devices SET last_seen_at = now() - interval '4 minutes', last_heartbeat_at = now() - interval '4 minutes'
                          WHERE serial IN (${list}) AND last_heartbeat_at IS NOT NULL`);
    const online = async () =>
      (await rows<{ serial: string }>(db, sql`SELECT serial FROM devices WHERE serial IN (${list}) AND last_seen_at > now() - ${`${OFFLINE_AFTER_SECONDS} seconds`}::interval ORDER BY serial`)).map((r) => r.serial);
    expect(await online()).toEqual([]);
    const beaten = (await rows<{ serial: string }>(db, sql`SELECT serial FROM devices WHERE serial IN (${list}) AND last_heartbeat_at IS NOT NULL AND school_id IS NOT NULL ORDER BY serial`)).map((r) => r.serial);
    const silent = (await rows<{ serial: string }>(db, sql`SELECT serial FROM devices WHERE serial IN (${list}) AND last_heartbeat_at IS NULL ORDER BY serial`)).map((r) => r.serial);
    expect(beaten.length).toBeGreaterThan(3);
    const before = await counts();
    const [{ lastEvent }] = await rows<{ lastEvent: number }>(db, sql`SELECT COALESCE(max(id), 0)::int AS "lastEvent" FROM device_events`);
    const fleet = keepDemoFleetAlive(db, injectTransport(t.app), { everyMs: 100 });
    await expect.poll(online, { timeout: 10_000 }).toEqual(beaten);
    await fleet.stop();
    for (const serial of silent) expect(await online()).not.toContain(serial);
    // The same paper, jam and firmware; the only events are the terminals coming back online.
    expect((await counts()).state).toBe(before.state);
    const kinds = await rows<{ kind: string; n: number }>(db, sql`SELECT kind, count(*)::int AS n FROM device_events WHERE id > ${lastEvent} GROUP BY kind`);
    expect(kinds).toEqual([{ kind: 'online', n: beaten.length }]);
    // Stopped: no round runs any more, so terminals left silent again stay offline.
    await db.execute(sql`UPDATE devices SET last_seen_at = now() - interval '4 minutes', last_heartbeat_at = now() - interval '4 minutes' WHERE serial IN (${list})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await online()).toEqual([]);
  });
});
