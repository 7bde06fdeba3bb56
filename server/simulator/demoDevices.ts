import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection';
import { hashDeviceSecret } from '../auth/deviceCredentials';
import type { SimDevice } from './fleet';
import { demoDeviceRows, setSecretHashes } from './demoDeviceQueries';

/**
 * The demo fleet the server drives itself (SIMULATOR on): the activated demo vessels of the seed
 * (deviceNum A1..., SN2024..., made by the seed's manufacturer), each given a fresh secret at every
 * start, with its kind and where its latest report puts it (the live vessel carries on from there). Other devices
 * are never touched.
 */
export async function issueDemoSecrets(db: Db): Promise<SimDevice[]> {
  const rows = await demoDeviceRows(db);
  const devices = rows.map((r) => ({
    id: r.id,
    deviceNum: r.num,
    secret: randomBytes(32).toString('base64url'),
    kind: r.kind,
    lastReport: r.lat === null || r.lon === null || r.heading === null ? undefined : { lat: r.lat, lon: r.lon, heading: r.heading },
  }));
  if (devices.length) {
    await setSecretHashes(
      db,
      devices.map((d) => d.id),
      devices.map((d) => hashDeviceSecret(d.secret)),
    );
  }
  return devices.map(({ id: _id, ...device }) => device);
}
