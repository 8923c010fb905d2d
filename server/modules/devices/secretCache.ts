// Serial → terminal id and secret, kept in memory: every signed request needs them and the
// heartbeat path is hot. A secret changes only when a partner rotates it (设备管理 重置密钥); then
// the old one must stop at once, in this process and, through ./../../cache/invalidations.ts, in
// every other API process. While invalidations cannot be heard (the listener is down) nothing is
// cached, so a rotated secret is never served from a stale entry.
import type { Invalidation, Subscriber } from '../../cache/invalidations';

const MAX_ENTRIES = 50_000;

export interface DeviceKey {
  id: number;
  secret: string;
}

export class DeviceSecretCache implements Subscriber {
  private readonly entries = new Map<string, DeviceKey>();
  private suspended = false;
  /** Counts invalidations, so a secret read from the database before one is not cached after it. */
  private epoch = 0;

  constructor(private readonly publish?: (invalidation: Invalidation) => Promise<void>) {}

  get(serial: string): DeviceKey | undefined {
    return this.suspended ? undefined : this.entries.get(serial);
  }

  /** Taken before reading a secret from the database; passed to set. */
  version(): number {
    return this.epoch;
  }

  /** Keeps a secret read since `version` — unless a secret changed meanwhile (it may be the old one). */
  set(serial: string, key: DeviceKey, version: number): void {
    if (this.suspended || version !== this.epoch) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(serial, key);
  }

  /** After a terminal's secret changed (committed): forgotten here and in every other process. */
  async invalidate(deviceId: number): Promise<void> {
    this.receive({ deviceId });
    await this.publish?.({ deviceId });
  }

  receive(invalidation: Invalidation): void {
    if (!('deviceId' in invalidation)) return;
    this.epoch++;
    for (const [serial, key] of this.entries) if (key.id === invalidation.deviceId) this.entries.delete(serial);
  }

  suspend(): void {
    this.suspended = true;
    this.epoch++;
    this.entries.clear();
  }

  resume(): void {
    this.suspended = false;
  }
}
