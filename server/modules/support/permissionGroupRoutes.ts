import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { isUniqueViolation } from '../../db/uniqueViolation';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level, SUPER_USER_ID } from '../../../src/domain/levels';
import {
  PERMISSION_ACTIONS,
  PERMISSION_MODULES,
  PERMISSION_NAMES,
  permissionGroupSchema,
  updatePermissionGroupSchema,
  userGroupsSchema,
} from '../../../src/domain/permissionGroups';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { grantedPermissions } from '../../auth/permissionGuard';
import * as q from './permissionGroupQueries';

const tags = ['support'];
const ADMIN = [Level.Admin] as const;
const groupObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    permissions: { type: 'array', items: { type: 'string' } },
    members: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
};
const body = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    permissions: { type: 'array', items: { type: 'string' } },
  },
};

const inGridOrder = (permissions: readonly string[]) => PERMISSION_NAMES.filter((p) => permissions.includes(p));
const duplicate = () =>
  new BizError(ErrorCode.Duplicate, 'error.duplicatePermissionGroup', [{ field: 'name', message: 'error.duplicatePermissionGroup' }]);
/**
 * supportModule/permissionGroup: the permission groups of docs/requirements.md §3 (admins define them and
 * assign them to users); getCatalogue and getMine answer every level. Enforcement is
 * server/auth/permissionGuard.ts.
 */
export async function permissionGroupRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/permissionGroup/getCatalogue',
    {
      schema: {
        tags,
        summary: 'The modules, their actions and the permission names (action + module key)',
        querystring: { type: 'object', properties: tokenQuery },
      },
    },
    async () => ok({ actions: PERMISSION_ACTIONS, modules: PERMISSION_MODULES, permissions: PERMISSION_NAMES }),
  );

  app.get(
    '/permissionGroup/getMine',
    {
      schema: {
        tags,
        summary: "The caller's effective permissions: restricted false means its level's defaults apply",
        querystring: { type: 'object', properties: tokenQuery },
      },
    },
    async (request) => {
      const granted = await grantedPermissions(db, request.user);
      return ok({ restricted: granted !== null, permissions: granted === null ? [] : inGridOrder(granted) });
    },
  );

  app.get(
    '/permissionGroup/getAll',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: 'Permission groups with their members, paged, filtered by name',
        querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, name: { type: 'string', maxLength: 64 } } },
        response: envelope(pageOf(groupObject)),
      },
    },
    async (request) => {
      const { pageIndex, pageSize, name } = request.query;
      return ok(await q.listGroups(db, { name, limit: pageSize, offset: (pageIndex - 1) * pageSize }));
    },
  );

  app.get(
    '/permissionGroup/getById',
    { config: { levels: ADMIN }, schema: { tags, summary: 'One permission group', querystring: idQuery, response: envelope(groupObject) } },
    async (request) => {
      const group = await q.findGroup(db, request.query.id);
      if (!group) throw new BizError(ErrorCode.NotFound);
      return ok(group);
    },
  );

  app.post(
    '/permissionGroup/add',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: 'Create a permission group (name unique, permissions from the catalogue)',
        querystring: { type: 'object', properties: tokenQuery },
        body,
        response: envelope(groupObject),
      },
    },
    async (request) => {
      const input = parseWith(permissionGroupSchema, request.body);
      if (await q.nameTaken(db, input.name)) throw duplicate();
      const id = await q
        .insertGroup(db, { name: input.name, description: input.description || null, permissions: inGridOrder(input.permissions) })
        .catch((e: unknown) => {
          throw isUniqueViolation(e) ? duplicate() : e;
        });
      return ok(await q.findGroup(db, id));
    },
  );

  app.post(
    '/permissionGroup/update',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: "Replace a group's name, description and permissions",
        querystring: { type: 'object', properties: tokenQuery },
        body,
        response: envelope(groupObject),
      },
    },
    async (request) => {
      const { id, ...input } = parseWith(updatePermissionGroupSchema, request.body);
      if (!(await q.findGroup(db, id))) throw new BizError(ErrorCode.NotFound);
      if (await q.nameTaken(db, input.name, id)) throw duplicate();
      await q
        .updateGroup(db, id, { name: input.name, description: input.description || null, permissions: inGridOrder(input.permissions) })
        .catch((e: unknown) => {
          throw isUniqueViolation(e) ? duplicate() : e;
        });
      return ok(await q.findGroup(db, id));
    },
  );

  app.delete(
    '/permissionGroup/deleteById',
    {
      config: { levels: ADMIN },
      schema: { tags, summary: 'Delete a permission group (its members lose it)', querystring: idQuery, response: envelope() },
    },
    async (request) => {
      if (!(await q.deleteGroup(db, request.query.id))) throw new BizError(ErrorCode.NotFound);
      return ok(null);
    },
  );

  app.get(
    '/permissionGroup/getUserGroups',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: 'The ids of the groups a user belongs to',
        querystring: { type: 'object', required: ['userId'], properties: { ...tokenQuery, userId: { type: 'integer' } } },
      },
    },
    async (request) => {
      const { userId } = request.query;
      if (!(await q.userExists(db, userId))) throw new BizError(ErrorCode.NotFound);
      return ok(await q.groupsOfUser(db, userId));
    },
  );

  app.post(
    '/permissionGroup/setUserGroups',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: "Replace a user's groups (an empty list: back to its level's defaults); the super user cannot be restricted",
        querystring: { type: 'object', properties: tokenQuery },
        body: { type: 'object', properties: { userId: { type: 'integer' }, groupIds: { type: 'array', items: { type: 'integer' } } } },
      },
    },
    async (request) => {
      const { userId, groupIds } = parseWith(userGroupsSchema, request.body);
      if (userId === SUPER_USER_ID) throw new BizError(ErrorCode.Forbidden);
      if (!(await q.userExists(db, userId))) throw new BizError(ErrorCode.NotFound);
      const ids = [...new Set(groupIds)];
      if ((await q.countGroups(db, ids)) !== ids.length) throw new BizError(ErrorCode.NotFound);
      await q.setGroupsOfUser(db, userId, ids);
      return ok(ids.sort((a, b) => a - b));
    },
  );
}
