import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { VirtualGroup, VIRTUAL_GROUP_KEYS } from '../../../src/domain/deviceKinds';
import { deviceGroupSchema, deviceIdsSchema, moveDevicesSchema, updateDeviceGroupSchema } from '../../../src/domain/deviceSchemas';
import { translateDomain } from '../../../src/domain/messages';
import { BizError, languageOf, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { DEVICE_EDITORS, assertAllVisible, ownerForWrite } from '../../auth/deviceScope';
import { groupObject, idListBody } from './deviceJsonSchemas';
import { visibleDeviceIds } from './deviceQueries';
import { loadOwners } from './ownerQueries';
import * as q from './groupQueries';

const tags = ['device groups'];
const noSuchGroup = () => new BizError(ErrorCode.NotFound, 'error.groupNotFound');
const duplicateName = () =>
  new BizError(ErrorCode.Duplicate, 'error.duplicateGroupName', [{ field: 'name', message: 'error.duplicateGroupName' }]);
const tokenOnly = { type: 'object', properties: tokenQuery } as const;

/**
 * deviceModule/deviceGroup: an enterprise's device groups, moving devices between them, and each
 * user's "Special Focus" pins. A device in no group is under the virtual "Ungrouped Device".
 */
export async function groupRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/deviceGroup/getAll',
    {
      schema: {
        tags,
        summary: "Visible groups, paged (admin: all; others: their enterprise's)",
        querystring: {
          type: 'object',
          properties: { ...tokenQuery, ...pageQuery, name: { type: 'string', maxLength: 32 }, ownerId: { type: 'integer' } },
        },
        response: envelope(pageOf(groupObject)),
      },
    },
    async (request) => ok(await q.listGroups(db, request.user, request.query)),
  );

  app.get(
    '/deviceGroup/getGroupList',
    {
      schema: {
        tags,
        summary: 'Special Focus (-1), Ungrouped Device (0), then every visible group, with device counts',
        querystring: tokenOnly,
        response: envelope({ type: 'array', items: groupObject }),
      },
    },
    async (request) => {
      const lang = languageOf(request);
      const counts = await q.virtualGroupCounts(db, request.user);
      const groups = await q.listGroups(db, request.user, { pageIndex: 1, pageSize: 10_000 });
      const virtual = (id: VirtualGroup, deviceCount: number) => ({
        id,
        name: translateDomain(lang, VIRTUAL_GROUP_KEYS[id]),
        ownerId: null,
        ownerName: null,
        deviceCount,
        virtual: true,
      });
      return ok([virtual(VirtualGroup.SpecialFocus, counts.pinned), virtual(VirtualGroup.Ungrouped, counts.ungrouped), ...groups.list]);
    },
  );

  app.get(
    '/deviceGroup/getById',
    { schema: { tags, summary: 'One visible group', querystring: idQuery, response: envelope(groupObject) } },
    async (request) => {
      const group = await q.findVisibleGroup(db, request.user, request.query.id);
      if (!group) throw noSuchGroup();
      return ok(group);
    },
  );

  app.post(
    '/deviceGroup/add',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Create a group (admin names the enterprise in ownerId)',
        querystring: tokenOnly,
        body: { type: 'object', properties: { name: { type: 'string' }, ownerId: { type: 'integer' } } },
        response: envelope(groupObject),
      },
    },
    async (request) => {
      const input = parseWith(deviceGroupSchema, request.body);
      const ownerId = ownerForWrite(request.user, input.ownerId);
      if (!ownerId || (await loadOwners(db, [ownerId])).get(ownerId)?.permissionLevel !== Level.Enterprise) {
        throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'ownerId', message: 'validation.ownerEnterprise' }]);
      }
      if (await q.groupNameTaken(db, ownerId, input.name)) throw duplicateName();
      const id = await q.insertGroup(db, ownerId, input.name);
      return ok(await q.findVisibleGroup(db, request.user, id));
    },
  );

  app.post(
    '/deviceGroup/update',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Rename a group',
        querystring: tokenOnly,
        body: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
        response: envelope(groupObject),
      },
    },
    async (request) => {
      const input = parseWith(updateDeviceGroupSchema, request.body);
      const group = await q.findVisibleGroup(db, request.user, input.id);
      if (!group) throw noSuchGroup();
      if (await q.groupNameTaken(db, group.ownerId!, input.name, group.id)) throw duplicateName();
      await q.renameGroup(db, group.id, input.name);
      return ok(await q.findVisibleGroup(db, request.user, group.id));
    },
  );

  app.delete(
    '/deviceGroup/deleteById',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Delete an empty group (a group holding devices is refused, code 11)',
        querystring: idQuery,
        response: envelope(),
      },
    },
    async (request) => {
      const group = await q.findVisibleGroup(db, request.user, request.query.id);
      if (!group) throw noSuchGroup();
      await db.transaction(async (tx) => {
        if (await q.groupHoldsDevices(tx, group.id)) throw new BizError(ErrorCode.HasDependents, 'error.groupNotEmpty');
        await q.deleteGroup(tx, group.id);
      });
      return ok(null);
    },
  );

  app.post(
    '/deviceGroup/moveDevices',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Move devices into a group of their owner (groupId 0: Ungrouped Device)',
        querystring: tokenOnly,
        body: { type: 'object', properties: { groupId: { type: ['integer', 'null'] }, deviceIds: idListBody.properties.deviceIds } },
        response: envelope(),
      },
    },
    async (request) => {
      const { groupId, deviceIds } = parseWith(moveDevicesSchema, request.body);
      assertAllVisible(deviceIds, await visibleDeviceIds(db, request.user, deviceIds));
      if (groupId !== VirtualGroup.Ungrouped) {
        const group = await q.findVisibleGroup(db, request.user, groupId);
        if (!group) throw noSuchGroup();
        if ((await q.devicesOfOtherOwners(db, deviceIds, group.ownerId!)).length)
          throw new BizError(ErrorCode.Forbidden, 'error.forbidden');
      }
      await q.moveDevices(db, groupId, deviceIds);
      return ok(null);
    },
  );

  app.post(
    '/deviceGroup/pin',
    {
      schema: {
        tags,
        summary: "Add devices to the caller's Special Focus",
        querystring: tokenOnly,
        body: idListBody,
        response: envelope(),
      },
    },
    async (request) => {
      const { deviceIds } = parseWith(deviceIdsSchema, request.body);
      assertAllVisible(deviceIds, await visibleDeviceIds(db, request.user, deviceIds));
      await q.pinDevices(db, request.user.id, deviceIds);
      return ok(null);
    },
  );

  app.post(
    '/deviceGroup/unpin',
    {
      schema: {
        tags,
        summary: "Remove devices from the caller's Special Focus",
        querystring: tokenOnly,
        body: idListBody,
        response: envelope(),
      },
    },
    async (request) => {
      const { deviceIds } = parseWith(deviceIdsSchema, request.body);
      await q.unpinDevices(db, request.user.id, deviceIds);
      return ok(null);
    },
  );
}
