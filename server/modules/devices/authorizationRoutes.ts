import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { FEATURES, isFeature } from '../../../src/domain/features';
import type { DeviceAuthGrant } from '../../../src/domain/device';
import { deviceAuthGrantSchema, updateDeviceAuthGrantSchema, type DeviceAuthGrantInput } from '../../../src/domain/deviceSchemas';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { grantObject } from './deviceJsonSchemas';
import { findVisibleDevice } from './deviceQueries';
import { loadOwners } from './deviceRules';
import { assertFeatureUnlocked } from './featureLock';
import { isFeatureUnlocked } from './deviceQueries';
import { isUniqueViolation } from '../../db/uniqueViolation';

const tags = ['device authorization'];
const ADMIN_ONLY = [Level.Admin] as const;
const GRANT_COLUMNS = `a.id, a.enterprise_id AS "enterpriseId", u.name AS "enterpriseName", a.device_id AS "deviceId",
  d.name AS "deviceName", a.feature, a.device_count AS "deviceCount", a.subscription_quantity AS "subscriptionQuantity",
  to_char(a.deadline, 'YYYY-MM-DD') AS deadline, a.created_at AS "createdAt"`;
const GRANT_FROM = 'device_auth_grants a LEFT JOIN users u ON u.id = a.enterprise_id LEFT JOIN devices d ON d.id = a.device_id';
const grantBody = { type: 'object', properties: { id: { type: 'integer' }, enterpriseId: { type: 'integer' }, deviceId: { type: ['integer', 'null'] }, feature: { type: 'string' }, deviceCount: { type: ['integer', 'null'] }, subscriptionQuantity: { type: ['integer', 'null'] }, deadline: { type: ['string', 'null'] } } } as const;
const tokenOnly = { type: 'object', properties: tokenQuery } as const;

const findGrant = async (db: Queryable, id: number) =>
  (await db.query<DeviceAuthGrant>(`SELECT ${GRANT_COLUMNS} FROM ${GRANT_FROM} WHERE a.id = $1`, [id]))[0];

/** The enterprise must be one, and a device grant must name one of its devices. */
async function checkGrant(db: Queryable, input: DeviceAuthGrantInput): Promise<void> {
  if ((await loadOwners(db, [input.enterpriseId])).get(input.enterpriseId)?.permissionLevel !== Level.Enterprise) {
    throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'enterpriseId', message: 'validation.ownerEnterprise' }]);
  }
  if (input.deviceId) {
    const rows = await db.query('SELECT 1 FROM devices WHERE id = $1 AND owner_id = $2', [input.deviceId, input.enterpriseId]);
    if (!rows.length) throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'deviceId', message: 'error.deviceNotFound' }]);
  }
}

const grantValues = (g: DeviceAuthGrantInput) => [g.enterpriseId, g.deviceId ?? null, g.feature, g.deviceCount ?? null, g.subscriptionQuantity ?? null, g.deadline ?? null];
const duplicateGrant = (e: unknown) => (isUniqueViolation(e) ? new BizError(ErrorCode.Duplicate, 'error.duplicateGrant') : e);

/**
 * deviceModule/deviceAuth (Device Auth page, level 1): which lockable features each enterprise,
 * or one of its devices, has unlocked; plus what any user may ask about a device it sees.
 */
