// Session revocations across API processes through PostgreSQL's LISTEN/NOTIFY, for the in-memory
// principal caches (./principalCache.ts).
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import type { PrincipalCache, Revocation } from './principalCache';

const CHANNEL = 'xz_auth_revocations';

/** Publishes a revocation; delivered to every listener when this statement commits. */
export function publisher(db: Db) {
  return async (revocation: Revocation) => {
    await db.execute(sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(revocation)})`);
  };
}

/**
 * Keeps one connection listening and feeds the cache. The cache is suspended until the first
 * LISTEN succeeds and whenever the connection is lost, and resumes after reconnecting.
 */
export function listenForRevocations(url: string, cache: PrincipalCache): { ready: Promise<void>; close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  cache.suspend();

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    const lost = () => {
      if (closed || client !== c) return;
      cache.suspend();
      client = undefined;
      retry = setTimeout(() => void connect().catch(() => undefined), 1000);
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        cache.receive(JSON.parse(msg.payload) as Revocation);
      } catch {
        // A message we cannot read may have named any session: forget them all.
        cache.clear();
      }
    });
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      cache.resume();
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
