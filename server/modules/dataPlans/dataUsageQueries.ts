import type { Db, Queryable } from '../../db/connection';
import { DATA_PLAN_ALARMS } from '../../../src/domain/faultCodes';

/**
 * Data usage per period and the data plan alarms (docs/api.md, "dataPlan"), in one place: the ingest
 * writer adds a group's bytes (recordDataUsage), a plan change and the leader's sweep recompute a
 * device's period from the hourly rollups (settleDataUsage), and both end in applyDataPlanAlarms,
 * the one rule for raising and clearing DATA80 / DATA100. Tables: migration 016_data_plans.sql.
 */

/** A device's alarm share now (0, or the highest DATA_PLAN_ALARMS percent reached), as SQL over bytes and quota. */
export const levelSql = (bytes: string, quota: string) =>
  `(CASE ${[...DATA_PLAN_ALARMS]
    .reverse()
    .map((a) => `WHEN ${quota} IS NOT NULL AND ${bytes}::numeric * 100 >= ${quota}::numeric * ${a.percent} THEN ${a.percent}`)
    .join(' ')} ELSE 0 END)`;

/** The period start of a device's plan now (a calendar month without a plan), as SQL over the plan row `p`. */
const PERIOD_START_SQL = `data_period_start(COALESCE(p.reset_day, 1)::int, now())`;

export interface UsageRow {
  deviceId: number;
  deviceTime: string;
  bytes: number;
}

/**
 * Adds the bytes of a group's stored reports to their devices' current periods, in one statement
 * (reports dated before the period start are history only). A device whose period changed since
 * its row was written is recomputed from report_hourly (which already holds this group's reports:
 * the rollup trigger ran in the INSERT). Then raises the alarms of devices that crossed a share.
 */
export async function recordDataUsage(tx: Queryable, rows: readonly UsageRow[]): Promise<void> {
  if (!rows.length) return;
  const changed = await tx.query<{ id: number }>(
    `WITH r AS (
       SELECT u.id, u.t::timestamptz AS t, u.b FROM unnest($1::int[], $2::text[], $3::bigint[]) AS u(id, t, b)
     ), s AS (
       SELECT r.id, ${PERIOD_START_SQL} AS ps, p.quota_bytes AS quota, COALESCE(sum(r.b) FILTER (WHERE r.t >= ${PERIOD_START_SQL}), 0)::bigint AS b,
              u.period_start AS old_ps, COALESCE(u.alerted, 0) AS alerted
         FROM r LEFT JOIN data_plans p ON p.device_id = r.id LEFT JOIN data_usage u ON u.device_id = r.id
        GROUP BY r.id, p.reset_day, p.quota_bytes, u.period_start, u.alerted
     ), up AS (
       INSERT INTO data_usage AS du (device_id, period_start, bytes)
       SELECT id, ps, b FROM s ORDER BY id
       ON CONFLICT (device_id) DO UPDATE SET
         bytes = CASE WHEN du.period_start = EXCLUDED.period_start THEN du.bytes + EXCLUDED.bytes
                      ELSE (SELECT COALESCE(sum(h.bytes_used), 0) FROM report_hourly h WHERE h.device_id = du.device_id AND h.hour_start >= EXCLUDED.period_start)::bigint END,
         period_start = EXCLUDED.period_start
       RETURNING du.device_id, du.bytes
     )
     SELECT up.device_id AS id FROM up JOIN s ON s.id = up.device_id
      WHERE (s.old_ps IS NOT NULL AND s.old_ps <> s.ps) OR ${levelSql('up.bytes', 's.quota')} > s.alerted`,
    [rows.map((r) => r.deviceId), rows.map((r) => r.deviceTime), rows.map((r) => r.bytes)],
  );
  if (changed.length)
    await applyDataPlanAlarms(
      tx,
      changed.map((c) => c.id),
    );
}

