import type { Queryable } from '../../db/connection';
import { STATE_JOINS, THRESHOLD_SQL } from './stateSql';

export interface RetentionOptions {
  /** Reports deleted per statement (each its own short transaction), so the ingest is never held up long. */
  batchSize?: number;
  /**
   * Days of hourly rollups kept (report_hourly); never fewer than the reports' own retention.
   * 0 keeps them for ever.
   */
  rollupRetentionDays?: number;
}

export interface PruneResult {
  reports: number;
  rollups: number;
}

/** Months of report partitions kept ready ahead of now (migration 017). */
const PARTITION_MONTHS_AHEAD = 3;

/** Makes the monthly report partitions from last month to a few months ahead (at start and hourly). */
export async function ensureReportPartitions(db: Queryable): Promise<number> {
  const [row] = await db.query<{ made: number }>(
    `SELECT ensure_report_partitions(now() - interval '1 month', now() + make_interval(months => $1::int)) AS made`,
    [PARTITION_MONTHS_AHEAD],
  );
  return row?.made ?? 0;
}

/**
 * Deletes report history older than the retention setting (monitor_settings.retention_days, 90
 * days unless an admin changes it): monthly partitions wholly older are dropped, the rest is
 * deleted in batches of `batchSize`, each read through the primary key device by device; the
 * latest state, alarms and the hourly rollups stay (rollups are deleted after `rollupRetentionDays`,
 * in batches too), and live push events after a day (pruneLiveEvents). Runs on the leader only (startBackgroundWork), which also makes the months ahead.
 */
export async function pruneHistory(
  db: Queryable,
  { batchSize = 5_000, rollupRetentionDays = 0 }: RetentionOptions = {},
): Promise<PruneResult> {
  const [cut] = await db.query<{ reports: string; rollups: string | null }>(
    `SELECT (now() - make_interval(days => retention_days))::text AS reports,
            CASE WHEN $1::int > 0 THEN (now() - make_interval(days => greatest($1::int, retention_days)))::text END AS rollups
       FROM monitor_settings WHERE id = 1`,
    [rollupRetentionDays],
  );
  if (!cut) return { reports: 0, rollups: 0 };
  await ensureReportPartitions(db);
  const [dropped] = await db.query<{ n: string }>('SELECT drop_report_partitions_before($1::timestamptz)::text AS n', [cut.reports]);
  const result: PruneResult = { reports: Number(dropped?.n ?? 0), rollups: 0 };
  for (;;) {
    const [row] = await db.query<{ n: number }>(
      `WITH old AS (
         SELECT d.id AS device_id, o.device_time FROM devices d
          CROSS JOIN LATERAL (SELECT r.device_time FROM device_reports r WHERE r.device_id = d.id AND r.device_time < $1::timestamptz
                               ORDER BY r.device_time LIMIT $2) o
          LIMIT $2
       ), gone AS (
         DELETE FROM device_reports r USING old WHERE r.device_id = old.device_id AND r.device_time = old.device_time RETURNING 1
       ) SELECT count(*)::int AS n FROM gone`,
      [cut.reports, batchSize],
    );
    result.reports += row?.n ?? 0;
    if ((row?.n ?? 0) < batchSize) break;
  }
  while (cut.rollups) {
    const [row] = await db.query<{ n: number }>(
      `WITH old AS (SELECT device_id, hour_start FROM report_hourly WHERE hour_start < $1::timestamptz ORDER BY hour_start LIMIT $2),
       gone AS (DELETE FROM report_hourly h USING old WHERE h.device_id = old.device_id AND h.hour_start = old.hour_start RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cut.rollups, batchSize],
    );
    result.rollups += row?.n ?? 0;
    if ((row?.n ?? 0) < batchSize) break;
  }
  // The daily rollups (migration 030) of days wholly before the rollups' cut, and their marks.
  if (cut.rollups) {
    await db.query(`DELETE FROM report_daily WHERE day_start <= $1::timestamptz - interval '24 hours'`, [cut.rollups]);
    await db.query(`DELETE FROM report_daily_dirty WHERE day_start <= $1::timestamptz - interval '24 hours'`, [cut.rollups]);
  }
  // A vessel's link history (migration 032): its changes and failovers go with the reports, its hours with the rollups.
  await db.query('DELETE FROM link_changes WHERE at < $1::timestamptz', [cut.reports]);
  await db.query('DELETE FROM link_failovers WHERE at < $1::timestamptz', [cut.reports]);
  if (cut.rollups) await db.query('DELETE FROM link_hourly WHERE hour_start < $1::timestamptz', [cut.rollups]);
  await pruneLiveEvents(db, batchSize);
  return result;
}

/** How long live_events rows stay: a console resumes at most an hour back (server/modules/live/liveHub.ts). */
export const LIVE_EVENTS_KEEP_HOURS = 24;

/** Deletes live push events older than LIVE_EVENTS_KEEP_HOURS, in batches; returns rows removed. */
export async function pruneLiveEvents(db: Queryable, batchSize = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await db.query<{ n: number }>(
      `WITH old AS (SELECT id FROM live_events WHERE at < now() - make_interval(hours => $1) ORDER BY at LIMIT $2),
       gone AS (DELETE FROM live_events e USING old WHERE e.id = old.id RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [LIVE_EVENTS_KEEP_HOURS, batchSize],
    );
    total += row?.n ?? 0;
    if ((row?.n ?? 0) < batchSize) return total;
  }
}

/** Deletes history older than the retention setting (the latest state, alarms and rollups stay). Returns reports removed. */
export async function pruneReportHistory(db: Queryable, options: RetentionOptions = {}): Promise<number> {
  return (await pruneHistory(db, options)).reports;
}

/** Devices the offline sweep looks at per statement. */
export const OFFLINE_SWEEP_BATCH = 1_000;

/**
 * Sets devices.status to offline (0) for devices whose latest report is older than their
 * threshold, so the device list (which reads devices.status) agrees with the monitor, which
 * derives offline at query time. Ingest sets online/warn again on the next report. A statement per
 * OFFLINE_SWEEP_BATCH devices by id: on the embedded database, one statement over 10,000 devices
 * held the console's calls back for about 0.9 s (docs/architecture.md, "Soak"). Returns rows changed.
 */
export async function markOfflineDevices(db: Queryable, batch = OFFLINE_SWEEP_BATCH): Promise<number> {
  let changed = 0;
  for (let after = 0; ;) {
    const [row] = await db.query<{ n: number; last: number | null }>(
      `WITH part AS (SELECT id FROM devices WHERE id > $1 ORDER BY id LIMIT $2),
       stale AS (SELECT d.id FROM part JOIN devices d ON d.id = part.id ${STATE_JOINS}
        WHERE d.status <> 0 AND (ds.device_id IS NULL OR ds.reported_at < now() - make_interval(mins => ${THRESHOLD_SQL}))),
       changed AS (UPDATE devices d SET status = 0 FROM stale WHERE d.id = stale.id RETURNING 1)
       SELECT (SELECT count(*)::int FROM changed) AS n, (SELECT max(id) FROM part) AS last`,
      [after, batch],
    );
    changed += row?.n ?? 0;
    if (row?.last == null) return changed;
    after = row.last;
  }
}
