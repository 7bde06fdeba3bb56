import type { Db } from '../db/connection';
import { readDeviceCredentials } from './deviceCredentialQueries';

/** The channel migration 018's triggers notify on (payloads: `d:<device number>`, `new`, `all`). */
export const DEVICE_CHANNEL = 'device_cache';
/** How long an entry answers before it is read again, even if a notification were lost. */
export const DEVICE_CACHE_TTL_MS = 60_000;
/** At most this many device numbers (known or unknown); the oldest go first. */
export const DEVICE_CACHE_MAX = 200_000;
/** Numbers read per lookup query. */
const LOOKUP_CHUNK = 1_000;

/** What a device proves itself against: its row's id, activation and secret hash. */
export interface DeviceCredentials {
  id: number;
  activated: boolean;
  secretHash: string | null;
}

interface Entry {
  row: DeviceCredentials | null;
  fetchedAt: number;
}
interface Caller {
  resolve(row: DeviceCredentials | null): void;
  reject(error: unknown): void;
}

/**
 * Per server, the credential rows of the devices that reported lately, by device number, so a
 * report over HTTP or MQTT costs no lookup query (docs/architecture.md, "Ingest"). It holds only
 * copies of rows: the database notifies every change that could make one wrong (migration 018:
 * a device's number, activation or secret changed, the device deleted, devices added), whatever
 * code made it, on every replica. Unknown numbers are cached too, until devices are added.
 *
 * Lookups asked for in the same turn of the event loop share one query (a whole fleet's first
 * reports after a start). An entry older than the TTL is still used while it is read again, so a
 * fleet's entries, cached together, do not make their reports wait together. A read that raced a
 * notification answers its callers but is not stored.
 */
export class DeviceCache {
  private readonly entries = new Map<string, Entry>();
  private waiting = new Map<string, Caller[]>();
  private gen = 0;
  private unlisten: (() => Promise<void>) | null = null;

  private constructor(
    private readonly db: Db,
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  static async open(db: Db, options: { ttlMs?: number; max?: number } = {}): Promise<DeviceCache> {
    const cache = new DeviceCache(db, options.ttlMs ?? DEVICE_CACHE_TTL_MS, options.max ?? DEVICE_CACHE_MAX);
    cache.unlisten = await db.listen(DEVICE_CHANNEL, (payload) => cache.invalidate(payload));
    return cache;
  }

  async close(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = null;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The device's credential row, or null for a number no device has. */
  async get(deviceNum: string): Promise<DeviceCredentials | null> {
    const hit = this.entries.get(deviceNum);
    if (!hit) return this.read(deviceNum);
    if (Date.now() - hit.fetchedAt >= this.ttlMs && !this.waiting.has(deviceNum)) {
      hit.fetchedAt = Date.now(); // one refresh at a time
      void this.read(deviceNum).catch(() => undefined);
    }
    return hit.row;
  }

  /** Applies one notification; null (notifications may have been lost) empties the cache. */
  invalidate(payload: string | null): void {
    this.gen++;
    if (payload?.startsWith('d:')) {
      this.entries.delete(payload.slice(2));
    } else if (payload === 'new') {
      for (const [num, entry] of this.entries) if (!entry.row) this.entries.delete(num);
    } else {
      this.entries.clear();
    }
  }

  private read(deviceNum: string): Promise<DeviceCredentials | null> {
    return new Promise((resolve, reject) => {
      if (!this.waiting.size) setImmediate(() => void this.flush());
      const callers = this.waiting.get(deviceNum) ?? [];
      callers.push({ resolve, reject });
      this.waiting.set(deviceNum, callers);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = new Map();
    const generation = this.gen;
    const nums = [...batch.keys()];
    const found = new Map<string, DeviceCredentials>();
    try {
      for (let i = 0; i < nums.length; i += LOOKUP_CHUNK) {
        const rows = await readDeviceCredentials(this.db, nums.slice(i, i + LOOKUP_CHUNK));
        for (const row of rows) found.set(row.num, { id: row.id, activated: row.activated, secretHash: row.secret_hash });
      }
    } catch (error) {
      // The database is down: callers get what was cached, if anything, else the failure.
      for (const [num, callers] of batch) {
        const hit = this.entries.get(num);
        for (const caller of callers) {
          if (hit) caller.resolve(hit.row);
          else caller.reject(error);
        }
      }
      return;
    }
    const store = generation === this.gen;
    for (const [num, callers] of batch) {
      const row = found.get(num) ?? null;
      if (store) {
        this.entries.delete(num);
        this.entries.set(num, { row, fetchedAt: Date.now() });
      }
      for (const caller of callers) caller.resolve(row);
    }
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }
}
