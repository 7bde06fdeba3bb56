import type { Db, Queryable } from '../../db/connection';
import type { DeviceReport } from '../../../src/domain/reportSchema';
import { faultInfo } from '../../../src/domain/faultCodes';
import { DeviceState } from '../../../src/domain/deviceKinds';
import type { ReportingDevice } from './deviceAuth';
import { alarmTransitions, type ActiveAlarm } from './alarmTransitions';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  /** Kept in the history but older than the latest state, which they did not change. */
  outOfOrder: number;
  unactivated: boolean;
  latestReportedAt: string | null;
}

const REPORT_COLUMNS = `device_id, device_time, received_at, unactivated, lat, lon, speed, heading, azimuth, elevation, skew,
  satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, lte_signal, faults, adu_version, bdu_version`;

/** The state a report puts its device in: warn while a fault is active or the modem lost lock. */
export const stateOf = (r: DeviceReport) => (r.faults.length > 0 || !r.modemLock ? DeviceState.Warn : DeviceState.Online);

const column = <T>(reports: readonly DeviceReport[], pick: (r: DeviceReport) => T) => reports.map(pick);

/**
 * Stores a validated batch of one device's reports in one transaction: the history (duplicates of
 * an already stored device time are skipped and counted), the latest state when a report is newer
 * than it, and the alarm transitions those newer reports imply. Nothing is written on failure.
 */
export async function ingestReports(db: Db, device: ReportingDevice, batch: readonly DeviceReport[]): Promise<IngestResult> {
  const sorted = [...batch].sort((a, b) => Date.parse(a.deviceTime) - Date.parse(b.deviceTime));
  const unique: DeviceReport[] = [];
  for (const r of sorted) if (!unique.length || Date.parse(unique[unique.length - 1]!.deviceTime) !== Date.parse(r.deviceTime)) unique.push(r);
  const inBatchDuplicates = sorted.length - unique.length;

  return db.transaction(async (tx) => {
    // One device's batches are written one at a time; the lock comes with the latest state.
    const [locked] = await tx.query<{ ms: number | null; faults: string[] | null }>(
      `SELECT (extract(epoch FROM s.reported_at) * 1000)::float8 AS ms, s.faults
         FROM (SELECT pg_advisory_xact_lock(5, $1::int)) l LEFT JOIN device_state s ON s.device_id = $1::int`, [device.id]);
    const prev = locked?.ms == null ? undefined : { ms: locked.ms, hadFaults: (locked.faults ?? []).length > 0 };
    const inserted = await insertHistory(tx, device, unique);
    const stored = unique.filter((r) => inserted.has(Date.parse(r.deviceTime)));
    const newer = stored.filter((r) => !prev || Date.parse(r.deviceTime) > prev.ms);
    const latest = newer[newer.length - 1];
    if (latest) {
      await upsertState(tx, device, latest);
      if (device.activated && (prev?.hadFaults !== false || newer.some((r) => r.faults.length > 0))) await applyAlarms(tx, device.id, newer);
    }
    return {
      accepted: stored.length,
      duplicates: inBatchDuplicates + unique.length - stored.length,
      outOfOrder: stored.length - newer.length,
      unactivated: !device.activated,
      latestReportedAt: latest ? new Date(latest.deviceTime).toISOString() : null,
    };
  });
}

async function insertHistory(tx: Queryable, device: ReportingDevice, reports: readonly DeviceReport[]): Promise<Set<number>> {
  if (!reports.length) return new Set();
  const rows = await tx.query<{ ms: number }>(
    `INSERT INTO device_reports (${REPORT_COLUMNS})
     SELECT $1::int, t::timestamptz, now(), $2::boolean, lat, lon, speed, heading, azimuth, elevation, skew, sat, satlon, sig, snr,
            lock, tx, lte, CASE WHEN f = '' THEN '{}'::text[] ELSE string_to_array(f, ',') END, adu, bdu
       FROM unnest($3::text[], $4::float8[], $5::float8[], $6::real[], $7::real[], $8::real[], $9::real[], $10::real[],
                   $11::text[], $12::real[], $13::real[], $14::real[], $15::boolean[], $16::boolean[], $17::real[], $18::text[],
                   $19::text[], $20::text[])
            AS u(t, lat, lon, speed, heading, azimuth, elevation, skew, sat, satlon, sig, snr, lock, tx, lte, f, adu, bdu)
     ON CONFLICT (device_id, device_time) DO NOTHING
     RETURNING (extract(epoch FROM device_time) * 1000)::float8 AS ms`,
    [device.id, !device.activated, column(reports, (r) => r.deviceTime), column(reports, (r) => r.lat), column(reports, (r) => r.lon),
      column(reports, (r) => r.speed), column(reports, (r) => r.heading), column(reports, (r) => r.azimuth),
      column(reports, (r) => r.elevation), column(reports, (r) => r.skew), column(reports, (r) => r.satellite.name),
      column(reports, (r) => r.satellite.longitude), column(reports, (r) => r.signalLevel), column(reports, (r) => r.snr),
      column(reports, (r) => r.modemLock), column(reports, (r) => r.txOn), column(reports, (r) => r.lteSignal ?? null),
      column(reports, (r) => [...new Set(r.faults)].join(',')), column(reports, (r) => r.firmware?.adu ?? null),
      column(reports, (r) => r.firmware?.bdu ?? null)],
  );
  return new Set(rows.map((r) => Math.round(r.ms)));
}

