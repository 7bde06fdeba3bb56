import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { UPDATE_STATES, isDowngrade, rolloutSchema } from '../../../src/domain/firmware';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { findFirmware } from './firmwareQueries';
import { noSuchFirmware } from './firmwareRoutes';
import { candidateObject, rolloutObject, targetObject } from './firmwareJsonSchemas';
import {
  cancelRollout,
  findRollout,
  groupDevices,
  groupExists,
  insertRollout,
  listCandidates,
  listRollouts,
  listTargets,
  namedDevices,
} from './rolloutQueries';

const tags = ['firmware'];
const ADMIN = [Level.Admin] as const;
const tokenOnly = { type: 'object', properties: tokenQuery } as const;
const noSuchRollout = () => new BizError(ErrorCode.NotFound, 'error.rolloutNotFound');
const refuseDevices = (message: string, vars: Record<string, string | number> = {}) =>
  new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'deviceIds', message }], vars);
/** Names for a message: the first five, then "…". */
const someNames = (rows: readonly { name: string }[]) =>
  rows
    .slice(0, 5)
    .map((r) => r.name)
    .join(', ') + (rows.length > 5 ? ', …' : '');

/**
 * deviceModule/firmware/rollout: sending a package to devices of its type and model (named, or a
 * group's), at most maxConcurrent at a time; the devices fetch it through the device API.
 */
export async function rolloutRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/firmware/rollout/candidates',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: "Devices of the package's device type and model (optionally of one group or owner), with any unfinished update",
        querystring: {
          type: 'object',
          required: ['firmwareId'],
          properties: {
            ...tokenQuery,
            ...pageQuery,
            firmwareId: { type: 'integer' },
            groupId: { type: 'integer' },
            ownerId: { type: 'integer' },
            name: { type: 'string', maxLength: 64 },
          },
        },
        response: envelope(pageOf(candidateObject)),
      },
    },
    async (request) => {
      const q = request.query;
      const firmware = await findFirmware(db, q.firmwareId);
      if (!firmware) throw noSuchFirmware();
      return ok(await listCandidates(db, firmware, q));
    },
  );

  app.post(
    '/firmware/rollout/add',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary:
          'Start a rollout: { firmwareId, deviceIds or groupId, maxConcurrent, allowDowngrade }. Devices of another type, model or customer are refused (code 14), ' +
          'devices running a newer version need allowDowngrade (code 15), devices already in an unfinished rollout are refused (code 9)',
        querystring: tokenOnly,
        body: {
          type: 'object',
          properties: {
            firmwareId: { type: 'integer' },
            deviceIds: { type: 'array', items: { type: 'integer' } },
            groupId: { type: ['integer', 'null'] },
            maxConcurrent: { type: 'integer' },
            allowDowngrade: { type: 'boolean', description: 'The caller confirmed that devices running a newer version take this package' },
          },
        },
        response: envelope(rolloutObject),
      },
    },
    async (request) => {
      const input = parseWith(rolloutSchema, request.body);
      const firmware = await findFirmware(db, input.firmwareId);
      if (!firmware) throw noSuchFirmware();
      if (!firmware.enabled)
        throw new BizError(ErrorCode.Validation, 'error.firmwareDisabled', [{ field: 'firmwareId', message: 'error.firmwareDisabled' }]);
      const ids = new Set<number>();
      if (input.deviceIds?.length) {
        const named = [...new Set(input.deviceIds)];
        const rows = await namedDevices(db, named, firmware);
        if (rows.length !== named.length) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
        // A package never goes to a device it was not built for: refused whatever the caller says.
        const foreign = rows.filter((r) => !r.matches);
        if (foreign.length)
          throw new BizError(
            ErrorCode.FirmwareMismatch,
            'error.firmwareMismatch',
            foreign.map(({ id, name }) => ({ id, name })),
            {
              deviceType: firmware.deviceType,
              model: firmware.model,
              devices: someNames(foreign),
            },
          );
        const others = rows.filter((r) => !r.customerFits);
        if (others.length)
          throw new BizError(
            ErrorCode.FirmwareMismatch,
            'error.firmwareCustomerMismatch',
            others.map(({ id, name }) => ({ id, name })),
            {
              customer: firmware.customer,
              devices: someNames(others),
            },
          );
        if (rows.some((r) => !r.activated)) throw refuseDevices('validation.firmwareNotActivated');
        named.forEach((id) => ids.add(id));
      }
      if (input.groupId) {
        if (!(await groupExists(db, input.groupId))) throw new BizError(ErrorCode.NotFound, 'error.groupNotFound');
        (await groupDevices(db, input.groupId, firmware)).forEach((id) => ids.add(id));
      }
      if (!ids.size) throw refuseDevices('error.firmwareNoDevices');
      if (!input.allowDowngrade) {
        const older = (await namedDevices(db, [...ids], firmware)).filter((r) => isDowngrade(firmware.version, r.aduVersion));
        if (older.length)
          throw new BizError(
            ErrorCode.FirmwareDowngrade,
            'error.firmwareDowngrade',
            older.map(({ id, name, aduVersion }) => ({ id, name, version: aduVersion })),
            { count: older.length, version: firmware.version, devices: someNames(older) },
          );
      }
      const started = await insertRollout(db, {
        firmwareId: firmware.id,
        maxConcurrent: input.maxConcurrent,
        groupId: input.groupId ?? null,
        createdBy: request.user.id,
        deviceIds: [...ids],
      });
      if (started.busy) throw new BizError(ErrorCode.Duplicate, 'error.firmwareDeviceBusy', started.busy, { count: started.busy.length });
      return ok(await findRollout(db, started.id));
    },
  );

  app.get(
    '/firmware/rollout/getAll',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: "A package's rollouts, newest first, with device counts per state",
        querystring: { type: 'object', required: ['firmwareId'], properties: { ...tokenQuery, firmwareId: { type: 'integer' } } },
        response: envelope({ type: 'array', items: rolloutObject }),
      },
    },
    async (request) => ok(await listRollouts(db, request.query.firmwareId)),
  );

  app.get(
    '/firmware/rollout/getById',
    {
      config: { levels: ADMIN },
      schema: { tags, summary: 'One rollout with its counts', querystring: idQuery, response: envelope(rolloutObject) },
    },
    async (request) => {
      const rollout = await findRollout(db, request.query.id);
      if (!rollout) throw noSuchRollout();
      return ok(rollout);
    },
  );

  app.get(
    '/firmware/rollout/targets',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: "A rollout's devices with their update state and progress, paged",
        querystring: {
          type: 'object',
          required: ['rolloutId'],
          properties: {
            ...tokenQuery,
            ...pageQuery,
            rolloutId: { type: 'integer' },
            state: { type: 'string', enum: [...UPDATE_STATES] },
            name: { type: 'string', maxLength: 64 },
          },
        },
        response: envelope(pageOf(targetObject)),
      },
    },
    async (request) => {
      const q = request.query;
      if (!(await findRollout(db, q.rolloutId))) throw noSuchRollout();
      return ok(await listTargets(db, q));
    },
  );

  app.post(
    '/firmware/rollout/cancel',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: 'Cancel a rollout: its queued devices fail with "cancelled"; devices already updating finish',
        querystring: idQuery,
        response: envelope(rolloutObject),
      },
    },
    async (request) => {
      const { id } = request.query;
      if (!(await cancelRollout(db, id))) throw noSuchRollout();
      return ok(await findRollout(db, id));
    },
  );
}
