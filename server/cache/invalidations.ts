// Invalidations across API processes through PostgreSQL's LISTEN/NOTIFY, for the in-memory caches
// (session cache, lookup cache). A process that cannot listen suspends its caches, so a lost
// connection never serves a revoked session or a stale class list.
// pg loads where a connection is made: on PGlite these never run, and the API process stays smaller.
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';

export type Invalidation =
  /** Logout: this session ends. */
  | { sessionId: string }
  /** Password reset, role change, account removal: every session of this user ends. */
  | { userId: number }
  /** A school-structure write: cached lookups of this tenant are stale. */
  | { tenantId: number }
  /** A terminal's secret was rotated: the old one must stop working everywhere at once. */
  | { deviceId: number };

/** A cache that hears invalidations and can stop serving while it might miss some. */
export interface Subscriber {
  receive(invalidation: Invalidation): void;
  suspend(): void;
  resume(): void;
}

const CHANNEL = 'xz_cache_invalidations';

/** Publishes an invalidation; delivered to every listener when this statement commits. */
export function publisher(db: Db) {
  return async (invalidation: Invalidation) => {
    await db.execute(sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(invalidation)})`);
  };
}

/**
 * Keeps one connection listening and feeds the subscribers. They are suspended until the first
 * LISTEN succeeds and whenever the connection is lost, and resume after reconnecting.
 */
export function listenForInvalidations(url: string, subscribers: Subscriber[]): { ready: Promise<void>; close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const suspend = () => subscribers.forEach((s) => s.suspend());
  suspend();

  const connect = async (): Promise<void> => {
    const { default: pgModule } = await import('pg');
    // Closed while pg was loading: nothing to listen for.
    if (closed) return;
    const c = new pgModule.Client({ connectionString: url });
    const lost = () => {
      if (closed || client !== c) return;
      suspend();
      client = undefined;
      retry = setTimeout(() => void connect().catch(() => undefined), 1000);
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      let invalidation: Invalidation;
      try {
        invalidation = JSON.parse(msg.payload) as Invalidation;
      } catch {
        // A message we cannot read may have concerned anything: start over empty.
        subscribers.forEach((s) => (s.suspend(), s.resume()));
        return;
      }
      subscribers.forEach((s) => s.receive(invalidation));
    });
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      subscribers.forEach((s) => s.resume());
    } catch (error) {
      lost();
      throw error;
    }
  };

  return {
    ready: connect(),
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
