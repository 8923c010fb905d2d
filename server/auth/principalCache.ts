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
  /**
   * The row for a token not in the cache: `check` verifies it and reads the session (throwing a
   * refusal), and its row is kept. Requests for the same token while a check is under way share it.
   */
  load(token: string, check: (token: string) => Promise<PrincipalRow>): Promise<PrincipalRow>;
  /** Forgets a session here and in every other process. */
  evictSession(sessionId: string): Promise<void>;
  /** After a change to a user's sessions, roles or school: forgets every session of theirs, everywhere. */
  evictUser(userId: number): Promise<void>;
}

export class PrincipalCache implements PrincipalStore, Subscriber {
  private readonly entries = new Map<string, { row: PrincipalRow; at: number }>();
  /** Checks under way, by token; an eviction forgets them, so nobody joins a check begun before it. */
  private readonly checking = new Map<string, Promise<PrincipalRow>>();
  private suspended = false;
  /** Counts evictions. */
  private epoch = 0;

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

  load(token: string, check: (token: string) => Promise<PrincipalRow>): Promise<PrincipalRow> {
    const pending = this.checking.get(token);
    if (pending) return pending;
    const epoch = this.epoch;
    const loading = check(token).then((row) => {
      // A row read before an eviction may be the revoked session's: answered once, never kept.
      if (epoch === this.epoch) this.set(token, row);
      return row;
    });
    this.checking.set(token, loading);
    const forget = () => {
      if (this.checking.get(token) === loading) this.checking.delete(token);
    };
    loading.then(forget, forget);
    return loading;
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
    this.epoch++;
    this.checking.clear();
    for (const [token, { row }] of this.entries) {
      if ('sessionId' in invalidation ? row.session_id === invalidation.sessionId : row.user_id === invalidation.userId) this.entries.delete(token);
    }
  }

  /** Stops caching (and forgets everything) until resume(): revocations may be missed meanwhile. */
  suspend(): void {
    this.suspended = true;
    this.epoch++;
    this.entries.clear();
    this.checking.clear();
  }

  resume(): void {
    this.suspended = false;
  }
}

/** What callers use when caching is off: nothing is kept, nothing to evict. */
export const NO_CACHE: PrincipalStore = {
  get: () => undefined,
  set: () => undefined,
  load: (token, check) => check(token),
  evictSession: async () => undefined,
  evictUser: async () => undefined,
};
