/* eslint-disable max-lines -- the fleet and per-vessel statistics are built from the same private SQL fragments (scope, locks, thresholds, rollup reads); split, each part would export them to the other */
import type { Db, Queryable } from '../../db/connection';
import { Level, type Principal } from '../../../src/domain/levels';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';
import { THRESHOLD_SQL } from '../monitoring/stateSql';
import { rollupBounds, rollupBucketsSql, type RollupBounds } from '../monitoring/dailyRollupQueries';

// The window and its local days are plain arithmetic (statisticsWindow.ts), kept here too for the callers.
export { DAY_MS, dateOfDay, labelOfDay, statisticsWindow, type StatisticsWindow } from './statisticsWindow';
import { DAY_MS, dateOfDay, labelOfDay, type StatisticsWindow } from './statisticsWindow';

/** Whether the statistics feature is locked for a device `d` (never for an admin). $1..$3 are the scope. */
const STATISTICS_LOCKED_SQL = `($1::text <> '1' AND NOT EXISTS (SELECT 1 FROM device_auth_grants ag
  WHERE ag.enterprise_id = d.owner_id AND ag.feature = 'statistics' AND (ag.device_id IS NULL OR ag.device_id = d.id)
    AND (ag.deadline IS NULL OR ag.deadline >= current_date)))`;

/** PostgreSQL's work_mem for one statistics query (a session setting, SET LOCAL in its transaction). */
const STATISTICS_WORK_MEM = '64MB';

/** Where the online time is read from: the hourly rollups (the default) or every report (the reference, for tests and benches). */
export type StatisticsSource = 'rollups' | 'reports';

/**
 * The largest offline threshold of any vessel, in minutes. The fleet query reads the hour rows from
 * the window's start less it (and an hour) through the hour index, as a parameter, so that the
 * planner knows how many rows that is: with each vessel's own bound only, which the index cannot
 * use, the scan read every hour row of the table; with the bound as a subquery it misjudged the
 * rows and chose a slower join for long windows.
 */
const MAX_THRESHOLD_SQL = `SELECT GREATEST((SELECT max(offline_minutes) FROM device_offline_thresholds),
  (SELECT max(offline_minutes) FROM enterprise_offline_thresholds),
  (SELECT default_offline_minutes FROM monitor_settings WHERE id = 1), 1)::int AS minutes`;

/** Where a rollup query over a window starting at `fromMs` reads hour rows from: its start less the largest threshold and an hour. */
export async function earliestHourMs(db: Queryable, w: { fromMs: number }): Promise<number> {
  const [row] = await db.query<{ minutes: number }>(MAX_THRESHOLD_SQL);
  return w.fromMs - (row?.minutes ?? 0) * 60_000 - 3_600_000;
}

/**
 * The devices (alias d), their offline thresholds in minutes and where the caller's part of their
 * history starts (`since`: level 1 all of it; levels 2 and 3 from the transfer to their
 * enterprise, docs/requirements.md §6). Only the reports path reads `since`: a vessel whose
 * transfer lies within the hours a rollup query reads is counted from its reports (transferredIn).
 */
const thresholdsSql = (devices: string) => `th AS (
    SELECT d.id AS device_id, ${THRESHOLD_SQL} AS minutes, CASE WHEN $1::text = '1' THEN '-infinity'::timestamptz ELSE d.owner_since END AS since
      FROM devices d
      LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
      LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
     WHERE ${devices}
  )`;

/**
 * Online seconds per device from every report. Each report covers the time to the next report,
 * at most the device's offline threshold (the rule that makes a device offline). Warn time (faults
 * or modem unlocked) is online time too, and also counted apart. $4, $5: the window in epoch ms.
 * `devices` selects the devices (alias d). Gives `i` (device_id, warn, s, e): covered intervals,
 * and `inner_time` (device_id, hour_start, online, warn seconds): none here.
 */
