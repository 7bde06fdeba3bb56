import type { Queryable } from '../../db/connection';
import type { DeviceReport } from '../../../src/domain/reportSchema';
import { OFFLINE_ALARM, SERVER_ALARM_CODES, faultInfo } from '../../../src/domain/faultCodes';
import { DeviceState } from '../../../src/domain/deviceKinds';
import type { ReportingDevice } from '../../auth/deviceCredentials';
import type { ActiveAlarm, AlarmChanges } from './alarmTransitions';
import type { LinkNow } from './linkTracker';
import { linkKindBits, onBackupNow } from '../../../src/domain/links';

// The SQL of the group-commit writer (ingestWriter.ts): history, latest states, devices.status, alarms.

/** One report of a device, as a row of a statement. */
export interface ReportRow {
  device: ReportingDevice;
  report: DeviceReport;
  /** The latest state's links (linkTracker.ts); absent: they stay as they were. */
  links?: readonly LinkNow[];
}

/** A column a statement writes from unnest() arrays (one array per column, one element per row). */
interface Column {
  /** The column, also the name of its unnested array. */
  name: string;
  /** The element type of its array; absent: a value of the statement's own (`select`). */
  type?: string;
  value?: (row: ReportRow) => unknown;
  /** How the unnested value becomes the column's (default: as it is). */
  select?: string;
  /** Its value on a conflicting row (default: the new one). */
  onConflict?: string;
}

/** The state a report puts its device in: warn while a fault is active or the modem lost lock. */
export const stateOf = (r: DeviceReport) => (r.faults.length > 0 || !r.modemLock ? DeviceState.Warn : DeviceState.Online);

const DEVICE_ID: Column = { name: 'device_id', type: 'int', value: (x) => x.device.id };
/** The device's clock: device_time in the history, reported_at in the latest state. */
const deviceTime = (name: string): Column => ({ name, type: 'text', value: (x) => x.report.deviceTime, select: `${name}::timestamptz` });
const RECEIVED_AT: Column = { name: 'received_at', select: 'now()' };

/**
 * The report's fields, stored alike in device_reports and device_state (migration 003): spelled
 * once here, the two statements are built from them. Faults travel as one comma-joined text per
 * report (unnest cannot take an array of arrays).
 */
const REPORT_FIELDS: readonly Column[] = [
  { name: 'unactivated', type: 'boolean', value: (x) => !x.device.activated },
  { name: 'lat', type: 'float8', value: (x) => x.report.lat },
  { name: 'lon', type: 'float8', value: (x) => x.report.lon },
  { name: 'speed', type: 'real', value: (x) => x.report.speed },
  { name: 'heading', type: 'real', value: (x) => x.report.heading },
  // Satellite pointing: null from a device without a satellite link (migration 025).
  { name: 'azimuth', type: 'real', value: (x) => x.report.azimuth ?? null },
  { name: 'elevation', type: 'real', value: (x) => x.report.elevation ?? null },
  { name: 'skew', type: 'real', value: (x) => x.report.skew ?? null },
  { name: 'satellite_name', type: 'text', value: (x) => x.report.satellite?.name ?? null },
  { name: 'satellite_longitude', type: 'real', value: (x) => x.report.satellite?.longitude ?? null },
  { name: 'signal_level', type: 'real', value: (x) => x.report.signalLevel },
  { name: 'snr', type: 'real', value: (x) => x.report.snr },
  { name: 'modem_lock', type: 'boolean', value: (x) => x.report.modemLock },
  { name: 'tx_on', type: 'boolean', value: (x) => x.report.txOn },
  { name: 'lte_signal', type: 'real', value: (x) => x.report.lteSignal ?? null },
  {
    name: 'faults',
    type: 'text',
    value: (x) => [...new Set(x.report.faults)].join(','),
    select: `CASE WHEN faults = '' THEN '{}'::text[] ELSE string_to_array(faults, ',') END`,
  },
  { name: 'adu_version', type: 'text', value: (x) => x.report.firmware?.adu ?? null },
  { name: 'bdu_version', type: 'text', value: (x) => x.report.firmware?.bdu ?? null },
];

const HISTORY_COLUMNS: readonly Column[] = [
  DEVICE_ID,
  deviceTime('device_time'),
  RECEIVED_AT,
  ...REPORT_FIELDS,
  { name: 'bytes_used', type: 'bigint', value: (x) => x.report.bytesUsed ?? null },
  // The report's link kinds, and those available, for the coverage map's link layers (migration 038).
  { name: 'link_kinds', type: 'smallint', value: (x) => linkKindBits(x.report.links)?.kinds ?? null },
  { name: 'links_up', type: 'smallint', value: (x) => linkKindBits(x.report.links)?.up ?? null },
];

const STATE_COLUMNS: readonly Column[] = [
  DEVICE_ID,
  deviceTime('reported_at'),
  RECEIVED_AT,
  { name: 'state', type: 'smallint', value: (x) => stateOf(x.report) },
  ...REPORT_FIELDS,
  {
    name: 'links',
    type: 'json',
    value: (x) => (x.links ? JSON.stringify(x.links) : null),
    onConflict: 'COALESCE(EXCLUDED.links, device_state.links)',
  },
  // Set with the links, kept as it was by a report without them (migration 037).
  {
    name: 'on_backup',
    type: 'boolean',
    value: (x) => (x.links ? onBackupNow(x.links) : null),
    onConflict: 'CASE WHEN EXCLUDED.links IS NULL THEN device_state.on_backup ELSE EXCLUDED.on_backup END',
  },
];

