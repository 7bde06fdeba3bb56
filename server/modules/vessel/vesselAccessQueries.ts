import type { Queryable } from '../../db/connection';
import { Level, type Principal } from '../../../src/domain/levels';
import type { Device } from '../../../src/domain/device';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { BizError } from '../../http/envelope';
import { findVisibleDevice } from '../devices/deviceQueries';
import { THRESHOLD_SQL } from '../monitoring/stateSql';

/** A vessel the caller may see, else "not found" (another enterprise's id included). */
export async function visibleVessel(db: Queryable, user: Principal, deviceId: number): Promise<Device> {
  const device = await findVisibleDevice(db, user, deviceId);
  if (!device) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
  return device;
}

/** The device's offline threshold in minutes (its own, else its enterprise's, else the default). */
export async function offlineMinutesOf(db: Queryable, deviceId: number): Promise<number> {
  const [row] = await db.query<{ minutes: number }>(
    `SELECT ${THRESHOLD_SQL}::int AS minutes FROM devices d
       LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
       LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
      WHERE d.id = $1`,
    [deviceId],
  );
  return row?.minutes ?? 10;
}

/**
 * Where the caller's part of a vessel's history starts (docs/requirements.md §6, "A transferred
 * vessel"): the moment the vessel came to the caller's enterprise, in epoch ms (rounded up, so a
 * record of the old owner is never in it); null for level 1 and for a vessel that never changed owner.
 */
export async function historyStartMs(db: Queryable, user: Principal, deviceId: number): Promise<number | null> {
  if (user.permissionLevel === Level.Admin) return null;
  const [row] = await db.query<{ ms: number | null }>(
    `SELECT CASE WHEN owner_since = '-infinity' THEN NULL ELSE ceil(extract(epoch FROM owner_since) * 1000)::float8 END AS ms
       FROM devices WHERE id = $1`,
    [deviceId],
  );
  return row?.ms ?? null;
}

/** A window's start moved to the start of the caller's history when that is later. */
export const clampToHistory = (fromMs: number, startMs: number | null): number => (startMs === null ? fromMs : Math.max(fromMs, startMs));
