import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { BizError } from '../../http/envelope';
import { hashDeviceSecret } from '../devices/activationRoutes';

export interface ReportingDevice {
  id: number;
  /** False: the device is not activated (it has no secret yet); its reports are kept but marked. */
  activated: boolean;
}

const refuse = () => new BizError(ErrorCode.DeviceAuthFailed, 'error.deviceAuth');
const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : '';
};

/**
 * A device authenticates with its deviceNum (x-device-num) and the secret issued at activation
 * (x-device-secret), checked against devices.secret_hash. A device that is not activated has no
 * secret: its reports are accepted without one and marked "unactivated" (no alarms are raised).
 * An activated device with a wrong or missing secret, or an unknown number, is refused.
 */
export async function authenticateDevice(db: Queryable, request: FastifyRequest): Promise<ReportingDevice> {
  const deviceNum = header(request, 'x-device-num');
  const secret = header(request, 'x-device-secret');
  if (!deviceNum || deviceNum.length > 64) throw refuse();
  const [row] = await db.query<{ id: number; activated: boolean; secret_hash: string | null }>(
    'SELECT id, activated, secret_hash FROM devices WHERE device_num = $1', [deviceNum]);
  if (!row) throw refuse();
  if (!row.activated || !row.secret_hash) return { id: row.id, activated: false };
  const expected = Buffer.from(row.secret_hash, 'hex');
  const given = Buffer.from(hashDeviceSecret(secret), 'hex');
  if (!secret || expected.length !== given.length || !timingSafeEqual(expected, given)) throw refuse();
  return { id: row.id, activated: true };
}
