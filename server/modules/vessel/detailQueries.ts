import type { Queryable } from '../../db/connection';
import { STATE_COLUMNS, STATE_JOINS } from '../monitoring/stateSql';

/**
 * The SQL of the vessel detail page (detailRoutes.ts). `sinceMs`: where the caller's part of the
 * vessel's history starts (historyStartMs, docs/requirements.md §6), null for all of it.
 */

const METRICS = { signal: 'signal_level', snr: 'snr', azimuth: 'azimuth', elevation: 'elevation', skew: 'skew', speed: 'speed' } as const;
const METRIC_SQL = Object.entries(METRICS)
  .map(([name, col]) => `min(${col})::float8 AS "${name}Min", max(${col})::float8 AS "${name}Max", avg(${col})::float8 AS "${name}Avg"`)
  .join(',\n  ');

/** The vessel's latest state, if it was reported within the caller's part of its history. */
export async function latestState(db: Queryable, deviceId: number, sinceMs: number | null) {
  const [row] = await db.query<Record<string, unknown> & { faults: string[] }>(
    `SELECT ${STATE_COLUMNS} FROM devices d ${STATE_JOINS}
      WHERE d.id = $1 AND ($2::float8 IS NULL OR ds.reported_at >= to_timestamp($2::float8 / 1000))`,
    [deviceId, sinceMs],
  );
  return row;
}

/** The charted metrics over (from, to], bucketed to bucketSeconds (min, max, avg per bucket). */
export function seriesPoints(db: Queryable, deviceId: number, bucketSeconds: number, fromMs: number, toMs: number) {
  return db.query(
    `SELECT (floor(extract(epoch FROM device_time) / $2) * $2 * 1000)::float8 AS t, count(*)::int AS n,
       ${METRIC_SQL}
       FROM device_reports WHERE device_id = $1 AND device_time > to_timestamp($3 / 1000.0) AND device_time <= to_timestamp($4 / 1000.0)
      GROUP BY 1 ORDER BY 1`,
    [deviceId, bucketSeconds, fromMs, toMs],
  );
}

/** The alarms active at some time of the window, newest first (at most 200), raised within the caller's part of the history. */
export function windowAlarms(db: Queryable, deviceId: number, fromMs: number, toMs: number, sinceMs: number | null) {
  return db.query<{ code: string; detail: string | null; raisedAt: string; lastSeenAt: string; clearedAt: string | null }>(
    `SELECT code, detail, raised_at AS "raisedAt", last_seen_at AS "lastSeenAt", cleared_at AS "clearedAt" FROM alarms
      WHERE device_id = $1 AND raised_at <= to_timestamp($3 / 1000.0) AND (cleared_at IS NULL OR cleared_at >= to_timestamp($2 / 1000.0))
        AND ($4::float8 IS NULL OR raised_at >= to_timestamp($4::float8 / 1000))
      ORDER BY raised_at DESC, id DESC LIMIT 200`,
    [deviceId, fromMs, toMs, sinceMs],
  );
}
