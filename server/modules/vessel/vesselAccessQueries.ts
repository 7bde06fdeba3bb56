import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
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
      WHERE d.id = $1`, [deviceId]);
  return row?.minutes ?? 10;
}
