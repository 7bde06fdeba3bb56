import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import { DATA_PLAN_ALARM_CODES } from '../../../src/domain/faultCodes';
import { VISIBLE_DEVICES_SQL, ownedRecordSql, scopeParams } from '../../auth/deviceScope';
import { STATE_COLUMNS, STATUS_SQL } from './stateSql';
import { activeLinkSql, onBackupSql } from '../vessel/linkQueries';

/**
 * The SQL of deviceGroup/getAllDeviceUploadDataWithCondition (uploadDataRoutes.ts): the visible
 * devices with their latest state. Levels 2 and 3 see a latest state, and an alarm, only when it
 * is of their time with the vessel (docs/requirements.md §6, "A transferred vessel"): a state
 * reported before the transfer reads as no report (offline), an alarm raised before it as none.
 */

/** Sort keys of the status monitor; each is a fixed SQL expression over the row `x`. */
export const UPLOAD_DATA_SORTS = ['id', 'name', 'status', 'reportedAt', 'speed', 'ownerName', 'deviceKind'] as const;
const SORT_SQL: Record<(typeof UPLOAD_DATA_SORTS)[number], string> = {
  id: 'x.id',
  name: 'x.name',
  status: 'x.status',
  reportedAt: 'x."reportedAt"',
  speed: 'x.speed',
  ownerName: 'x."ownerName"',
  deviceKind: 'x."deviceKind"',
};

/** The latest state `ds` of a device `d` counts when it was reported in the caller's time with the vessel. */
const STATE_OWNED = ownedRecordSql('ds.reported_at');

/** An unacknowledged active alarm of the device (`device`: its id expression) of the caller's time with it; `codes`: only these. */
const openAlarmSql = (device: string, codes = '') => `EXISTS (SELECT 1 FROM alarms da JOIN devices dd ON dd.id = da.device_id
  WHERE da.device_id = ${device}${codes} AND da.cleared_at IS NULL AND da.acked_at IS NULL AND ${ownedRecordSql('da.raised_at', 'dd')})`;

/**
 * Two fixed SQL texts (no user input is ever spliced in): when the status filter leaves out
 * offline, only devices with a reported state can match, so the query starts from device_state's
 * state index (the alarm bell's query) instead of scanning every device.
 */
/** A device `x` (or `d`) with an active data plan alarm nobody acknowledged ($14: the data plan codes). */
const dataAlarmSql = (device: string) => openAlarmSql(device, ' AND da.code = ANY($14::text[])');

const uploadDataSql = (from: string, orderBy = 'x.id', dataAlarms = false) => `SELECT * FROM (
  SELECT d.id, d.name, d.device_num AS "deviceNum", d.mmsi, d.device_kind AS "deviceKind", d.device_type AS "deviceType",
         d.owner_id AS "ownerId", o.name AS "ownerName", COALESCE(d.owner_sub_id, 0) AS "ownerSubId", d.activated,
         ${STATE_COLUMNS}, ${activeLinkSql('ds')} AS "activeLink"
    ${from}
    LEFT JOIN users o ON o.id = d.owner_id
    LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
    LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
   WHERE ${VISIBLE_DEVICES_SQL}
     AND ($4::int = 0 OR d.id = $4::int)
     AND (cardinality($5::int[]) = 0 OR 0 = ANY($5::int[]) OR ds.state = ANY($5::int[])${dataAlarms ? ` OR ${dataAlarmSql('d.id')}` : ''})
     AND (cardinality($6::text[]) = 0 OR d.device_kind = ANY($6::text[]) OR d.device_type = ANY($6::text[]))
     AND (cardinality($7::int[]) = 0 OR d.owner_sub_id = ANY($7::int[]))
     AND (cardinality($8::int[]) = 0 OR d.owner_id = ANY($8::int[]))
     AND ($9::text = '' OR d.name ILIKE $9::text OR d.device_num ILIKE $9::text)
     AND (NOT $10::boolean OR ${openAlarmSql('d.id')})
     AND (NOT $11::boolean OR ${onBackupSql('ds')})
  ) x
 WHERE cardinality($5::int[]) = 0 OR x.status = ANY($5::int[])${dataAlarms ? ` OR ${dataAlarmSql('x.id')}` : ''}
 ORDER BY ${orderBy} LIMIT $12 OFFSET $13`;
const ALL_FROM = `FROM devices d LEFT JOIN device_state ds ON ds.device_id = d.id AND ${STATE_OWNED}`;
const REPORTED_FROM = `FROM device_state ds JOIN devices d ON d.id = ds.device_id AND ds.state = ANY($5::int[]) AND ${STATE_OWNED}`;
/**
 * With dataPlanAlarms (the bell): the devices in the asked states, and those with an unacknowledged
 * data plan alarm whatever their state, both from indexes (state, and the active alarms).
 */
