import type { Queryable } from '../../db/connection';

/** Deletes history older than the retention setting (the latest state and alarms stay). Returns rows removed. */
export async function pruneReportHistory(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM device_reports WHERE device_time < now() - make_interval(days => (SELECT retention_days FROM monitor_settings WHERE id = 1))
     RETURNING 1) SELECT count(*)::int AS n FROM gone`);
  return rows[0]?.n ?? 0;
}
