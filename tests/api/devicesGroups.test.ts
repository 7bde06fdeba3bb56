import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { dm, validDevice } from './deviceFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';

describe.each(engines)('deviceModule groups on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'polaris', 'polarisops']));
  });
  afterAll(() => s.close());
  const post = (who: string, path: string, payload: unknown, lang?: 'zh' | 'en') =>
    s.call({ method: 'POST', url: dm(s, path), token: tokens[who], payload: payload as object, lang });
  const get = (who: string, path: string, lang?: 'zh' | 'en') => s.call({ url: dm(s, path), token: tokens[who], lang });
  const del = (who: string, id: number, lang?: 'zh' | 'en') =>
    s.call({ method: 'DELETE', url: dm(s, `deviceGroup/deleteById?id=${id}`), token: tokens[who], lang });
  const devicesOf = async (owner: string) =>
    (await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 ORDER BY id', [ids[owner]])).map((r) => r.id);

  it('creates, renames, lists and deletes an empty group', async () => {
    const created = await post('oceanic', 'deviceGroup/add', { name: 'Reefers' });
    expect(created).toMatchObject({ code: 0, data: { name: 'Reefers', ownerId: ids.oceanic, deviceCount: 0, virtual: false } });
    const renamed = await post('oceanic', 'deviceGroup/update', { id: created.data.id, name: 'Reefer Fleet' });
    expect(renamed.data.name).toBe('Reefer Fleet');
    const page = await get('oceanic', 'deviceGroup/getAll?pageSize=100');
    expect(page.data.list.map((g: { name: string }) => g.name)).toContain('Reefer Fleet');
    expect(page.data.list.every((g: { ownerId: number }) => g.ownerId === ids.oceanic)).toBe(true);
    expect((await del('oceanic', created.data.id)).code).toBe(0);
    expect((await get('oceanic', `deviceGroup/getById?id=${created.data.id}`)).code).toBe(ErrorCode.NotFound);
  });

  it('lets an admin create a group for an enterprise it names', async () => {
    const res = await post('admin', 'deviceGroup/add', { name: 'Admin made', ownerId: ids.polaris });
    expect(res).toMatchObject({ code: 0, data: { ownerId: ids.polaris, ownerName: 'polaris' } });
    expect((await post('admin', 'deviceGroup/add', { name: 'No owner' }, 'en')).data).toEqual([
      { field: 'ownerId', message: 'The owner must be an enterprise user' },
    ]);
  });

  it('requires a name and refuses the reserved names in both languages', async () => {
    expect((await post('oceanic', 'deviceGroup/add', { name: '  ' }, 'zh')).data).toEqual([{ field: 'name', message: '必填项' }]);
    expect((await post('oceanic', 'deviceGroup/add', {}, 'en')).data).toEqual([{ field: 'name', message: 'required' }]);
    for (const name of ['Special Focus', 'Ungrouped Device', '特别关注', '未分组设备', 'my special focus list', '我的特别关注']) {
      const zh = await post('oceanic', 'deviceGroup/add', { name }, 'zh');
      expect(zh).toMatchObject({
        code: ErrorCode.Validation,
        data: [{ field: 'name', message: '分组名称不能包含“特别关注”或“未分组设备”' }],
      });
      const en = await post('oceanic', 'deviceGroup/add', { name }, 'en');
      expect(en.data).toEqual([{ field: 'name', message: 'The group name must not contain "Special Focus" or "Ungrouped Device"' }]);
    }
    const [group] = await s.db.query<{ id: number }>('SELECT id FROM device_groups WHERE owner_id = $1 LIMIT 1', [ids.oceanic]);
    expect((await post('oceanic', 'deviceGroup/update', { id: group!.id, name: 'Ungrouped Device' })).code).toBe(ErrorCode.Validation);
  });

  it('refuses a duplicate name within an enterprise, not across enterprises', async () => {
    expect((await post('oceanic', 'deviceGroup/add', { name: 'Tugs' })).code).toBe(0);
    expect(await post('oceanic', 'deviceGroup/add', { name: 'tugs' }, 'en')).toMatchObject({
      code: ErrorCode.Duplicate,
      msg: 'A group with this name already exists',
    });
    expect((await post('polaris', 'deviceGroup/add', { name: 'Tugs' })).code).toBe(0);
  });

  it('refuses to delete a group that holds devices, with the catalogue message', async () => {
    const group = (await post('oceanic', 'deviceGroup/add', { name: 'Holding' })).data;
    const [device] = await devicesOf('oceanic');
    expect((await post('oceanic', 'deviceGroup/moveDevices', { groupId: group.id, deviceIds: [device] })).code).toBe(0);
    expect(await del('oceanic', group.id, 'zh')).toMatchObject({ code: ErrorCode.HasDependents, msg: '该分组下还有设备，不能删除' });
    expect(await del('oceanic', group.id, 'en')).toMatchObject({
      code: ErrorCode.HasDependents,
      msg: 'This group still holds devices and cannot be deleted',
    });
    expect((await post('oceanic', 'deviceGroup/moveDevices', { groupId: 0, deviceIds: [device] })).code).toBe(0);
    expect((await del('oceanic', group.id)).code).toBe(0);
  });

  it("answers 'no such a group' for a missing or foreign group", async () => {
    const [foreign] = await s.db.query<{ id: number }>('SELECT id FROM device_groups WHERE owner_id = $1 LIMIT 1', [ids.oceanic]);
    expect(await del('polaris', foreign!.id, 'en')).toMatchObject({ code: ErrorCode.NotFound, msg: 'No such a group' });
    expect(await get('polaris', `deviceGroup/getById?id=${foreign!.id}`, 'zh')).toMatchObject({
      code: ErrorCode.NotFound,
      msg: '没有这个分组',
    });
    expect((await post('polaris', 'deviceGroup/update', { id: foreign!.id, name: 'Mine now' })).code).toBe(ErrorCode.NotFound);
    expect((await del('admin', 999999)).code).toBe(ErrorCode.NotFound);
  });

  it('moves devices between groups and to Ungrouped Device, only devices of the group owner', async () => {
    const a = (await post('polaris', 'deviceGroup/add', { name: 'A' })).data;
    const b = (await post('polaris', 'deviceGroup/add', { name: 'B' })).data;
    const mine = (await devicesOf('polaris')).slice(-2);
    expect((await post('polaris', 'deviceGroup/moveDevices', { groupId: a.id, deviceIds: mine })).code).toBe(0);
    expect((await get('polaris', `deviceGroup/getById?id=${a.id}`)).data.deviceCount).toBe(2);
    expect((await post('polaris', 'deviceGroup/moveDevices', { groupId: b.id, deviceIds: [mine[0]] })).code).toBe(0);
    const inB = await get('polaris', `device/getAll?groupId=${b.id}`);
    expect(inB.data.list.map((d: { id: number; groupName: string }) => [d.id, d.groupName])).toEqual([[mine[0], 'B']]);
    expect((await post('polaris', 'deviceGroup/moveDevices', { groupId: 0, deviceIds: mine })).code).toBe(0);
    const ungrouped = await get('polaris', 'device/getAll?groupId=0&pageSize=500');
    expect(ungrouped.data.list.map((d: { id: number }) => d.id)).toEqual(expect.arrayContaining(mine));
    expect(ungrouped.data.list.every((d: { groupId: number | null }) => d.groupId === null)).toBe(true);
    const [oceanicDevice] = await devicesOf('oceanic');
    expect((await post('polaris', 'deviceGroup/moveDevices', { groupId: a.id, deviceIds: [oceanicDevice] })).code).toBe(ErrorCode.NotFound);
    expect((await post('admin', 'deviceGroup/moveDevices', { groupId: a.id, deviceIds: [oceanicDevice] })).code).toBe(ErrorCode.Forbidden);
    expect((await post('polaris', 'deviceGroup/moveDevices', { groupId: 999999, deviceIds: mine })).code).toBe(ErrorCode.NotFound);
    expect((await post('polarisops', 'deviceGroup/moveDevices', { groupId: 0, deviceIds: mine })).code).toBe(ErrorCode.Forbidden);
  });

  it("pins and unpins Special Focus per user, and lists the virtual groups first in the caller's language", async () => {
    const visible = (await get('oceanops', 'device/getAll?pageSize=500')).data.list.map((d: { id: number }) => d.id);
    expect((await post('oceanops', 'deviceGroup/pin', { deviceIds: visible.slice(0, 2) })).code).toBe(0);
    const focus = await get('oceanops', 'device/getAll?groupId=-1');
    expect(focus.data.list.map((d: { id: number }) => d.id)).toEqual(visible.slice(0, 2));
    expect(focus.data.list.every((d: { pinned: boolean }) => d.pinned)).toBe(true);
    const tree = await get('oceanops', 'deviceGroup/getGroupList', 'en');
    expect(tree.data.slice(0, 2)).toEqual([
      { id: -1, name: 'Special Focus', ownerId: null, ownerName: null, deviceCount: 2, virtual: true },
      expect.objectContaining({ id: 0, name: 'Ungrouped Device', virtual: true }),
    ]);
    expect((await get('oceanops', 'deviceGroup/getGroupList', 'zh')).data[0].name).toBe('特别关注');
    const groupsSeen = tree.data.filter((g: { virtual: boolean }) => !g.virtual);
    expect(groupsSeen.every((g: { ownerId: number }) => g.ownerId === ids.oceanic)).toBe(true);
    const visibleCount = groupsSeen.reduce((n: number, g: { deviceCount: number }) => n + g.deviceCount, 0) + tree.data[1].deviceCount;
    expect(visibleCount).toBe(visible.length);
    expect((await post('oceanops', 'deviceGroup/unpin', { deviceIds: [visible[0]] })).code).toBe(0);
    expect((await get('oceanops', 'device/getAll?groupId=-1')).data.total).toBe(1);
    const [hidden] = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 ORDER BY id LIMIT 1', [ids.polaris]);
    expect((await post('oceanops', 'deviceGroup/pin', { deviceIds: [hidden!.id] })).code).toBe(ErrorCode.NotFound);
    expect((await post('oceanops', 'deviceGroup/pin', { deviceIds: [] }, 'en')).data).toEqual([
      { field: 'deviceIds', message: 'required' },
    ]);
  });

  it('lets a sub-user read its enterprise groups but not change them', async () => {
    const res = await get('oceanops', 'deviceGroup/getAll');
    expect(res.code).toBe(0);
    expect(res.data.list.every((g: { ownerId: number }) => g.ownerId === ids.oceanic)).toBe(true);
    expect((await post('oceanops', 'deviceGroup/add', { name: 'Mine' })).code).toBe(ErrorCode.Forbidden);
    expect((await del('oceanops', res.data.list[0].id)).code).toBe(ErrorCode.Forbidden);
  });

  it('drops a device from its old enterprise group when an admin gives it to another enterprise', async () => {
    const group = (await post('oceanic', 'deviceGroup/add', { name: 'Transfer' })).data;
    const device = (await post('admin', 'device/add', validDevice(ids.oceanic!))).data;
    await post('oceanic', 'deviceGroup/moveDevices', { groupId: group.id, deviceIds: [device.id] });
    await post('oceanic', 'deviceGroup/pin', { deviceIds: [device.id] });
    const moved = await post('admin', 'device/update', { ...validDevice(ids.polaris!), id: device.id, deviceSn: device.deviceSn });
    expect(moved).toMatchObject({ code: 0, data: { ownerId: ids.polaris, groupId: null } });
    expect((await s.db.query('SELECT 1 FROM device_pins WHERE device_id = $1', [device.id])).length).toBe(0);
    expect((await del('oceanic', group.id)).code).toBe(0);
  });
});
