import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { deviceSchema, updateDeviceSchema } from '../../../src/domain/deviceSchemas';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { DEVICE_EDITORS } from '../../auth/deviceScope';
import { Permission } from '../../../src/domain/permissionGroups';
import { deviceBody, deviceFilterQuery, deviceObject } from './deviceJsonSchemas';
import { listDevices } from './deviceListQueries';
import { deleteDevice, devicesWithMmsi, findVisibleDevice, insertDevice, updateDevice } from './deviceQueries';
import { detachFromOtherEnterprises } from './groupQueries';
import { assertUnique, checkDeviceWrite, uniqueViolationToBizError } from './deviceRules';

const tags = ['devices'];
const notFound = () => new BizError(ErrorCode.NotFound, 'error.deviceNotFound');

/** deviceModule/device: the device list and CRUD (System > Device, levels 1, 2, 3; writes 1, 2). */
export async function deviceRoutes(app: Api, { db, config }: ServerContext) {
  const listOptions = { exactCountMax: config.deviceListExactCountMax };
  const devicePage = pageOf(deviceObject) as { type: 'object'; properties: Record<string, unknown> };
  app.get(
    '/device/getAll',
    {
      config: { permission: Permission.viewMachine },
      schema: {
        tags,
        summary: 'Visible devices, paged and filtered (admin: all; enterprise: its own; sub-user: its granted vessels)',
        querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, ...deviceFilterQuery } },
        // totalEstimated: true when total is an estimate (more matches than deviceListExactCountMax).
        response: envelope({ ...devicePage, properties: { ...devicePage.properties, totalEstimated: { type: 'boolean' } } }),
      },
    },
    async (request) => ok(await listDevices(db, request.user, request.query, listOptions)),
  );

  app.get(
    '/device/getById',
    {
      config: { permission: Permission.viewMachine },
      schema: { tags, summary: 'One visible device', querystring: idQuery, response: envelope(deviceObject) },
    },
    async (request) => {
      const { id } = request.query;
      const device = await findVisibleDevice(db, request.user, id);
      if (!device) throw notFound();
      return ok(device);
    },
  );

  app.get(
    '/device/mmsiInUse',
    {
      config: { permission: Permission.viewMachine },
      schema: {
        tags,
        summary:
          'Other devices with this MMSI (a warning, not a refusal: the form shows it under the field): their count, and the names of those the caller sees',
        querystring: {
          type: 'object',
          required: ['mmsi'],
          properties: { ...tokenQuery, mmsi: { type: 'string', pattern: '^\\d{9}$' }, exceptId: { type: 'integer', default: 0 } },
        },
        response: envelope({
          type: 'object',
          properties: {
            count: { type: 'integer' },
            vessels: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
          },
        }),
      },
    },
    async (request) => {
      const { mmsi, exceptId } = request.query;
      const rows = await devicesWithMmsi(db, request.user, mmsi, exceptId ?? 0);
      return ok({ count: rows.length, vessels: rows.filter((r) => r.visible).map(({ id, name }) => ({ id, name })) });
    },
  );

  app.post(
    '/device/add',
    {
      config: { levels: DEVICE_EDITORS, permission: Permission.addMachine },
      schema: {
        tags,
        summary: 'Create a device (enterprise: owned by itself); deviceNum, SN and MAC unique (code 9)',
        querystring: { type: 'object', properties: tokenQuery },
        body: deviceBody,
        response: envelope(deviceObject),
      },
    },
    async (request) => {
      const input = await checkDeviceWrite(db, request.user, parseWith(deviceSchema, request.body));
      await assertUnique(db, input);
      const id = await insertDevice(db, input).catch((e: unknown) => {
        throw uniqueViolationToBizError(e);
      });
      return ok(await findVisibleDevice(db, request.user, id));
    },
  );

  app.post(
    '/device/update',
    {
      config: { levels: DEVICE_EDITORS, permission: Permission.editMachine },
      schema: {
        tags,
        summary: 'Replace the fields of a visible device',
        querystring: { type: 'object', properties: tokenQuery },
        body: deviceBody,
        response: envelope(deviceObject),
      },
    },
    async (request) => {
      const { id, ...fields } = parseWith(updateDeviceSchema, request.body);
      if (!(await findVisibleDevice(db, request.user, id))) throw notFound();
      const input = await checkDeviceWrite(db, request.user, fields);
      await assertUnique(db, input, id);
      await db
        .transaction(async (tx) => {
          await updateDevice(tx, id, input);
          await detachFromOtherEnterprises(tx, id, input.ownerId);
        })
        .catch((e: unknown) => {
          throw uniqueViolationToBizError(e);
        });
      return ok(await findVisibleDevice(db, request.user, id));
    },
  );

  app.delete(
    '/device/deleteById',
    {
      config: { levels: DEVICE_EDITORS, permission: Permission.deleteMachine },
      schema: {
        tags,
        summary: 'Delete a visible device (with its group membership, pins and grants)',
        querystring: idQuery,
        response: envelope(),
      },
    },
    async (request) => {
      const { id } = request.query;
      if (!(await findVisibleDevice(db, request.user, id))) throw notFound();
      await deleteDevice(db, id);
      return ok(null);
    },
  );
}
