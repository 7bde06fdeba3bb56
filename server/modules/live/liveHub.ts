import type { ServerResponse } from 'node:http';
import type { Db } from '../../db/connection';
import { AUTH_CHANNEL } from '../../auth/sessionCache';
import { resolveSession, tokenHash } from '../../auth/sessions';
import type { SessionUser } from '../../auth/sessionUser';
import { visibleDevicesSql, scopeParams } from '../../auth/deviceScope';
import { BizError } from '../../http/envelope';
import { Level, enterpriseIdOf } from '../../../src/domain/levels';
import { ErrorCode } from '../../../src/domain/errorCodes';

/** The channel migration 014's triggers notify after each transaction that wrote live_events. */
export const LIVE_CHANNEL = 'live_events';

export interface LiveHubOptions {
  /** A comment line this often keeps proxies from closing a quiet stream (and checks idle sessions). */
  heartbeatMs?: number;
  /**
   * How long an id below the highest one read may stay missing before it is given up (its
   * transaction rolled back). A transaction that took an id earlier but commits later than a
   * newer one is still sent when it commits within this time.
   */
  gapGraceMs?: number;
  /** Replay on resume covers at most this much time and this many events; beyond, a 'reset'. */
  replayWindowMs?: number;
  replayMax?: number;
  /** A sub-user's visible devices are read again after this long (grants send no notification). */
  scopeTtlMs?: number;
  /** Rows read per statement when the hub catches up. */
  batch?: number;
  /** A client whose unsent bytes pile up beyond this is closed; it resumes with Last-Event-ID. */
  maxBufferedBytes?: number;
}

export interface LiveEvent {
  id: number;
  kind: string;
  deviceId: number;
  ownerId: number;
  data: Record<string, unknown>;
}

/** Who a stream belongs to, and what it may see (docs/requirements.md §6, server/auth/deviceScope.ts). */
interface Client {
  res: ServerResponse;
  user: SessionUser;
  token: string;
  hash: string;
  /** Translates an ended session's refusal into the stream's language. */
  endMessage: (error: BizError) => string;
  /** A sub-user's visible device ids and when they were read; null for the other levels. */
  visible: Set<number> | null;
  visibleAt: number;
  /** The highest id sent, and the ids sent above the hub's floor (to name what is still missing). */
  maxSent: number;
  sent: Set<number>;
  /** While the replay is read, live events wait here. */
  buffer: LiveEvent[] | null;
  /**
   * A resuming console had every id up to its cursor but the ones it named missing: another
   * replica may send those ids again (it reads later than the one the console left), so they are skipped.
   */
  had: number;
  want: Set<number>;
  closed: boolean;
}

type Row = { id: string; kind: string; device_id: number; owner_id: number; data: Record<string, unknown> };
const toEvent = (r: Row): LiveEvent => ({ id: Number(r.id), kind: r.kind, deviceId: r.device_id, ownerId: r.owner_id, data: r.data ?? {} });

/** `id: 41` normally; `id: 41.38.39` when 38 and 39 (below 41) were not committed yet when 41 was sent. */
export function formatCursor(max: number, missing: readonly number[]): string {
  return [max, ...missing].join('.');
}

/** The cursor a console sends back (Last-Event-ID); null when it is not one of ours. */
export function parseCursor(value: string | undefined | null): { max: number; missing: number[] } | null {
  if (value === undefined || value === null || value === '') return null;
  if (!/^\d{1,16}(\.\d{1,16}){0,200}$/.test(value)) return null;
  const [max, ...missing] = value.split('.').map(Number);
  return { max: max!, missing };
}

