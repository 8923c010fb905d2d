// Tokens seen in the last few seconds, with their session, kept in memory so that the hot path of
// every call neither verifies the signature again nor waits on the database. Only for the embedded database: PGlite belongs to one process,
// so evicting here on logout or password reset is complete and revocation stays immediate.
// With PostgreSQL, several API processes may serve one session, so the cache is off there.
import type { PrincipalRow } from './principal';

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export class PrincipalCache {
  private readonly entries = new Map<string, { row: PrincipalRow; at: number }>();

  get(token: string): PrincipalRow | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    const now = Date.now();
    if (now - hit.at > TTL_MS || now >= new Date(hit.row.expires_at).getTime()) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.row;
  }

  set(token: string, row: PrincipalRow): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { row, at: Date.now() });
  }

  evictSession(sessionId: string): void {
    for (const [token, { row }] of this.entries) if (row.session_id === sessionId) this.entries.delete(token);
  }

  /** After a change to a user's sessions, roles or school: forget every session of theirs. */
  evictUser(userId: number): void {
    for (const [token, { row }] of this.entries) if (row.user_id === userId) this.entries.delete(token);
  }
}

/** What callers use when caching is off: nothing is kept. */
export const NO_CACHE = {
  get: () => undefined,
  set: () => undefined,
  evictSession: () => undefined,
  evictUser: () => undefined,
} satisfies Pick<PrincipalCache, 'get' | 'set' | 'evictSession' | 'evictUser'>;
