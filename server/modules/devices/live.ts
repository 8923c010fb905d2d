// The fleet's live events (src/domain/alarms.ts LiveEvent): heartbeats, transitions and alarms, fed
// to the partners' open event streams (modules/partner/liveStream.ts). In one process the bus is
// all there is; with PostgreSQL and several API processes, publish also goes out as a notification
// on one channel and each process delivers what it hears (its own included), so a beat taken by
// one process reaches a stream held by another.
// pg loads where a connection is made: on PGlite these never run, and the API process stays smaller.
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import type { LiveEvent } from '../../../src/domain/alarms';

type Listener = (event: LiveEvent) => void;

const CHANNEL = 'xz_device_live';

export class LiveBus {
  private readonly listeners = new Set<Listener>();
  private remote?: (events: LiveEvent[]) => Promise<void>;

  get size(): number {
    return this.listeners.size;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events to every listener: here at once, or through PostgreSQL when the bus is shared. */
  publish(events: LiveEvent[]): void {
    if (!events.length) return;
    if (this.remote) {
      void this.remote(events).catch(() => this.deliver(events));
      return;
    }
    this.deliver(events);
  }

  deliver(events: LiveEvent[]): void {
    // Nobody listening (no partner page open): nothing to do, the common case at night.
    if (!this.listeners.size) return;
    for (const event of events) for (const listener of this.listeners) listener(event);
  }

  /**
   * Shares the bus between API processes through LISTEN/NOTIFY. A notification's payload holds
   * less than 8000 bytes: events go out packed into payloads under NOTIFY_BYTES. While the listening
   * connection is lost, events are delivered here only (a page elsewhere catches up at its next
   * refresh), and the connection is made again after a second.
   */
  async share(db: Db, url: string): Promise<() => Promise<void>> {
    const { default: pgModule } = await import('pg');
    let client: pg.Client | undefined;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    const remote = async (events: LiveEvent[]) => {
      for (const payload of notifyPayloads(events)) await db.execute(sql`SELECT pg_notify(${CHANNEL}, ${payload})`);
    };
    const connect = async (): Promise<void> => {
      const c = new pgModule.Client({ connectionString: url });
      const lost = () => {
        if (closed || client !== c) return;
        this.remote = undefined;
        client = undefined;
        void c.end().catch(() => undefined);
        retry = setTimeout(() => void connect().catch(() => undefined), 1000).unref();
      };
      c.on('error', lost);
      c.on('end', lost);
      c.on('notification', (msg) => {
        if (msg.channel !== CHANNEL || !msg.payload) return;
        try {
          this.deliver(JSON.parse(msg.payload) as LiveEvent[]);
        } catch {
          // A payload we cannot read concerned events a page will see at its next refresh anyway.
        }
      });
      client = c;
      try {
        await c.connect();
        await c.query(`LISTEN ${CHANNEL}`);
        this.remote = remote;
      } catch (error) {
        lost();
        throw error;
      }
    };
    await connect();
    return async () => {
      closed = true;
      clearTimeout(retry);
      this.remote = undefined;
      await client?.end().catch(() => undefined);
    };
  }
}

/** Below PostgreSQL's 8000-byte payload limit, with room for the channel's bookkeeping. */
export const NOTIFY_BYTES = 7500;

/**
 * The events as JSON arrays of at most NOTIFY_BYTES each, in order. An event that alone exceeds the
 * limit (none does: they carry ids, kinds and times) cannot be sent and is left out.
 */
export function notifyPayloads(events: LiveEvent[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let bytes = 2;
  for (const event of events) {
    const json = JSON.stringify(event);
    const size = Buffer.byteLength(json) + 1;
    if (size + 2 > NOTIFY_BYTES) continue;
    if (bytes + size > NOTIFY_BYTES) {
      payloads.push(`[${batch.join(',')}]`);
      batch = [];
      bytes = 2;
    }
    batch.push(json);
    bytes += size;
  }
  if (batch.length) payloads.push(`[${batch.join(',')}]`);
  return payloads;
}
