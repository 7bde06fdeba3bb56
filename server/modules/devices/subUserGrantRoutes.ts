import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level, type Principal } from '../../../src/domain/levels';
import { subUserGrantSchema } from '../../../src/domain/deviceSchemas';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { DEVICE_EDITORS } from '../../auth/deviceScope';
import { loadOwners } from './ownerQueries';
import { countOwnedDevices, grantedDeviceIds, listSubUserGrants, setSubUserGrants } from './subUserGrantQueries';

const tags = ['sub-user vessel grants'];
const subUserQuery = { type: 'object', required: ['subUserId'], properties: { ...tokenQuery, subUserId: { type: 'integer' } } } as const;
const grantItem = {
  type: 'object',
  properties: {
    subUserId: { type: 'integer' },
    subUserName: { type: 'string' },
    deviceId: { type: 'integer' },
    deviceName: { type: 'string' },
    canCommand: { type: 'boolean' },
    grantedAt: { type: 'string' },
  },
} as const;

/** The sub-user and its enterprise; an admin may name any sub-user, an enterprise only its own. */
async function managedSubUser(db: Queryable, caller: Principal, subUserId: number): Promise<{ id: number; parentId: number }> {
  const sub = (await loadOwners(db, [subUserId])).get(subUserId);
  const allowed = sub?.permissionLevel === Level.SubUser && (caller.permissionLevel === Level.Admin || sub.parentId === caller.id);
  if (!allowed) throw new BizError(ErrorCode.NotFound);
  return { id: sub.id, parentId: sub.parentId! };
}

/**
 * deviceModule/subUserGrant: which of its vessels an enterprise lets each of its sub-users see
 * (docs/requirements.md §6, "granted vessel view permission"). Levels 1 and 2.
 */
export async function subUserGrantRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/subUserGrant/getDeviceIds',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Ids of the devices a sub-user was granted',
        querystring: subUserQuery,
        response: envelope({ type: 'array', items: { type: 'integer' } }),
      },
    },
    async (request) => {
      const sub = await managedSubUser(db, request.user, request.query.subUserId);
      return ok(await grantedDeviceIds(db, sub.id, false));
    },
  );

  app.get(
    '/subUserGrant/getCommandDeviceIds',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Ids of the granted devices the sub-user may also send commands to',
        querystring: subUserQuery,
        response: envelope({ type: 'array', items: { type: 'integer' } }),
      },
    },
    async (request) => {
      const sub = await managedSubUser(db, request.user, request.query.subUserId);
      return ok(await grantedDeviceIds(db, sub.id, true));
    },
  );

  app.get(
    '/subUserGrant/getAll',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: "Grants of the caller's sub-users (admin: all), paged",
        querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, subUserId: { type: 'integer' } } },
        response: envelope(pageOf(grantItem)),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(
        await listSubUserGrants(db, request.user, { subUserId: q.subUserId, limit: q.pageSize, offset: (q.pageIndex - 1) * q.pageSize }),
      );
    },
  );

  app.post(
    '/subUserGrant/set',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: "Replace the set of its enterprise's devices a sub-user may see",
        querystring: { type: 'object', properties: tokenQuery },
        body: {
          type: 'object',
          properties: {
            subUserId: { type: 'integer' },
            deviceIds: { type: 'array', items: { type: 'integer' } },
            commandDeviceIds: {
              type: 'array',
              items: { type: 'integer' },
              description: 'Of deviceIds, those it may send commands to (not given: unchanged)',
            },
          },
        },
        response: envelope({ type: 'object', properties: { granted: { type: 'integer' } } }),
      },
    },
    async (request) => {
      const input = parseWith(subUserGrantSchema, request.body);
      const sub = await managedSubUser(db, request.user, input.subUserId);
      const ids = [...new Set(input.deviceIds)];
      const commandIds = input.commandDeviceIds ? [...new Set(input.commandDeviceIds)] : null;
      if (commandIds?.some((id) => !ids.includes(id)))
        throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'commandDeviceIds', message: 'validation.commandGrant' }]);
      if ((await countOwnedDevices(db, ids, sub.parentId)) !== ids.length) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      await setSubUserGrants(db, sub.id, ids, commandIds, request.user.id);
      return ok({ granted: ids.length });
    },
  );
}
