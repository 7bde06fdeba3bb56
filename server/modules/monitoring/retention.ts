import type { Queryable } from '../../db/connection';
import { STATE_JOINS, THRESHOLD_SQL } from './stateSql';

/** Deletes history older than the retention setting (the latest state and alarms stay). Returns rows removed. */
export async function pruneReportHistory(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM device_reports WHERE device_time < now() - make_interval(days => (SELECT retention_days FROM monitor_settings WHERE id = 1))
     RETURNING 1) SELECT count(*)::int AS n FROM gone`);
  return rows[0]?.n ?? 0;
}

/**
 * Sets devices.status to offline (0) for devices whose latest report is older than their
 * threshold, so the device list (which reads devices.status) agrees with the monitor, which
 * derives offline at query time. Ingest sets online/warn again on the next report. Returns rows changed.
 */
export async function markOfflineDevices(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH stale AS (SELECT d.id FROM devices d ${STATE_JOINS}
        WHERE d.status <> 0 AND (ds.device_id IS NULL OR ds.reported_at < now() - make_interval(mins => ${THRESHOLD_SQL}))),
     changed AS (UPDATE devices d SET status = 0 FROM stale WHERE d.id = stale.id RETURNING 1)
     SELECT count(*)::int AS n FROM changed`);
  return rows[0]?.n ?? 0;
}
