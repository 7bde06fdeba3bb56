import { randomBytes } from 'node:crypto';
import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { hashDeviceSecret } from '../../auth/deviceCredentials';
import { Level } from '../../../src/domain/levels';
import { activationSchema } from '../../../src/domain/deviceSchemas';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, tokenQuery } from '../../http/schemas';
import { deviceObject } from './deviceJsonSchemas';
import { findVisibleDevice } from './deviceQueries';
import { checkOwnership } from './deviceRules';
import { loadOwners } from './ownerQueries';
import { activateDevice, deactivateDevice, findDeviceIdByKey } from './activationQueries';

const tags = ['activation'];
const ADMIN_ONLY = [Level.Admin] as const;
const notFound = () => new BizError(ErrorCode.NotFound, 'error.deviceNotFound');

/**
 * deviceModule/activation (ActivateDevice page, level 1): find a device by deviceNum or SN,
 * activate it for an owner (who and when are recorded; the device secret for the ingest
 * endpoint is issued and returned once), deactivate it (the secret stops working).
 */
export async function activationRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/activation/find',
    {
      config: { levels: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'A device by its deviceNum or SN',
        querystring: {
          type: 'object',
          required: ['key'],
          properties: { ...tokenQuery, key: { type: 'string', minLength: 1, maxLength: 64 } },
        },
        response: envelope(deviceObject),
      },
    },
    async (request) => {
      const key = request.query.key.trim();
      const id = await findDeviceIdByKey(db, key);
      const device = id !== undefined && (await findVisibleDevice(db, request.user, id));
      if (!device) throw notFound();
      return ok(device);
    },
  );

  app.post(
    '/activation/activate',
    {
      config: { levels: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Activate a device for an owner (and sub-user); returns the device secret once',
        querystring: { type: 'object', properties: tokenQuery },
        body: { type: 'object', properties: { id: { type: 'integer' }, ownerId: { type: 'integer' }, ownerSubId: { type: 'integer' } } },
        response: envelope({ type: 'object', properties: { device: deviceObject, secret: { type: 'string' } } }),
      },
    },
    async (request) => {
      const input = parseWith(activationSchema, request.body);
      const ownerSubId = input.ownerSubId ?? 0;
      const owners = await loadOwners(
        db,
        [input.ownerId, ownerSubId].filter((id) => id > 0),
      );
      const { errors } = checkOwnership(request.user, owners, input.ownerId, ownerSubId);
      if (errors.length) throw new BizError(ErrorCode.Validation, 'error.validation', errors);
      const secret = randomBytes(32).toString('base64url');
      const outcome = await activateDevice(db, {
        id: input.id,
        activatedBy: request.user.id,
        ownerId: input.ownerId,
        ownerSubId,
        secretHash: hashDeviceSecret(secret),
      });
      if (outcome === 'notFound') throw notFound();
      if (outcome === 'alreadyActivated') throw new BizError(ErrorCode.BadRequest, 'error.alreadyActivated');
      return ok({ device: await findVisibleDevice(db, request.user, input.id), secret });
    },
  );

  app.post(
    '/activation/deactivate',
    {
      config: { levels: ADMIN_ONLY },
      schema: { tags, summary: 'Deactivate a device; its secret stops working', querystring: idQuery, response: envelope(deviceObject) },
    },
    async (request) => {
      const { id } = request.query;
      if (!(await deactivateDevice(db, id))) {
        if (!(await findVisibleDevice(db, request.user, id))) throw notFound();
        throw new BizError(ErrorCode.BadRequest, 'error.notActivated');
      }
      return ok(await findVisibleDevice(db, request.user, id));
    },
  );
}
