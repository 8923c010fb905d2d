// The shell's lookups (classes, grades, courses a user may pick) are read on every page and change
// only when a school admin edits the school. They are cached per user, role and query, and a
// tenant's entries go stale as soon as any school-structure write of that tenant succeeds — in
// this process at once, in the others through ./invalidations.ts. A short lifetime bounds the
// damage of a write path that forgot to invalidate.
import type { Invalidation, Subscriber } from './invalidations';

const TTL_MS = 30_000;
const MAX_ENTRIES = 20_000;

export interface LookupStore {
  get(tenantId: number, key: string): unknown;
  set(tenantId: number, key: string, data: unknown): void;
  /** After a successful write to a tenant's school structure, here and in every other process. */
  invalidateTenant(tenantId: number): Promise<void>;
}

export class LookupCache implements LookupStore, Subscriber {
  private readonly versions = new Map<number, number>();
  private readonly entries = new Map<string, { data: unknown; version: number; at: number }>();
  private suspended = false;

  constructor(private readonly publish?: (invalidation: Invalidation) => Promise<void>) {}

  private version(tenantId: number): number {
    return this.versions.get(tenantId) ?? 0;
  }

  get(tenantId: number, key: string): unknown {
    if (this.suspended) return undefined;
    const hit = this.entries.get(`${tenantId}|${key}`);
    if (!hit) return undefined;
    if (hit.version !== this.version(tenantId) || Date.now() - hit.at > TTL_MS) {
      this.entries.delete(`${tenantId}|${key}`);
      return undefined;
    }
    return hit.data;
  }

  set(tenantId: number, key: string, data: unknown): void {
    if (this.suspended) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(`${tenantId}|${key}`, { data, version: this.version(tenantId), at: Date.now() });
  }

  async invalidateTenant(tenantId: number): Promise<void> {
    this.receive({ tenantId });
    await this.publish?.({ tenantId });
  }

  receive(invalidation: Invalidation): void {
    if ('tenantId' in invalidation) this.versions.set(invalidation.tenantId, this.version(invalidation.tenantId) + 1);
  }

  suspend(): void {
    this.suspended = true;
    this.entries.clear();
  }

  resume(): void {
    this.suspended = false;
  }
}

/** No caching: every lookup goes to the database. */
export const NO_LOOKUP_CACHE: LookupStore = {
  get: () => undefined,
  set: () => undefined,
  invalidateTenant: async () => undefined,
};