const reportIntervalsSql = (devices: string) => `
  WITH ${thresholdsSql(devices)}, r AS (
    SELECT dr.device_id, dr.device_time AS t, (cardinality(dr.faults) > 0 OR NOT dr.modem_lock) AS warn, th.minutes,
           lead(dr.device_time) OVER (PARTITION BY dr.device_id ORDER BY dr.device_time) AS nt
      FROM th JOIN device_reports dr ON dr.device_id = th.device_id
     WHERE dr.device_time > to_timestamp($4::float8 / 1000) - make_interval(mins => th.minutes)
       AND dr.device_time <= to_timestamp($5::float8 / 1000) AND dr.device_time >= th.since
  ), i AS (
    SELECT device_id, warn, greatest(t, to_timestamp($4::float8 / 1000)) AS s,
           least(COALESCE(nt, 'infinity'::timestamptz), t + make_interval(mins => minutes), to_timestamp($5::float8 / 1000)) AS e
      FROM r
  ), inner_time AS (
    SELECT 0 AS device_id, now() AS hour_start, 0::numeric AS online, 0::numeric AS warn WHERE false
  )`;

/**
 * The same from the hourly rollups (migration 013, report_hourly): the time between the reports
 * of one hour (`inner_time`, hours inside the window, which starts at a whole hour), and from each
 * hour's last report to the next report, at most the threshold (`i`). An hour that also holds
 * reports after the window's end (a device clock ahead) is read from its reports up to the end.
 * The answer is the one of reportIntervalsSql, for any threshold.
 */
const rollupIntervalsSql = (devices: string) => `
  WITH ${thresholdsSql(devices)}, w AS (
    SELECT to_timestamp($4::float8 / 1000) AS f, to_timestamp($5::float8 / 1000) AS t
  ), h AS (
    SELECT rh.device_id, rh.hour_start, rh.first_at, rh.last_at, rh.last_warn, rh.next_at, rh.covered_us, rh.warn_covered_us,
           rh.long_gaps_us, rh.warn_long_gaps_us, th.minutes, th.minutes * 60000000::bigint AS tus
      FROM th JOIN report_hourly rh ON rh.device_id = th.device_id CROSS JOIN w
     WHERE rh.hour_start > w.f - make_interval(mins => th.minutes) - interval '1 hour' AND rh.hour_start <= w.t
  ), inner_time AS (
    SELECT h.device_id, h.hour_start,
           (h.covered_us + COALESCE((SELECT sum(least(g, h.tus)) FROM unnest(h.long_gaps_us) g), 0)) / 1000000.0 AS online,
           (h.warn_covered_us + COALESCE((SELECT sum(least(g, h.tus)) FROM unnest(h.warn_long_gaps_us) g), 0)) / 1000000.0 AS warn
      FROM h CROSS JOIN w WHERE h.hour_start >= w.f AND h.last_at <= w.t
  ), raw AS (
    SELECT dr.device_id, dr.device_time AS t, (cardinality(dr.faults) > 0 OR NOT dr.modem_lock) AS warn, h.minutes,
           lead(dr.device_time) OVER (PARTITION BY dr.device_id ORDER BY dr.device_time) AS nt
      FROM h CROSS JOIN w JOIN device_reports dr ON dr.device_id = h.device_id AND dr.device_time >= h.hour_start AND dr.device_time <= w.t
     WHERE h.last_at > w.t
  ), i AS (
    SELECT h.device_id, h.last_warn AS warn, greatest(h.last_at, w.f) AS s,
           least(COALESCE(h.next_at, 'infinity'::timestamptz), h.last_at + make_interval(mins => h.minutes), w.t) AS e
      FROM h CROSS JOIN w WHERE h.last_at <= w.t
    UNION ALL
    SELECT raw.device_id, raw.warn, greatest(raw.t, w.f), least(COALESCE(raw.nt, 'infinity'::timestamptz), raw.t + make_interval(mins => raw.minutes), w.t)
      FROM raw CROSS JOIN w
  )`;

const intervalsSql = (source: StatisticsSource, devices: string) =>
  (source === 'reports' ? reportIntervalsSql : rollupIntervalsSql)(devices);

/**
 * Online and warn seconds per device and local day: covered intervals are split at local
 * midnights ($6 = the offset in seconds), so a run of reports around midnight UTC lands in
 * different days at UTC+8 and UTC-5; an hour's inner time belongs to the day of the hour (offsets
 * are whole hours).
 */
const perDaySql = (source: StatisticsSource, devices: string) => `${intervalsSql(source, devices)}, split AS (
    SELECT device_id, k, greatest(0, extract(epoch FROM
             least(e, to_timestamp((k + 1)::float8 * 86400 - $6::int)) - greatest(s, to_timestamp(k::float8 * 86400 - $6::int)))) AS online, warn
      FROM i CROSS JOIN LATERAL generate_series(floor((extract(epoch FROM s) + $6::int) / 86400)::int,
                                                ceil((extract(epoch FROM e) + $6::int) / 86400)::int - 1) AS k
     WHERE e > s
  ), per_day AS (
    SELECT k, online, CASE WHEN warn THEN online ELSE 0 END AS warn FROM split
    UNION ALL
    SELECT floor((extract(epoch FROM hour_start) + $6::int) / 86400)::int, online, warn FROM inner_time
  )`;

