import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level, type Principal } from '../../../src/domain/levels';
import { FEATURE_LOCKED_KEY, type Feature } from '../../../src/domain/features';
import { BizError } from '../../http/envelope';
import { findVisibleDevice } from './deviceQueries';

/**
 * Whether a feature is unlocked for a device: an admin always; anyone else when the device's
 * owner holds a grant of the feature for all its devices or for this one, whose deadline (if
 * any) has not passed.
 */
export async function isFeatureUnlocked(db: Queryable, ownerId: number, deviceId: number, feature: Feature): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM device_auth_grants
      WHERE enterprise_id = $1 AND feature = $3 AND (device_id IS NULL OR device_id = $2)
        AND (deadline IS NULL OR deadline >= current_date) LIMIT 1`,
    [ownerId, deviceId, feature],
  );
  return rows.length > 0;
}

/**
 * For later modules (tracks, camera, statistics, IoT data): a device the caller cannot see
 * answers "not found" (code 2); a locked feature answers code 3 with 'contact your service
 * provider to unlock it'.
 */
export async function assertFeatureUnlocked(db: Queryable, user: Principal, deviceId: number, feature: Feature): Promise<void> {
  const device = await findVisibleDevice(db, user, deviceId);
  if (!device) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
  if (user.permissionLevel === Level.Admin) return;
  if (!(await isFeatureUnlocked(db, device.ownerId, deviceId, feature))) throw new BizError(ErrorCode.Forbidden, FEATURE_LOCKED_KEY);
}
