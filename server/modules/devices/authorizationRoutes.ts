import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { FEATURES, isFeature } from '../../../src/domain/features';
import { deviceAuthGrantSchema, updateDeviceAuthGrantSchema, type DeviceAuthGrantInput } from '../../../src/domain/deviceSchemas';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { grantObject } from './deviceJsonSchemas';
import { findVisibleDevice } from './deviceQueries';
import { loadOwners } from './ownerQueries';
import { assertFeatureUnlocked } from './featureLock';
import { isFeatureUnlocked } from './deviceQueries';
import { isUniqueViolation } from '../../db/uniqueViolation';
import { deleteGrant, findGrant, insertGrant, isDeviceOf, listGrants, updateGrant } from './authorizationQueries';

const tags = ['device authorization'];
const ADMIN_ONLY = [Level.Admin] as const;
const grantBody = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    enterpriseId: { type: 'integer' },
    deviceId: { type: ['integer', 'null'] },
    feature: { type: 'string' },
    deviceCount: { type: ['integer', 'null'] },
    subscriptionQuantity: { type: ['integer', 'null'] },
    deadline: { type: ['string', 'null'] },
  },
} as const;
const tokenOnly = { type: 'object', properties: tokenQuery } as const;

/** The enterprise must be one, and a device grant must name one of its devices. */
async function checkGrant(db: Queryable, input: DeviceAuthGrantInput): Promise<void> {
  if ((await loadOwners(db, [input.enterpriseId])).get(input.enterpriseId)?.permissionLevel !== Level.Enterprise) {
    throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'enterpriseId', message: 'validation.ownerEnterprise' }]);
  }
  if (input.deviceId) {
    if (!(await isDeviceOf(db, input.deviceId, input.enterpriseId)))
      throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'deviceId', message: 'error.deviceNotFound' }]);
  }
}

const duplicateGrant = (e: unknown) => (isUniqueViolation(e) ? new BizError(ErrorCode.Duplicate, 'error.duplicateGrant') : e);

/**
 * deviceModule/deviceAuth (Device Auth page, level 1): which lockable features each enterprise,
 * or one of its devices, has unlocked; plus what any user may ask about a device it sees.
 */
export async function authorizationRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/deviceAuth/getAll',
    {
      config: { levels: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Feature grants, paged',
        querystring: {
          type: 'object',
          properties: {
            ...tokenQuery,
            ...pageQuery,
            enterpriseId: { type: 'integer' },
            deviceId: { type: 'integer' },
            feature: { type: 'string', enum: [...FEATURES] },
          },
        },
        response: envelope(pageOf(grantObject)),
      },
    },
    async (request) => {
      const f = request.query;
      return ok(
        await listGrants(db, {
          enterpriseId: f.enterpriseId,
          deviceId: f.deviceId,
          feature: f.feature,
          limit: f.pageSize,
          offset: (f.pageIndex - 1) * f.pageSize,
        }),
      );
    },
  );

  app.get(
    '/deviceAuth/getById',
    { config: { levels: ADMIN_ONLY }, schema: { tags, summary: 'One grant', querystring: idQuery, response: envelope(grantObject) } },
    async (request) => {
      const grant = await findGrant(db, request.query.id);
      if (!grant) throw new BizError(ErrorCode.NotFound);
      return ok(grant);
    },
  );

  app.post(
    '/deviceAuth/add',
    {
      config: { levels: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Unlock a feature for an enterprise (deviceId absent) or one of its devices',
        querystring: tokenOnly,
        body: grantBody,
        response: envelope(grantObject),
      },
    },
    async (request) => {
      const input = parseWith(deviceAuthGrantSchema, request.body);
      await checkGrant(db, input);
      const id = await insertGrant(db, input).catch((e: unknown) => {
        throw duplicateGrant(e);
      });
      return ok(await findGrant(db, id));
    },
  );

  app.post(
    '/deviceAuth/update',
    {
      config: { levels: ADMIN_ONLY },
      schema: { tags, summary: 'Change a grant', querystring: tokenOnly, body: grantBody, response: envelope(grantObject) },
    },
    async (request) => {
      const { id, ...input } = parseWith(updateDeviceAuthGrantSchema, request.body);
      if (!(await findGrant(db, id))) throw new BizError(ErrorCode.NotFound);
      await checkGrant(db, input);
      await updateGrant(db, id, input).catch((e: unknown) => {
        throw duplicateGrant(e);
      });
      return ok(await findGrant(db, id));
    },
  );

  app.delete(
    '/deviceAuth/deleteById',
    {
      config: { levels: ADMIN_ONLY },
      schema: { tags, summary: 'Remove a grant (the feature locks again)', querystring: idQuery, response: envelope() },
    },
    async (request) => {
      if (!(await deleteGrant(db, request.query.id))) throw new BizError(ErrorCode.NotFound);
      return ok(null);
    },
  );

  app.get(
    '/deviceAuth/getDeviceFeatures',
    {
      schema: {
        tags,
        summary: 'Which features are unlocked for a visible device (any level)',
        querystring: idQuery,
        response: envelope({ type: 'object', additionalProperties: { type: 'boolean' } }),
      },
    },
    async (request) => {
      const { id } = request.query;
      const device = await findVisibleDevice(db, request.user, id);
      if (!device) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      const entries = await Promise.all(
        FEATURES.map(
          async (feature) =>
            [feature, request.user.permissionLevel === Level.Admin || (await isFeatureUnlocked(db, device.ownerId, id, feature))] as const,
        ),
      );
      return ok(Object.fromEntries(entries));
    },
  );

  app.get(
    '/deviceAuth/checkFeature',
    {
      schema: {
        tags,
        summary: "Succeeds when the feature is unlocked for the device, else code 3 'contact your service provider to unlock it'",
        querystring: {
          type: 'object',
          required: ['id', 'feature'],
          properties: { ...tokenQuery, id: { type: 'integer' }, feature: { type: 'string', enum: [...FEATURES] } },
        },
        response: envelope({ type: 'boolean' }),
      },
    },
    async (request) => {
      const { id, feature } = request.query;
      if (!isFeature(feature)) throw new BizError(ErrorCode.Validation);
      await assertFeatureUnlocked(db, request.user, id, feature);
      return ok(true);
    },
  );
}