/**
 * The one alarm rule: for each device, its share now under its plan (none without a plan); an
 * active data alarm above that share is cleared (a new period, a raised quota, a removed plan), an
 * alarm at or below it not yet raised in this period is raised (at most once per period: alerted
 * remembers it even when a user clears the alarm), and alerted becomes the share.
 */
export async function applyDataPlanAlarms(tx: Queryable, deviceIds: readonly number[]): Promise<void> {
  if (!deviceIds.length) return;
  await tx.query(
    `WITH lv AS (
       SELECT u.device_id AS id, ${levelSql('u.bytes', 'p.quota_bytes')} AS level, u.alerted
         FROM data_usage u LEFT JOIN data_plans p ON p.device_id = u.device_id
        WHERE u.device_id = ANY($1::int[])
     ), c AS (
       SELECT * FROM unnest($2::text[], $3::int[], $4::text[]) AS c(code, pct, sev)
     ), cleared AS (
       UPDATE alarms a SET cleared_at = now() FROM lv, c
        WHERE a.device_id = lv.id AND a.code = c.code AND a.cleared_at IS NULL AND lv.level < c.pct
       RETURNING a.id
     ), raised AS (
       INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at)
       SELECT lv.id, c.code, c.sev, now(), now() FROM lv, c WHERE lv.level >= c.pct AND lv.alerted < c.pct ORDER BY lv.id, c.pct
       ON CONFLICT (device_id, code) WHERE cleared_at IS NULL DO NOTHING
       RETURNING id
     )
     UPDATE data_usage u SET alerted = lv.level FROM lv WHERE u.device_id = lv.id AND u.alerted <> lv.level`,
    [[...deviceIds], DATA_PLAN_ALARMS.map((a) => a.code), DATA_PLAN_ALARMS.map((a) => a.percent), DATA_PLAN_ALARMS.map((a) => a.severity)],
  );
}

/**
 * Recomputes the current period and its usage of these devices from the hourly rollups (after a
 * plan change, a new period, or a bulk load such as the demo seed), keeping alerted within the
 * same period, then applies the alarm rule.
 */
export async function settleDataUsage(tx: Queryable, deviceIds: readonly number[]): Promise<void> {
  if (!deviceIds.length) return;
  await tx.query(
    `INSERT INTO data_usage AS du (device_id, period_start, bytes)
     SELECT k.id, k.ps, COALESCE((SELECT sum(h.bytes_used) FROM report_hourly h WHERE h.device_id = k.id AND h.hour_start >= k.ps), 0)::bigint
       FROM (SELECT d.id, ${PERIOD_START_SQL} AS ps FROM unnest($1::int[]) AS d(id) JOIN devices dv ON dv.id = d.id
               LEFT JOIN data_plans p ON p.device_id = d.id) k
      ORDER BY k.id
     ON CONFLICT (device_id) DO UPDATE SET bytes = EXCLUDED.bytes, period_start = EXCLUDED.period_start,
        alerted = CASE WHEN du.period_start = EXCLUDED.period_start THEN du.alerted ELSE 0 END`,
    [[...new Set(deviceIds)]],
  );
  await applyDataPlanAlarms(tx, deviceIds);
}

/**
 * The leader's minute sweep: devices whose period is over (a reset day passed) start the new one,
 * and their data alarms of the old period clear. Answers how many devices were moved on.
 */
export async function sweepDataPeriods(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.query<{ id: number }>(
      `SELECT u.device_id AS id FROM data_usage u LEFT JOIN data_plans p ON p.device_id = u.device_id
        WHERE u.period_start <> ${PERIOD_START_SQL} ORDER BY u.device_id LIMIT 10000`,
    );
    const ids = due.map((d) => d.id);
    if (ids.length) {
      // The same lock as the ingest writer's, so a group of these devices is not written meanwhile.
      await tx.query(`SELECT pg_advisory_xact_lock(5, d.id) FROM unnest($1::int[]) WITH ORDINALITY AS d(id, n) ORDER BY d.n`, [ids]);
      await settleDataUsage(tx, ids);
    }
    return ids.length;
  });
}
