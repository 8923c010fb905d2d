// Tokens seen in the last few seconds, with their session, kept in memory so that the hot path of
// every call neither verifies the signature again nor waits on the database. An entry is dropped
// once its row stops being fresh (the session ends, or its use is due to be recorded), so the
// cache never keeps an expired or idle session alive and never hides a session's activity.
//
// Revocation stays immediate: logout and password resets evict here and publish the eviction on
// the database (pg_notify); every other API process on the same PostgreSQL listens
// (../cache/invalidations.ts) and evicts too. While a process cannot listen, its cache is
// suspended, so a lost connection never leaves a revoked token usable. PGlite belongs to one
// process: there the local eviction is all there is to do.
import type { Invalidation, Subscriber } from '../cache/invalidations';
import type { PrincipalRow } from './principal';

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface PrincipalStore {
  get(token: string): PrincipalRow | undefined;
  set(token: string, row: PrincipalRow): void;
  /** Forgets a session here and in every other process. */
  evictSession(sessionId: string): Promise<void>;
  /** After a change to a user's sessions, roles or school: forgets every session of theirs, everywhere. */
  evictUser(userId: number): Promise<void>;
}

export class PrincipalCache implements PrincipalStore, Subscriber {
  private readonly entries = new Map<string, { row: PrincipalRow; at: number }>();
  private suspended = false;

  /** `publish` tells the other processes; omit it when this process is the only one. */
  constructor(private readonly publish?: (invalidation: Invalidation) => Promise<void>) {}

  get(token: string): PrincipalRow | undefined {
    if (this.suspended) return undefined;
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    const now = Date.now();
    if (now - hit.at > TTL_MS || now >= new Date(hit.row.fresh_until).getTime()) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.row;
  }

  set(token: string, row: PrincipalRow): void {
    if (this.suspended) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { row, at: Date.now() });
  }

  async evictSession(sessionId: string): Promise<void> {
    this.receive({ sessionId });
    await this.publish?.({ sessionId });
  }

  async evictUser(userId: number): Promise<void> {
    this.receive({ userId });
    await this.publish?.({ userId });
  }

  /** An invalidation published by any process (this one included); tenant and terminal ones are not ours. */
  receive(invalidation: Invalidation): void {
    if (!('sessionId' in invalidation) && !('userId' in invalidation)) return;
    for (const [token, { row }] of this.entries) {
      if ('sessionId' in invalidation ? row.session_id === invalidation.sessionId : row.user_id === invalidation.userId) this.entries.delete(token);
    }
  }

  /** Stops caching (and forgets everything) until resume(): revocations may be missed meanwhile. */
  suspend(): void {
    this.suspended = true;
    this.entries.clear();
  }

  resume(): void {
    this.suspended = false;
  }
}

/** What callers use when caching is off: nothing is kept, nothing to evict. */
export const NO_CACHE: PrincipalStore = {
  get: () => undefined,
  set: () => undefined,
  evictSession: async () => undefined,
  evictUser: async () => undefined,
};
