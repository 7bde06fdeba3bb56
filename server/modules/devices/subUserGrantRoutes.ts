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
import { loadOwners } from './deviceRules';

const tags = ['sub-user vessel grants'];
const subUserQuery = { type: 'object', required: ['subUserId'], properties: { ...tokenQuery, subUserId: { type: 'integer' } } } as const;
const grantItem = { type: 'object', properties: { subUserId: { type: 'integer' }, subUserName: { type: 'string' }, deviceId: { type: 'integer' }, deviceName: { type: 'string' }, canCommand: { type: 'boolean' }, grantedAt: { type: 'string' } } } as const;

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
  app.get('/subUserGrant/getDeviceIds', {
    config: { levels: DEVICE_EDITORS },
    schema: { tags, summary: 'Ids of the devices a sub-user was granted', querystring: subUserQuery, response: envelope({ type: 'array', items: { type: 'integer' } }) },
  }, async (request) => {
    const sub = await managedSubUser(db, request.user, request.query.subUserId);
    const rows = await db.query<{ id: number }>('SELECT device_id AS id FROM sub_user_grants WHERE sub_user_id = $1 ORDER BY device_id', [sub.id]);
    return ok(rows.map((r) => r.id));
  });

  app.get('/subUserGrant/getCommandDeviceIds', {
    config: { levels: DEVICE_EDITORS },
    schema: { tags, summary: 'Ids of the granted devices the sub-user may also send commands to', querystring: subUserQuery, response: envelope({ type: 'array', items: { type: 'integer' } }) },
  }, async (request) => {
    const sub = await managedSubUser(db, request.user, request.query.subUserId);
    const rows = await db.query<{ id: number }>('SELECT device_id AS id FROM sub_user_grants WHERE sub_user_id = $1 AND can_command ORDER BY device_id', [sub.id]);
    return ok(rows.map((r) => r.id));
  });

  app.get('/subUserGrant/getAll', {
    config: { levels: DEVICE_EDITORS },
    schema: {
      tags, summary: "Grants of the caller's sub-users (admin: all), paged",
      querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, subUserId: { type: 'integer' } } },
      response: envelope(pageOf(grantItem)),
    },
  }, async (request) => {
    const q = request.query;
    const rows = await db.query<{ total: number }>(
      `SELECT sg.sub_user_id AS "subUserId", u.name AS "subUserName", sg.device_id AS "deviceId", d.name AS "deviceName",
              sg.can_command AS "canCommand", sg.granted_at AS "grantedAt", count(*) OVER ()::int AS total
         FROM sub_user_grants sg JOIN users u ON u.id = sg.sub_user_id JOIN devices d ON d.id = sg.device_id
        WHERE ($1::text = '1' OR u.parent_id = $2) AND ($3::int IS NULL OR sg.sub_user_id = $3)
        ORDER BY u.name, d.name, d.id LIMIT $4 OFFSET $5`,
      [request.user.permissionLevel, request.user.id, q.subUserId ?? null, q.pageSize, (q.pageIndex - 1) * q.pageSize],
    );
    return ok({ list: rows.map(({ total: _t, ...g }) => g), total: rows[0]?.total ?? 0 });
  });

  app.post('/subUserGrant/set', {
    config: { levels: DEVICE_EDITORS },
    schema: {
      tags, summary: "Replace the set of its enterprise's devices a sub-user may see",
      querystring: { type: 'object', properties: tokenQuery },
      body: { type: 'object', properties: { subUserId: { type: 'integer' }, deviceIds: { type: 'array', items: { type: 'integer' } }, commandDeviceIds: { type: 'array', items: { type: 'integer' }, description: 'Of deviceIds, those it may send commands to (not given: unchanged)' } } },
      response: envelope({ type: 'object', properties: { granted: { type: 'integer' } } }),
    },
  }, async (request) => {
    const input = parseWith(subUserGrantSchema, request.body);
    const sub = await managedSubUser(db, request.user, input.subUserId);
    const ids = [...new Set(input.deviceIds)];
    const commandIds = input.commandDeviceIds ? [...new Set(input.commandDeviceIds)] : null;
    if (commandIds?.some((id) => !ids.includes(id))) throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'commandDeviceIds', message: 'validation.commandGrant' }]);
    const owned = await db.query<{ id: number }>('SELECT id FROM devices WHERE id = ANY($1::int[]) AND owner_id = $2', [ids, sub.parentId]);
    if (owned.length !== ids.length) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM sub_user_grants WHERE sub_user_id = $1 AND NOT (device_id = ANY($2::int[]))', [sub.id, ids]);
      await tx.query(
        `INSERT INTO sub_user_grants (sub_user_id, device_id, granted_by) SELECT $1, unnest($2::int[]), $3 ON CONFLICT DO NOTHING`,
        [sub.id, ids, request.user.id]);
      if (commandIds) await tx.query('UPDATE sub_user_grants SET can_command = (device_id = ANY($2::int[])) WHERE sub_user_id = $1', [sub.id, commandIds]);
    });
    return ok({ granted: ids.length });
  });
}
