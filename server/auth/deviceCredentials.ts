import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { DeviceCache, DeviceCredentials } from './deviceCache';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from '../http/envelope';

/** The device secret is shown once; only its SHA-256 is kept (it is 256 random bits, not a password). */
export const hashDeviceSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Where credential rows come from: the server's DeviceCache (deviceCache.ts), or a stand-in. */
export type CredentialSource = Pick<DeviceCache, 'get'>;

export interface ReportingDevice {
  id: number;
  /** False: the device is not activated (it has no secret yet); its reports only await activation (ingestWriter.ts). */
  activated: boolean;
}

const refuse = () => new BizError(ErrorCode.DeviceAuthFailed, 'error.deviceAuth');
const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : '';
};

/** Activated with a secret: its reports must prove it; otherwise they are accepted but only await activation. */
export const holdsSecret = (row: DeviceCredentials): boolean => row.activated && !!row.secretHash;

/**
 * The one credential check of devices, over HTTP (x-device-num / x-device-secret) and MQTT
 * (username / password, server/link): the secret issued at activation, checked against
 * devices.secret_hash. A device that is not activated has no secret: it is accepted without one
 * and its reports only await activation (docs/devices.md, "Connecting": they reach no monitor,
 * alarm or statistic). An activated device with a
 * wrong or missing secret, or an unknown number, gets null. Rows come from the server's DeviceCache:
 * a report costs no lookup query.
 */
export async function checkDeviceCredentials(
  devices: CredentialSource,
  deviceNum: string,
  secret: string,
): Promise<ReportingDevice | null> {
  if (!deviceNum || deviceNum.length > 64) return null;
  const row = await devices.get(deviceNum);
  if (!row) return null;
  if (!holdsSecret(row)) return { id: row.id, activated: false };
  const expected = Buffer.from(row.secretHash!, 'hex');
  const given = Buffer.from(hashDeviceSecret(secret), 'hex');
  if (!secret || expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { id: row.id, activated: true };
}

/** HTTP ingest: the device named by x-device-num with its x-device-secret, or a refusal (code 13). */
export async function authenticateDevice(devices: CredentialSource, request: FastifyRequest): Promise<ReportingDevice> {
  const device = await checkDeviceCredentials(devices, header(request, 'x-device-num'), header(request, 'x-device-secret'));
  if (!device) throw refuse();
  return device;
}
