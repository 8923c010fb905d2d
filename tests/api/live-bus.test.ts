// The fleet's live events between API processes: published with pg_notify, whose payload must stay
// under 8000 bytes, and heard by every process's bus, in order, however many come at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db';
import { openDatabase } from '../../server/db';
import { LiveBus, NOTIFY_BYTES, notifyPayloads } from '../../server/modules/devices/live';
import type { LiveEvent } from '../../src/domain/alarms';
import { openTestDatabase } from '../support/testDatabase';

/** `n` events of uneven sizes (some with long kind lists), as a sweep after an outage sends. */
const events = (n: number): LiveEvent[] =>
  Array.from({ length: n }, (_, i) =>
    i % 7 === 0
      ? { type: 'change', deviceId: i, partnerId: 1 + (i % 3), at: new Date(1_800_000_000_000 + i).toISOString(), kinds: Array.from({ length: 1 + (i % 40) }, () => 'paperRefilled') }
      : { type: 'beat', deviceId: i, partnerId: 1 + (i % 3), at: new Date(1_800_000_000_000 + i).toISOString(), paperLeft: i % 500, jammed: i % 2 === 0 },
  );

describe('notification payloads', () => {
  it('pack every event, in order, into payloads under the limit', () => {
    const sent = events(2000);
    const payloads = notifyPayloads(sent);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(NOTIFY_BYTES);
    expect(payloads.flatMap((p) => JSON.parse(p))).toEqual(sent);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the bus shared through PostgreSQL (needs DATABASE_URL)', () => {
  let seeded: Database & { url?: string };
  const processes: { bus: LiveBus; database: Database; unshare: () => Promise<void> }[] = [];
  beforeAll(async () => {
    seeded = await openTestDatabase({ seed: false });
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ url: seeded.url, poolSize: 2 });
      const bus = new LiveBus();
      processes.push({ bus, database, unshare: await bus.share(database.db, seeded.url!) });
    }
  });
  afterAll(async () => {
    for (const p of processes) {
      await p.unshare();
      await p.database.close();
    }
    await seeded?.close();
  });

  it('delivers 2,000 events published by one process to the other, in order', async () => {
    const [a, b] = processes;
    const heard: LiveEvent[] = [];
    b.bus.subscribe((e) => heard.push(e));
    const sent = events(2000);
    a.bus.publish(sent);
    const end = Date.now() + 10_000;
    while (heard.length < sent.length && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual(sent);
  });
});
