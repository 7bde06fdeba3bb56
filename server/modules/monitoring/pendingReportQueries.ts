import type { Queryable } from '../../db/connection';
import type { DeviceReport } from '../../../src/domain/reportSchema';

/** A report of a device that is not activated, kept only as its newest (migration 020). */
export interface PendingReport {
  receivedAt: string;
  report: DeviceReport;
}

/**
 * Keeps each unactivated device's newest report (by device time) as "awaiting activation"
 * (docs/api.md, "POST /ingest/report"): one upsert for the group; an older report replaces nothing.
 */
export async function upsertPendingReports(tx: Queryable, latest: readonly { deviceId: number; report: DeviceReport }[]): Promise<void> {
  await tx.query(
    `INSERT INTO device_pending_reports AS p (device_id, device_time, received_at, report)
     SELECT id, t::timestamptz, now(), r FROM unnest($1::int[], $2::text[], $3::jsonb[]) AS u(id, t, r)
     ON CONFLICT (device_id) DO UPDATE SET device_time = EXCLUDED.device_time, received_at = EXCLUDED.received_at, report = EXCLUDED.report
      WHERE p.device_time <= EXCLUDED.device_time`,
    [latest.map((x) => x.deviceId), latest.map((x) => x.report.deviceTime), latest.map((x) => JSON.stringify(x.report))],
  );
}

/** The device's report awaiting activation, or null (none, or the device is activated now). */
export async function readPendingReport(db: Queryable, deviceId: number): Promise<PendingReport | null> {
  const [row] = await db.query<PendingReport>(
    `SELECT p.received_at AS "receivedAt", p.report FROM device_pending_reports p JOIN devices d ON d.id = p.device_id
      WHERE p.device_id = $1 AND NOT d.activated`,
    [deviceId],
  );
  if (!row) return null;
  return { receivedAt: new Date(row.receivedAt).toISOString(), report: row.report };
}

/** Which of these devices are activated now. */
export async function activatedAmong(tx: Queryable, ids: readonly number[]): Promise<number[]> {
  const rows = await tx.query<{ id: number }>('SELECT id FROM devices WHERE id = ANY($1::int[]) AND activated', [ids]);
  return rows.map((r) => r.id);
}
