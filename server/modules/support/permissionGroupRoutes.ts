import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level, SUPER_USER_ID } from '../../../src/domain/levels';
import { PERMISSION_ACTIONS, PERMISSION_MODULES, PERMISSION_NAMES, permissionGroupSchema, updatePermissionGroupSchema, userGroupsSchema } from '../../../src/domain/permissionGroups';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { grantedPermissions } from '../../auth/permissionGuard';

const tags = ['support'];
const ADMIN = [Level.Admin] as const;
const groupObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' }, name: { type: 'string' }, description: { type: ['string', 'null'] },
    permissions: { type: 'array', items: { type: 'string' } },
    members: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
    createdAt: { type: 'string' }, updatedAt: { type: 'string' },
  },
};
const body = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, description: { type: ['string', 'null'] }, permissions: { type: 'array', items: { type: 'string' } } } };

const SELECT = `SELECT g.id, g.name, g.description, g.permissions, g.created_at AS "createdAt", g.updated_at AS "updatedAt",
  COALESCE((SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY u.id)
    FROM permission_group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = g.id), '[]'::json) AS members
  FROM permission_groups g`;

const inGridOrder = (permissions: readonly string[]) => PERMISSION_NAMES.filter((p) => permissions.includes(p));
const duplicate = () => new BizError(ErrorCode.Duplicate, 'error.duplicatePermissionGroup', [{ field: 'name', message: 'error.duplicatePermissionGroup' }]);
const isUniqueViolation = (e: unknown) => typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';

async function findGroup(db: Queryable, id: number) {
  const [row] = await db.query(`${SELECT} WHERE g.id = $1`, [id]);
  return row;
}

async function nameTaken(db: Queryable, name: string, exceptId = 0) {
  const rows = await db.query('SELECT 1 FROM permission_groups WHERE lower(name) = lower($1) AND id <> $2', [name, exceptId]);
  return rows.length > 0;
}

/**
 * supportModule/permissionGroup: the permission groups of docs/requirements.md §3 (admins define them and
 * assign them to users); getCatalogue and getMine answer every level. Enforcement is
 * server/auth/permissionGuard.ts.
 */
