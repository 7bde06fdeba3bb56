import type { Db } from '../db/connection';
import type { SessionUser } from './sessionUser';

/** The channel migration 012's triggers notify on (payloads: `s:<token hash>`, `u:<user id>`, `g`). */
export const AUTH_CHANNEL = 'auth_cache';
/** How long an entry answers without the database, even if a notification were lost. */
export const AUTH_CACHE_TTL_MS = 5_000;
/** At most this many sessions and as many permission sets; the oldest go first. */
export const AUTH_CACHE_MAX = 10_000;

export interface CachedSession {
  user: SessionUser;
  /** When the session was last kept alive, on this server's clock (never later than the row says). */
  lastSeen: number;
  fetchedAt: number;
}

/**
 * A short-lived, bounded, per-server cache of live sessions (by token hash) and of the permissions
 * a user's groups grant. It holds nothing another replica needs: every entry is a copy of rows in
 * PostgreSQL, dropped when the database notifies a change (see migration 012) and after
 * AUTH_CACHE_TTL_MS at the latest. Ended sessions are never cached: their -24/-26/5 comes from the row.
 *
 * A read that raced a change is not stored: `generation` counts notifications, and an entry read
 * under an older generation is discarded instead of cached.
 */
export class SessionCache {
  private readonly sessions = new Map<string, CachedSession>();
  private readonly permissionSets = new Map<number, { granted: string[] | null; fetchedAt: number }>();
  private readonly reads = new Map<string, { generation: number; read: Promise<unknown> }>();
  private gen = 0;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly ttlMs = AUTH_CACHE_TTL_MS,
    private readonly max = AUTH_CACHE_MAX,
  ) {}

  /** A cache subscribed to the database's notifications. */
  static async open(db: Db, options: { ttlMs?: number; max?: number } = {}): Promise<SessionCache> {
    const cache = new SessionCache(options.ttlMs, options.max);
    cache.unlisten = await db.listen(AUTH_CHANNEL, (payload) => cache.invalidate(payload));
    return cache;
  }

  async close(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = null;
    this.clear();
  }

  /** Take it before reading the database; pass it to put* so that a raced read is not stored. */
  get generation(): number {
    return this.gen;
  }

  get size(): number {
    return this.sessions.size;
  }

  session(hash: string, now = Date.now()): CachedSession | undefined {
    const entry = this.sessions.get(hash);
    if (entry && now - entry.fetchedAt > this.ttlMs) {
      this.sessions.delete(hash);
      return undefined;
    }
    return entry;
  }

  /** Stores a session read under `generation` and returns its entry; undefined when a notification came meanwhile (not stored). */
  putSession(hash: string, user: SessionUser, lastSeen: number, generation: number): CachedSession | undefined {
    if (generation !== this.gen) return undefined;
    const entry = { user, lastSeen, fetchedAt: Date.now() };
    this.sessions.delete(hash);
    this.sessions.set(hash, entry);
    evictOldest(this.sessions, this.max);
    return entry;
  }

  /**
   * One read at a time per key: calls that miss the cache together share the read in flight (and
   * its refusal). A call never joins a read started before a notification it came after: that read
   * may have missed the change, so the call starts its own.
   */
  shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    const running = this.reads.get(key);
    if (running && running.generation === this.gen) return running.read as Promise<T>;
    const entry = { generation: this.gen, read: read() };
    entry.read = entry.read.finally(() => {
      if (this.reads.get(key) === entry) this.reads.delete(key);
    });
    this.reads.set(key, entry);
    return entry.read as Promise<T>;
  }

  /** undefined: not cached; null: the user is in no group. */
  permissions(userId: number, now = Date.now()): string[] | null | undefined {
    const entry = this.permissionSets.get(userId);
    if (!entry) return undefined;
    if (now - entry.fetchedAt > this.ttlMs) {
      this.permissionSets.delete(userId);
      return undefined;
    }
    return entry.granted;
  }

  putPermissions(userId: number, granted: string[] | null, generation: number): void {
    if (generation !== this.gen) return;
    this.permissionSets.delete(userId);
    this.permissionSets.set(userId, { granted, fetchedAt: Date.now() });
    evictOldest(this.permissionSets, this.max);
  }

  /** Applies one notification; null (notifications may have been lost) empties the cache. */
  invalidate(payload: string | null): void {
    this.gen++;
    if (payload === null) return this.clear();
    const kind = payload.slice(0, 2);
    if (kind === 's:') {
      this.sessions.delete(payload.slice(2));
    } else if (kind === 'u:') {
      const id = Number(payload.slice(2));
      this.permissionSets.delete(id);
      // The user's sessions, and its sub-users' (their cached row names the parent).
      for (const [hash, entry] of this.sessions) {
        if (entry.user.id === id || entry.user.parentId === id) this.sessions.delete(hash);
      }
    } else if (payload === 'g') {
      this.permissionSets.clear();
    } else {
      this.clear();
    }
  }

  clear(): void {
    this.sessions.clear();
    this.permissionSets.clear();
  }
}

function evictOldest<K, V>(map: Map<K, V>, max: number) {
  while (map.size > max) map.delete(map.keys().next().value as K);
}
