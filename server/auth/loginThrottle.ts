import type { Db } from '../db/connection';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from '../http/envelope';

/**
 * Repeated failed logins are refused for a while, and the answer says so (code 7 with
 * data.retryAfterSeconds). Two counters, both in the database so that replicas agree:
 *
 * - per name and client address (`login_failures`): `maxFailures` failures in a row from one
 *   address lock the name for that address only, so a stranger cannot lock `admin` out;
 * - per name across every address (`login_name_failures`): `nameMaxFailures` failures within
 *   one lock period, from anywhere, lock the name for everyone (a slower limit against guessing
 *   from many addresses).
 */
export interface LoginLimits {
  /** Failures in a row from one address before the name is locked for that address. */
  maxFailures: number;
  /** Failures from all addresses within lockMinutes before the name is locked for everyone. */
  nameMaxFailures: number;
  lockMinutes: number;
}

/**
 * The key of a client address: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4
 * form), an IPv6 address by its /64 prefix (one host usually holds a whole /64).
 */
export function addressKey(ip: string | undefined): string {
  if (!ip) return '';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const bare = ip.split('%')[0]!;
  const [head = '', tail] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => (Number.parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}

/** Refuses a login while the name is locked for this address or for everyone. */
export async function assertNotLocked(db: Db, name: string, address: string): Promise<void> {
  const [row] = await db.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM greatest(
              (SELECT locked_until FROM login_failures WHERE name = $1 AND address = $2),
              (SELECT locked_until FROM login_name_failures WHERE name = $1)) - now()))::int AS seconds`,
    [name, address],
  );
  if (row?.seconds && row.seconds > 0) throw lockedError(row.seconds);
}

/**
 * Counts a failed login; answers the attempts left before a lock, or throws the lock (code 7)
 * when this failure reaches a limit.
 */
export async function recordFailure(db: Db, name: string, address: string, limits: LoginLimits): Promise<number> {
  const [own] = await db.query<{ failures: number }>(
    `INSERT INTO login_failures (name, address, failures) VALUES ($1, $2, 1)
     ON CONFLICT (name, address) DO UPDATE SET failures = login_failures.failures + 1
     RETURNING failures`,
    [name, address],
  );
  // The window of the count across addresses starts again when it is older than one lock period.
  const [all] = await db.query<{ failures: number }>(
    `INSERT INTO login_name_failures (name, failures, window_started_at) VALUES ($1, 1, now())
     ON CONFLICT (name) DO UPDATE SET
       failures = CASE WHEN login_name_failures.window_started_at > now() - make_interval(mins => $2)
                       THEN login_name_failures.failures + 1 ELSE 1 END,
       window_started_at = CASE WHEN login_name_failures.window_started_at > now() - make_interval(mins => $2)
                                THEN login_name_failures.window_started_at ELSE now() END
     RETURNING failures`,
    [name, limits.lockMinutes],
  );
  if (all!.failures >= limits.nameMaxFailures) {
    await db.query(
      `UPDATE login_name_failures SET failures = 0, window_started_at = now(), locked_until = now() + make_interval(mins => $2) WHERE name = $1`,
      [name, limits.lockMinutes],
    );
    throw lockedError(limits.lockMinutes * 60);
  }
  if (own!.failures >= limits.maxFailures) {
    await db.query(
      `UPDATE login_failures SET failures = 0, locked_until = now() + make_interval(mins => $3) WHERE name = $1 AND address = $2`,
      [name, address, limits.lockMinutes],
    );
    throw lockedError(limits.lockMinutes * 60);
  }
  return Math.min(limits.maxFailures - own!.failures, limits.nameMaxFailures - all!.failures);
}

/** A successful login clears its address's count; the count across addresses runs out with its window. */
export async function clearFailures(db: Db, name: string, address: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE name = $1 AND address = $2', [name, address]);
}

const lockedError = (seconds: number) =>
  new BizError(ErrorCode.LoginLocked, 'error.loginLocked', { retryAfterSeconds: seconds }, { minutes: Math.ceil(seconds / 60) });
