import type { Queryable } from '../db/connection';
import { USER_COLUMNS } from '../modules/users/userColumns';
import type { SessionUser } from './sessionUser';

/** A session row joined to its user (docs/architecture.md, "Server": sessions are rows keyed by the token's hash). */
export type SessionRow = SessionUser & {
  ended_at: Date | null;
  end_reason: string | null;
  last_seen_at: Date;
  now: Date;
};

/** Ends the user's live sessions as 'replaced' and starts one under the token's hash (in the caller's transaction). */
export async function replaceSessions(tx: Queryable, userId: number, hash: string): Promise<void> {
  await tx.query(`UPDATE sessions SET ended_at = now(), end_reason = 'replaced' WHERE user_id = $1 AND ended_at IS NULL`, [userId]);
  await tx.query('INSERT INTO sessions (token_hash, user_id) VALUES ($1, $2)', [hash, userId]);
}

/** Ends one live session with a reason (logout, idle). */
export async function endSessionByHash(db: Queryable, hash: string, reason: 'logout' | 'idle'): Promise<void> {
  await db.query(`UPDATE sessions SET ended_at = now(), end_reason = $2 WHERE token_hash = $1 AND ended_at IS NULL`, [hash, reason]);
}

/** Ends every live session of a user. */
export async function endUserSessions(db: Queryable, userId: number, reason: 'deleted' | 'replaced'): Promise<void> {
  await db.query(`UPDATE sessions SET ended_at = now(), end_reason = $2 WHERE user_id = $1 AND ended_at IS NULL`, [userId, reason]);
}

/** The session under a token hash with its user, ended or not; undefined when there is none. */
export async function readSession(db: Queryable, hash: string): Promise<SessionRow | undefined> {
  const [row] = await db.query<SessionRow>(
    `SELECT s.ended_at, s.end_reason, s.last_seen_at, now() AS now, ${USER_COLUMNS}
       FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN users p ON p.id = u.parent_id
      WHERE s.token_hash = $1`,
    [hash],
  );
  return row;
}

/** Keeps a session alive. Moving last_seen_at forward notifies no one (migration 012). */
export async function touchSession(db: Queryable, hash: string): Promise<void> {
  await db.query('UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1', [hash]);
}

/** Of these token hashes, those whose session is live and was used within idleMinutes (the live push's heartbeat). */
export async function readLiveTokenHashes(db: Queryable, hashes: readonly string[], idleMinutes: number): Promise<Set<string>> {
  const live = await db.query<{ token_hash: string }>(
    `SELECT token_hash FROM sessions WHERE token_hash = ANY($1::text[]) AND ended_at IS NULL
        AND last_seen_at > now() - make_interval(mins => $2::int)`,
    [hashes, idleMinutes],
  );
  return new Set(live.map((r) => r.token_hash));
}
