import type { ServerResponse } from 'node:http';
import type { SessionUser } from '../../auth/sessionUser';
import type { BizError } from '../../http/envelope';
import { Level, enterpriseIdOf } from '../../../src/domain/levels';
import { formatCursor, formatEvent, type DeliveryLedger } from './liveCursor';
import type { LiveEvent } from './liveQueries';

/** One console's stream: who it belongs to, and what it may see (docs/requirements.md §6, server/auth/deviceScope.ts). */
export interface LiveClient {
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

/** The streams of one hub, and how an event reaches those whose scope covers its device. */
export class FanOut {
  readonly clients = new Set<LiveClient>();

  constructor(
    private readonly ledger: DeliveryLedger,
    private readonly maxBufferedBytes: number,
  ) {}

  cursorOf(c: LiveClient): string {
    return formatCursor(c.maxSent, this.ledger.missingBelow(c.maxSent, c.sent));
  }

  /** Ids at or below the floor need not be remembered per stream any more. */
  forgetSentBelow(floor: number): void {
    for (const c of this.clients) for (const id of c.sent) if (id <= floor) c.sent.delete(id);
  }

  private visibleTo(c: LiveClient, e: LiveEvent): boolean {
    const level = c.user.permissionLevel;
    if (level === Level.Admin) return true;
    if (e.ownerId !== enterpriseIdOf(c.user)) return false;
    if (level === Level.Enterprise) return true;
    return c.visible?.has(e.deviceId) ?? false;
  }

  offer(c: LiveClient, e: LiveEvent): void {
    if (c.closed || !this.visibleTo(c, e)) return;
    if (c.buffer) {
      c.buffer.push(e);
      return;
    }
    this.send(c, e);
  }

  send(c: LiveClient, e: LiveEvent): void {
    if (c.sent.has(e.id)) return;
    if (e.id <= c.had && !c.want.delete(e.id)) return;
    if (e.id > this.ledger.floor) c.sent.add(e.id);
    c.maxSent = Math.max(c.maxSent, e.id);
    this.write(c, formatEvent(this.cursorOf(c), e.kind, { deviceId: e.deviceId, ...e.data }));
  }

  write(c: LiveClient, chunk: string): void {
    if (c.closed) return;
    c.res.write(chunk);
    // A console that cannot keep up (a stalled link) is let go; it comes back with Last-Event-ID.
    if (c.res.writableLength > this.maxBufferedBytes) this.drop(c);
  }

  drop(c: LiveClient): void {
    if (c.closed) return;
    c.closed = true;
    this.clients.delete(c);
    c.res.end();
  }
}
