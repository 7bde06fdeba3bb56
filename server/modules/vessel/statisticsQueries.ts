import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';
import { THRESHOLD_SQL } from '../monitoring/stateSql';

const DAY_MS = 86_400_000;

/** The last `days` calendar days at a UTC offset (hours), today included, up to now. */
export interface StatisticsWindow {
  days: number;
  utcOffset: number;
  /** Local day numbers (days since 1970-01-01 at the offset), oldest first. */
  dayNumbers: number[];
  fromMs: number;
  toMs: number;
}

export function statisticsWindow(days: number, utcOffset: number, now = Date.now()): StatisticsWindow {
  const offsetMs = utcOffset * 3_600_000;
  const today = Math.floor((now + offsetMs) / DAY_MS);
  const dayNumbers = Array.from({ length: days }, (_, i) => today - days + 1 + i);
  return { days, utcOffset, dayNumbers, fromMs: dayNumbers[0]! * DAY_MS - offsetMs, toMs: now };
}

/** The local calendar date of a day number: YYYY-MM-DD, and the MM-DD label SPEC asks for. */
export const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const labelOfDay = (day: number) => dateOfDay(day).slice(5);

/** Whether the statistics feature is locked for a device `d` (never for an admin). $1..$3 are the scope. */
const STATISTICS_LOCKED_SQL = `($1::text <> '1' AND NOT EXISTS (SELECT 1 FROM device_auth_grants ag
  WHERE ag.enterprise_id = d.owner_id AND ag.feature = 'statistics' AND (ag.device_id IS NULL OR ag.device_id = d.id)
    AND (ag.deadline IS NULL OR ag.deadline >= current_date)))`;

/**
 * Online seconds per device and local day. Each report covers the time to the next report, at most
 * the device's offline threshold (the rule that makes a device offline); the covered time is split
 * at local midnights ($6 = the offset in seconds), so a run of reports around midnight UTC lands
 * in different days at UTC+8 and UTC-5. Warn time (faults or modem unlocked) is online time too,
 * and also counted apart. $4, $5: the window in epoch ms. `devices` selects the devices (alias d).
 */
const intervalsSql = (devices: string) => `
  WITH th AS (
    SELECT d.id AS device_id, ${THRESHOLD_SQL} AS minutes FROM devices d
      LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
      LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
     WHERE ${devices}
  ), r AS (
    SELECT dr.device_id, dr.device_time AS t, (cardinality(dr.faults) > 0 OR NOT dr.modem_lock) AS warn, th.minutes,
           lead(dr.device_time) OVER (PARTITION BY dr.device_id ORDER BY dr.device_time) AS nt
      FROM th JOIN device_reports dr ON dr.device_id = th.device_id
     WHERE dr.device_time > to_timestamp($4::float8 / 1000) - make_interval(mins => th.minutes)
       AND dr.device_time <= to_timestamp($5::float8 / 1000)
  ), i AS (
    SELECT device_id, warn, greatest(t, to_timestamp($4::float8 / 1000)) AS s,
           least(COALESCE(nt, 'infinity'::timestamptz), t + make_interval(mins => minutes), to_timestamp($5::float8 / 1000)) AS e
      FROM r
  )`;

const perDaySql = (devices: string) => `${intervalsSql(devices)}, split AS (
    SELECT device_id, warn, k, greatest(0, extract(epoch FROM
             least(e, to_timestamp((k + 1)::float8 * 86400 - $6::int)) - greatest(s, to_timestamp(k::float8 * 86400 - $6::int))))::float8 AS secs
      FROM i CROSS JOIN LATERAL generate_series(floor((extract(epoch FROM s) + $6::int) / 86400)::int,
                                                ceil((extract(epoch FROM e) + $6::int) / 86400)::int - 1) AS k
     WHERE e > s
  )`;

export interface DayStatistics {
  date: string;
  label: string;
  onlineSeconds: number;
  warnSeconds: number;
  periodSeconds: number;
  availability: number;
}

const windowParams = (w: StatisticsWindow) => [w.fromMs, w.toMs, w.utcOffset * 3600];

