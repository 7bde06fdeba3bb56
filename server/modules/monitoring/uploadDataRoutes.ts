import type { Api } from '../../http/api';
import * as yup from 'yup';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { DEVICE_STATES } from '../../../src/domain/deviceKinds';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';
import { VISIBLE_DEVICES_SQL, scopeParams } from '../../auth/deviceScope';
import { STATE_COLUMNS, STATUS_SQL } from './stateSql';
import { DATA_PLAN_ALARM_CODES } from '../../../src/domain/faultCodes';

/** Sort keys of the status monitor; each is a fixed SQL expression over the row `x`. */
export const UPLOAD_DATA_SORTS = ['id', 'name', 'status', 'reportedAt', 'speed', 'ownerName', 'deviceKind'] as const;
const SORT_SQL: Record<(typeof UPLOAD_DATA_SORTS)[number], string> = {
  id: 'x.id', name: 'x.name', status: 'x.status', reportedAt: 'x."reportedAt"', speed: 'x.speed', ownerName: 'x."ownerName"', deviceKind: 'x."deviceKind"',
};

const ids = () => yup.array(yup.number().typeError('validation.integer').integer('validation.integer').required('validation.required'))
  .typeError('validation.invalid').max(1000, 'validation.tooLong').default([]);

/** The device-upload-data query (docs/requirements.md §7), plus optional paging, search and "unacknowledged alarms only". */
export const uploadDataQuerySchema = yup.object({
  deviceId: yup.number().typeError('validation.integer').integer('validation.integer').nullable().default(0),
  deviceStatus: yup.array(yup.number().typeError('validation.integer').oneOf([...DEVICE_STATES], 'validation.invalid').required('validation.required'))
    .typeError('validation.invalid').default([]),
  deviceType: yup.array(yup.string().required('validation.required').max(64, 'validation.tooLong')).typeError('validation.invalid').max(100, 'validation.tooLong').default([]),
  ownerSubId: ids(),
  ownerId: ids(),
  search: yup.string().trim().max(64, 'validation.tooLong').default(''),
  unacknowledgedOnly: yup.boolean().typeError('validation.boolean').default(false),
  dataPlanAlarms: yup.boolean().typeError('validation.boolean').default(false),
  pageIndex: yup.number().typeError('validation.integer').integer('validation.integer').min(1, 'validation.invalid').optional(),
  pageSize: yup.number().typeError('validation.integer').integer('validation.integer').min(1, 'validation.invalid').max(10000, 'validation.invalid').optional(),
  sort: yup.string().oneOf([...UPLOAD_DATA_SORTS], 'validation.invalid').default('id'),
  order: yup.string().oneOf(['asc', 'desc'], 'validation.invalid').default('asc'),
  withTotal: yup.boolean().typeError('validation.boolean').default(false),
});


/**
 * Two fixed SQL texts (no user input is ever spliced in): when the status filter leaves out
 * offline, only devices with a reported state can match, so the query starts from device_state's
 * state index (the alarm bell's query) instead of scanning every device.
 */
/** A device `x` (or `d`) with an active data plan alarm nobody acknowledged ($13: the data plan codes). */
const dataAlarmSql = (device: string) =>
  `EXISTS (SELECT 1 FROM alarms da WHERE da.device_id = ${device} AND da.code = ANY($13::text[]) AND da.cleared_at IS NULL AND da.acked_at IS NULL)`;

const uploadDataSql = (from: string, orderBy = 'x.id', dataAlarms = false) => `SELECT * FROM (
  SELECT d.id, d.name, d.device_num AS "deviceNum", d.device_kind AS "deviceKind", d.device_type AS "deviceType",
         d.owner_id AS "ownerId", o.name AS "ownerName", COALESCE(d.owner_sub_id, 0) AS "ownerSubId", d.activated,
         ${STATE_COLUMNS}
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
     AND (NOT $10::boolean OR EXISTS (SELECT 1 FROM alarms a WHERE a.device_id = d.id AND a.cleared_at IS NULL AND a.acked_at IS NULL))
  ) x
 WHERE cardinality($5::int[]) = 0 OR x.status = ANY($5::int[])${dataAlarms ? ` OR ${dataAlarmSql('x.id')}` : ''}
 ORDER BY ${orderBy} LIMIT $11 OFFSET $12`;
const ALL_FROM = 'FROM devices d LEFT JOIN device_state ds ON ds.device_id = d.id';
const REPORTED_FROM = 'FROM device_state ds JOIN devices d ON d.id = ds.device_id AND ds.state = ANY($5::int[])';
/**
 * With dataPlanAlarms (the bell): the devices in the asked states, and those with an unacknowledged
 * data plan alarm whatever their state, both from indexes (state, and the active alarms).
 */
const REPORTED_DATA_FROM = `FROM (SELECT s.device_id FROM device_state s WHERE s.state = ANY($5::int[])
     UNION SELECT da.device_id FROM alarms da WHERE da.code = ANY($13::text[]) AND da.cleared_at IS NULL AND da.acked_at IS NULL) k
    JOIN device_state ds ON ds.device_id = k.device_id JOIN devices d ON d.id = ds.device_id`;
const ALL_DEVICES_SQL = uploadDataSql(ALL_FROM);
const REPORTED_DEVICES_SQL = uploadDataSql(REPORTED_FROM);

