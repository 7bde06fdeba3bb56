import type { Queryable } from '../../db/connection';
import { degreesPerPixel, LOCATION_MAX_CELLS } from '../../../src/domain/track';

/**
 * The SQL of the Device Location page (locationRoutes.ts). `sinceMs`: where the caller's part of
 * the vessel's history starts (historyStartMs, docs/requirements.md §6), null for all of it.
 */

/** A cell of the thinned positions is about this many screen pixels wide at the asked zoom. */
const CELL_PIXELS = 10;

type Cell = [lat: number, lon: number, first: number, last: number, count: number];

/**
 * Where a vessel has been, thinned to what a map at `zoom` can show: reports grouped into cells of
 * about CELL_PIXELS, each cell one point (mean position, first and last time in it, report count),
 * oldest visit first. Above LOCATION_MAX_CELLS the cells double in size until they fit.
 */
export async function thinnedPositions(
  db: Queryable,
  deviceId: number,
  from: Date,
  to: Date,
  zoom: number,
): Promise<{ cellDegrees: number; points: Cell[] }> {
  let cell = degreesPerPixel(zoom) * CELL_PIXELS;
  for (;;) {
    const rows = await db.query<{ lat: number; lon: number; first: number; last: number; n: number }>(
      `SELECT avg(lat)::float8 AS lat, avg(lon)::float8 AS lon, extract(epoch FROM min(device_time))::float8 AS first,
              extract(epoch FROM max(device_time))::float8 AS last, count(*)::int AS n
         FROM device_reports
        WHERE device_id = $1 AND device_time >= $2 AND device_time <= $3
        GROUP BY floor(lat / $4::float8), floor(lon / $4::float8)
        ORDER BY last LIMIT $5`,
      [deviceId, from.toISOString(), to.toISOString(), cell, LOCATION_MAX_CELLS + 1],
    );
    if (rows.length <= LOCATION_MAX_CELLS || cell >= 90) {
      return {
        cellDegrees: cell,
        points: rows.map((r) => [
          Math.round(r.lat * 1e4) / 1e4,
          Math.round(r.lon * 1e4) / 1e4,
          Math.round(r.first),
          Math.round(r.last),
          r.n,
        ]),
      };
    }
    cell *= 2;
  }
}

/** The vessel's latest reported position, if it was reported within the caller's part of its history. */
export async function latestPosition(db: Queryable, deviceId: number, sinceMs: number | null) {
  const [row] = await db.query<{ lat: number; lon: number; reportedAt: Date }>(
    `SELECT lat, lon, reported_at AS "reportedAt" FROM device_state
      WHERE device_id = $1 AND ($2::float8 IS NULL OR reported_at >= to_timestamp($2::float8 / 1000))`,
    [deviceId, sinceMs],
  );
  return row ?? null;
}

/** The hand-typed position, if it was typed within the caller's part of the vessel's history (it names who typed it). */
export async function manualPosition(db: Queryable, deviceId: number, sinceMs: number | null) {
  const [row] = await db.query<{ lat: number; lon: number; setAt: Date; setBy: string | null }>(
    `SELECT m.lat, m.lon, m.set_at AS "setAt", u.name AS "setBy" FROM device_manual_positions m
       LEFT JOIN users u ON u.id = m.set_by WHERE m.device_id = $1 AND ($2::float8 IS NULL OR m.set_at >= to_timestamp($2::float8 / 1000))`,
    [deviceId, sinceMs],
  );
  return row ?? null;
}

export async function saveManualPosition(db: Queryable, deviceId: number, lat: number, lon: number, userId: number): Promise<void> {
  await db.query(
    `INSERT INTO device_manual_positions (device_id, lat, lon, set_by, set_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (device_id) DO UPDATE SET lat = EXCLUDED.lat, lon = EXCLUDED.lon, set_by = EXCLUDED.set_by, set_at = EXCLUDED.set_at`,
    [deviceId, lat, lon, userId],
  );
}

export async function deleteManualPosition(db: Queryable, deviceId: number): Promise<void> {
  await db.query('DELETE FROM device_manual_positions WHERE device_id = $1', [deviceId]);
}