async function upsertState(tx: Queryable, device: ReportingDevice, r: DeviceReport): Promise<void> {
  await tx.query(
    `INSERT INTO device_state (device_id, reported_at, received_at, state, unactivated, lat, lon, speed, heading, azimuth, elevation,
            skew, satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, lte_signal, faults, adu_version, bdu_version)
     VALUES ($1, $2, now(), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
     ON CONFLICT (device_id) DO UPDATE SET reported_at = EXCLUDED.reported_at, received_at = EXCLUDED.received_at,
            state = EXCLUDED.state, unactivated = EXCLUDED.unactivated, lat = EXCLUDED.lat, lon = EXCLUDED.lon,
            speed = EXCLUDED.speed, heading = EXCLUDED.heading, azimuth = EXCLUDED.azimuth, elevation = EXCLUDED.elevation,
            skew = EXCLUDED.skew, satellite_name = EXCLUDED.satellite_name, satellite_longitude = EXCLUDED.satellite_longitude,
            signal_level = EXCLUDED.signal_level, snr = EXCLUDED.snr, modem_lock = EXCLUDED.modem_lock, tx_on = EXCLUDED.tx_on,
            lte_signal = EXCLUDED.lte_signal, faults = EXCLUDED.faults, adu_version = EXCLUDED.adu_version,
            bdu_version = EXCLUDED.bdu_version
      WHERE device_state.reported_at < EXCLUDED.reported_at`,
    [device.id, r.deviceTime, stateOf(r), !device.activated, r.lat, r.lon, r.speed, r.heading, r.azimuth, r.elevation, r.skew,
      r.satellite.name, r.satellite.longitude, r.signalLevel, r.snr, r.modemLock, r.txOn, r.lteSignal ?? null, [...new Set(r.faults)],
      r.firmware?.adu ?? null, r.firmware?.bdu ?? null],
  );
  // The device list filters and counts by devices.status (its count triggers keep device_counts):
  // written only when the state really changes, so a steady report does not touch the devices row.
  // Speed and heading are read from device_state (deviceQueries), offline is set by markOfflineDevices.
  await tx.query(`UPDATE devices SET status = $2::smallint WHERE id = $1 AND status IS DISTINCT FROM $2::smallint`, [device.id, stateOf(r)]);
}

async function applyAlarms(tx: Queryable, deviceId: number, newer: readonly DeviceReport[]): Promise<void> {
  const active = await tx.query<ActiveAlarm>('SELECT id::int AS id, code FROM alarms WHERE device_id = $1 AND cleared_at IS NULL', [deviceId]);
  if (!active.length && newer.every((r) => r.faults.length === 0)) return;
  const { updates, inserts } = alarmTransitions(active, newer);
  if (updates.length) {
    await tx.query(
      `UPDATE alarms a SET last_seen_at = COALESCE(u.seen, a.last_seen_at), cleared_at = u.cleared
         FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) AS u(id, seen, cleared) WHERE a.id = u.id`,
      [updates.map((u) => u.id), updates.map((u) => u.lastSeenAt), updates.map((u) => u.clearedAt)],
    );
  }
  if (inserts.length) {
    await tx.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, cleared_at)
       SELECT $1::int, code, sev, raised, seen, cleared
         FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[]) AS u(code, sev, raised, seen, cleared)`,
      [deviceId, inserts.map((i) => i.code), inserts.map((i) => faultInfo(i.code)!.severity), inserts.map((i) => i.raisedAt),
        inserts.map((i) => i.lastSeenAt), inserts.map((i) => i.clearedAt)],
    );
  }
}