export async function permissionGroupRoutes(app: Api, { db }: ServerContext) {
  app.get('/permissionGroup/getCatalogue', {
    schema: { tags, summary: 'The modules, their actions and the permission names (action + module key)', querystring: { type: 'object', properties: tokenQuery } },
  }, async () => ok({ actions: PERMISSION_ACTIONS, modules: PERMISSION_MODULES, permissions: PERMISSION_NAMES }));

  app.get('/permissionGroup/getMine', {
    schema: { tags, summary: "The caller's effective permissions: restricted false means its level's defaults apply", querystring: { type: 'object', properties: tokenQuery } },
  }, async (request) => {
    const granted = await grantedPermissions(db, request.user);
    return ok({ restricted: granted !== null, permissions: granted === null ? [] : inGridOrder(granted) });
  });

  app.get('/permissionGroup/getAll', {
    config: { levels: ADMIN },
    schema: { tags, summary: 'Permission groups with their members, paged, filtered by name', querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, name: { type: 'string', maxLength: 64 } } }, response: envelope(pageOf(groupObject)) },
  }, async (request) => {
    const { pageIndex, pageSize, name } = request.query;
    const where = name ? `WHERE g.name ILIKE $1` : '';
    const params: unknown[] = name ? [`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] : [];
    const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM permission_groups g ${where}`, params);
    const list = await db.query(`${SELECT} ${where} ORDER BY g.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, pageSize, (pageIndex - 1) * pageSize]);
    return ok({ list, total: count!.total });
  });

  app.get('/permissionGroup/getById', { config: { levels: ADMIN }, schema: { tags, summary: 'One permission group', querystring: idQuery, response: envelope(groupObject) } }, async (request) => {
    const group = await findGroup(db, request.query.id);
    if (!group) throw new BizError(ErrorCode.NotFound);
    return ok(group);
  });

  app.post('/permissionGroup/add', {
    config: { levels: ADMIN },
    schema: { tags, summary: 'Create a permission group (name unique, permissions from the catalogue)', querystring: { type: 'object', properties: tokenQuery }, body, response: envelope(groupObject) },
  }, async (request) => {
    const input = parseWith(permissionGroupSchema, request.body);
    if (await nameTaken(db, input.name)) throw duplicate();
    const [row] = await db.query<{ id: number }>(
      'INSERT INTO permission_groups (name, description, permissions) VALUES ($1, $2, $3::text[]) RETURNING id',
      [input.name, input.description || null, inGridOrder(input.permissions)],
    ).catch((e: unknown) => { throw isUniqueViolation(e) ? duplicate() : e; });
    return ok(await findGroup(db, row!.id));
  });

  app.post('/permissionGroup/update', {
    config: { levels: ADMIN },
    schema: { tags, summary: "Replace a group's name, description and permissions", querystring: { type: 'object', properties: tokenQuery }, body, response: envelope(groupObject) },
  }, async (request) => {
    const { id, ...input } = parseWith(updatePermissionGroupSchema, request.body);
    if (!(await findGroup(db, id))) throw new BizError(ErrorCode.NotFound);
    if (await nameTaken(db, input.name, id)) throw duplicate();
    await db.query('UPDATE permission_groups SET name = $2, description = $3, permissions = $4::text[], updated_at = now() WHERE id = $1',
      [id, input.name, input.description || null, inGridOrder(input.permissions)])
      .catch((e: unknown) => { throw isUniqueViolation(e) ? duplicate() : e; });
    return ok(await findGroup(db, id));
  });

  app.delete('/permissionGroup/deleteById', { config: { levels: ADMIN }, schema: { tags, summary: 'Delete a permission group (its members lose it)', querystring: idQuery, response: envelope() } }, async (request) => {
    const rows = await db.query('DELETE FROM permission_groups WHERE id = $1 RETURNING id', [request.query.id]);
    if (!rows.length) throw new BizError(ErrorCode.NotFound);
    return ok(null);
  });

  app.get('/permissionGroup/getUserGroups', {
    config: { levels: ADMIN },
    schema: { tags, summary: 'The ids of the groups a user belongs to', querystring: { type: 'object', required: ['userId'], properties: { ...tokenQuery, userId: { type: 'integer' } } } },
  }, async (request) => {
    const { userId } = request.query;
    const [user] = await db.query('SELECT id FROM users WHERE id = $1', [userId]);
    if (!user) throw new BizError(ErrorCode.NotFound);
    const rows = await db.query<{ groupId: number }>('SELECT group_id AS "groupId" FROM permission_group_members WHERE user_id = $1 ORDER BY group_id', [userId]);
    return ok(rows.map((r) => r.groupId));
  });

  app.post('/permissionGroup/setUserGroups', {
    config: { levels: ADMIN },
    schema: {
      tags, summary: "Replace a user's groups (an empty list: back to its level's defaults); the super user cannot be restricted",
      querystring: { type: 'object', properties: tokenQuery },
      body: { type: 'object', properties: { userId: { type: 'integer' }, groupIds: { type: 'array', items: { type: 'integer' } } } },
    },
  }, async (request) => {
    const { userId, groupIds } = parseWith(userGroupsSchema, request.body);
    if (userId === SUPER_USER_ID) throw new BizError(ErrorCode.Forbidden);
    const [user] = await db.query('SELECT id FROM users WHERE id = $1', [userId]);
    if (!user) throw new BizError(ErrorCode.NotFound);
    const ids = [...new Set(groupIds)];
    const found = await db.query<{ id: number }>('SELECT id FROM permission_groups WHERE id = ANY($1::int[])', [ids]);
    if (found.length !== ids.length) throw new BizError(ErrorCode.NotFound);
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM permission_group_members WHERE user_id = $1', [userId]);
      if (ids.length) await tx.query('INSERT INTO permission_group_members (user_id, group_id) SELECT $1, unnest($2::int[])', [userId, ids]);
    });
    return ok(ids.sort((a, b) => a - b));
  });
}
