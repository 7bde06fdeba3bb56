import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { dm, validDevice } from './deviceFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';
import { PERMISSION_MODULES, PERMISSION_NAMES } from '../../src/domain/permissionGroups';

const sp = (s: TestServer, path: string) => `${s.base}/supportModule/${path}`;

describe.each(engines)('supportModule permission groups on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'polaris']));
  });
  afterAll(() => s.close());
  const post = (who: string, path: string, payload: unknown, lang?: 'zh' | 'en') =>
    s.call({ method: 'POST', url: sp(s, path), token: tokens[who], payload: payload as object, lang });
  const get = (who: string, path: string, lang?: 'zh' | 'en') => s.call({ url: sp(s, path), token: tokens[who], lang });
  const group = async (name: string, permissions: string[]) =>
    (await post('admin', 'permissionGroup/add', { name, permissions })).data.id as number;

  it('has the modules and actions of docs/requirements.md §3: audit only for six modules, download/upload only for file coding number', async () => {
    const catalogue = (await get('oceanops', 'permissionGroup/getCatalogue')).data;
    expect(catalogue.modules).toHaveLength(12);
    const withAudit = PERMISSION_MODULES.filter((m) => m.actions.includes('audit')).map((m) => m.key);
    expect(withAudit).toEqual(['ppid', 'product', 'workorder', 'techsupport', 'macorder', 'filecodingnumber']);
    expect(PERMISSION_NAMES.filter((p) => p.startsWith('download') || p.startsWith('upload'))).toEqual([
      'downloadfilecodingnumber',
      'uploadfilecodingnumber',
    ]);
    expect(PERMISSION_NAMES).toContain('viewuser');
    expect(PERMISSION_NAMES).toContain('addmachine');
    expect(PERMISSION_NAMES).not.toContain('audituser');
  });

  it('lets admins define groups (only valid permissions, unique names) and refuses levels 2 and 3', async () => {
    const bad = await post('admin', 'permissionGroup/add', { name: '', permissions: ['audituser'] }, 'en');
    expect(bad.code).toBe(ErrorCode.Validation);
    expect(bad.data.map((e: { field: string }) => e.field)).toEqual(['name', 'permissions[0]']);
    const id = await group('Viewers', ['viewmachine', 'viewuser']);
    expect(await post('admin', 'permissionGroup/add', { name: 'viewers', permissions: [] }, 'en')).toMatchObject({
      code: ErrorCode.Duplicate,
      msg: 'A permission group with this name already exists',
    });
    const upd = await post('admin', 'permissionGroup/update', {
      id,
      name: 'Viewers',
      permissions: ['viewuser', 'viewmachine', 'editmachine'],
    });
    expect(upd.data.permissions).toEqual(['viewuser', 'viewmachine', 'editmachine']);
    for (const who of ['oceanic', 'oceanops']) {
      expect((await post(who, 'permissionGroup/add', { name: 'Mine', permissions: [] })).code).toBe(ErrorCode.Forbidden);
      expect((await get(who, 'permissionGroup/getAll')).code).toBe(ErrorCode.Forbidden);
      expect((await post(who, 'permissionGroup/setUserGroups', { userId: ids[who], groupIds: [] })).code).toBe(ErrorCode.Forbidden);
    }
    expect((await post('admin', 'permissionGroup/setUserGroups', { userId: 1, groupIds: [id] })).code).toBe(ErrorCode.Forbidden);
    expect((await post('admin', 'permissionGroup/setUserGroups', { userId: ids.polaris, groupIds: [999999] })).code).toBe(
      ErrorCode.NotFound,
    );
  });

  it('enforces groups on the machine module: a level-2 user in a group without addmachine is refused device/add', async () => {
    const before = await s.call({ method: 'POST', url: dm(s, 'device/add'), token: tokens.oceanic, payload: validDevice(ids.oceanic!) });
    expect(before.code).toBe(0); // no group: the level's defaults
    const viewOnly = await group('Machine viewers', ['viewmachine', 'viewuser']);
    expect((await post('admin', 'permissionGroup/setUserGroups', { userId: ids.oceanic, groupIds: [viewOnly] })).data).toEqual([viewOnly]);
    const count = async () =>
      (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices WHERE owner_id = $1', [ids.oceanic]))[0]!.n;
    const n = await count();
    const refused = await s.call({
      method: 'POST',
      url: dm(s, 'device/add'),
      token: tokens.oceanic,
      payload: validDevice(ids.oceanic!),
      lang: 'en',
    });
    expect(refused).toMatchObject({
      code: ErrorCode.PermissionDenied,
      msg: 'Your permission groups do not allow this (addmachine)',
      data: { permission: 'addmachine' },
    });
    expect(await count()).toBe(n);
    expect(
      (
        await s.call({
          method: 'POST',
          url: dm(s, 'device/update'),
          token: tokens.oceanic,
          payload: { ...validDevice(ids.oceanic!), id: before.data.id },
        })
      ).code,
    ).toBe(ErrorCode.PermissionDenied);
    expect((await s.call({ method: 'DELETE', url: dm(s, `device/deleteById?id=${before.data.id}`), token: tokens.oceanic })).code).toBe(
      ErrorCode.PermissionDenied,
    );
    expect((await s.call({ url: dm(s, 'device/getAll'), token: tokens.oceanic })).code).toBe(0);
    expect((await get('oceanic', 'permissionGroup/getMine')).data).toEqual({ restricted: true, permissions: ['viewuser', 'viewmachine'] });
    // A second group adds its permissions to the first.
    const adders = await group('Machine adders', ['addmachine']);
    await post('admin', 'permissionGroup/setUserGroups', { userId: ids.oceanic, groupIds: [viewOnly, adders] });
    expect(
      (await s.call({ method: 'POST', url: dm(s, 'device/add'), token: tokens.oceanic, payload: validDevice(ids.oceanic!) })).code,
    ).toBe(0);
    // Groups never widen a level: a sub-user granted addmachine is still refused by its level.
    await post('admin', 'permissionGroup/setUserGroups', { userId: ids.oceanops, groupIds: [adders] });
    expect(
      (await s.call({ method: 'POST', url: dm(s, 'device/add'), token: tokens.oceanops, payload: validDevice(ids.oceanic!) })).code,
    ).toBe(ErrorCode.Forbidden);
    // An empty list restores the level's defaults.
    await post('admin', 'permissionGroup/setUserGroups', { userId: ids.oceanic, groupIds: [] });
    expect((await get('oceanic', 'permissionGroup/getMine')).data).toEqual({ restricted: false, permissions: [] });
  });

  it('enforces groups on the user module: a level-2 user in a group without viewuser is refused users/getAll; its own profile stays editable', async () => {
    const machinesOnly = await group('Machines only', ['viewmachine', 'addmachine', 'editmachine', 'deletemachine']);
    await post('admin', 'permissionGroup/setUserGroups', { userId: ids.polaris, groupIds: [machinesOnly] });
    const refused = await s.call({ url: `${s.base}/users/getAll`, token: tokens.polaris, lang: 'zh' });
    expect(refused).toMatchObject({ code: ErrorCode.PermissionDenied, msg: '您所在的权限组不允许此操作（viewuser）' });
    expect(
      (
        await s.call({
          method: 'POST',
          url: `${s.base}/users/addUser`,
          token: tokens.polaris,
          payload: { name: 'polarisnew', password: 'secret1', repassword: 'secret1', permissionLevel: '3' },
        })
      ).code,
    ).toBe(ErrorCode.PermissionDenied);
    const self = await s.call({
      method: 'POST',
      url: `${s.base}/users/updateUser`,
      token: tokens.polaris,
      payload: { id: ids.polaris, nickname: 'Polaris M.' },
    });
    expect(self.code).toBe(0);
    expect(
      (
        await s.call({
          method: 'POST',
          url: `${s.base}/users/updateUser`,
          token: tokens.polaris,
          payload: { id: ids.polarisops, nickname: 'x' },
        })
      ).code,
    ).toBe(ErrorCode.PermissionDenied);
    // Deleting the group frees its members.
    expect(
      (await s.call({ method: 'DELETE', url: sp(s, `permissionGroup/deleteById?id=${machinesOnly}`), token: tokens.admin })).code,
    ).toBe(0);
    expect((await s.call({ url: `${s.base}/users/getAll`, token: tokens.polaris })).code).toBe(0);
  });

  it('lists groups with their members', async () => {
    const id = await group('Listed group', ['viewuser']);
    await post('admin', 'permissionGroup/setUserGroups', { userId: ids.oceanops, groupIds: [id] });
    const list = (await get('admin', 'permissionGroup/getAll?name=Listed')).data;
    expect(list).toMatchObject({
      total: 1,
      list: [{ id, name: 'Listed group', permissions: ['viewuser'], members: [{ id: ids.oceanops, name: 'oceanops' }] }],
    });
    expect((await get('admin', `permissionGroup/getUserGroups?userId=${ids.oceanops}`)).data).toEqual([id]);
  });
});
