import type { Db, Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { BizError } from '../../http/envelope';
import type { DeviceReport } from '../../../src/domain/reportSchema';
import { DATA_PLAN_ALARM_CODES, faultInfo } from '../../../src/domain/faultCodes';
import { DeviceState } from '../../../src/domain/deviceKinds';
import type { ReportingDevice } from '../../auth/deviceCredentials';
import { alarmTransitions, type ActiveAlarm } from './alarmTransitions';
import { recordDataUsage } from '../dataPlans/dataUsage';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  /** Kept in the history but older than the latest state, which they did not change. */
  outOfOrder: number;
  unactivated: boolean;
  latestReportedAt: string | null;
}

const REPORT_COLUMNS = `device_id, device_time, received_at, unactivated, lat, lon, speed, heading, azimuth, elevation, skew,
  satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, lte_signal, faults, adu_version, bdu_version, bytes_used`;

/** The state a report puts its device in: warn while a fault is active or the modem lost lock. */
export const stateOf = (r: DeviceReport) => (r.faults.length > 0 || !r.modemLock ? DeviceState.Warn : DeviceState.Online);

/** One request's reports waiting for the next group. */
interface Pending {
  device: ReportingDevice;
  /** The batch sorted by device time, same-time duplicates removed. */
  unique: DeviceReport[];
  inBatchDuplicates: number;
  resolve(result: IngestResult): void;
  reject(error: unknown): void;
}

export interface IngestWriter {
  /** Resolves once the reports are committed (never before: an acknowledged report is stored). */
  write(device: ReportingDevice, batch: readonly DeviceReport[]): Promise<IngestResult>;
}

const ms = (r: DeviceReport) => Date.parse(r.deviceTime);
/** Reports written in one transaction at most (one request's batch may exceed it alone). */
const MAX_GROUP_REPORTS = 5_000;
/** Reports that may wait for a transaction at most (a few seconds of a large fleet's traffic). */
const MAX_QUEUED_REPORTS = 50_000;

/**
 * The group-commit writer: requests that arrive while a transaction is writing wait, and are then
 * written together in one transaction (one history INSERT, one state upsert, one devices update
 * for the whole group, alarms per device that needs them). Each request's promise resolves after
 * the commit. When a group fails, its requests are retried one by one, so one bad request cannot
 * fail the others. One group is in flight at a time; devices are locked in id order.
 */
export function createIngestWriter(db: Db, { maxGroup = 500, maxQueuedReports = MAX_QUEUED_REPORTS } = {}): IngestWriter {
  const queue: Pending[] = [];
  /** Reports waiting in the queue (not those being written). */
  let queued = 0;
  let writing = false;
  let scheduled = false;

  /**
   * A group starts in the event loop's check phase, after every request the poll phase read has
   * joined the queue. Started at once, the first request would be written alone: PGlite runs a
   * transaction without yielding to I/O, so the others would each get a transaction of their own
   * (measured: 85 single-report requests/s instead of 600+).
   */
  const schedule = () => {
    if (scheduled || writing || !queue.length) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      kick();
    });
  };

  const kick = () => {
    if (writing || !queue.length) return;
    writing = true;
    // A group holds at most maxGroup requests and MAX_GROUP_REPORTS reports (a request is never split).
    let take = 0;
    for (let reports = 0; take < queue.length && take < maxGroup; take++) {
      reports += queue[take]!.unique.length;
      if (take > 0 && reports > MAX_GROUP_REPORTS) break;
    }
    const group = queue.splice(0, take);
    for (const item of group) queued -= item.unique.length;
    void writeGroup(db, group)
      .then((results) => group.forEach((item, i) => item.resolve(results[i]!)))
      .catch(async (error) => {
        if (group.length === 1) return group[0]!.reject(error);
        for (const item of group) {
          await writeGroup(db, [item]).then(([result]) => item.resolve(result!), item.reject);
        }
      })
      .finally(() => {
        writing = false;
        schedule();
      });
  };

  return {
    write(device, batch) {
      const sorted = [...batch].sort((a, b) => ms(a) - ms(b));
      const unique: DeviceReport[] = [];
      for (const r of sorted) if (!unique.length || ms(unique[unique.length - 1]!) !== ms(r)) unique.push(r);
      return new Promise<IngestResult>((resolve, reject) => {
        // Past this backlog the server is overloaded: the device is told so (-100) and sends again later.
        if (queued > 0 && queued + unique.length > maxQueuedReports) return reject(new BizError(ErrorCode.Busy));
        queued += unique.length;
        queue.push({ device, unique, inBatchDuplicates: sorted.length - unique.length, resolve, reject });
        schedule();
      });
    },
  };
}

/**
 * Writes a group in one transaction: the history (device times already stored are skipped and
 * counted as duplicates), each device's latest state when a report is newer than it, and the alarm
 * transitions the newer reports imply. Nothing is written on failure.
 */
