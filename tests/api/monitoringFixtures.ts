import type { Db } from '../../server/db/connection';
import type { TestServer } from './helpers';
import { hashDeviceSecret } from '../../server/auth/deviceCredentials';

export const SECRET = 'test-device-secret-0123456789';

/** A valid report at `at` (default: now), with overrides. */
export function report(overrides: Record<string, unknown> = {}, at = new Date()): Record<string, unknown> {
  return {
    deviceTime: at.toISOString(),
    lat: 22.3,
    lon: 114.2,
    speed: 14.5,
    heading: 90,
    azimuth: 180.5,
    elevation: 45,
    skew: -12,
    satellite: { name: 'AsiaSat 7', longitude: 105.5 },
    signalLevel: 72,
    snr: 11.5,
    modemLock: true,
    txOn: true,
    lteSignal: -85,
    faults: [],
    firmware: { adu: 'V2.1.3', bdu: 'V1.0.9' },
    ...overrides,
  };
}

export const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

/** An activated device of the owner (the nth), given a known secret; or an unactivated one. */
export async function reportingDevice(db: Db, owner: string, nth = 0, activated = true): Promise<{ id: number; num: string }> {
  const [row] = await db.query<{ id: number; num: string }>(
    `SELECT d.id, d.device_num AS num FROM devices d JOIN users u ON u.id = d.owner_id
      WHERE u.name = $1 AND d.activated = $2 ORDER BY d.id OFFSET $3 LIMIT 1`,
    [owner, activated, nth],
  );
  if (activated) await db.query('UPDATE devices SET secret_hash = $2 WHERE id = $1', [row!.id, hashDeviceSecret(SECRET)]);
  return row!;
}

export function ingest(s: TestServer, num: string, payload: unknown, secret = SECRET, lang: 'zh' | 'en' = 'en') {
  return s.call({
    method: 'POST',
    url: `${s.base}/deviceModule/ingest/report`,
    lang,
    headers: { 'x-device-num': num, 'x-device-secret': secret, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

export function uploadData(s: TestServer, token: string, body: Record<string, unknown> = {}) {
  return s.call<any[]>({
    method: 'POST',
    url: `${s.base}/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition`,
    token,
    payload: body,
  });
}

/** One of oceanic's activated vessels granted to its sub-user oceanops, and one not granted (neither sub-owned). */
export async function grantedAndUngranted(db: Db): Promise<{ granted: number; ungranted: number }> {
  const rows = await db.query<{ id: number; granted: boolean }>(
    `SELECT d.id, EXISTS (SELECT 1 FROM sub_user_grants g JOIN users u ON u.id = g.sub_user_id WHERE u.name = 'oceanops' AND g.device_id = d.id) AS granted
       FROM devices d JOIN users o ON o.id = d.owner_id WHERE o.name = 'oceanic' AND d.owner_sub_id IS NULL AND d.activated ORDER BY d.id`,
  );
  return { granted: rows.find((r) => r.granted)!.id, ungranted: rows.find((r) => !r.granted)!.id };
}
