import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/connection';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from '../http/envelope';
import type { SessionCache } from './sessionCache';
import type { SessionUser } from './sessionUser';
import { endSessionByHash, endUserSessions, readSession, replaceSessions, touchSession } from './sessionQueries';

/** last_seen_at is written at most this often, so a busy session costs one read per call. */
const TOUCH_EVERY_MS = 30_000;

/**
 * The key of a session row: the sha256 of its token (hex). The table never holds a token, so a
 * copy of it cannot be replayed; every lookup hashes the token presented.
 */
export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Starts a session and ends every other live one of the user (one terminal per account). */
export async function startSession(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction((tx) => replaceSessions(tx, userId, tokenHash(token)));
  return token;
}

export async function endSession(db: Db, token: string): Promise<void> {
  await endSessionByHash(db, tokenHash(token), 'logout');
}

export async function endSessionsOfUser(db: Db, userId: number, reason: 'deleted' | 'replaced'): Promise<void> {
  await endUserSessions(db, userId, reason);
}

/** A live session's user and when it was last kept alive, on this server's clock (never later than the row says). */
type LiveSession = { user: SessionUser; lastSeen: number };

/** Reads a session from its row: its user, or the refusal; an idle one is ended. Stored in the cache when one is given. */
async function loadSession(db: Db, hash: string, idleLimitMs: number, cache?: SessionCache): Promise<LiveSession> {
  const generation = cache?.generation ?? 0;
  const readAt = Date.now();
  const row = await readSession(db, hash);
  if (!row) throw new BizError(ErrorCode.TokenInvalid);
  if (row.ended_at) {
    if (row.end_reason === 'replaced') throw new BizError(ErrorCode.LoggedInElsewhere);
    if (row.end_reason === 'idle') throw new BizError(ErrorCode.SessionTimeout);
    throw new BizError(ErrorCode.TokenInvalid);
  }
  const idleMs = row.now.getTime() - row.last_seen_at.getTime();
  if (idleMs > idleLimitMs) {
    await endSessionByHash(db, hash, 'idle');
    throw new BizError(ErrorCode.SessionTimeout);
  }
  const { ended_at: _e, end_reason: _r, last_seen_at: _l, now: _n, ...user } = row;
  // On this server's clock, and early rather than late: idleness is never underestimated.
  const lastSeen = readAt - idleMs;
  return cache?.putSession(hash, user, lastSeen, generation) ?? { user, lastSeen };
}

/**
 * The user behind a token, or the refusal the console reacts to: -24 when the account logged in
 * elsewhere, -26 when the session sat idle too long, 5 for an unknown or ended token.
 *
 * A call the user made keeps the session alive (last_seen_at, written at most every
 * TOUCH_EVERY_MS). A background call (a poll the console makes by itself, `X-Background: 1`) is
 * answered but does not: a console left open with its bell polling still times out after
 * idleMinutes without the user.
 *
 * With a cache, a live session checked in the last few seconds is answered from memory: its
 * idleness is computed from the cached last_seen_at (moved on by this server's own touches), and
 * a session that looks idle too long there is read again from its row (another replica may have
 * kept it alive) before it is refused. Calls that miss the cache together (a page's calls at once)
 * share one read, and one touch. Ending a session, moving last_seen_at back, or changing the user
 * notifies every server (migration 012), which drops the entry.
 */
export async function resolveSession(
  db: Db,
  token: string | undefined,
  idleMinutes: number,
  { background = false, cache }: { background?: boolean; cache?: SessionCache } = {},
): Promise<SessionUser> {
  if (!token) throw new BizError(ErrorCode.TokenMissing);
  const hash = tokenHash(token);
  const idleLimitMs = idleMinutes * 60_000;
  let session: LiveSession | undefined = cache?.session(hash);
  if (!session || Date.now() - session.lastSeen > idleLimitMs) {
    const load = () => loadSession(db, hash, idleLimitMs, cache);
    session = await (cache ? cache.shared(hash, load) : load());
  }
  const seen = session.lastSeen;
  const now = Date.now();
  if (!background && now - seen > TOUCH_EVERY_MS) {
    // Moved on before the write, so that the calls beside this one do not write it too.
    session.lastSeen = now;
    try {
      await touchSession(db, hash);
    } catch (error) {
      session.lastSeen = seen;
      throw error;
    }
  }
  return { ...session.user };
}