async function writeGroup(db: Db, group: readonly Pending[]): Promise<IngestResult[]> {
  return db.transaction(async (tx) => {
    const ids = [...new Set(group.map((g) => g.device.id))].sort((a, b) => a - b);
    // One device's reports are written one group at a time (across replicas too): the locks first,
    // in id order, then the latest states in a statement of its own, so that it sees what another
    // replica committed while this one waited for a lock.
    await tx.query(`SELECT pg_advisory_xact_lock(5, d.id) FROM unnest($1::int[]) WITH ORDINALITY AS d(id, n) ORDER BY d.n`, [ids]);
    const locked = await tx.query<{ id: number; ms: number | null; faults: string[] | null }>(
      `SELECT s.device_id AS id, (extract(epoch FROM s.reported_at) * 1000)::float8 AS ms, s.faults
         FROM device_state s WHERE s.device_id = ANY($1::int[])`, [ids]);
    const latestMs = new Map<number, number>();
    const hadFaults = new Map<number, boolean>();
    // A device with no state yet has no known faults either way: its alarms are looked at (as before).
    for (const row of locked) {
      if (row.ms != null) latestMs.set(row.id, row.ms);
      if (row.ms != null) hadFaults.set(row.id, (row.faults ?? []).length > 0);
    }

    // A device time sent twice within the group is written once, for the first request that sent it.
    const seen = new Set<string>();
    const toInsert = group.map((g) => g.unique.filter((r) => {
      const key = `${g.device.id}:${ms(r)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }));
    const inserted = await insertHistory(tx, group.map((g, i) => ({ device: g.device, reports: toInsert[i]! })));

    const newerByDevice = new Map<number, { device: ReportingDevice; reports: DeviceReport[] }>();
    const results = group.map((g, i): IngestResult => {
      const stored = toInsert[i]!.filter((r) => inserted.has(`${g.device.id}:${ms(r)}`));
      const newer: DeviceReport[] = [];
      for (const r of stored) {
        const prev = latestMs.get(g.device.id);
        if (prev === undefined || ms(r) > prev) {
          newer.push(r);
          latestMs.set(g.device.id, ms(r));
        }
      }
      if (newer.length) {
        const entry = newerByDevice.get(g.device.id) ?? { device: g.device, reports: [] };
        entry.reports.push(...newer);
        newerByDevice.set(g.device.id, entry);
      }
      const latest = newer[newer.length - 1];
      return {
        accepted: stored.length,
        duplicates: g.inBatchDuplicates + g.unique.length - stored.length,
        outOfOrder: stored.length - newer.length,
        unactivated: !g.device.activated,
        latestReportedAt: latest ? new Date(latest.deviceTime).toISOString() : null,
      };
    });

    const changed = [...newerByDevice.values()];
    if (changed.length) await upsertStates(tx, changed.map(({ device, reports }) => ({ device, report: reports[reports.length - 1]! })));
    for (const { device, reports } of changed) {
      if (device.activated && (hadFaults.get(device.id) !== false || reports.some((r) => r.faults.length > 0))) await applyAlarms(tx, device.id, reports);
    }
    // Data usage: every stored report's bytes (out-of-order ones too; duplicates were not stored).
    await recordDataUsage(tx, group.flatMap((g, i) => toInsert[i]!
      .filter((r) => r.bytesUsed && inserted.has(`${g.device.id}:${ms(r)}`))
      .map((r) => ({ deviceId: g.device.id, deviceTime: r.deviceTime, bytes: r.bytesUsed! }))));
    return results;
  });
}

/** The history rows of the whole group in one INSERT; answers the (device id:time ms) pairs it stored. */
async function insertHistory(tx: Queryable, items: readonly { device: ReportingDevice; reports: readonly DeviceReport[] }[]): Promise<Set<string>> {
  const rows = items.flatMap(({ device, reports }) => reports.map((r) => ({ device, r })));
  if (!rows.length) return new Set();
  const col = <T>(pick: (x: { device: ReportingDevice; r: DeviceReport }) => T) => rows.map(pick);
  const stored = await tx.query<{ id: number; ms: number }>(
    `INSERT INTO device_reports (${REPORT_COLUMNS})
     SELECT id, t::timestamptz, now(), unact, lat, lon, speed, heading, azimuth, elevation, skew, sat, satlon, sig, snr,
            lock, tx, lte, CASE WHEN f = '' THEN '{}'::text[] ELSE string_to_array(f, ',') END, adu, bdu, bytes
       FROM unnest($1::int[], $2::boolean[], $3::text[], $4::float8[], $5::float8[], $6::real[], $7::real[], $8::real[], $9::real[], $10::real[],
                   $11::text[], $12::real[], $13::real[], $14::real[], $15::boolean[], $16::boolean[], $17::real[], $18::text[],
                   $19::text[], $20::text[], $21::bigint[])
            AS u(id, unact, t, lat, lon, speed, heading, azimuth, elevation, skew, sat, satlon, sig, snr, lock, tx, lte, f, adu, bdu, bytes)
     ON CONFLICT (device_id, device_time) DO NOTHING
     RETURNING device_id AS id, (extract(epoch FROM device_time) * 1000)::float8 AS ms`,
    [col((x) => x.device.id), col((x) => !x.device.activated), col((x) => x.r.deviceTime), col((x) => x.r.lat), col((x) => x.r.lon),
      col((x) => x.r.speed), col((x) => x.r.heading), col((x) => x.r.azimuth), col((x) => x.r.elevation), col((x) => x.r.skew),
      col((x) => x.r.satellite.name), col((x) => x.r.satellite.longitude), col((x) => x.r.signalLevel), col((x) => x.r.snr),
      col((x) => x.r.modemLock), col((x) => x.r.txOn), col((x) => x.r.lteSignal ?? null), col((x) => [...new Set(x.r.faults)].join(',')),
      col((x) => x.r.firmware?.adu ?? null), col((x) => x.r.firmware?.bdu ?? null), col((x) => x.r.bytesUsed ?? null)],
  );
  return new Set(stored.map((r) => `${r.id}:${Math.round(r.ms)}`));
}

/** Each changed device's latest state in one upsert, and devices.status where the state really changed. */
async function upsertStates(tx: Queryable, latest: readonly { device: ReportingDevice; report: DeviceReport }[]): Promise<void> {
  const col = <T>(pick: (x: { device: ReportingDevice; report: DeviceReport }) => T) => latest.map(pick);
  await tx.query(
    `INSERT INTO device_state (device_id, reported_at, received_at, state, unactivated, lat, lon, speed, heading, azimuth, elevation,
            skew, satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, lte_signal, faults, adu_version, bdu_version)
     SELECT id, t::timestamptz, now(), st, unact, lat, lon, speed, heading, azimuth, elevation, skew, sat, satlon, sig, snr, lock, tx, lte,
            CASE WHEN f = '' THEN '{}'::text[] ELSE string_to_array(f, ',') END, adu, bdu
       FROM unnest($1::int[], $2::text[], $3::smallint[], $4::boolean[], $5::float8[], $6::float8[], $7::real[], $8::real[], $9::real[],
                   $10::real[], $11::real[], $12::text[], $13::real[], $14::real[], $15::real[], $16::boolean[], $17::boolean[], $18::real[],
                   $19::text[], $20::text[], $21::text[])
            AS u(id, t, st, unact, lat, lon, speed, heading, azimuth, elevation, skew, sat, satlon, sig, snr, lock, tx, lte, f, adu, bdu)
     ON CONFLICT (device_id) DO UPDATE SET reported_at = EXCLUDED.reported_at, received_at = EXCLUDED.received_at,
            state = EXCLUDED.state, unactivated = EXCLUDED.unactivated, lat = EXCLUDED.lat, lon = EXCLUDED.lon,
            speed = EXCLUDED.speed, heading = EXCLUDED.heading, azimuth = EXCLUDED.azimuth, elevation = EXCLUDED.elevation,
            skew = EXCLUDED.skew, satellite_name = EXCLUDED.satellite_name, satellite_longitude = EXCLUDED.satellite_longitude,
            signal_level = EXCLUDED.signal_level, snr = EXCLUDED.snr, modem_lock = EXCLUDED.modem_lock, tx_on = EXCLUDED.tx_on,
            lte_signal = EXCLUDED.lte_signal, faults = EXCLUDED.faults, adu_version = EXCLUDED.adu_version,
            bdu_version = EXCLUDED.bdu_version
      WHERE device_state.reported_at < EXCLUDED.reported_at`,
    [col((x) => x.device.id), col((x) => x.report.deviceTime), col((x) => stateOf(x.report)), col((x) => !x.device.activated),
      col((x) => x.report.lat), col((x) => x.report.lon), col((x) => x.report.speed), col((x) => x.report.heading), col((x) => x.report.azimuth),
      col((x) => x.report.elevation), col((x) => x.report.skew), col((x) => x.report.satellite.name), col((x) => x.report.satellite.longitude),
      col((x) => x.report.signalLevel), col((x) => x.report.snr), col((x) => x.report.modemLock), col((x) => x.report.txOn),
      col((x) => x.report.lteSignal ?? null), col((x) => [...new Set(x.report.faults)].join(',')), col((x) => x.report.firmware?.adu ?? null),
      col((x) => x.report.firmware?.bdu ?? null)],
  );
  // The device list filters and counts by devices.status (its count triggers keep device_counts):
  // written only when the state really changes, so a steady report does not touch the devices row.
  // Speed and heading are read from device_state (deviceQueries), offline is set by markOfflineDevices.
  await tx.query(
    `UPDATE devices d SET status = u.st FROM unnest($1::int[], $2::smallint[]) AS u(id, st) WHERE d.id = u.id AND d.status IS DISTINCT FROM u.st`,
    [col((x) => x.device.id), col((x) => stateOf(x.report))],
  );
}

async function applyAlarms(tx: Queryable, deviceId: number, newer: readonly DeviceReport[]): Promise<void> {
  // Data plan alarms are not the device's faults: its reports neither refresh nor clear them.
  const active = await tx.query<ActiveAlarm>('SELECT id::int AS id, code FROM alarms WHERE device_id = $1 AND cleared_at IS NULL AND code <> ALL($2::text[])',
    [deviceId, DATA_PLAN_ALARM_CODES]);
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
