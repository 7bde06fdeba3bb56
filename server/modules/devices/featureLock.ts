import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level, type Principal } from '../../../src/domain/levels';
import { FEATURE_LOCKED_KEY, type Feature } from '../../../src/domain/features';
import { BizError } from '../../http/envelope';
import { findVisibleDevice, isFeatureUnlocked } from './deviceQueries';

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