/** Every sort and order as its own fixed text (nulls last, ties by id), for the status monitor. */
const SORTED_SQL = new Map<string, { all: string; reported: string; dataAll: string; dataReported: string }>();
for (const sort of UPLOAD_DATA_SORTS) {
  for (const order of ['asc', 'desc']) {
    const orderBy = sort === 'id' ? `x.id ${order}` : `${SORT_SQL[sort]} ${order} NULLS LAST, x.id ${order}`;
    SORTED_SQL.set(`${sort}.${order}`, {
      all: uploadDataSql(ALL_FROM, orderBy), reported: uploadDataSql(REPORTED_FROM, orderBy),
      dataAll: uploadDataSql(ALL_FROM, orderBy, true), dataReported: uploadDataSql(REPORTED_DATA_FROM, orderBy, true),
    });
  }
}

/**
 * The counts per state of the devices the other filters select (the status filter left out, so
 * the monitor's state tabs show what each would hold). $5 is kept so the parameters line up.
 */
const STATE_COUNTS_SQL = `SELECT x.status, count(*)::int AS n FROM (
  SELECT ${STATUS_SQL} AS status
    FROM devices d LEFT JOIN device_state ds ON ds.device_id = d.id
    LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
    LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
   WHERE ${VISIBLE_DEVICES_SQL}
     AND ($4::int = 0 OR d.id = $4::int)
     AND $5::int[] IS NOT NULL
     AND (cardinality($6::text[]) = 0 OR d.device_kind = ANY($6::text[]) OR d.device_type = ANY($6::text[]))
     AND (cardinality($7::int[]) = 0 OR d.owner_sub_id = ANY($7::int[]))
     AND (cardinality($8::int[]) = 0 OR d.owner_id = ANY($8::int[]))
     AND ($9::text = '' OR d.name ILIKE $9::text OR d.device_num ILIKE $9::text)
     AND (NOT $10::boolean OR EXISTS (SELECT 1 FROM alarms a WHERE a.device_id = d.id AND a.cleared_at IS NULL AND a.acked_at IS NULL))
  ) x GROUP BY x.status`;

const STATE_NAMES = ['offline', 'online', 'warn'] as const;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition (docs/requirements.md §7): the visible
 * devices with their latest state. The alarm bell sends deviceStatus [2]; a non-empty list turns
 * the dot on. A deviceId the caller may not see answers "not found".
 */
export async function uploadDataRoutes(app: Api, { db }: ServerContext) {
  app.post('/deviceGroup/getAllDeviceUploadDataWithCondition', {
    schema: {
      tags: ['monitoring'], summary: 'Visible devices with their latest reported state, filtered',
      querystring: { type: 'object', properties: tokenQuery },
      body: {
        type: 'object',
        properties: {
          deviceId: { type: ['integer', 'null'] }, deviceStatus: { type: 'array', items: { type: 'integer' } },
          deviceType: { type: 'array', items: { type: 'string' } }, ownerSubId: { type: 'array', items: { type: 'integer' } },
          ownerId: { type: 'array', items: { type: 'integer' } }, search: { type: 'string' }, unacknowledgedOnly: { type: 'boolean' },
          dataPlanAlarms: { type: 'boolean', description: 'also devices with an unacknowledged data plan alarm, whatever their status (the bell)' },
          pageIndex: { type: 'integer' }, pageSize: { type: 'integer' },
          sort: { type: 'string', enum: [...UPLOAD_DATA_SORTS] }, order: { type: 'string', enum: ['asc', 'desc'] },
          withTotal: { type: 'boolean', description: 'answer { list, total, counts } instead of the bare list' },
        },
      },
      response: envelope({ oneOf: [{ type: 'array', items: { type: 'object', additionalProperties: true } }, { type: 'object', additionalProperties: true }] }),
    },
  }, async (request) => {
    const q = parseWith(uploadDataQuerySchema, request.body ?? {});
    const deviceId = q.deviceId ?? 0;
    const limit = q.pageSize ?? null;
    const offset = q.pageSize ? ((q.pageIndex ?? 1) - 1) * q.pageSize : 0;
    const search = q.search ? `%${escapeLike(q.search)}%` : '';
    const reportedOnly = q.deviceStatus.length > 0 && !q.deviceStatus.includes(0);
    const sorted = SORTED_SQL.get(`${q.sort}.${q.order}`)!;
    const sql = q.dataPlanAlarms ? (reportedOnly ? sorted.dataReported : sorted.dataAll)
      : q.sort === 'id' && q.order === 'asc' ? (reportedOnly ? REPORTED_DEVICES_SQL : ALL_DEVICES_SQL) : (reportedOnly ? sorted.reported : sorted.all);
    const params = [...scopeParams(request.user), deviceId, q.deviceStatus, q.deviceType, q.ownerSubId, q.ownerId, search, q.unacknowledgedOnly];
    const rows = await db.query(sql, [...params, limit, offset, ...(q.dataPlanAlarms ? [DATA_PLAN_ALARM_CODES] : [])]);
    if (deviceId && !rows.length) {
      const [visible] = await db.query(`SELECT 1 FROM devices d WHERE d.id = $4 AND ${VISIBLE_DEVICES_SQL}`, [...scopeParams(request.user), deviceId]);
      if (!visible) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
    }
    if (!q.withTotal) return ok(rows);
    const countRows = await db.query<{ status: number; n: number }>(STATE_COUNTS_SQL, params);
    const counts = { total: 0, offline: 0, online: 0, warn: 0 };
    for (const r of countRows) {
      counts.total += r.n;
      counts[STATE_NAMES[r.status] ?? 'offline'] += r.n;
    }
    const total = q.deviceStatus.length ? countRows.filter((r) => q.deviceStatus.includes(r.status as 0 | 1 | 2)).reduce((sum, r) => sum + r.n, 0) : counts.total;
    return ok({ list: rows, total, counts });
  });
}