/** One SSE frame; the data line is the device id and the row's data, nothing more (bytes at sea). */
export function formatEvent(cursor: string, kind: string, data: unknown): string {
  return `id: ${cursor}\nevent: ${kind}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The live push of one server process (docs/architecture.md, live push). One LISTEN on
 * live_events for the whole process; on each notification it reads the new rows once, in id
 * order, and hands each to the connected consoles whose scope covers the row's device.
 *
 * Ids are taken when a row is inserted but become visible when its transaction commits, so a
 * lower id can appear after a higher one (two transactions, two replicas). The hub keeps a floor
 * (every id at or below it was sent or given up) and the ids sent above it; each read asks for
 * the rows above the floor it has not sent, so a late commit is sent once when it appears, and an
 * id missing for longer than gapGraceMs (a rolled-back transaction) is given up.
 */
export class LiveHub {
  private readonly clients = new Set<Client>();
  private floor = 0;
  private maxDelivered = 0;
  private readonly delivered = new Set<number>();
  /** Ids below maxDelivered not seen yet, with when they were first missed. */
  private readonly gaps = new Map<number, number>();
  private draining: Promise<void> | null = null;
  private again = false;
  private unlisten: Array<() => Promise<void>> = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private closed = false;
  readonly options: Required<LiveHubOptions>;

  constructor(private readonly db: Db, private readonly idleMinutes: number, options: LiveHubOptions = {}) {
    this.options = {
      heartbeatMs: 25_000, gapGraceMs: 30_000, replayWindowMs: 3_600_000, replayMax: 1000, scopeTtlMs: 10_000,
      batch: 500, maxBufferedBytes: 1 << 20, ...options,
    };
  }

  async start(): Promise<void> {
    // Rows of the last grace period count as sent already (no console was connected): a
    // transaction still open below them is sent when it commits.
    const [row] = await this.db.query<{ floor: string | null }>(
      `SELECT coalesce((SELECT max(id) FROM live_events WHERE at < now() - make_interval(secs => $1::float8 / 1000)), 0)::text AS floor`,
      [this.options.gapGraceMs]);
    this.floor = Number(row?.floor ?? 0);
    this.maxDelivered = this.floor;
    const recent = await this.db.query<{ id: string }>('SELECT id::text AS id FROM live_events WHERE id > $1 ORDER BY id', [this.floor]);
    for (const r of recent) this.markDelivered(Number(r.id));
    this.settle(Date.now());
    this.unlisten.push(await this.db.listen(LIVE_CHANNEL, () => void this.drain().catch(() => undefined)));
    this.unlisten.push(await this.db.listen(AUTH_CHANNEL, (payload) => this.onAuthChange(payload)));
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const u of this.unlisten) await u().catch(() => undefined);
    this.unlisten = [];
    for (const c of this.clients) this.drop(c);
    await this.draining?.catch(() => undefined);
  }

  get connections(): number {
    return this.clients.size;
  }

  /** Reads what was committed since the last read and sends it; calls during a read run once more after it. */
  drain(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      try {
        do {
          this.again = false;
          await this.readOnce();
        } while (this.again && !this.closed);
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }

  private async readOnce(): Promise<void> {
    for (;;) {
      const rows = await this.db.query<Row>(
        `SELECT id::text AS id, kind, device_id, owner_id, data FROM live_events
          WHERE id > $1 AND NOT (id = ANY($2::bigint[])) ORDER BY id LIMIT $3`,
        [this.floor, [...this.delivered], this.options.batch]);
      const events = rows.map(toEvent);
      if (events.length) {
        for (const e of events) this.markDelivered(e.id);
        await this.refreshScopes();
        for (const e of events) for (const c of this.clients) this.offer(c, e);
      }
      this.settle(Date.now());
      if (rows.length < this.options.batch) return;
    }
  }

  private markDelivered(id: number) {
    if (id <= this.floor || this.delivered.has(id)) return;
    this.delivered.add(id);
    this.gaps.delete(id);
    if (id > this.maxDelivered) {
      for (let g = Math.max(this.maxDelivered + 1, this.floor + 1); g < id; g++) if (!this.delivered.has(g)) this.gaps.set(g, Date.now());
      this.maxDelivered = id;
    }
  }

  /** Moves the floor past ids sent and ids missing for longer than the grace period. */
  private settle(now: number) {
    for (;;) {
      const next = this.floor + 1;
      if (next > this.maxDelivered) break;
      if (this.delivered.has(next)) this.delivered.delete(next);
      else if (now - (this.gaps.get(next) ?? now) >= this.options.gapGraceMs) this.gaps.delete(next);
      else break;
      this.floor = next;
    }
    for (const c of this.clients) for (const id of c.sent) if (id <= this.floor) c.sent.delete(id);
  }

  /** The ids below `max` a client has not been sent but may still be (their transactions are open). */
  private missingFor(c: Client): number[] {
    const out: number[] = [];
    for (const g of this.gaps.keys()) if (g < c.maxSent && !c.sent.has(g)) out.push(g);
    return out.sort((a, b) => a - b);
  }

  private cursorOf(c: Client): string {
    return formatCursor(c.maxSent, this.missingFor(c));
  }

  private visibleTo(c: Client, e: LiveEvent): boolean {
    const level = c.user.permissionLevel;
    if (level === Level.Admin) return true;
    if (e.ownerId !== enterpriseIdOf(c.user)) return false;
    if (level === Level.Enterprise) return true;
    return c.visible?.has(e.deviceId) ?? false;
  }

  private offer(c: Client, e: LiveEvent) {
    if (c.closed || !this.visibleTo(c, e)) return;
    if (c.buffer) {
      c.buffer.push(e);
      return;
    }
    this.send(c, e);
  }

  private send(c: Client, e: LiveEvent) {
    if (c.sent.has(e.id)) return;
    if (e.id <= c.had && !c.want.delete(e.id)) return;
    if (e.id > this.floor) c.sent.add(e.id);
    c.maxSent = Math.max(c.maxSent, e.id);
    this.write(c, formatEvent(this.cursorOf(c), e.kind, { deviceId: e.deviceId, ...e.data }));
  }

  private write(c: Client, chunk: string) {
    if (c.closed) return;
    c.res.write(chunk);
    // A console that cannot keep up (a stalled link) is let go; it comes back with Last-Event-ID.
    if (c.res.writableLength > this.options.maxBufferedBytes) this.drop(c);
  }

  private drop(c: Client) {
    if (c.closed) return;
    c.closed = true;
    this.clients.delete(c);
    c.res.end();
  }

  private async readVisible(user: SessionUser): Promise<Set<number>> {
    const rows = await this.db.query<{ id: number }>(`SELECT d.id FROM devices d WHERE ${visibleDevicesSql(user)}`, scopeParams(user));
    return new Set(rows.map((r) => r.id));
  }

  /** Sub-users' visible sets older than scopeTtlMs are read again before events are handed out. */
  private async refreshScopes(force = false) {
    const now = Date.now();
    await Promise.all([...this.clients].filter((c) => c.visible && (force || now - c.visibleAt > this.options.scopeTtlMs)).map(async (c) => {
      c.visible = await this.readVisible(c.user);
      c.visibleAt = now;
    }));
  }

  /**
   * Opens a stream on a hijacked response: the first frame is 'hello' (or the replay of what a
   * resuming console missed, or 'reset' when that is more than the replay keeps).
   */
  async open(res: ServerResponse, user: SessionUser, token: string, resumeFrom: string | undefined, endMessage: (error: BizError) => string): Promise<void> {
    const client: Client = {
      res, user, token, hash: tokenHash(token), endMessage,
      visible: null, visibleAt: 0, maxSent: this.maxDelivered, sent: new Set(), buffer: [], had: 0, want: new Set(), closed: false,
    };
    const gone = () => {
      client.closed = true;
      this.clients.delete(client);
    };
    res.on('close', gone);
    res.on('error', gone);
    if (user.permissionLevel === Level.SubUser) {
      client.visible = await this.readVisible(user);
      client.visibleAt = Date.now();
    }
    if (client.closed || this.closed) return void res.end();
    // Registered before the replay is read: whatever commits meanwhile waits in the buffer.
    this.clients.add(client);
    try {
      const cursor = resumeFrom === undefined ? null : parseCursor(resumeFrom);
      if (resumeFrom === undefined) {
        client.buffer = null;
        this.write(client, formatEvent(this.cursorOf(client), 'hello', {}));
        return;
      }
      const replay = cursor ? await this.readReplay(client, cursor) : null;
      const pending = client.buffer ?? [];
      client.buffer = null;
      if (!replay) {
        this.write(client, formatEvent(this.cursorOf(client), 'reset', {}));
      } else {
        client.maxSent = cursor!.max;
        client.had = cursor!.max;
        client.want = new Set(cursor!.missing);
        for (const e of replay) this.send(client, e);
        if (!replay.length) this.write(client, formatEvent(this.cursorOf(client), 'hello', {}));
      }
      const replayed = new Set(replay?.map((e) => e.id));
      for (const e of pending) if (!replayed.has(e.id)) this.send(client, e);
    } catch (error) {
      this.drop(client);
      throw error;
    }
  }

  /** The rows a resuming console missed, in its scope; null when they are more than the replay keeps. */
  private async readReplay(c: Client, cursor: { max: number; missing: number[] }): Promise<LiveEvent[] | null> {
    const [bounds] = await this.db.query<{ max: string | null; min: string | null; stale: boolean }>(
      `SELECT (SELECT max(id) FROM live_events)::text AS max, (SELECT min(id) FROM live_events)::text AS min,
              EXISTS (SELECT 1 FROM live_events WHERE id > $1 AND at < now() - make_interval(secs => $2::float8 / 1000)) AS stale`,
      [cursor.max, this.options.replayWindowMs]);
    const max = Number(bounds?.max ?? 0);
    const min = bounds?.min === null || bounds?.min === undefined ? null : Number(bounds.min);
    // Older than the replay window, pruned away, or from another database: the console refetches.
    if (bounds?.stale || cursor.max > max || (min !== null && cursor.max < min - 1)) return null;
    const level = c.user.permissionLevel;
    const rows = await this.db.query<Row>(
      `SELECT id::text AS id, kind, device_id, owner_id, data FROM live_events
        WHERE (id > $1 OR id = ANY($2::bigint[])) AND at >= now() - make_interval(secs => $3::float8 / 1000)
          AND ($4::int IS NULL OR owner_id = $4) AND ($5::int[] IS NULL OR device_id = ANY($5::int[]))
        ORDER BY id LIMIT $6`,
      [cursor.max, cursor.missing, this.options.replayWindowMs,
        level === Level.Admin ? null : enterpriseIdOf(c.user), c.visible ? [...c.visible] : null, this.options.replayMax + 1]);
    if (rows.length > this.options.replayMax) return null;
    return rows.map(toEvent);
  }

  /** A session change another call (or replica) made: the streams it concerns check their session now. */
  private onAuthChange(payload: string | null) {
    if (payload === 'g') return;
    let affected: Client[];
    if (payload === null) {
      affected = [...this.clients];
      // Notifications may have been lost: the live events too.
      void this.drain().catch(() => undefined);
    } else if (payload.startsWith('s:')) {
      const hash = payload.slice(2);
      affected = [...this.clients].filter((c) => c.hash === hash);
    } else if (payload.startsWith('u:')) {
      const id = Number(payload.slice(2));
      affected = [...this.clients].filter((c) => c.user.id === id || c.user.parentId === id);
      for (const c of affected) if (c.visible) c.visibleAt = 0;
    } else {
      affected = [...this.clients];
    }
    for (const c of affected) void this.checkSession(c);
  }

  /**
   * A stream whose session ended (logout, a login elsewhere -24, idle -26) ends with an 'end'
   * event carrying the code and message a call would have answered, so the console reacts as
   * docs/requirements.md §8 says; a stream is a background call and keeps no session alive.
   */
  private async checkSession(c: Client): Promise<void> {
    if (c.closed) return;
    try {
      const user = await resolveSession(this.db, c.token, this.idleMinutes, { background: true });
      if (user.permissionLevel !== c.user.permissionLevel || user.parentId !== c.user.parentId) {
        // The account changed level or parent: its scope is another; the console starts over.
        this.end(c, new BizError(ErrorCode.TokenInvalid));
      }
    } catch (error) {
      if (error instanceof BizError) this.end(c, error);
    }
  }

  private end(c: Client, error: BizError) {
    this.write(c, `event: end\ndata: ${JSON.stringify({ code: error.code, msg: c.endMessage(error) })}\n\n`);
    this.drop(c);
  }

  /** The heartbeat: a comment line per stream, and one query for sessions that ended or went idle. */
  private async beat(): Promise<void> {
    if (!this.clients.size) return;
    for (const c of this.clients) this.write(c, ':\n\n');
    const hashes = [...new Set([...this.clients].map((c) => c.hash))];
    try {
      const live = await this.db.query<{ token_hash: string }>(
        `SELECT token_hash FROM sessions WHERE token_hash = ANY($1::text[]) AND ended_at IS NULL
            AND last_seen_at > now() - make_interval(mins => $2::int)`, [hashes, this.idleMinutes]);
      const ok = new Set(live.map((r) => r.token_hash));
      for (const c of [...this.clients]) if (!ok.has(c.hash)) void this.checkSession(c);
      // A missed notification costs at most one heartbeat.
      await this.drain();
    } catch {
      /* the next beat tries again */
    }
  }

  /** Test hook: run a heartbeat now. */
  beatNow(): Promise<void> {
    return this.beat();
  }
}
