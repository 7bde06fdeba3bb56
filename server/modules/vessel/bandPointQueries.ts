import type { Queryable } from '../../db/connection';
import type { StatePoint } from './stateBands';

/** Windows of at least this many hours read their bands from the rollups (the detail page's 7 days). */
export const ROLLUP_BAND_MIN_HOURS = 7 * 24;

/**
 * The report points the online/warn/offline bands of a window need (stateBands), raw: every report
 * from one threshold before the window to its end; with `sinceMs`, none before it (the start of the
 * caller's part of the vessel's history, docs/requirements.md §6).
 */
export async function rawBandPoints(
  db: Queryable,
  deviceId: number,
  from: number,
  to: number,
  thresholdMinutes: number,
  sinceMs: number | null = null,
): Promise<StatePoint[]> {
  return db.query<StatePoint>(
    `SELECT (extract(epoch FROM device_time) * 1000)::float8 AS ms, (cardinality(faults) > 0 OR NOT modem_lock) AS warn
       FROM device_reports WHERE device_id = $1 AND device_time > to_timestamp($2 / 1000.0) - make_interval(mins => $4::int)
        AND device_time <= to_timestamp($3 / 1000.0) AND ($5::float8 IS NULL OR device_time >= to_timestamp($5::float8 / 1000))
      ORDER BY device_time`,
    [deviceId, from, to, thresholdMinutes, sinceMs],
  );
}

/**
 * The same bands from the hourly rollups (report_hourly), for the long windows: an hour whose
 * reports are all in one state with no gap longer than the threshold is one stretch of that state
 * from its first to its last report, so it is given as points one threshold apart over that
 * stretch (stateBands then draws exactly what every report would); other hours, and the hours at
 * the window's edges, are read from their reports. A week at one report every 10 s is about
 * 60,000 reports; this reads about 170 rollup rows and a few points per hour.
 */
export async function rollupBandPoints(
  db: Queryable,
  deviceId: number,
  from: number,
  to: number,
  thresholdMinutes: number,
): Promise<StatePoint[]> {
  const thresholdMs = thresholdMinutes * 60_000;
  const hours = await db.query<{ hourMs: number; firstMs: number; lastMs: number; warn: boolean; uniform: boolean }>(
    `SELECT (extract(epoch FROM hour_start) * 1000)::float8 AS "hourMs", (extract(epoch FROM first_at) * 1000)::float8 AS "firstMs",
            (extract(epoch FROM last_at) * 1000)::float8 AS "lastMs", warn_reports > 0 AS warn,
            (warn_reports = 0 OR warn_reports = reports) AND NOT EXISTS (SELECT 1 FROM unnest(long_gaps_us) g WHERE g > $4::bigint * 60000000) AS uniform
       FROM report_hourly WHERE device_id = $1 AND hour_start > to_timestamp($2 / 1000.0) - make_interval(mins => $4::int) - interval '1 hour'
        AND hour_start <= to_timestamp($3 / 1000.0) ORDER BY hour_start`,
    [deviceId, from, to, thresholdMinutes],
  );
  const summarized = (h: (typeof hours)[number]) => h.uniform && h.hourMs > from - thresholdMs && h.lastMs <= to;
  const rawHours = hours.filter((h) => !summarized(h)).map((h) => new Date(h.hourMs).toISOString());
  const raw = rawHours.length
    ? await db.query<StatePoint & { hourMs: number }>(
        `SELECT (extract(epoch FROM r.device_time) * 1000)::float8 AS ms, (cardinality(r.faults) > 0 OR NOT r.modem_lock) AS warn,
              (extract(epoch FROM h.hs) * 1000)::float8 AS "hourMs"
         FROM unnest($2::timestamptz[]) AS h(hs)
         JOIN device_reports r ON r.device_id = $1 AND r.device_time >= h.hs AND r.device_time < h.hs + interval '1 hour'
        WHERE r.device_time > to_timestamp($3 / 1000.0) - make_interval(mins => $5::int) AND r.device_time <= to_timestamp($4 / 1000.0)
        ORDER BY r.device_time`,
        [deviceId, rawHours, from, to, thresholdMinutes],
      )
    : [];
  const rawByHour = new Map<number, StatePoint[]>();
  for (const p of raw) {
    const list = rawByHour.get(p.hourMs) ?? [];
    list.push({ ms: p.ms, warn: p.warn });
    rawByHour.set(p.hourMs, list);
  }
  const points: StatePoint[] = [];
  for (const h of hours) {
    if (!summarized(h)) {
      points.push(...(rawByHour.get(h.hourMs) ?? []));
      continue;
    }
    for (let ms = h.firstMs; ms < h.lastMs; ms += thresholdMs) points.push({ ms, warn: h.warn });
    points.push({ ms: h.lastMs, warn: h.warn });
  }
  return points;
}