/**
 * Online and warn seconds per device over the window (`per_device`: device_id, online, warn).
 * From the rollups in one pass, in whole microseconds (exact, and far cheaper than numeric per
 * row), over "buckets" (rollupBucketsSql): a day row (migration 030) for each sealed whole day of
 * the window's zone that no late change marked, and hour rows for the rest (the hours before the
 * window whose last report may cover its start, today, and marked days). Each bucket gives the time between its
 * reports (buckets inside the window) and from its last report to the next report at most the
 * threshold; an hour holding reports after the window's end is read from its reports (`raw`).
 */
const perDeviceSql = (source: StatisticsSource, devices: string, bounds: RollupBounds | null) =>
  source === 'reports' || !bounds
    ? `${reportIntervalsSql(devices)}, per_device AS (
       SELECT device_id, sum(extract(epoch FROM e - s)) AS online, COALESCE(sum(extract(epoch FROM e - s)) FILTER (WHERE warn), 0) AS warn
         FROM i WHERE e > s GROUP BY device_id)`
    : `WITH ${thresholdsSql(devices)}, w AS (
       SELECT to_timestamp($4::float8 / 1000) AS f, to_timestamp($5::float8 / 1000) AS t
     ), ${rollupBucketsSql(bounds)}, hours AS (
       SELECT b.device_id, b.start, b.last_at, b.minutes,
              CASE WHEN b.start >= w.f THEN b.covered_us
                     + CASE WHEN cardinality(b.long_gaps_us) = 0 THEN 0 ELSE (SELECT sum(least(g, b.minutes * 60000000::bigint)) FROM unnest(b.long_gaps_us) g)::bigint END
                   ELSE 0 END AS inner_us,
              CASE WHEN b.start >= w.f THEN b.warn_covered_us
                     + CASE WHEN cardinality(b.warn_long_gaps_us) = 0 THEN 0 ELSE (SELECT sum(least(g, b.minutes * 60000000::bigint)) FROM unnest(b.warn_long_gaps_us) g)::bigint END
                   ELSE 0 END AS inner_warn_us,
              greatest(0, round(date_part('epoch', least(COALESCE(b.next_at, 'infinity'::timestamptz), b.last_at + make_interval(mins => b.minutes), w.t)
                                                  - greatest(b.last_at, w.f)) * 1000000))::bigint AS tail_us,
              b.last_warn
         FROM buckets b CROSS JOIN w
     ), raw AS (
       SELECT dr.device_id, dr.device_time AS t, (cardinality(dr.faults) > 0 OR NOT dr.modem_lock) AS warn, h.minutes,
              lead(dr.device_time) OVER (PARTITION BY dr.device_id ORDER BY dr.device_time) AS nt
         FROM (SELECT rh.device_id, rh.hour_start, th.minutes FROM th JOIN report_hourly rh ON rh.device_id = th.device_id CROSS JOIN w
                WHERE rh.hour_start > w.t - interval '1 hour' AND rh.hour_start <= w.t AND rh.last_at > w.t) h
         CROSS JOIN w JOIN device_reports dr ON dr.device_id = h.device_id AND dr.device_time >= h.hour_start AND dr.device_time <= w.t
     ), raw_i AS (
       SELECT raw.device_id, raw.warn, greatest(raw.t, w.f) AS s, least(COALESCE(raw.nt, 'infinity'::timestamptz), raw.t + make_interval(mins => raw.minutes), w.t) AS e
         FROM raw CROSS JOIN w
     ), per_device AS (
       SELECT device_id, sum(online_us) / 1000000.0 AS online, sum(warn_us) / 1000000.0 AS warn FROM (
         SELECT hours.device_id, sum(inner_us + tail_us) AS online_us, sum(inner_warn_us + CASE WHEN last_warn THEN tail_us ELSE 0 END) AS warn_us
           FROM hours CROSS JOIN w WHERE hours.last_at <= w.t GROUP BY hours.device_id
         UNION ALL
         SELECT device_id, sum(round(extract(epoch FROM e - s) * 1000000)), sum(round(extract(epoch FROM e - s) * 1000000)) FILTER (WHERE warn)
           FROM raw_i WHERE e > s GROUP BY device_id) x
        GROUP BY device_id)`;