export async function authorizationRoutes(app: Api, { db }: ServerContext) {
  app.get('/deviceAuth/getAll', {
    config: { levels: ADMIN_ONLY },
    schema: {
      tags, summary: 'Feature grants, paged',
      querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, enterpriseId: { type: 'integer' }, deviceId: { type: 'integer' }, feature: { type: 'string', enum: [...FEATURES] } } },
      response: envelope(pageOf(grantObject)),
    },
  }, async (request) => {
    const f = request.query;
    const rows = await db.query<DeviceAuthGrant & { total: number }>(
      `SELECT ${GRANT_COLUMNS}, count(*) OVER ()::int AS total FROM ${GRANT_FROM}
        WHERE ($1::int IS NULL OR a.enterprise_id = $1) AND ($2::int IS NULL OR a.device_id = $2) AND ($3::text IS NULL OR a.feature = $3)
        ORDER BY a.enterprise_id, a.feature, a.id LIMIT $4 OFFSET $5`,
      [f.enterpriseId ?? null, f.deviceId ?? null, f.feature ?? null, f.pageSize, (f.pageIndex - 1) * f.pageSize],
    );
    return ok({ list: rows.map(({ total: _t, ...g }) => g), total: rows[0]?.total ?? 0 });
  });

  app.get('/deviceAuth/getById', { config: { levels: ADMIN_ONLY }, schema: { tags, summary: 'One grant', querystring: idQuery, response: envelope(grantObject) } }, async (request) => {
    const grant = await findGrant(db, request.query.id);
    if (!grant) throw new BizError(ErrorCode.NotFound);
    return ok(grant);
  });

  app.post('/deviceAuth/add', {
    config: { levels: ADMIN_ONLY },
    schema: { tags, summary: 'Unlock a feature for an enterprise (deviceId absent) or one of its devices', querystring: tokenOnly, body: grantBody, response: envelope(grantObject) },
  }, async (request) => {
    const input = parseWith(deviceAuthGrantSchema, request.body);
    await checkGrant(db, input);
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO device_auth_grants (enterprise_id, device_id, feature, device_count, subscription_quantity, deadline)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, grantValues(input)).catch((e: unknown) => { throw duplicateGrant(e); });
    return ok(await findGrant(db, row!.id));
  });

  app.post('/deviceAuth/update', {
    config: { levels: ADMIN_ONLY },
    schema: { tags, summary: 'Change a grant', querystring: tokenOnly, body: grantBody, response: envelope(grantObject) },
  }, async (request) => {
    const { id, ...input } = parseWith(updateDeviceAuthGrantSchema, request.body);
    if (!(await findGrant(db, id))) throw new BizError(ErrorCode.NotFound);
    await checkGrant(db, input);
    await db.query(
      `UPDATE device_auth_grants SET enterprise_id = $2, device_id = $3, feature = $4, device_count = $5,
              subscription_quantity = $6, deadline = $7, updated_at = now() WHERE id = $1`,
      [id, ...grantValues(input)]).catch((e: unknown) => { throw duplicateGrant(e); });
    return ok(await findGrant(db, id));
  });

  app.delete('/deviceAuth/deleteById', { config: { levels: ADMIN_ONLY }, schema: { tags, summary: 'Remove a grant (the feature locks again)', querystring: idQuery, response: envelope() } }, async (request) => {
    const rows = await db.query('DELETE FROM device_auth_grants WHERE id = $1 RETURNING id', [request.query.id]);
    if (!rows.length) throw new BizError(ErrorCode.NotFound);
    return ok(null);
  });

  app.get('/deviceAuth/getDeviceFeatures', {
    schema: {
      tags, summary: 'Which features are unlocked for a visible device (any level)',
      querystring: idQuery,
      response: envelope({ type: 'object', additionalProperties: { type: 'boolean' } }),
    },
  }, async (request) => {
    const { id } = request.query;
    const device = await findVisibleDevice(db, request.user, id);
    if (!device) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
    const entries = await Promise.all(FEATURES.map(async (feature) =>
      [feature, request.user.permissionLevel === Level.Admin || (await isFeatureUnlocked(db, device.ownerId, id, feature))] as const));
    return ok(Object.fromEntries(entries));
  });

  app.get('/deviceAuth/checkFeature', {
    schema: {
      tags, summary: "Succeeds when the feature is unlocked for the device, else code 3 'contact your service provider to unlock it'",
      querystring: { type: 'object', required: ['id', 'feature'], properties: { ...tokenQuery, id: { type: 'integer' }, feature: { type: 'string', enum: [...FEATURES] } } },
      response: envelope({ type: 'boolean' }),
    },
  }, async (request) => {
    const { id, feature } = request.query;
    if (!isFeature(feature)) throw new BizError(ErrorCode.Validation);
    await assertFeatureUnlocked(db, request.user, id, feature);
    return ok(true);
  });
}
