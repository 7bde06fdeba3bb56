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

/**
 * The user behind a token, or the refusal the console reacts to: -24 when the account logged in
 * elsewhere, -26 when the session sat idle too long, 5 for an unknown or ended token.
 *
 * A call the user made keeps the session alive (last_seen_at). A background call (a poll the
 * console makes by itself, `X-Background: 1`) is answered but does not: a console left open with
 * its bell polling still times out after idleMinutes without the user.
 *
 * With a cache, a live session checked in the last few seconds is answered from memory: its
 * idleness is computed from the cached last_seen_at (moved on by this server's own touches), and
 * a session that looks idle too long there is read again from its row (another replica may have
 * kept it alive) before it is refused. Ending a session, moving last_seen_at back, or changing
 * the user notifies every server (migration 012), which drops the entry.
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
  const cached = cache?.session(hash);
  if (cached) {
    const now = Date.now();
    const idleMs = now - cached.lastSeen;
    if (idleMs <= idleLimitMs) {
      if (!background && idleMs > TOUCH_EVERY_MS) {
        await touchSession(db, hash);
        cached.lastSeen = now;
      }
      return { ...cached.user };
    }
  }
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
  // On this server's clock, and early rather than late: idleness is never underestimated.
  let lastSeen = readAt - idleMs;
  if (!background && idleMs > TOUCH_EVERY_MS) {
    const touchedAt = Date.now();
    await touchSession(db, hash);
    lastSeen = touchedAt;
  }
  const { ended_at: _e, end_reason: _r, last_seen_at: _l, now: _n, ...user } = row;
  cache?.putSession(hash, user, lastSeen, generation);
  return cache ? { ...user } : user;
}