/**
 * Runs the statistics query with PostgreSQL's JIT off (its compile time, 50-100 ms, is more than the
 * query) and with STATISTICS_WORK_MEM for its sorts and hashes: at 10,000 vessels the default 4 MB
 * sent the day rows' and the last day's hour rows' sorts to disk (bench:reports, 1.2 s -> 0.8 s).
 */
export async function withoutJit<T>(db: Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const full = db as Partial<Db>;
  if (full.engine !== 'postgres' || !full.transaction) return fn(db);
  return full.transaction(async (tx) => {
    await tx.query(`SET LOCAL jit = off; SET LOCAL work_mem = '${STATISTICS_WORK_MEM}'`);
    return fn(tx);
  });
}

export interface DayStatistics {
  date: string;
  label: string;
  onlineSeconds: number;
  warnSeconds: number;
  periodSeconds: number;
  availability: number;
}

const windowParams = (w: StatisticsWindow) => [w.fromMs, w.toMs, w.utcOffset * 3600];

/**
 * The caller's visible vessels (or the one vessel `deviceId`) whose transfer to the caller's
 * enterprise lies after `earliestMs`, where the rollup queries start reading hours: their hours are
 * not all of the caller's time, so they are counted from their reports (level 1: none).
 */
async function transferredIn(db: Queryable, caller: Principal, earliestMs: number, deviceId: number | null = null): Promise<number[]> {
  if (caller.permissionLevel === Level.Admin) return [];
  const rows = await db.query<{ id: number }>(
    `SELECT d.id FROM devices d WHERE ${visibleDevicesSql(caller)} AND d.owner_since > to_timestamp($4::float8 / 1000) AND ($5::int IS NULL OR d.id = $5::int)`,
    [...scopeParams(caller), earliestMs, deviceId],
  );
  return rows.map((r) => r.id);
}

/** These vessels' online and warn seconds over the window from their reports (each from the start of the caller's part of its history). */
async function reportFigures(db: Queryable, caller: Principal, w: StatisticsWindow, ids: readonly number[]) {
  return withoutJit(db, (tx) =>
    tx.query<{ id: number; online: number; warn: number }>(
      `${perDeviceSql('reports', `d.id = ANY($6::int[]) AND ${visibleDevicesSql(caller)}`, null)}
     SELECT device_id AS id, online::float8 AS online, warn::float8 AS warn FROM per_device`,
      [...scopeParams(caller), w.fromMs, w.toMs, ids],
    ),
  );
}

/** One vessel's online time per local day of the window (the vessel is known to be visible). */
export async function dailyStatistics(
  db: Queryable,
  caller: Principal,
  deviceId: number,
  w: StatisticsWindow,
  source: StatisticsSource = 'rollups',
): Promise<DayStatistics[]> {
  if (source === 'rollups' && (await transferredIn(db, caller, await earliestHourMs(db, w), deviceId)).length) source = 'reports';
  const rows = await withoutJit(db, (tx) =>
    tx.query<{ k: number; online: number; warn: number }>(
      `${perDaySql(source, `d.id = $7::int AND ${visibleDevicesSql(caller)}`)}
     SELECT k, sum(online)::float8 AS online, sum(warn)::float8 AS warn FROM per_day GROUP BY k`,
      [...scopeParams(caller), ...windowParams(w), deviceId],
    ),
  );
  const byDay = new Map(rows.map((r) => [r.k, r]));
  const offsetMs = w.utcOffset * 3_600_000;
  return w.dayNumbers.map((day) => {
    const start = day * DAY_MS - offsetMs;
    const periodSeconds = Math.max(0, Math.min(start + DAY_MS, w.toMs) - start) / 1000;
    const row = byDay.get(day);
    const onlineSeconds = Math.round(row?.online ?? 0);
    return {
      date: dateOfDay(day),
      label: labelOfDay(day),
      onlineSeconds,
      warnSeconds: Math.round(row?.warn ?? 0),
      periodSeconds,
      availability: periodSeconds > 0 ? Math.min(1, onlineSeconds / periodSeconds) : 0,
    };
  });
}

