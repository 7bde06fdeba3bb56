import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import type { DataPlan, DataPlanInput, DataUsage } from '../../../src/domain/dataPlans';

export type { DataPlan, DataUsage };
import { visibleDevicesSql, scopeParams } from '../../auth/deviceScope';
import { levelSql, settleDataUsage } from './dataUsageQueries';

// Bytes leave the database as float8: exact up to 2^53, far above MAX_QUOTA_BYTES, and a JSON number on both drivers.
const PLAN_COLUMNS = `p.device_id AS "deviceId", p.quota_bytes::float8 AS "quotaBytes", p.reset_day::int AS "resetDay",
  p.updated_at AS "updatedAt", p.updated_by AS "updatedBy", u.name AS "updatedByName"`;

export async function findPlan(db: Queryable, deviceId: number): Promise<DataPlan | null> {
  const [plan] = await db.query<DataPlan>(
    `SELECT ${PLAN_COLUMNS} FROM data_plans p LEFT JOIN users u ON u.id = p.updated_by WHERE p.device_id = $1`,
    [deviceId],
  );
  return plan ?? null;
}

/** Sets (or replaces) a vessel's plan and settles its period, usage and data alarms in the same transaction. */
export async function savePlan(tx: Queryable, input: DataPlanInput, userId: number): Promise<void> {
  // The ingest writer's lock of this device: its usage is not added to meanwhile.
  await tx.query('SELECT pg_advisory_xact_lock(5, $1::int)', [input.deviceId]);
  await tx.query(
    `INSERT INTO data_plans (device_id, quota_bytes, reset_day, updated_by, updated_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (device_id) DO UPDATE SET quota_bytes = EXCLUDED.quota_bytes, reset_day = EXCLUDED.reset_day,
       updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [input.deviceId, input.quotaBytes, input.resetDay, userId],
  );
  await settleDataUsage(tx, [input.deviceId]);
}

/** Removes a vessel's plan: its data alarms clear (no plan, no share). Answers whether there was one. */
export async function removePlan(tx: Queryable, deviceId: number): Promise<boolean> {
  await tx.query('SELECT pg_advisory_xact_lock(5, $1::int)', [deviceId]);
  const gone = await tx.query('DELETE FROM data_plans WHERE device_id = $1 RETURNING device_id', [deviceId]);
  await settleDataUsage(tx, [deviceId]);
  return gone.length > 0;
}

/**
 * Where the caller's part of a vessel's history starts ($3: epoch ms, null for all of it): `s`, and
 * `hs`, the first whole hour from it. Bytes from `hs` on come from the hourly rollups, those between
 * `s` and `hs` from the reports (docs/requirements.md §6, "A transferred vessel").
 */
const SINCE_SQL = `(SELECT c.s, date_trunc('hour', c.s) + CASE WHEN date_trunc('hour', c.s) = c.s THEN interval '0' ELSE interval '1 hour' END AS hs
  FROM (SELECT COALESCE(to_timestamp($3::float8 / 1000), '-infinity'::timestamptz) AS s) c)`;

/**
 * A vessel's usage: the current period (from data_usage when it is this period's, else summed
 * from the hourly rollups), the previous period, and daily totals from the rollups. The current
 * period's count is the plan's, which goes with the vessel; the previous period and the daily
 * totals are history: with `sinceMs`, only the bytes reported from then on.
 */
export async function usageOf(db: Queryable, deviceId: number, days: number, sinceMs: number | null = null): Promise<DataUsage> {
  const plan = await findPlan(db, deviceId);
  const [period] = await db.query<{ ps: string; pe: string; prevPs: string; used: number; prevUsed: number }>(
    `WITH k AS (SELECT data_period_start($2::int, now()) AS ps), c AS ${SINCE_SQL}
     SELECT k.ps AS ps, k.ps + interval '1 month' AS pe, k.ps - interval '1 month' AS "prevPs",
            COALESCE((SELECT u.bytes FROM data_usage u WHERE u.device_id = $1 AND u.period_start = k.ps),
                     (SELECT sum(h.bytes_used) FROM report_hourly h WHERE h.device_id = $1 AND h.hour_start >= k.ps), 0)::float8 AS used,
            (COALESCE((SELECT sum(h.bytes_used) FROM report_hourly h WHERE h.device_id = $1 AND h.hour_start >= greatest(k.ps - interval '1 month', c.hs)
                        AND h.hour_start < k.ps), 0)
             + COALESCE((SELECT sum(r.bytes_used) FROM device_reports r WHERE r.device_id = $1
                           AND r.device_time >= greatest(k.ps - interval '1 month', c.s) AND r.device_time < least(k.ps, c.hs)), 0))::float8 AS "prevUsed"
       FROM k, c`,
    [deviceId, plan?.resetDay ?? 1, sinceMs],
  );
  const daily = await db.query<{ date: string; bytes: number }>(
    `WITH w AS (SELECT date_trunc('day', now() AT TIME ZONE 'UTC') - ($2::int - 1) * interval '1 day' AS first), c AS ${SINCE_SQL}
     SELECT to_char(d, 'YYYY-MM-DD') AS date, COALESCE(sum(b.bytes), 0)::float8 AS bytes
       FROM w CROSS JOIN generate_series(w.first, date_trunc('day', now() AT TIME ZONE 'UTC'), interval '1 day') AS d
       LEFT JOIN (SELECT h.hour_start AS t, h.bytes_used AS bytes FROM report_hourly h, w, c
                   WHERE h.device_id = $1 AND h.hour_start >= greatest(w.first AT TIME ZONE 'UTC', c.hs)
                  UNION ALL
                  SELECT r.device_time, r.bytes_used FROM device_reports r, w, c
                   WHERE r.device_id = $1 AND r.device_time >= greatest(w.first AT TIME ZONE 'UTC', c.s) AND r.device_time < c.hs) b
         ON b.t >= d AT TIME ZONE 'UTC' AND b.t < (d + interval '1 day') AT TIME ZONE 'UTC'
      GROUP BY d ORDER BY d`,
    [deviceId, days, sinceMs],
  );
  const [level] = await db.query<{ level: number }>(`SELECT ${levelSql('$1::float8', '$2::float8')}::int AS level`, [
    period!.used,
    plan?.quotaBytes ?? null,
  ]);
  const quota = plan?.quotaBytes ?? null;
  return {
    deviceId,
    plan,
    periodStart: new Date(period!.ps).toISOString(),
    periodEnd: new Date(period!.pe).toISOString(),
    usedBytes: period!.used,
    quotaBytes: quota,
    percent: quota ? Math.round((period!.used / quota) * 1000) / 10 : null,
    level: level!.level,
    previous: {
      periodStart: new Date(period!.prevPs).toISOString(),
      periodEnd: new Date(period!.ps).toISOString(),
      usedBytes: period!.prevUsed,
    },
    daily,
  };
}

export const FLEET_SORTS = [
  'percent',
  'usedBytes',
  'quotaBytes',
  'usedGb',
  'quotaGb',
  'name',
  'deviceNum',
  'ownerName',
  'resetDay',
] as const;
export interface FleetUsageQuery {
  pageIndex: number;
  pageSize: number;
  sort: (typeof FLEET_SORTS)[number];
  order: 'asc' | 'desc';
  search?: string;
  ownerId?: number;
  planned?: boolean;
  minPercent?: number;
}
const SORT_SQL: Record<(typeof FLEET_SORTS)[number], string> = {
  percent: 'x.percent',
  usedBytes: 'x."usedBytes"',
  quotaBytes: 'x."quotaBytes"',
  usedGb: 'x."usedBytes"',
  quotaGb: 'x."quotaBytes"',
  name: 'x.name',
  deviceNum: 'x."deviceNum"',
  ownerName: 'x."ownerName"',
  resetDay: 'x."resetDay"',
};

/** The visible vessels with their plan and this period's usage, paged; sort by percent (nulls last). */
export async function fleetUsage(db: Queryable, caller: Principal, q: FleetUsageQuery) {
  const search = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const inner = `SELECT d.id, d.id AS "deviceId", d.name, d.device_num AS "deviceNum", d.owner_id AS "ownerId", o.name AS "ownerName",
         p.quota_bytes::float8 AS "quotaBytes", p.reset_day::int AS "resetDay", p.updated_at AS "updatedAt",
         data_period_start(COALESCE(p.reset_day, 1)::int, now()) AS "periodStart",
         data_period_start(COALESCE(p.reset_day, 1)::int, now()) + interval '1 month' AS "periodEnd",
         COALESCE(CASE WHEN u.period_start = data_period_start(COALESCE(p.reset_day, 1)::int, now()) THEN u.bytes END, 0)::float8 AS "usedBytes"
    FROM devices d LEFT JOIN users o ON o.id = d.owner_id
    LEFT JOIN data_plans p ON p.device_id = d.id LEFT JOIN data_usage u ON u.device_id = d.id
   WHERE ${visibleDevicesSql(caller)}
     AND ($4::text IS NULL OR d.name ILIKE $4 OR d.device_num ILIKE $4)
     AND ($5::int IS NULL OR d.owner_id = $5)
     AND ($6::boolean IS NULL OR (p.device_id IS NOT NULL) = $6)`;
  // GB (two decimals) and the alarm share's name beside the bytes, for a list that shows them as they are.
  const outer = `SELECT x.*, CASE WHEN x."quotaBytes" > 0 THEN round((x."usedBytes" * 100 / x."quotaBytes")::numeric, 1)::float8 END AS percent,
         round((x."usedBytes" / 1e9)::numeric, 2)::float8 AS "usedGb", round((x."quotaBytes" / 1e9)::numeric, 2)::float8 AS "quotaGb",
         CASE WHEN x."quotaBytes" IS NULL THEN 'none' WHEN ${levelSql('x."usedBytes"', 'x."quotaBytes"')} = 0 THEN 'normal'
              ELSE 'over' || ${levelSql('x."usedBytes"', 'x."quotaBytes"')} END AS "levelName"
    FROM (${inner}) x`;
  const where = `WHERE ($7::float8 IS NULL OR y.percent >= $7)`;
  const params = [...scopeParams(caller), search, q.ownerId ?? null, q.planned ?? null, q.minPercent ?? null];
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${outer}) y ${where}`, params);
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const list = await db.query(
    `SELECT y.* FROM (${outer}) y ${where} ORDER BY ${SORT_SQL[q.sort].replace('x.', 'y.')} ${dir} NULLS LAST, y.id ${dir} LIMIT $8 OFFSET $9`,
    [...params, q.pageSize, (q.pageIndex - 1) * q.pageSize],
  );
  return { list, total: count!.n };
}