const REPORTED_DATA_FROM = `FROM (SELECT s.device_id FROM device_state s WHERE s.state = ANY($5::int[])
     UNION SELECT da.device_id FROM alarms da WHERE da.code = ANY($14::text[]) AND da.cleared_at IS NULL AND da.acked_at IS NULL) k
    JOIN device_state ds ON ds.device_id = k.device_id JOIN devices d ON d.id = ds.device_id AND ${STATE_OWNED}`;
const ALL_DEVICES_SQL = uploadDataSql(ALL_FROM);
const REPORTED_DEVICES_SQL = uploadDataSql(REPORTED_FROM);

/** Every sort and order as its own fixed text (nulls last, ties by id), for the status monitor. */
const SORTED_SQL = new Map<string, { all: string; reported: string; dataAll: string; dataReported: string }>();
for (const sort of UPLOAD_DATA_SORTS) {
  for (const order of ['asc', 'desc']) {
    const orderBy = sort === 'id' ? `x.id ${order}` : `${SORT_SQL[sort]} ${order} NULLS LAST, x.id ${order}`;
    SORTED_SQL.set(`${sort}.${order}`, {
      all: uploadDataSql(ALL_FROM, orderBy),
      reported: uploadDataSql(REPORTED_FROM, orderBy),
      dataAll: uploadDataSql(ALL_FROM, orderBy, true),
      dataReported: uploadDataSql(REPORTED_DATA_FROM, orderBy, true),
    });
  }
}

/**
 * The counts per state of the devices the other filters select (the status filter left out, so
 * the monitor's state tabs show what each would hold). $5 is kept so the parameters line up.
 */
const STATE_COUNTS_SQL = `SELECT x.status, count(*)::int AS n FROM (
  SELECT ${STATUS_SQL} AS status
    FROM devices d LEFT JOIN device_state ds ON ds.device_id = d.id AND ${STATE_OWNED}
    LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
    LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
   WHERE ${VISIBLE_DEVICES_SQL}
     AND ($4::int = 0 OR d.id = $4::int)
     AND $5::int[] IS NOT NULL
     AND (cardinality($6::text[]) = 0 OR d.device_kind = ANY($6::text[]) OR d.device_type = ANY($6::text[]))
     AND (cardinality($7::int[]) = 0 OR d.owner_sub_id = ANY($7::int[]))
     AND (cardinality($8::int[]) = 0 OR d.owner_id = ANY($8::int[]))
     AND ($9::text = '' OR d.name ILIKE $9::text OR d.device_num ILIKE $9::text)
     AND (NOT $10::boolean OR ${openAlarmSql('d.id')})
     AND (NOT $11::boolean OR ${onBackupSql('ds')})
  ) x GROUP BY x.status`;

export interface UploadDataFilter {
  deviceId: number;
  deviceStatus: number[];
  deviceType: string[];
  ownerSubId: number[];
  ownerId: number[];
  /** A LIKE pattern ('' for none). */
  search: string;
  unacknowledgedOnly: boolean;
  /** Only vessels whose traffic goes over a backup link now. */
  onBackup: boolean;
  dataPlanAlarms: boolean;
  sort: (typeof UPLOAD_DATA_SORTS)[number];
  order: 'asc' | 'desc';
}

const filterParams = (caller: Principal, f: UploadDataFilter) => [
  ...scopeParams(caller),
  f.deviceId,
  f.deviceStatus,
  f.deviceType,
  f.ownerSubId,
  f.ownerId,
  f.search,
  f.unacknowledgedOnly,
  f.onBackup,
];

/** A page (limit null: all) of the visible devices the filter selects, with their latest state. */
export function uploadDataRows(db: Queryable, caller: Principal, f: UploadDataFilter, limit: number | null, offset: number) {
  const reportedOnly = f.deviceStatus.length > 0 && !f.deviceStatus.includes(0);
  const sorted = SORTED_SQL.get(`${f.sort}.${f.order}`)!;
  const sql = f.dataPlanAlarms
    ? reportedOnly
      ? sorted.dataReported
      : sorted.dataAll
    : f.sort === 'id' && f.order === 'asc'
      ? reportedOnly
        ? REPORTED_DEVICES_SQL
        : ALL_DEVICES_SQL
      : reportedOnly
        ? sorted.reported
        : sorted.all;
  return db.query<Record<string, unknown>>(sql, [
    ...filterParams(caller, f),
    limit,
    offset,
    ...(f.dataPlanAlarms ? [DATA_PLAN_ALARM_CODES] : []),
  ]);
}

/** How many of the devices the filter (its status left out) selects are in each state. */
export function uploadDataStateCounts(db: Queryable, caller: Principal, f: UploadDataFilter) {
  return db.query<{ status: number; n: number }>(STATE_COUNTS_SQL, filterParams(caller, f));
}

/** Whether the caller may see the device. */
export async function isVisibleDevice(db: Queryable, caller: Principal, deviceId: number): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM devices d WHERE d.id = $4 AND ${VISIBLE_DEVICES_SQL}`, [...scopeParams(caller), deviceId]);
  return rows.length > 0;
}
