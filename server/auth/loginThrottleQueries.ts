import type { Queryable } from '../db/connection';

/**
 * The SQL of login throttling (server/auth/loginThrottle.ts; docs/architecture.md, "Login
 * throttling"). A row's count is the attempts reserved in its period and not given back; a lock
 * is written by the reservation that reaches the limit, so "locked" and "count at the limit" are
 * one fact that concurrent logins cannot both miss.
 */

const LOCK = 'make_interval(mins => $5)';
/** The count across addresses goes on while its window is younger than one lock period and no lock (even a run-out one) ended it. */
const NAME_WINDOW_OPEN = `n.locked_until IS NULL AND n.window_started_at > now() - ${LOCK}`;
const NAME_NEXT = `CASE WHEN ${NAME_WINDOW_OPEN} THEN n.failures + 1 ELSE 1 END`;
const OWN_NEXT = 'CASE WHEN f.locked_until IS NULL THEN f.failures + 1 ELSE 1 END';

export interface Reservation {
  /** The address's count with this attempt in it; null: the name is locked for this address. */
  ownFailures: number | null;
  /** The name's count across addresses with this attempt in it; null: the name is locked for everyone (or the address was). */
  nameFailures: number | null;
  /** Which window of the name's count holds the attempt (text, exact to the microsecond), to give it back to. */
  window: string | null;
}

/**
 * One statement: takes an attempt from the address's allowance and then, only if it got one, from
 * the name's, each an upsert that refuses (no row) while its lock runs. Both rows are locked in
 * the same order by every login, so concurrent logins queue on them and none reads a stale count.
 */
export async function reserveAttempt(
  db: Queryable,
  name: string,
  address: string,
  maxFailures: number,
  nameMaxFailures: number,
  lockMinutes: number,
): Promise<Reservation> {
  const [row] = await db.query<Reservation>(
    `WITH own AS (
       INSERT INTO login_failures AS f (name, address, failures, locked_until)
       VALUES ($1, $2, 1, CASE WHEN 1 >= $3 THEN now() + ${LOCK} END)
       ON CONFLICT (name, address) DO UPDATE SET
         failures = ${OWN_NEXT},
         locked_until = CASE WHEN ${OWN_NEXT} >= $3 THEN now() + ${LOCK} END
       WHERE f.locked_until IS NULL OR f.locked_until <= now()
       RETURNING f.failures
     ), everyone AS (
       INSERT INTO login_name_failures AS n (name, failures, window_started_at, locked_until)
       SELECT $1, 1, now(), CASE WHEN 1 >= $4 THEN now() + ${LOCK} END FROM own
       ON CONFLICT (name) DO UPDATE SET
         failures = ${NAME_NEXT},
         window_started_at = CASE WHEN ${NAME_WINDOW_OPEN} THEN n.window_started_at ELSE now() END,
         locked_until = CASE WHEN ${NAME_NEXT} >= $4 THEN now() + ${LOCK} END
       WHERE n.locked_until IS NULL OR n.locked_until <= now()
       RETURNING n.failures, n.window_started_at::text AS started
     )
     SELECT (SELECT failures FROM own) AS "ownFailures", (SELECT failures FROM everyone) AS "nameFailures",
            (SELECT started FROM everyone) AS "window"`,
    [name, address, maxFailures, nameMaxFailures, lockMinutes],
  );
  return row!;
}

/** Gives the address's attempt back (the name refused it): the count drops by one and a lock it reached is lifted. */
export async function releaseOwnAttempt(db: Queryable, name: string, address: string, maxFailures: number): Promise<void> {
  await db.query(
    `UPDATE login_failures SET failures = failures - 1, locked_until = CASE WHEN failures - 1 < $3 THEN NULL ELSE locked_until END
      WHERE name = $1 AND address = $2 AND failures > 0`,
    [name, address, maxFailures],
  );
}

/** Gives the name's attempt back (it was a success), in the window that holds it only. */
export async function releaseNameAttempt(db: Queryable, name: string, window: string, nameMaxFailures: number): Promise<void> {
  await db.query(
    `UPDATE login_name_failures SET failures = failures - 1, locked_until = CASE WHEN failures - 1 < $3 THEN NULL ELSE locked_until END
      WHERE name = $1 AND window_started_at = $2::timestamptz AND failures > 0`,
    [name, window, nameMaxFailures],
  );
}

/** A success clears the address's count (failures "in a row"). */
export async function clearOwnFailures(db: Queryable, name: string, address: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE name = $1 AND address = $2', [name, address]);
}

/** Seconds left of the longer running lock of the address's and the name's (null: none runs). */
export async function lockSecondsLeft(db: Queryable, name: string, address: string): Promise<number | null> {
  const [row] = await db.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM greatest(
              (SELECT locked_until FROM login_failures WHERE name = $1 AND address = $2),
              (SELECT locked_until FROM login_name_failures WHERE name = $1)) - now()))::int AS seconds`,
    [name, address],
  );
  return row?.seconds ?? null;
}
