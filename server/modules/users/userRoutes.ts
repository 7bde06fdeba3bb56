import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level, SUPER_USER_ID } from '../../../src/domain/levels';
import { addUserSchema, passwordChangeSchema, updateUserSchema } from '../../../src/domain/userSchemas';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, nameItem, pageOf, pageQuery, tokenQuery, userObject } from '../../http/schemas';
import { hashPassword } from '../../auth/password';
import { endSessionsOfUser } from '../../auth/sessions';
import { assertManageable, assertVisible, creatableLevels } from '../../auth/userScope';
import * as q from './userQueries';
import { Permission } from '../../../src/domain/permissionGroups';

const tags = ['users'];
const ADMIN_OR_ENTERPRISE = [Level.Admin, Level.Enterprise] as const;

/** User accounts (login and sessions: sessionRoutes.ts): the users module of docs/requirements.md §7 (docs/api.md, "users"). */
export async function userRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/getAll',
    {
      config: { levels: ADMIN_OR_ENTERPRISE, permission: Permission.viewUser },
      schema: {
        tags,
        summary: 'Users the caller may manage, paged (admin: all; enterprise: its sub-users)',
        querystring: {
          type: 'object',
          properties: {
            ...tokenQuery,
            ...pageQuery,
            name: { type: 'string', maxLength: 64 },
            permissionLevel: { type: 'string', enum: ['1', '2', '3'] },
            parentId: { type: 'integer' },
            sort: { type: 'string', enum: ['id', 'name', 'nickname', 'permissionLevel', 'createdAt'] },
            order: { type: 'string', enum: ['asc', 'desc'] },
          },
        },
        response: envelope(pageOf(userObject)),
      },
    },
    async (request) => ok(await q.listUsers(db, request.user, request.query)),
  );

  app.get(
    '/getUserSimpleInfo',
    { schema: { tags, summary: 'One visible user by id', querystring: idQuery, response: envelope(userObject) } },
    async (request) => {
      const { id } = request.query;
      return ok(assertVisible(request.user, await q.findUser(db, id)));
    },
  );

  app.post(
    '/addUser',
    {
      config: { levels: ADMIN_OR_ENTERPRISE, permission: Permission.addUser },
      schema: {
        tags,
        summary: 'Create a user (enterprise: only its own sub-users)',
        querystring: { type: 'object', properties: tokenQuery },
        body: { type: 'object' },
        response: envelope(userObject),
      },
    },
    async (request) => {
      const caller = request.user;
      const body = request.body;
      // An enterprise creates sub-users of its own, whatever parent the body names.
      const input = parseWith(addUserSchema, caller.permissionLevel === Level.Enterprise ? { ...body, parentId: caller.id } : body);
      if (!creatableLevels(caller).includes(input.permissionLevel as Level)) throw new BizError(ErrorCode.Forbidden);
      const parentId = input.permissionLevel === Level.SubUser ? input.parentId! : null;
      if (parentId !== null) {
        const parent = await q.findTarget(db, parentId);
        if (!parent || parent.permissionLevel !== Level.Enterprise)
          throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'parentId', message: 'validation.parentRequired' }]);
      }
      if (await q.nameTaken(db, input.name)) throw duplicateName();
      const id = await q.insertUser(db, {
        name: input.name,
        nickname: input.nickname ?? null,
        passwordHash: await hashPassword(input.password),
        permissionLevel: input.permissionLevel,
        parentId,
        department: input.department ?? null,
        sex: input.sex ?? null,
        email: input.email ?? null,
        signature: input.signature ?? null,
        company: input.company ?? null,
        userType: input.userType ?? null,
      });
      return ok(await q.findUser(db, id));
    },
  );

  app.post(
    '/updateUser',
    {
      // Editing one's own profile needs no group permission; editing another user needs edituser.
      config: { permission: (r) => ((r.body as { id?: unknown } | undefined)?.id === r.user.id ? null : Permission.editUser) },
      schema: {
        tags,
        summary: 'Edit a user: its own profile, or a user the caller manages',
        querystring: { type: 'object', properties: tokenQuery },
        body: { type: 'object' },
        response: envelope(userObject),
      },
    },
    async (request) => {
      const caller = request.user;
      const input = parseWith(updateUserSchema, request.body);
      const target = await q.findTarget(db, input.id);
      const self = target?.id === caller.id;
      if (self) assertVisible(caller, target);
      else assertManageable(caller, target);
      if (input.permissionLevel !== undefined && input.permissionLevel !== target!.permissionLevel) throw new BizError(ErrorCode.Forbidden);
      let parentId = target!.parentId;
      if (input.parentId !== undefined && input.parentId !== target!.parentId) {
        const parent = input.parentId === null ? undefined : await q.findTarget(db, input.parentId);
        if (caller.permissionLevel !== Level.Admin || target!.permissionLevel !== Level.SubUser) throw new BizError(ErrorCode.Forbidden);
        if (!parent || parent.permissionLevel !== Level.Enterprise)
          throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'parentId', message: 'validation.parentRequired' }]);
        parentId = parent.id;
      }
      if (input.name !== undefined && (await q.nameTaken(db, input.name, input.id))) throw duplicateName();
      const current = (await q.findUser(db, input.id))!;
      const sent = request.body;
      const next = <K extends keyof typeof input & keyof typeof current>(field: K) =>
        field in sent ? (input[field] ?? null) : current[field];
      await q.updateUserProfile(db, input.id, {
        name: next('name'),
        nickname: next('nickname'),
        department: next('department'),
        sex: next('sex'),
        email: next('email'),
        signature: next('signature'),
        company: next('company'),
        userType: next('userType'),
        parentId,
      });
      return ok(await q.findUser(db, input.id));
    },
  );

  app.delete(
    '/deleteUserById',
    {
      config: { levels: ADMIN_OR_ENTERPRISE, permission: Permission.deleteUser },
      schema: { tags, summary: 'Delete a user the caller manages', querystring: idQuery, response: envelope() },
    },
    async (request) => {
      const { id } = request.query;
      if (id === request.user.id) throw new BizError(ErrorCode.Forbidden, 'error.cannotDeleteSelf');
      if (id === SUPER_USER_ID) throw new BizError(ErrorCode.Forbidden, 'error.cannotDeleteSuperUser');
      assertManageable(request.user, await q.findTarget(db, id));
      if (!(await q.deleteUserWithSessions(db, id))) throw new BizError(ErrorCode.HasDependents);
      return ok(null);
    },
  );

  const passwordQuery = {
    type: 'object',
    required: ['id', 'password'],
    properties: { ...tokenQuery, id: { type: 'integer' }, password: { type: 'string' } },
  } as const;

  app.post(
    '/updatePassword',
    {
      config: { levels: ADMIN_OR_ENTERPRISE, permission: Permission.editUser },
      schema: { tags, summary: "Reset a managed user's password; ends its sessions", querystring: passwordQuery, response: envelope() },
    },
    async (request) => {
      const { id, password } = request.query;
      assertManageable(request.user, await q.findTarget(db, id));
      await setPassword(id, password);
      await endSessionsOfUser(db, id, 'replaced');
      return ok(null);
    },
  );

  app.post(
    '/updatePasswordSelf',
    { schema: { tags, summary: "Change the caller's own password", querystring: passwordQuery, response: envelope() } },
    async (request) => {
      const { id, password } = request.query;
      if (id !== request.user.id) throw new BizError(ErrorCode.Forbidden);
      await setPassword(id, password);
      return ok(null);
    },
  );

  async function setPassword(id: number, password: string) {
    const { password: valid } = parseWith(passwordChangeSchema, { password, repassword: password });
    await q.setPasswordHash(db, id, await hashPassword(valid));
  }

  const namesResponse = envelope({ type: 'array', items: nameItem });
  app.get(
    '/getSubEnterpriseUserNameList',
    {
      schema: {
        tags,
        summary: 'id and name of the visible sub-users',
        querystring: { type: 'object', properties: tokenQuery },
        response: namesResponse,
      },
    },
    async (request) => ok((await q.nameList(db, request.user, Level.SubUser)).list),
  );

  app.get(
    '/getEnterpriseUserNameList',
    {
      schema: {
        tags,
        summary: 'id and name of the visible enterprises',
        querystring: { type: 'object', properties: tokenQuery },
        response: namesResponse,
      },
    },
    async (request) => ok((await q.nameList(db, request.user, Level.Enterprise)).list),
  );

  app.get(
    '/getPageEnterpriseUserNameList',
    {
      schema: {
        tags,
        summary: 'Enterprises, paged, filtered by name',
        querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, name: { type: 'string', maxLength: 64 } } },
        response: envelope(pageOf(nameItem)),
      },
    },
    async (request) => {
      const { pageIndex, pageSize, name } = request.query;
      return ok(await q.nameList(db, request.user, Level.Enterprise, { name, limit: pageSize, offset: (pageIndex - 1) * pageSize }));
    },
  );

  app.get(
    '/getEnterpriseUserWithSubUserNameList',
    {
      schema: {
        tags,
        summary: 'Visible enterprises, each with its sub-users',
        querystring: { type: 'object', properties: tokenQuery },
        response: envelope({
          type: 'array',
          items: { type: 'object', properties: { ...nameItem.properties, children: { type: 'array', items: nameItem } } },
        }),
      },
    },
    async (request) => ok(await q.enterprisesWithSubUsers(db, request.user)),
  );
}

const duplicateName = () => new BizError(ErrorCode.Duplicate, 'error.duplicateName', [{ field: 'name', message: 'error.duplicateName' }]);
