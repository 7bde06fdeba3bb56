import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection';
import { hashDeviceSecret } from '../auth/deviceCredentials';
import type { SimDevice } from './fleet';

/**
 * The demo fleet the server drives itself (SIMULATOR on): the activated demo vessels of the seed
 * (deviceNum A1..., SN2024..., made by the seed's manufacturer), each given a fresh secret at every
 * start. Other devices are never touched.
 */
export async function issueDemoSecrets(db: Db): Promise<SimDevice[]> {
  const rows = await db.query<{ id: number; num: string }>(
    `SELECT id, device_num AS num FROM devices WHERE activated AND device_num LIKE 'A1%' AND device_sn LIKE 'SN2024%'
        AND manufacture_info = 'Shenzhen Marine Electronics Co.' ORDER BY id`);
  const devices = rows.map((r) => ({ id: r.id, deviceNum: r.num, secret: randomBytes(32).toString('base64url') }));
  if (devices.length) {
    await db.query('UPDATE devices d SET secret_hash = u.hash FROM unnest($1::int[], $2::text[]) AS u(id, hash) WHERE d.id = u.id',
      [devices.map((d) => d.id), devices.map((d) => hashDeviceSecret(d.secret))]);
  }
  return devices.map(({ deviceNum, secret }) => ({ deviceNum, secret }));
}
