import type { Api } from '../../http/api';
import * as yup from 'yup';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { DEVICE_STATES } from '../../../src/domain/deviceKinds';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';
import { UPLOAD_DATA_SORTS, isVisibleDevice, uploadDataRows, uploadDataStateCounts, type UploadDataFilter } from './uploadDataQueries';
import { containsPattern } from '../../db/likePattern';

const ids = () =>
  yup
    .array(yup.number().typeError('validation.integer').integer('validation.integer').required('validation.required'))
    .typeError('validation.invalid')
    .max(1000, 'validation.tooLong')
    .default([]);

/** The device-upload-data query (docs/requirements.md §7), plus optional paging, search and "unacknowledged alarms only". */
export const uploadDataQuerySchema = yup.object({
  deviceId: yup.number().typeError('validation.integer').integer('validation.integer').nullable().default(0),
  deviceStatus: yup
    .array(
      yup
        .number()
        .typeError('validation.integer')
        .oneOf([...DEVICE_STATES], 'validation.invalid')
        .required('validation.required'),
    )
    .typeError('validation.invalid')
    .default([]),
  deviceType: yup
    .array(yup.string().required('validation.required').max(64, 'validation.tooLong'))
    .typeError('validation.invalid')
    .max(100, 'validation.tooLong')
    .default([]),
  ownerSubId: ids(),
  ownerId: ids(),
  search: yup.string().trim().max(64, 'validation.tooLong').default(''),
  unacknowledgedOnly: yup.boolean().typeError('validation.boolean').default(false),
  onBackup: yup.boolean().typeError('validation.boolean').default(false),
  dataPlanAlarms: yup.boolean().typeError('validation.boolean').default(false),
  pageIndex: yup.number().typeError('validation.integer').integer('validation.integer').min(1, 'validation.invalid').optional(),
  pageSize: yup
    .number()
    .typeError('validation.integer')
    .integer('validation.integer')
    .min(1, 'validation.invalid')
    .max(10000, 'validation.invalid')
    .optional(),
  sort: yup
    .string()
    .oneOf([...UPLOAD_DATA_SORTS], 'validation.invalid')
    .default('id'),
  order: yup.string().oneOf(['asc', 'desc'], 'validation.invalid').default('asc'),
  withTotal: yup.boolean().typeError('validation.boolean').default(false),
});

const STATE_NAMES = ['offline', 'online', 'warn'] as const;

/**
 * deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition (docs/requirements.md §7): the visible
 * devices with their latest state. The alarm bell sends deviceStatus [2]; a non-empty list turns
 * the dot on. A deviceId the caller may not see answers "not found".
 */
export async function uploadDataRoutes(app: Api, { db }: ServerContext) {
  app.post(
    '/deviceGroup/getAllDeviceUploadDataWithCondition',
    {
      schema: {
        tags: ['monitoring'],
        summary: 'Visible devices with their latest reported state, filtered',
        querystring: { type: 'object', properties: tokenQuery },
        body: {
          type: 'object',
          properties: {
            deviceId: { type: ['integer', 'null'] },
            deviceStatus: { type: 'array', items: { type: 'integer' } },
            deviceType: { type: 'array', items: { type: 'string' } },
            ownerSubId: { type: 'array', items: { type: 'integer' } },
            ownerId: { type: 'array', items: { type: 'integer' } },
            search: { type: 'string' },
            unacknowledgedOnly: { type: 'boolean' },
            onBackup: { type: 'boolean', description: 'only vessels whose traffic goes over a backup link now' },
            dataPlanAlarms: {
              type: 'boolean',
              description: 'also devices with an unacknowledged data plan alarm, whatever their status (the bell)',
            },
            pageIndex: { type: 'integer' },
            pageSize: { type: 'integer' },
            sort: { type: 'string', enum: [...UPLOAD_DATA_SORTS] },
            order: { type: 'string', enum: ['asc', 'desc'] },
            withTotal: { type: 'boolean', description: 'answer { list, total, counts } instead of the bare list' },
          },
        },
        response: envelope({
          oneOf: [
            { type: 'array', items: { type: 'object', additionalProperties: true } },
            { type: 'object', additionalProperties: true },
          ],
        }),
      },
    },
    async (request) => {
      const q = parseWith(uploadDataQuerySchema, request.body ?? {});
      const deviceId = q.deviceId ?? 0;
      const limit = q.pageSize ?? null;
      const offset = q.pageSize ? ((q.pageIndex ?? 1) - 1) * q.pageSize : 0;
      const filter: UploadDataFilter = {
        deviceId,
        deviceStatus: q.deviceStatus,
        deviceType: q.deviceType,
        ownerSubId: q.ownerSubId,
        ownerId: q.ownerId,
        search: q.search ? containsPattern(q.search) : '',
        unacknowledgedOnly: q.unacknowledgedOnly,
        onBackup: q.onBackup,
        dataPlanAlarms: q.dataPlanAlarms,
        sort: q.sort as UploadDataFilter['sort'],
        order: q.order as UploadDataFilter['order'],
      };
      const rows = await uploadDataRows(db, request.user, filter, limit, offset);
      if (deviceId && !rows.length && !(await isVisibleDevice(db, request.user, deviceId)))
        throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      if (!q.withTotal) return ok(rows);
      const countRows = await uploadDataStateCounts(db, request.user, filter);
      const counts = { total: 0, offline: 0, online: 0, warn: 0 };
      for (const r of countRows) {
        counts.total += r.n;
        counts[STATE_NAMES[r.status] ?? 'offline'] += r.n;
      }
      const total = q.deviceStatus.length
        ? countRows.filter((r) => q.deviceStatus.includes(r.status as 0 | 1 | 2)).reduce((sum, r) => sum + r.n, 0)
        : counts.total;
      return ok({ list: rows, total, counts });
    },
  );
}
