import type { ServerResponse } from 'node:http';
import type { Db } from '../../db/connection';
import { AUTH_CHANNEL } from '../../auth/sessionCache';
import { tokenHash } from '../../auth/sessions';
import type { SessionUser } from '../../auth/sessionUser';
import type { BizError } from '../../http/envelope';
import { Level, enterpriseIdOf } from '../../../src/domain/levels';
import { DeliveryLedger, formatEvent, parseCursor } from './liveCursor';
import { FanOut, type LiveClient } from './liveFanOut';
import {
  readIdsAbove,
  readNewEvents,
  readReplayBounds,
  readReplayEvents,
  readStartFloor,
  readVisibleDeviceIds,
  type LiveEvent,
} from './liveQueries';
import { SessionWatch } from './liveSessions';

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

/**
 * The live push of one server process (docs/architecture.md, live push). One LISTEN on
 * live_events for the whole process; on each notification it reads the new rows once, in id
 * order, and hands each to the connected consoles whose scope covers the row's device.
 *
 * Ids are taken when a row is inserted but become visible when its transaction commits, so a
 * lower id can appear after a higher one (two transactions, two replicas). The hub keeps a floor
 * (every id at or below it was sent or given up) and the ids sent above it (liveCursor.ts); each
 * read asks for the rows above the floor it has not sent, so a late commit is sent once when it
 * appears, and an id missing for longer than gapGraceMs (a rolled-back transaction) is given up.
 * The streams and what reaches each are liveFanOut.ts's; their session checks and the heartbeat
 * liveSessions.ts's.
 */
export class LiveHub {
  private readonly ledger: DeliveryLedger;
  private readonly fanOut: FanOut;
  private readonly sessions: SessionWatch;
  private draining: Promise<void> | null = null;
  private again = false;
  private unlisten: Array<() => Promise<void>> = [];
  private closed = false;
  readonly options: Required<LiveHubOptions>;

  constructor(
    private readonly db: Db,
    idleMinutes: number,
    options: LiveHubOptions = {},
  ) {
    this.options = {
      heartbeatMs: 25_000,
      gapGraceMs: 30_000,
      replayWindowMs: 3_600_000,
      replayMax: 1000,
      scopeTtlMs: 10_000,
      batch: 500,
      maxBufferedBytes: 1 << 20,
      ...options,
    };
    this.ledger = new DeliveryLedger(this.options.gapGraceMs);
    this.fanOut = new FanOut(this.ledger, this.options.maxBufferedBytes);
    this.sessions = new SessionWatch(db, idleMinutes, this.fanOut, () => this.drain());
  }

  private get clients(): Set<LiveClient> {
    return this.fanOut.clients;
  }

  async start(): Promise<void> {
    // Rows of the last grace period count as sent already (no console was connected): a
    // transaction still open below them is sent when it commits.
    this.ledger.startAt(await readStartFloor(this.db, this.options.gapGraceMs));
    for (const id of await readIdsAbove(this.db, this.ledger.floor)) this.ledger.markDelivered(id);
    this.settle(Date.now());
    this.unlisten.push(await this.db.listen(LIVE_CHANNEL, () => void this.drain().catch(() => undefined)));
    this.unlisten.push(await this.db.listen(AUTH_CHANNEL, (payload) => this.sessions.onAuthChange(payload)));
    this.sessions.start(this.options.heartbeatMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.sessions.stop();
    for (const u of this.unlisten) await u().catch(() => undefined);
    this.unlisten = [];
    for (const c of this.clients) this.fanOut.drop(c);
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
      const events = await readNewEvents(this.db, this.ledger.floor, [...this.ledger.delivered], this.options.batch);
      if (events.length) {
        for (const e of events) this.ledger.markDelivered(e.id);
        await this.refreshScopes();
        for (const e of events) for (const c of this.clients) this.fanOut.offer(c, e);
      }
      this.settle(Date.now());
      if (events.length < this.options.batch) return;
    }
  }

