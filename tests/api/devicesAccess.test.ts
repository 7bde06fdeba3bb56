import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { dm, validDevice } from './deviceFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';
import { Feature } from '../../src/domain/features';
import { BizError } from '../../server/http/envelope';
import { assertFeatureUnlocked } from '../../server/modules/devices';
import { hashDeviceSecret } from '../../server/auth/deviceCredentials';

describe.each(engines)('deviceModule activation, device authorization and sub-user grants on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'oceanbridge', 'polaris', 'polarisops']));
  });
  afterAll(() => s.close());
  const post = (who: string, path: string, payload: unknown, lang?: 'zh' | 'en') =>
    s.call({ method: 'POST', url: dm(s, path), token: tokens[who], payload: payload as object, lang });
  const get = (who: string, path: string, lang?: 'zh' | 'en') => s.call({ url: dm(s, path), token: tokens[who], lang });
  const user = (name: string) => ({
    id: ids[name]!,
    permissionLevel: ({ admin: '1', oceanic: '2', polaris: '2' } as Record<string, '1' | '2'>)[name] ?? ('3' as const),
    parentId: name === 'oceanops' || name === 'oceanbridge' ? ids.oceanic! : name === 'polarisops' ? ids.polaris! : null,
  });

  describe('activation (level 1)', () => {
    it('finds by deviceNum or SN, activates for an owner recording who and when, returns the secret once, deactivates', async () => {
      const device = (await post('admin', 'device/add', validDevice(ids.oceanic!))).data;
      expect((await get('admin', `activation/find?key=${device.deviceNum}`)).data.id).toBe(device.id);
      expect((await get('admin', `activation/find?key=${device.deviceSn}`)).data.id).toBe(device.id);
      expect((await get('admin', 'activation/find?key=NOPE0000')).code).toBe(ErrorCode.NotFound);
      const res = await post('admin', 'activation/activate', { id: device.id, ownerId: ids.polaris, ownerSubId: ids.polarisops });
      expect(res.code).toBe(0);
      expect(res.data.device).toMatchObject({ activated: true, activatedBy: ids.admin, ownerId: ids.polaris, ownerSubId: ids.polarisops });
      expect(Date.now() - new Date(res.data.device.activatedAt).getTime()).toBeLessThan(60_000);
      expect(res.data.secret).toMatch(/^[\w-]{43}$/);
      const [stored] = await s.db.query<{ secret_hash: string }>('SELECT secret_hash FROM devices WHERE id = $1', [device.id]);
      expect(stored!.secret_hash).toBe(hashDeviceSecret(res.data.secret));
      expect(JSON.stringify((await get('admin', `device/getById?id=${device.id}`)).data)).not.toContain(stored!.secret_hash);
      expect(await post('admin', 'activation/activate', { id: device.id, ownerId: ids.polaris }, 'en')).toMatchObject({
        code: ErrorCode.BadRequest,
        msg: 'This device is already activated',
      });
      expect((await get('admin', 'device/getAll?activated=true&pageSize=500')).data.list.map((d: { id: number }) => d.id)).toContain(
        device.id,
      );
      const off = await s.call({ method: 'POST', url: dm(s, `activation/deactivate?id=${device.id}`), token: tokens.admin });
      expect(off.data).toMatchObject({ activated: false, activatedAt: null });
      expect(
        (await s.db.query<{ secret_hash: string | null }>('SELECT secret_hash FROM devices WHERE id = $1', [device.id]))[0]!.secret_hash,
      ).toBeNull();
      expect(
        (await s.call({ method: 'POST', url: dm(s, `activation/deactivate?id=${device.id}`), token: tokens.admin, lang: 'en' })).msg,
      ).toBe('This device is not activated');
    });

    it('checks the owner and refuses levels 2 and 3', async () => {
      const device = (await post('admin', 'device/add', validDevice(ids.oceanic!))).data;
      expect((await post('admin', 'activation/activate', { id: device.id, ownerId: ids.oceanops }, 'en')).data).toEqual([
        { field: 'ownerId', message: 'The owner must be an enterprise user' },
      ]);
      expect((await post('admin', 'activation/activate', { id: 999999, ownerId: ids.oceanic })).code).toBe(ErrorCode.NotFound);
      for (const who of ['oceanic', 'oceanops']) {
        expect((await get(who, `activation/find?key=${device.deviceSn}`)).code).toBe(ErrorCode.Forbidden);
        expect((await post(who, 'activation/activate', { id: device.id, ownerId: ids.oceanic })).code).toBe(ErrorCode.Forbidden);
      }
    });
  });

  describe('device authorization (level 1)', () => {
    it('manages grants and locks a feature with the service-provider message', async () => {
      const [device] = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 ORDER BY id DESC LIMIT 1', [
        ids.polaris,
      ]);
      const check = (who: string, lang: 'zh' | 'en') => get(who, `deviceAuth/checkFeature?id=${device!.id}&feature=camera`, lang);
      expect(await check('polaris', 'en')).toMatchObject({
        code: ErrorCode.Forbidden,
        msg: 'Please contact your service provider to unlock it',
      });
      expect(await check('polaris', 'zh')).toMatchObject({ code: ErrorCode.Forbidden, msg: '请联系您的服务商解锁此功能' });
      expect((await check('admin', 'en')).code).toBe(0);
      const grant = await post('admin', 'deviceAuth/add', {
        enterpriseId: ids.polaris,
        deviceId: device!.id,
        feature: 'camera',
        deviceCount: 1,
        subscriptionQuantity: 3,
        deadline: '2099-01-01',
      });
      expect(grant).toMatchObject({
        code: 0,
        data: { enterpriseName: 'polaris', deviceId: device!.id, feature: 'camera', deadline: '2099-01-01' },
      });
      expect((await check('polaris', 'en')).code).toBe(0);
      expect((await get('polaris', `deviceAuth/getDeviceFeatures?id=${device!.id}`)).data).toEqual({
        trackHistory: true,
        camera: true,
        statistics: true,
        iotData: false,
      });
      expect((await post('admin', 'deviceAuth/add', { enterpriseId: ids.polaris, deviceId: device!.id, feature: 'camera' })).code).toBe(
        ErrorCode.Duplicate,
      );
      expect(
        (
          await post('admin', 'deviceAuth/update', {
            id: grant.data.id,
            enterpriseId: ids.polaris,
            deviceId: device!.id,
            feature: 'camera',
            deadline: '2000-01-01',
          })
        ).code,
      ).toBe(0);
      expect((await check('polaris', 'en')).code).toBe(ErrorCode.Forbidden);
      expect((await s.call({ method: 'DELETE', url: dm(s, `deviceAuth/deleteById?id=${grant.data.id}`), token: tokens.admin })).code).toBe(
        0,
      );
      expect((await get('admin', `deviceAuth/getById?id=${grant.data.id}`)).code).toBe(ErrorCode.NotFound);
    });

    it('validates grants and keeps them to level 1', async () => {
      expect((await post('admin', 'deviceAuth/add', { enterpriseId: ids.polaris, feature: 'radar' }, 'en')).data).toEqual([
        { field: 'feature', message: 'The feature must be track history, camera, statistics or IoT data' },
      ]);
      expect((await post('admin', 'deviceAuth/add', { enterpriseId: ids.oceanops, feature: 'camera' })).code).toBe(ErrorCode.Validation);
      const [oceanicDevice] = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 LIMIT 1', [ids.oceanic]);
      expect(
        (await post('admin', 'deviceAuth/add', { enterpriseId: ids.polaris, deviceId: oceanicDevice!.id, feature: 'camera' })).code,
      ).toBe(ErrorCode.Validation);
      expect(
        (await post('admin', 'deviceAuth/add', { enterpriseId: ids.polaris, feature: 'camera', deadline: '2024-13-01' }, 'en')).data,
      ).toEqual([{ field: 'deadline', message: 'The date must look like YYYY-MM-DD' }]);
      const list = await get('admin', `deviceAuth/getAll?enterpriseId=${ids.oceanic}`);
      expect(list.data.total).toBe(4);
      for (const who of ['oceanic', 'oceanops']) expect((await get(who, 'deviceAuth/getAll')).code).toBe(ErrorCode.Forbidden);
      expect((await post('polaris', 'deviceAuth/add', { enterpriseId: ids.polaris, feature: 'camera' })).code).toBe(ErrorCode.Forbidden);
    });

    it('gives later modules assertFeatureUnlocked: not found for a hidden device, the lock message for a locked feature', async () => {
      const [polarisDevice] = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 ORDER BY id DESC LIMIT 1', [
        ids.polaris,
      ]);
      const refusal = async (p: Promise<void>) =>
        p.then(
          () => null,
          (e: BizError) => [e.code, e.msgKey],
        );
      expect(await refusal(assertFeatureUnlocked(s.db, user('polaris'), polarisDevice!.id, Feature.IotData))).toEqual([
        ErrorCode.Forbidden,
        'error.featureLocked',
      ]);
      expect(await refusal(assertFeatureUnlocked(s.db, user('polaris'), polarisDevice!.id, Feature.TrackHistory))).toBeNull();
      expect(await refusal(assertFeatureUnlocked(s.db, user('oceanic'), polarisDevice!.id, Feature.TrackHistory))).toEqual([
        ErrorCode.NotFound,
        'error.deviceNotFound',
      ]);
      expect(await refusal(assertFeatureUnlocked(s.db, user('admin'), polarisDevice!.id, Feature.IotData))).toBeNull();
    });
  });

  describe('sub-user vessel grants', () => {
    it('lets an enterprise choose which of its vessels a sub-user sees', async () => {
      const own = (
        await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 AND owner_sub_id IS NULL ORDER BY id', [ids.oceanic])
      ).map((r) => r.id);
      const chosen = own.slice(0, 3);
      expect(await post('oceanic', 'subUserGrant/set', { subUserId: ids.oceanbridge, deviceIds: chosen })).toMatchObject({
        code: 0,
        data: { granted: 3 },
      });
      expect((await get('oceanic', `subUserGrant/getDeviceIds?subUserId=${ids.oceanbridge}`)).data).toEqual(chosen);
      const seen = (await get('oceanbridge', 'device/getAll?pageSize=500')).data.list.map((d: { id: number }) => d.id);
      expect(seen).toEqual(chosen);
      expect((await post('oceanic', 'subUserGrant/set', { subUserId: ids.oceanbridge, deviceIds: [own[5]] })).code).toBe(0);
      expect((await get('oceanbridge', 'device/getAll')).data.list.map((d: { id: number }) => d.id)).toEqual([own[5]]);
      expect((await get('oceanbridge', `device/getById?id=${chosen[0]}`)).code).toBe(ErrorCode.NotFound);
      const page = await get('oceanic', 'subUserGrant/getAll?pageSize=100');
      expect(page.data.list.every((g: { subUserName: string }) => ['oceanops', 'oceanbridge'].includes(g.subUserName))).toBe(true);
    });

    it("refuses another enterprise's sub-users and devices, and sub-users themselves", async () => {
      const [polarisDevice] = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 LIMIT 1', [ids.polaris]);
      const [oceanicDevice] = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 LIMIT 1', [ids.oceanic]);
      expect((await post('oceanic', 'subUserGrant/set', { subUserId: ids.polarisops, deviceIds: [oceanicDevice!.id] })).code).toBe(
        ErrorCode.NotFound,
      );
      expect((await post('oceanic', 'subUserGrant/set', { subUserId: ids.oceanops, deviceIds: [polarisDevice!.id] })).code).toBe(
        ErrorCode.NotFound,
      );
      expect((await get('oceanic', `subUserGrant/getDeviceIds?subUserId=${ids.polarisops}`)).code).toBe(ErrorCode.NotFound);
      expect((await post('oceanops', 'subUserGrant/set', { subUserId: ids.oceanops, deviceIds: [oceanicDevice!.id] })).code).toBe(
        ErrorCode.Forbidden,
      );
      expect((await post('admin', 'subUserGrant/set', { subUserId: ids.polarisops, deviceIds: [polarisDevice!.id] })).code).toBe(0);
      expect((await get('polarisops', 'device/getAll')).data.list.map((d: { id: number }) => d.id)).toContain(polarisDevice!.id);
    });
  });

  it('answers every deviceModule endpoint without a token with code 4', async () => {
    for (const path of [
      'device/getAll',
      'deviceGroup/getGroupList',
      'activation/find?key=x',
      'deviceAuth/getAll',
      'subUserGrant/getAll',
      'device/export',
    ]) {
      expect((await s.call({ url: dm(s, path) })).code).toBe(ErrorCode.TokenMissing);
    }
  });
});