/** One vessel's online time per local day of the window (the vessel is known to be visible). */
export async function dailyStatistics(db: Queryable, caller: Principal, deviceId: number, w: StatisticsWindow): Promise<DayStatistics[]> {
  const rows = await db.query<{ k: number; online: number; warn: number }>(
    `${perDaySql(`d.id = $7::int AND ${visibleDevicesSql(caller)}`)}
     SELECT k, sum(secs)::float8 AS online, COALESCE(sum(secs) FILTER (WHERE warn), 0)::float8 AS warn FROM split GROUP BY k`,
    [...scopeParams(caller), ...windowParams(w), deviceId]);
  const byDay = new Map(rows.map((r) => [r.k, r]));
  const offsetMs = w.utcOffset * 3_600_000;
  return w.dayNumbers.map((day) => {
    const start = day * DAY_MS - offsetMs;
    const periodSeconds = Math.max(0, Math.min(start + DAY_MS, w.toMs) - start) / 1000;
    const row = byDay.get(day);
    const onlineSeconds = Math.round(row?.online ?? 0);
    return {
      date: dateOfDay(day), label: labelOfDay(day), onlineSeconds, warnSeconds: Math.round(row?.warn ?? 0), periodSeconds,
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
  availability: 'availability', name: 'v.name', onlineSeconds: '"onlineSeconds"',
};

/** Every visible vessel's online time and availability over the window, sorted and paged. */
export async function fleetStatistics(db: Queryable, caller: Principal, w: StatisticsWindow, q: FleetQuery) {
  const params: unknown[] = [...scopeParams(caller), w.fromMs, w.toMs];
  const visible = [visibleDevicesSql(caller)];
  if (q.search) visible.push(`(d.name ILIKE $${params.push(`%${q.search}%`)} OR d.device_num ILIKE $${params.length} OR d.mmsi ILIKE $${params.length})`);
  const periodSeconds = (w.toMs - w.fromMs) / 1000;
  const direction = q.order === 'asc' ? 'ASC' : 'DESC';
  const sort = FLEET_SORT[q.sort ?? 'availability'];
  const rows = await db.query<{ deviceId: number; name: string; deviceNum: string | null; locked: boolean; onlineSeconds: number | null; warnSeconds: number | null; total: number }>(
    `${intervalsSql(`${visible.join(' AND ')} AND NOT ${STATISTICS_LOCKED_SQL}`)},
     per_device AS (
       SELECT device_id, sum(extract(epoch FROM e - s)) AS online, COALESCE(sum(extract(epoch FROM e - s)) FILTER (WHERE warn), 0) AS warn
         FROM i WHERE e > s GROUP BY device_id),
     v AS (
       SELECT d.id, d.name, d.device_num, ${STATISTICS_LOCKED_SQL} AS locked FROM devices d WHERE ${visible.join(' AND ')}
     )
     SELECT v.id AS "deviceId", v.name, v.device_num AS "deviceNum", v.locked,
            CASE WHEN v.locked THEN NULL ELSE round(COALESCE(p.online, 0))::float8 END AS "onlineSeconds",
            CASE WHEN v.locked THEN NULL ELSE round(COALESCE(p.warn, 0))::float8 END AS "warnSeconds",
            CASE WHEN v.locked THEN NULL ELSE least(1, COALESCE(p.online, 0) / $${params.push(periodSeconds)}::float8) END AS availability,
            count(*) OVER ()::int AS total
       FROM v LEFT JOIN per_device p ON p.device_id = v.id
      ORDER BY ${sort} ${direction} NULLS LAST, v.id
      LIMIT $${params.push(q.pageSize)} OFFSET $${params.push((q.pageIndex - 1) * q.pageSize)}`, params);
  return {
    list: rows.map(({ total: _t, ...r }) => ({ ...r, periodSeconds })),
    total: rows[0]?.total ?? 0,
    from: new Date(w.fromMs).toISOString(), to: new Date(w.toMs).toISOString(), periodSeconds,
  };
}