export interface FleetQuery {
  pageIndex: number;
  pageSize: number;
  search?: string;
  sort?: 'availability' | 'name' | 'onlineSeconds';
  order?: 'asc' | 'desc';
}

const FLEET_SORT: Record<NonNullable<FleetQuery['sort']>, string> = {
  availability: 'availability',
  name: 'v.name',
  onlineSeconds: '"onlineSeconds"',
};

/** Every visible vessel's online time and availability over the window, sorted and paged. */
export async function fleetStatistics(
  db: Queryable,
  caller: Principal,
  w: StatisticsWindow,
  q: FleetQuery,
  source: StatisticsSource = 'rollups',
) {
  const params: unknown[] = [...scopeParams(caller), w.fromMs, w.toMs];
  const visible = [visibleDevicesSql(caller)];
  if (q.search)
    visible.push(
      `(d.name ILIKE $${params.push(`%${q.search}%`)} OR d.device_num ILIKE $${params.length} OR d.mmsi ILIKE $${params.length})`,
    );
  const periodSeconds = (w.toMs - w.fromMs) / 1000;
  const direction = q.order === 'asc' ? 'ASC' : 'DESC';
  const sort = FLEET_SORT[q.sort ?? 'availability'];
  const limit = `$${params.push(q.pageSize)}`;
  const offset = `$${params.push((q.pageIndex - 1) * q.pageSize)}`;
  // Sorted by name, the page is known before any statistics: only its vessels' are computed.
  const counted =
    q.sort === 'name'
      ? `d.id IN (SELECT d.id FROM devices d WHERE ${visible.join(' AND ')} ORDER BY d.name ${direction} NULLS LAST, d.id LIMIT ${limit} OFFSET ${offset})`
      : visible.join(' AND ');
  const earliestMs = source === 'rollups' ? await earliestHourMs(db, w) : 0;
  const bounds = source === 'rollups' ? await rollupBounds(db, params, w, earliestMs, { spans: true }) : null;
  // Vessels transferred to the caller's enterprise within the hours read are counted from their reports, after the transfer.
  const cut = source === 'rollups' ? await transferredIn(db, caller, earliestMs) : [];
  let counts = `${counted} AND NOT ${STATISTICS_LOCKED_SQL}`;
  let perDevice = 'per_device';
  if (cut.length) {
    const f = await reportFigures(db, caller, w, cut);
    counts += ` AND NOT (d.id = ANY($${params.push(cut)}::int[]))`;
    perDevice = `(SELECT device_id, online, warn FROM per_device
       UNION ALL SELECT * FROM unnest($${params.push(f.map((r) => r.id))}::int[], $${params.push(f.map((r) => r.online))}::float8[],
                                      $${params.push(f.map((r) => r.warn))}::float8[]))`;
  }
  const rows = await withoutJit(db, (tx) =>
    tx.query<{
      deviceId: number;
      name: string;
      deviceNum: string | null;
      locked: boolean;
      onlineSeconds: number | null;
      warnSeconds: number | null;
      total: number;
    }>(
      `${perDeviceSql(source, counts, bounds)},
     v AS (
       SELECT d.id, d.name, d.device_num, ${STATISTICS_LOCKED_SQL} AS locked FROM devices d WHERE ${visible.join(' AND ')}
     )
     SELECT v.id AS "deviceId", v.name, v.device_num AS "deviceNum", v.locked,
            CASE WHEN v.locked THEN NULL ELSE round(COALESCE(p.online, 0))::float8 END AS "onlineSeconds",
            CASE WHEN v.locked THEN NULL ELSE round(COALESCE(p.warn, 0))::float8 END AS "warnSeconds",
            CASE WHEN v.locked THEN NULL ELSE least(1, COALESCE(p.online, 0) / $${params.push(periodSeconds)}::float8) END AS availability,
            count(*) OVER ()::int AS total
       FROM v LEFT JOIN ${perDevice} p ON p.device_id = v.id
      ORDER BY ${sort} ${direction} NULLS LAST, v.id
      LIMIT ${limit} OFFSET ${offset}`,
      params,
    ),
  );
  return {
    list: rows.map(({ total: _t, ...r }) => ({ ...r, periodSeconds })),
    total: rows[0]?.total ?? 0,
    from: new Date(w.fromMs).toISOString(),
    to: new Date(w.toMs).toISOString(),
    periodSeconds,
  };
}