/** INSERT INTO table (columns) SELECT ... FROM unnest($1::type[], ...): one statement for every row. */
function insertFromArrays(table: string, columns: readonly Column[]): string {
  const arrays = columns.filter((c) => c.type);
  return `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')})
     SELECT ${columns.map((c) => c.select ?? c.name).join(', ')}
       FROM unnest(${arrays.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')}) AS u(${arrays.map((c) => c.name).join(', ')})`;
}

/** The parameters of insertFromArrays: one array per column, in its order. */
const arraysOf = (columns: readonly Column[], rows: readonly ReportRow[]) => columns.filter((c) => c.type).map((c) => rows.map(c.value!));

const INSERT_HISTORY = `${insertFromArrays('device_reports', HISTORY_COLUMNS)}
     ON CONFLICT (device_id, device_time) DO NOTHING
     RETURNING device_id AS id, (extract(epoch FROM device_time) * 1000)::float8 AS ms`;

const UPSERT_STATES = `${insertFromArrays('device_state', STATE_COLUMNS)}
     ON CONFLICT (device_id) DO UPDATE SET ${STATE_COLUMNS.filter((c) => c !== DEVICE_ID)
       .map((c) => `${c.name} = ${c.onConflict ?? `EXCLUDED.${c.name}`}`)
       .join(', ')}
      WHERE device_state.reported_at < EXCLUDED.reported_at`;

/**
 * Locks the devices' report writing (across replicas too), in the order given (id order: no
 * deadlock between groups). Held until the transaction ends.
 */
export async function lockDevices(tx: Queryable, ids: readonly number[]): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(5, d.id) FROM unnest($1::int[]) WITH ORDINALITY AS d(id, n) ORDER BY d.n`, [ids]);
}

/** The devices' latest states: time (ms), faults and links; devices without a state are absent. */
export const readLatestStates = (tx: Queryable, ids: readonly number[]) =>
  tx.query<{ id: number; ms: number | null; faults: string[] | null; links: LinkNow[] | null }>(
    `SELECT s.device_id AS id, (extract(epoch FROM s.reported_at) * 1000)::float8 AS ms, s.faults, s.links
       FROM device_state s WHERE s.device_id = ANY($1::int[])`,
    [ids],
  );

/** The history rows in one INSERT (device times already stored are skipped); answers the (device id, time ms) it stored. */
export const insertHistory = (tx: Queryable, rows: readonly ReportRow[]) =>
  tx.query<{ id: number; ms: number }>(INSERT_HISTORY, arraysOf(HISTORY_COLUMNS, rows));

/** Each device's latest state in one upsert (a state is replaced only by a newer one), and devices.status where the state really changed. */
export async function upsertStates(tx: Queryable, latest: readonly ReportRow[]): Promise<void> {
  await tx.query(UPSERT_STATES, arraysOf(STATE_COLUMNS, latest));
  // The device list filters and counts by devices.status (its count triggers keep device_counts):
  // written only when the state really changes, so a steady report does not touch the devices row.
  // Speed and heading are read from device_state (deviceQueries), offline is set by markOfflineDevices.
  await tx.query(
    `UPDATE devices d SET status = u.st FROM unnest($1::int[], $2::smallint[]) AS u(id, st) WHERE d.id = u.id AND d.status IS DISTINCT FROM u.st`,
    [latest.map((x) => x.device.id), latest.map((x) => stateOf(x.report))],
  );
}

/** A device's active fault alarms. Data plan and offline alarms are not the device's faults: its reports neither refresh nor clear them. */
export const readActiveFaultAlarms = (tx: Queryable, deviceId: number) =>
  tx.query<ActiveAlarm>('SELECT id::int AS id, code FROM alarms WHERE device_id = $1 AND cleared_at IS NULL AND code <> ALL($2::text[])', [
    deviceId,
    SERVER_ALARM_CODES,
  ]);

/** A newer report ends the devices' offline alarms (raised by alarm rules: server/notify/ruleAlarmQueries.ts), at its time. */
export async function clearOfflineAlarms(tx: Queryable, latest: readonly { id: number; at: string }[]): Promise<void> {
  await tx.query(
    `UPDATE alarms a SET cleared_at = GREATEST(a.raised_at, u.at)
       FROM unnest($1::int[], $2::timestamptz[]) AS u(id, at)
      WHERE a.device_id = u.id AND a.code = $3 AND a.cleared_at IS NULL`,
    [latest.map((l) => l.id), latest.map((l) => l.at), OFFLINE_ALARM.code],
  );
}

/** Refreshes (last_seen_at) and clears stored alarms; one cleared meanwhile (a transfer clears them) stays cleared. */
export async function updateAlarms(tx: Queryable, updates: AlarmChanges['updates']): Promise<void> {
  await tx.query(
    `UPDATE alarms a SET last_seen_at = COALESCE(u.seen, a.last_seen_at), cleared_at = u.cleared
       FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) AS u(id, seen, cleared) WHERE a.id = u.id AND a.cleared_at IS NULL`,
    [updates.map((u) => u.id), updates.map((u) => u.lastSeenAt), updates.map((u) => u.clearedAt)],
  );
}

/** Stores the alarms a device's reports raised, each with its code's severity. */
export async function insertAlarms(tx: Queryable, deviceId: number, inserts: AlarmChanges['inserts']): Promise<void> {
  await tx.query(
    `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, cleared_at)
     SELECT $1::int, code, sev, raised, seen, cleared
       FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[]) AS u(code, sev, raised, seen, cleared)`,
    [
      deviceId,
      inserts.map((i) => i.code),
      inserts.map((i) => faultInfo(i.code)!.severity),
      inserts.map((i) => i.raisedAt),
      inserts.map((i) => i.lastSeenAt),
      inserts.map((i) => i.clearedAt),
    ],
  );
}
