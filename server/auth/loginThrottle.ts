import type { Db } from '../db/connection';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from '../http/envelope';

/** Repeated failed logins for one name are refused for a while, and the answer says so. */
export async function assertNotLocked(db: Db, name: string): Promise<void> {
  const [row] = await db.query<{ seconds: number }>(
    `SELECT ceil(extract(epoch FROM locked_until - now()))::int AS seconds
       FROM login_failures WHERE name = $1 AND locked_until > now()`,
    [name],
  );
  if (row) throw lockedError(row.seconds);
}

export async function recordFailure(db: Db, name: string, maxFailures: number, lockMinutes: number): Promise<number> {
  const [row] = await db.query<{ failures: number }>(
    `INSERT INTO login_failures (name, failures) VALUES ($1, 1)
     ON CONFLICT (name) DO UPDATE SET failures = login_failures.failures + 1
     RETURNING failures`,
    [name],
  );
  const failures = row!.failures;
  if (failures < maxFailures) return maxFailures - failures;
  await db.query(
    `UPDATE login_failures SET failures = 0, locked_until = now() + make_interval(mins => $2) WHERE name = $1`,
    [name, lockMinutes],
  );
  throw lockedError(lockMinutes * 60);
}

export async function clearFailures(db: Db, name: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE name = $1', [name]);
}

const lockedError = (seconds: number) =>
  new BizError(ErrorCode.LoginLocked, 'error.loginLocked', { retryAfterSeconds: seconds }, { minutes: Math.ceil(seconds / 60) });
