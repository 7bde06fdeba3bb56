import type { Queryable } from '../db/connection';

/**
 * The activated demo vessels of the seed (deviceNum A1..., SN2024..., made by the seed's manufacturer), by id, with
 * their kind and the position and heading of their latest report (null before the first).
 */
export async function demoDeviceRows(db: Queryable) {
  return db.query<{ id: number; num: string; kind: string; lat: number | null; lon: number | null; heading: number | null }>(
    `SELECT d.id, d.device_num AS num, d.device_kind AS kind, s.lat, s.lon, s.heading::float8 AS heading
       FROM devices d LEFT JOIN device_state s ON s.device_id = d.id
      WHERE d.activated AND d.device_num LIKE 'A1%' AND d.device_sn LIKE 'SN2024%'
        AND d.manufacture_info = 'Shenzhen Marine Electronics Co.' ORDER BY d.id`,
  );
}

/** Stores each device's secret hash, in one statement. */
export async function setSecretHashes(db: Queryable, ids: readonly number[], hashes: readonly string[]) {
  await db.query('UPDATE devices d SET secret_hash = u.hash FROM unnest($1::int[], $2::text[]) AS u(id, hash) WHERE d.id = u.id', [
    ids,
    hashes,
  ]);
}
