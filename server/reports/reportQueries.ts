import type { Queryable } from '../db/connection';
import type { Principal } from '../../src/domain/levels';
import { ownedRecordSql, scopeParams, visibleDevicesSql } from '../auth/deviceScope';
import { THRESHOLD_SQL } from '../modules/monitoring/stateSql';
import type { ReportRange } from '../../src/domain/reports';
import { rollupBounds, rollupBucketsSql } from '../modules/monitoring/dailyRollupQueries';
import { earliestHourMs, withoutJit } from '../modules/vessel/statisticsQueries';
import { LINK_HOURS_SQL } from '../modules/vessel/linkQueries';

/**
 * The SQL of scheduled reports (server/reports/buildReport.ts): set-based reads over the caller's
 * visible vessels ($1..$3, server/auth/deviceScope.ts) and the report's range ($4, $5 in epoch ms,
 * the end exclusive). One statement per figure, whatever the fleet's size; never one per vessel.
 */

const RANGE_SQL = (column: string) => `${column} >= to_timestamp($4::float8 / 1000) AND ${column} < to_timestamp($5::float8 / 1000)`;

export async function visibleVesselCount(db: Queryable, caller: Principal): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM devices d WHERE ${visibleDevicesSql(caller)}`,
    scopeParams(caller),
  );
  return row?.n ?? 0;
}

export interface RollupFigures {
  /** Fleet online and warn seconds per local day number (the days at the offset). */
  days: { k: number; online: number; warn: number }[];
  /** Per vessel, the longest stretch offline within the range, in seconds (only vessels with one). */
  outages: { id: number; seconds: number }[];
}

/**
 * Over the rollups (whole days from the daily ones, migration 030; the rest from the hourly ones, migration 013), for the vessels `ids` (the unlocked ones the statistics
 * module counted): the fleet's online and warn time per local day ($6 = the offset in seconds),
 * split at local midnights as the statistics module does, and each vessel's longest outage: the
 * longest time not covered by a report (a report covers up to the next one, at most the offline
 * threshold): a long gap inside an hour, the time from an hour's last report plus the threshold to
 * the next report, and from the range's start to the first report when none before covers it. The
 * range's ends are whole hours (previousPeriod). A vessel's transfer to the caller's enterprise
 * within the range is not cut out here (the per-vessel figures of the statistics module are).
 */
export async function rollupFigures(
  db: Queryable,
  caller: Principal,
  range: ReportRange,
  offsetHours: number,
  ids: readonly number[],
): Promise<RollupFigures> {
  if (!ids.length) return { days: [], outages: [] };
  const earliestMs = await earliestHourMs(db, range);
  const params: unknown[] = [...scopeParams(caller), range.fromMs, range.toMs, offsetHours * 3600, ids];
  const bounds = await rollupBounds(db, params, { ...range, utcOffset: offsetHours }, earliestMs);
  const rows = await withoutJit(db, (tx) =>
    tx.query<{ kind: 'day' | 'outage'; key: number; a: number; b: number }>(
      `WITH th AS (
         SELECT d.id AS device_id, ${THRESHOLD_SQL} AS minutes
           FROM devices d
           LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
           LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
          WHERE ${visibleDevicesSql(caller)} AND d.id = ANY($7::int[])
       ), w AS (
         SELECT to_timestamp($4::float8 / 1000) AS f, to_timestamp($5::float8 / 1000) AS t
       ), ${rollupBucketsSql(bounds)}, h AS MATERIALIZED (
         SELECT b.device_id, b.start AS hour_start, b.first_at, b.last_at, b.last_warn, b.next_at, b.minutes,
                (b.covered_us + COALESCE((SELECT sum(least(g, b.minutes * 60000000::bigint)) FROM unnest(b.long_gaps_us) g), 0)) / 1000000.0 AS inner_online,
                (b.warn_covered_us + COALESCE((SELECT sum(least(g, b.minutes * 60000000::bigint)) FROM unnest(b.warn_long_gaps_us) g), 0)) / 1000000.0 AS inner_warn,
                ((SELECT max(g) FROM unnest(b.long_gaps_us) g) - b.minutes * 60000000::bigint) / 1000000.0 AS inner_outage
           FROM buckets b CROSS JOIN w WHERE b.start < w.t
       ), tails AS (
         SELECT h.device_id, h.last_warn AS warn, greatest(h.last_at, w.f) AS s,
                least(COALESCE(h.next_at, 'infinity'::timestamptz), h.last_at + make_interval(mins => h.minutes), w.t) AS e,
                extract(epoch FROM least(COALESCE(h.next_at, 'infinity'::timestamptz), w.t) - greatest(h.last_at + make_interval(mins => h.minutes), w.f)) AS gap
           FROM h CROSS JOIN w WHERE h.last_at <= w.t
       ), split AS (
         SELECT k, warn, greatest(0, extract(epoch FROM
                  least(e, to_timestamp((k + 1)::float8 * 86400 - $6::int)) - greatest(s, to_timestamp(k::float8 * 86400 - $6::int)))) AS online
           FROM tails CROSS JOIN LATERAL generate_series(floor((extract(epoch FROM s) + $6::int) / 86400)::int,
                                                         ceil((extract(epoch FROM e) + $6::int) / 86400)::int - 1) AS k
          WHERE e > s
       ), per_day AS (
         SELECT k, online, CASE WHEN warn THEN online ELSE 0 END AS warn FROM split
         UNION ALL
         SELECT floor((extract(epoch FROM h.hour_start) + $6::int) / 86400)::int, h.inner_online, h.inner_warn
           FROM h CROSS JOIN w WHERE h.hour_start >= w.f AND h.last_at <= w.t
       ), firsts AS (
         SELECT h.device_id, bool_or(h.hour_start < w.f) AS before, min(h.first_at) FILTER (WHERE h.hour_start >= w.f) AS first_at
           FROM h CROSS JOIN w GROUP BY h.device_id
       ), gaps AS (
         SELECT device_id, gap AS seconds FROM tails
         UNION ALL
         SELECT h.device_id, h.inner_outage FROM h CROSS JOIN w WHERE h.hour_start >= w.f AND h.last_at <= w.t AND h.inner_outage > 0
         UNION ALL
         SELECT th.device_id, extract(epoch FROM COALESCE(fi.first_at, w.t) - w.f)
           FROM th CROSS JOIN w LEFT JOIN firsts fi ON fi.device_id = th.device_id WHERE fi.before IS NOT TRUE
       )
       SELECT 'day' AS kind, k AS key, sum(online)::float8 AS a, sum(warn)::float8 AS b FROM per_day GROUP BY k
       UNION ALL
       SELECT 'outage', device_id, max(seconds)::float8, 0 FROM gaps GROUP BY device_id HAVING max(seconds) > 0`,
      params,
    ),
  );
  return {
    days: rows.filter((r) => r.kind === 'day').map((r) => ({ k: r.key, online: r.a, warn: r.b })),
    outages: rows.filter((r) => r.kind === 'outage').map((r) => ({ id: r.key, seconds: r.a })),
  };
}

/** The alarms of the caller's vessels raised within the range, as a CTE `a` (levels 2 and 3: since their enterprise got the vessel). */
const alarmsSql = (caller: Principal) => `WITH a AS (
    SELECT a.device_id, d.name, a.code, a.severity, a.raised_at, a.acked_at, a.cleared_at
      FROM alarms a JOIN devices d ON d.id = a.device_id
     WHERE ${visibleDevicesSql(caller)} AND ${ownedRecordSql('a.raised_at')} AND ${RANGE_SQL('a.raised_at')}
  )`;

export interface AlarmCount {
  code: string;
  severity: string;
  count: number;
}

/** Alarms raised per code and severity. */
export const alarmCounts = (db: Queryable, caller: Principal, range: ReportRange) =>
  db.query<AlarmCount>(
    `${alarmsSql(caller)} SELECT code, severity, count(*)::int AS count FROM a GROUP BY code, severity ORDER BY code, severity`,
    [...scopeParams(caller), range.fromMs, range.toMs],
  );

export interface AlarmTimes {
  /** null: all severities. */
  severity: string | null;
  count: number;
  acked: number;
  cleared: number;
  ackMedian: number | null;
  ackP90: number | null;
  clearMedian: number | null;
  clearP90: number | null;
}

/** Per severity and in all: how many, how many acknowledged and cleared, and the minutes to each (median and p90, over those that were). */
export const alarmTimes = (db: Queryable, caller: Principal, range: ReportRange) =>
  db.query<AlarmTimes>(
    `${alarmsSql(caller)}, m AS (
       SELECT severity, acked_at, cleared_at,
              -- greatest() skips nulls: an alarm never acknowledged or cleared has no time (percentile_cont skips it).
              CASE WHEN acked_at IS NOT NULL THEN greatest(0, extract(epoch FROM acked_at - raised_at) / 60) END AS ack,
              CASE WHEN cleared_at IS NOT NULL THEN greatest(0, extract(epoch FROM cleared_at - raised_at) / 60) END AS clear
         FROM a
     )
     SELECT severity, count(*)::int AS count, count(acked_at)::int AS acked, count(cleared_at)::int AS cleared,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY ack))::float8 AS "ackMedian",
            (percentile_cont(0.9) WITHIN GROUP (ORDER BY ack))::float8 AS "ackP90",
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY clear))::float8 AS "clearMedian",
            (percentile_cont(0.9) WITHIN GROUP (ORDER BY clear))::float8 AS "clearP90"
       FROM m GROUP BY GROUPING SETS ((severity), ())`,
    [...scopeParams(caller), range.fromMs, range.toMs],
  );

export interface VesselAlarms {
  id: number;
  name: string;
  count: number;
  critical: number;
}

/** Alarms per vessel that had any, most first. */
export const alarmsByVessel = (db: Queryable, caller: Principal, range: ReportRange) =>
  db.query<VesselAlarms>(
    `${alarmsSql(caller)}
     SELECT device_id AS id, name, count(*)::int AS count, (count(*) FILTER (WHERE severity = 'critical'))::int AS critical
       FROM a GROUP BY device_id, name ORDER BY count(*) DESC, name, device_id`,
    [...scopeParams(caller), range.fromMs, range.toMs],
  );

export interface VesselDataUsage {
  id: number;
  name: string;
  deviceNum: string | null;
  /** The vessel's monthly quota in bytes; null without a data plan. */
  quotaBytes: number | null;
  usedBytes: number;
}

/**
 * Data used within the range per visible vessel with a data plan or some use, most first: the
 * reports' bytes summed from the rollups (whole days from the daily ones), against its plan's monthly quota.
 */
export async function dataUsageByVessel(db: Queryable, caller: Principal, range: ReportRange, offsetHours: number) {
  const params: unknown[] = [...scopeParams(caller), range.fromMs, range.toMs];
  const bounds = await rollupBounds(db, params, { ...range, utcOffset: offsetHours }, range.fromMs - 3_600_000);
  return db.query<VesselDataUsage>(
    `WITH th AS (SELECT d.id AS device_id, 1 AS minutes FROM devices d WHERE ${visibleDevicesSql(caller)}),
          w AS (SELECT to_timestamp($4::float8 / 1000) AS f, to_timestamp($5::float8 / 1000) AS t),
          ${rollupBucketsSql(bounds)},
          used AS (SELECT b.device_id, sum(b.bytes_used)::float8 AS bytes FROM buckets b CROSS JOIN w WHERE b.start >= w.f AND b.start < w.t GROUP BY b.device_id)
     SELECT d.id, d.name, d.device_num AS "deviceNum", p.quota_bytes::float8 AS "quotaBytes", COALESCE(u.bytes, 0) AS "usedBytes"
       FROM devices d LEFT JOIN data_plans p ON p.device_id = d.id LEFT JOIN used u ON u.device_id = d.id
      WHERE ${visibleDevicesSql(caller)} AND (p.device_id IS NOT NULL OR u.bytes > 0)
      ORDER BY COALESCE(u.bytes, 0) DESC, d.name, d.id`,
    params,
  );
}

export interface PortCall {
  id: number;
  name: string;
  port: string;
  arrivedAt: Date;
  /** Null while the vessel is still in the port (no departure recorded after the arrival). */
  departedAt: Date | null;
}

/**
 * The calls at the caller's ports (geofences of kind port) that overlap the range, from the
 * geofence events (Support > Port calls): each arrival with the same vessel's next departure from
 * that port, in arrival order. Levels 2 and 3 see only the events since the vessel became theirs.
 */
export const portCalls = (db: Queryable, caller: Principal, range: ReportRange) =>
  db.query<PortCall>(
    `WITH e AS (
       SELECT g.device_id, d.name, g.geofence_name, g.event, g.at,
              lead(g.event) OVER x AS next_event, lead(g.at) OVER x AS next_at
         FROM geofence_events g JOIN devices d ON d.id = g.device_id
        WHERE ${visibleDevicesSql(caller)} AND ${ownedRecordSql('g.at')} AND g.geofence_kind = 'port' AND g.at < to_timestamp($5::float8 / 1000)
       WINDOW x AS (PARTITION BY g.device_id, g.geofence_id ORDER BY g.at, g.id)
     )
     SELECT device_id AS id, name, geofence_name AS port, at AS "arrivedAt", CASE WHEN next_event = 'departure' THEN next_at END AS "departedAt"
       FROM e
      WHERE event = 'arrival' AND (next_event IS DISTINCT FROM 'departure' OR next_at >= to_timestamp($4::float8 / 1000))
      ORDER BY at, name, device_id`,
    [...scopeParams(caller), range.fromMs, range.toMs],
  );

export interface CommandCounts {
  kind: string;
  sent: number;
  succeeded: number;
  failed: number;
  expired: number;
}

/** Commands created within the range per kind: all of them, acknowledged or done, failed, expired. */
export const commandCounts = (db: Queryable, caller: Principal, range: ReportRange) =>
  db.query<CommandCounts>(
    `SELECT c.kind, count(*)::int AS sent,
            (count(*) FILTER (WHERE c.state IN ('acknowledged', 'done')))::int AS succeeded,
            (count(*) FILTER (WHERE c.state = 'failed'))::int AS failed,
            (count(*) FILTER (WHERE c.state = 'expired'))::int AS expired
       FROM device_commands c JOIN devices d ON d.id = c.device_id
      WHERE ${visibleDevicesSql(caller)} AND ${ownedRecordSql('c.created_at')} AND ${RANGE_SQL('c.created_at')}
      GROUP BY c.kind ORDER BY c.kind`,
    [...scopeParams(caller), range.fromMs, range.toMs],
  );

export interface VesselLinkTime {
  id: number;
  name: string;
  linkId: string;
  kind: string;
  upSeconds: number;
  activeSeconds: number;
  downSeconds: number;
  /** The link's counted time (up, standby and down): the time the vessel reported its links. */
  countedSeconds: number;
  /** Failovers away from this link in the range. */
  failovers: number;
}

/** Per vessel and link, its time up, carrying the traffic and down, from the hourly link rollups (docs/architecture.md, "Links"). */
export const linkTimesByVessel = (db: Queryable, caller: Principal, range: ReportRange) =>
  db.query<VesselLinkTime>(
    `SELECT d.id, d.name, h.link_id AS "linkId", (array_agg(h.kind ORDER BY h.hour_start DESC))[1] AS kind,
            round(sum(h.up_s))::float8 AS "upSeconds", round(sum(h.active_s))::float8 AS "activeSeconds",
            round(sum(h.down_s))::float8 AS "downSeconds", round(sum(h.up_s + h.standby_s + h.down_s))::float8 AS "countedSeconds",
            (SELECT count(*) FROM link_failovers f WHERE f.device_id = d.id AND f.from_link = h.link_id AND ${RANGE_SQL('f.at')}
                AND ${ownedRecordSql('f.at')})::int AS failovers
       FROM ${LINK_HOURS_SQL} h JOIN devices d ON d.id = h.device_id
      WHERE ${visibleDevicesSql(caller)} AND ${RANGE_SQL('h.hour_start')} AND ${ownedRecordSql('h.hour_start')}
      GROUP BY d.id, d.name, h.link_id ORDER BY d.name, d.id, h.link_id`,
    [...scopeParams(caller), range.fromMs, range.toMs],
  );
