import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { FAULT_CODES } from '../../../src/domain/faultCodes';
import { CONTACT_MANUFACTURER_CODES, stepsOf } from '../../../src/domain/faultSteps';
import { faultClearingRecordSchema } from '../../../src/domain/faultClearing';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';
import { findVisibleDevice } from '../devices/deviceQueries';

const tags = ['support'];
const recordObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' }, deviceId: { type: 'integer' }, deviceName: { type: 'string' }, deviceNum: { type: ['string', 'null'] },
    code: { type: 'string' }, stepsDone: { type: 'array', items: { type: 'integer' } }, action: { type: 'string' }, cleared: { type: 'boolean' },
    recordedBy: { type: ['integer', 'null'] }, recordedByName: { type: ['string', 'null'] }, createdAt: { type: 'string' },
  },
};
const RECORD_COLUMNS = `r.id, r.device_id AS "deviceId", d.name AS "deviceName", d.device_num AS "deviceNum", r.code,
  r.steps_done AS "stepsDone", r.action, r.cleared, r.recorded_by AS "recordedBy", u.name AS "recordedByName", r.created_at AS "createdAt"`;

/** The fault table with the guided steps (docs/requirements.md §8), for the troubleshooting page. */
export const FAULT_GUIDE = FAULT_CODES.map((f) => ({ ...f, steps: stepsOf(f.code), contactManufacturer: CONTACT_MANUFACTURER_CODES.includes(f.code) }));

/**
 * supportModule/faultClearing: the guided troubleshooting table and the records of what was done
 * on a device. Records follow device visibility (server/auth/deviceScope.ts): an admin every
 * device's, an enterprise its own devices', a sub-user its granted vessels'; others answer code 2.
 */
export async function faultClearingRoutes(app: Api, { db }: ServerContext) {
  app.get('/faultClearing/faultCodes', {
    schema: { tags, summary: 'Fault codes with severity, unit, meaning, remedy and the steps to clear them (zh and en)', querystring: { type: 'object', properties: tokenQuery } },
  }, async () => ok(FAULT_GUIDE));

  app.get('/faultClearing/getRecords', {
    schema: {
      tags,
      summary: 'Fault clearing records of the visible devices, newest first (deviceId: one device\'s history)',
      querystring: {
        type: 'object',
        properties: { ...tokenQuery, ...pageQuery, deviceId: { type: 'integer' }, code: { type: 'string', maxLength: 8 }, cleared: { type: 'boolean' } },
      },
      response: envelope(pageOf(recordObject)),
    },
  }, async (request) => {
    const { pageIndex, pageSize, deviceId, code, cleared } = request.query;
    const caller = request.user;
    if (deviceId !== undefined && !(await findVisibleDevice(db, caller, deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
    const params: unknown[] = [...scopeParams(caller)];
    const where = [visibleDevicesSql(caller)];
    if (deviceId !== undefined) where.push(`r.device_id = $${params.push(deviceId)}`);
    if (code) where.push(`r.code = $${params.push(code)}`);
    if (cleared !== undefined) where.push(`r.cleared = $${params.push(cleared)}`);
    const from = `FROM fault_clearing_records r JOIN devices d ON d.id = r.device_id LEFT JOIN users u ON u.id = r.recorded_by WHERE ${where.join(' AND ')}`;
    const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total ${from}`, params);
    const list = await db.query(
      `SELECT ${RECORD_COLUMNS} ${from} ORDER BY r.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, pageSize, (pageIndex - 1) * pageSize],
    );
    return ok({ list, total: count!.total });
  });

  app.post('/faultClearing/addRecord', {
    schema: {
      tags,
      summary: 'Record what was done to clear a fault on a visible device, and whether it cleared',
      querystring: { type: 'object', properties: tokenQuery },
      body: { type: 'object', properties: { deviceId: { type: 'integer' }, code: { type: 'string' }, stepsDone: { type: 'array', items: { type: 'integer' } }, action: { type: 'string' }, cleared: { type: 'boolean' } } },
      response: envelope(recordObject),
    },
  }, async (request) => {
    const input = parseWith(faultClearingRecordSchema, request.body);
    if (!(await findVisibleDevice(db, request.user, input.deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
    const steps = [...new Set(input.stepsDone)].filter((i) => i < stepsOf(input.code).length).sort((a, b) => a - b);
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO fault_clearing_records (device_id, code, steps_done, action, cleared, recorded_by) VALUES ($1, $2, $3::int[], $4, $5, $6) RETURNING id`,
      [input.deviceId, input.code, steps, input.action, input.cleared, request.user.id],
    );
    const [record] = await db.query(
      `SELECT ${RECORD_COLUMNS} FROM fault_clearing_records r JOIN devices d ON d.id = r.device_id LEFT JOIN users u ON u.id = r.recorded_by WHERE r.id = $1`,
      [row!.id],
    );
    return ok(record);
  });
}