  /** Moves the floor past ids sent and ids given up; the streams forget what is below it. */
  private settle(now: number) {
    this.ledger.settle(now);
    this.fanOut.forgetSentBelow(this.ledger.floor);
  }

  /** Sub-users' visible sets older than scopeTtlMs are read again before events are handed out. */
  private async refreshScopes(force = false) {
    const now = Date.now();
    await Promise.all(
      [...this.clients]
        .filter((c) => c.visible && (force || now - c.visibleAt > this.options.scopeTtlMs))
        .map(async (c) => {
          c.visible = await readVisibleDeviceIds(this.db, c.user);
          c.visibleAt = now;
        }),
    );
  }

  /**
   * Opens a stream on a hijacked response: the first frame is 'hello' (or the replay of what a
   * resuming console missed, or 'reset' when that is more than the replay keeps).
   */
  async open(
    res: ServerResponse,
    user: SessionUser,
    token: string,
    resumeFrom: string | undefined,
    endMessage: (error: BizError) => string,
  ): Promise<void> {
    const client: LiveClient = {
      res,
      user,
      token,
      hash: tokenHash(token),
      endMessage,
      visible: null,
      visibleAt: 0,
      maxSent: this.ledger.maxDelivered,
      sent: new Set(),
      buffer: [],
      had: 0,
      want: new Set(),
      closed: false,
    };
    const gone = () => {
      client.closed = true;
      this.clients.delete(client);
    };
    res.on('close', gone);
    res.on('error', gone);
    if (user.permissionLevel === Level.SubUser) {
      client.visible = await readVisibleDeviceIds(this.db, user);
      client.visibleAt = Date.now();
    }
    if (client.closed || this.closed) return void res.end();
    // Registered before the replay is read: whatever commits meanwhile waits in the buffer.
    this.clients.add(client);
    try {
      const cursor = resumeFrom === undefined ? null : parseCursor(resumeFrom);
      if (resumeFrom === undefined) {
        client.buffer = null;
        this.fanOut.write(client, formatEvent(this.fanOut.cursorOf(client), 'hello', {}));
        return;
      }
      const replay = cursor ? await this.readReplay(client, cursor) : null;
      const pending = client.buffer ?? [];
      client.buffer = null;
      if (!replay) {
        this.fanOut.write(client, formatEvent(this.fanOut.cursorOf(client), 'reset', {}));
      } else {
        client.maxSent = cursor!.max;
        client.had = cursor!.max;
        client.want = new Set(cursor!.missing);
        for (const e of replay) this.fanOut.send(client, e);
        if (!replay.length) this.fanOut.write(client, formatEvent(this.fanOut.cursorOf(client), 'hello', {}));
      }
      const replayed = new Set(replay?.map((e) => e.id));
      for (const e of pending) if (!replayed.has(e.id)) this.fanOut.send(client, e);
    } catch (error) {
      this.fanOut.drop(client);
      throw error;
    }
  }

  /** The rows a resuming console missed, in its scope; null when they are more than the replay keeps. */
  private async readReplay(c: LiveClient, cursor: { max: number; missing: number[] }): Promise<LiveEvent[] | null> {
    const { max, min, stale } = await readReplayBounds(this.db, cursor.max, this.options.replayWindowMs);
    // Older than the replay window, pruned away, or from another database: the console refetches.
    if (stale || cursor.max > max || (min !== null && cursor.max < min - 1)) return null;
    const events = await readReplayEvents(this.db, cursor, {
      windowMs: this.options.replayWindowMs,
      ownerId: c.user.permissionLevel === Level.Admin ? null : enterpriseIdOf(c.user),
      visible: c.visible ? [...c.visible] : null,
      limit: this.options.replayMax + 1,
    });
    if (events.length > this.options.replayMax) return null;
    return events;
  }

  /** Test hook: run a heartbeat now. */
  beatNow(): Promise<void> {
    return this.sessions.beat();
  }
}
