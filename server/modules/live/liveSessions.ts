import type { Db } from '../../db/connection';
import { resolveSession } from '../../auth/sessions';
import { readLiveTokenHashes } from '../../auth/sessionQueries';
import { BizError } from '../../http/envelope';
import { ErrorCode } from '../../../src/domain/errorCodes';
import type { FanOut, LiveClient } from './liveFanOut';

/**
 * The session checks of a hub's streams (docs/architecture.md, live push, "Sessions"): a session
 * change another call or replica made (auth_cache, migration 012) makes the streams it concerns
 * check their session at once; the heartbeat writes a comment line per stream (for proxies) and
 * checks every stream's session in one query.
 */
export class SessionWatch {
  private heartbeat: NodeJS.Timeout | null = null;

  /** `drain`: the hub's read of what was committed (a missed notification costs at most one heartbeat). */
  constructor(
    private readonly db: Db,
    private readonly idleMinutes: number,
    private readonly fanOut: FanOut,
    private readonly drain: () => Promise<void>,
  ) {}

  start(heartbeatMs: number): void {
    this.heartbeat = setInterval(() => this.beat(), heartbeatMs);
    this.heartbeat.unref();
  }

  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
  }

  /** A session change another call (or replica) made: the streams it concerns check their session now. */
  onAuthChange(payload: string | null): void {
    if (payload === 'g') return;
    const clients = this.fanOut.clients;
    let affected: LiveClient[];
    if (payload === null) {
      affected = [...clients];
      // Notifications may have been lost: the live events too.
      void this.drain().catch(() => undefined);
    } else if (payload.startsWith('s:')) {
      const hash = payload.slice(2);
      affected = [...clients].filter((c) => c.hash === hash);
    } else if (payload.startsWith('u:')) {
      const id = Number(payload.slice(2));
      affected = [...clients].filter((c) => c.user.id === id || c.user.parentId === id);
      for (const c of affected) if (c.visible) c.visibleAt = 0;
    } else {
      affected = [...clients];
    }
    for (const c of affected) void this.checkSession(c);
  }

  /**
   * A stream whose session ended (logout, a login elsewhere -24, idle -26) ends with an 'end'
   * event carrying the code and message a call would have answered, so the console reacts as
   * docs/requirements.md §8 says; a stream is a background call and keeps no session alive.
   */
  private async checkSession(c: LiveClient): Promise<void> {
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

  private end(c: LiveClient, error: BizError): void {
    this.fanOut.write(c, `event: end\ndata: ${JSON.stringify({ code: error.code, msg: c.endMessage(error) })}\n\n`);
    this.fanOut.drop(c);
  }

  /** The heartbeat: a comment line per stream, and one query for sessions that ended or went idle. */
  async beat(): Promise<void> {
    const clients = this.fanOut.clients;
    if (!clients.size) return;
    for (const c of clients) this.fanOut.write(c, ':\n\n');
    const hashes = [...new Set([...clients].map((c) => c.hash))];
    try {
      const ok = await readLiveTokenHashes(this.db, hashes, this.idleMinutes);
      for (const c of [...clients]) if (!ok.has(c.hash)) void this.checkSession(c);
      // A missed notification costs at most one heartbeat.
      await this.drain();
    } catch {
      /* the next beat tries again */
    }
  }
}
