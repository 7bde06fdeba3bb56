import type { Db } from '../db/connection';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from '../http/envelope';
import * as q from './loginThrottleQueries';

/**
 * Repeated failed logins are refused for a while, and the answer says so (code 7 with
 * data.retryAfterSeconds). Two counters, both in the database so that replicas agree, each taken
 * from before the password is checked (takeAttempt):
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
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/** An attempt taken from both allowances before its password is checked (takeAttempt). */
export interface LoginAttempt {
  name: string;
  address: string;
  ownFailures: number;
  nameFailures: number;
  window: string;
}

/**
 * Takes one attempt from the name's allowances before the password is checked, in one statement
 * (loginThrottleQueries.ts), or throws the lock (code 7) when either allowance is used up. So at
 * most `maxFailures` passwords per address and `nameMaxFailures` per name are ever checked in a
 * lock period, whatever the concurrency and across replicas; the attempt that reaches a limit
 * writes the lock itself. A refused attempt costs no allowance.
 */
export async function takeAttempt(db: Db, name: string, address: string, limits: LoginLimits): Promise<LoginAttempt> {
  const taken = await q.reserveAttempt(db, name, address, limits.maxFailures, limits.nameMaxFailures, limits.lockMinutes);
  if (taken.ownFailures !== null && taken.nameFailures !== null && taken.window !== null) {
    return { name, address, ownFailures: taken.ownFailures, nameFailures: taken.nameFailures, window: taken.window };
  }
  // The address had an attempt but the name has none left for anyone: the address gets it back.
  if (taken.ownFailures !== null) await q.releaseOwnAttempt(db, name, address, limits.maxFailures);
  const seconds = await q.lockSecondsLeft(db, name, address);
  throw lockedError(seconds && seconds > 0 ? seconds : limits.lockMinutes * 60);
}

/**
 * A wrong password: its attempt stays counted. Answers the attempts left before a lock, or throws
 * the lock (code 7) when this attempt was the last one.
 */
export function attemptFailed(attempt: LoginAttempt, limits: LoginLimits): number {
  if (attempt.ownFailures >= limits.maxFailures || attempt.nameFailures >= limits.nameMaxFailures)
    throw lockedError(limits.lockMinutes * 60);
  return Math.min(limits.maxFailures - attempt.ownFailures, limits.nameMaxFailures - attempt.nameFailures);
}

/**
 * The right password: the address's count starts again (failures "in a row") and the name's count
 * gets its attempt back, so successes never lock a name; a lock this attempt wrote is lifted.
 */
export async function attemptSucceeded(db: Db, attempt: LoginAttempt, limits: LoginLimits): Promise<void> {
  await q.clearOwnFailures(db, attempt.name, attempt.address);
  await q.releaseNameAttempt(db, attempt.name, attempt.window, limits.nameMaxFailures);
}

const lockedError = (seconds: number) =>
  new BizError(ErrorCode.LoginLocked, 'error.loginLocked', { retryAfterSeconds: seconds }, { minutes: Math.ceil(seconds / 60) });
