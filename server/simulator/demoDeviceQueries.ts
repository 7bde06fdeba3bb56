import type { Queryable } from '../db/connection';

/** The activated demo vessels of the seed (deviceNum A1..., SN2024..., made by the seed's manufacturer), by id. */
export async function demoDeviceRows(db: Queryable) {
  return db.query<{ id: number; num: string }>(
    `SELECT id, device_num AS num FROM devices WHERE activated AND device_num LIKE 'A1%' AND device_sn LIKE 'SN2024%'
        AND manufacture_info = 'Shenzhen Marine Electronics Co.' ORDER BY id`,
  );
}

/** Stores each device's secret hash, in one statement. */
export async function setSecretHashes(db: Queryable, ids: readonly number[], hashes: readonly string[]) {
  await db.query('UPDATE devices d SET secret_hash = u.hash FROM unnest($1::int[], $2::text[]) AS u(id, hash) WHERE d.id = u.id', [
    ids,
    hashes,
  ]);
}
