import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, describeSecondServer, engines, idOf, type Engine, type TestServer } from './helpers';
import { ingest, report, reportingDevice } from './monitoringFixtures';
import { validDevice } from './deviceFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';
import { hashDeviceSecret } from '../../server/auth/deviceCredentials';

/**
 * Reports are checked against the server's cache of device credentials (server/auth/deviceCache.ts),
 * which never answers from a stale row: a deactivation, a new secret, a deleted device or a device
 * added under a number that was refused is seen by the very next report, on this server and
 * (PostgreSQL) on a second server on the same database. Each case first reports so that the
 * device is cached, then changes it.
 */
describe.each(engines)('device credential cache on %s', (engine: Engine) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await createTestServer(engine);
    admin = await s.login('admin');
  });
  afterAll(() => s.close());
  const dm = (server: TestServer, path: string) => `${server.base}/deviceModule/${path}`;
  const send = async (server: TestServer, num: string, secret?: string) => (await ingest(server, num, report(), secret)).code;

  it('refuses the old secret right after a deactivation and an activation with a new one', async () => {
    const device = await reportingDevice(s.db, 'oceanic', 3);
    for (let i = 0; i < 3; i++) expect(await send(s, device.num)).toBe(0);
    expect((await s.call({ method: 'POST', url: `${dm(s, 'activation/deactivate')}?id=${device.id}`, token: admin })).code).toBe(0);
    // Unactivated: accepted without a secret (and marked), whatever secret is sent.
    const unactivated = await ingest(s, device.num, report());
    expect(unactivated.code).toBe(0);
    expect(unactivated.data.unactivated).toBe(true);
    const activated = await s.call({
      method: 'POST',
      url: dm(s, 'activation/activate'),
      token: admin,
      payload: { id: device.id, ownerId: await idOf(s.db, 'oceanic') },
    });
    expect(activated.code).toBe(0);
    expect(await send(s, device.num)).toBe(ErrorCode.DeviceAuthFailed);
    const fresh = await ingest(s, device.num, report(), activated.data.secret);
    expect(fresh.code).toBe(0);
    expect(fresh.data.unactivated).toBe(false);
  });

  it('sees a secret changed by hand-typed SQL at once', async () => {
    const device = await reportingDevice(s.db, 'oceanic', 4);
    expect(await send(s, device.num)).toBe(0);
    await s.db.query('UPDATE devices SET secret_hash = $2 WHERE id = $1', [device.id, hashDeviceSecret('another-secret')]);
    expect(await send(s, device.num)).toBe(ErrorCode.DeviceAuthFailed);
    expect(await send(s, device.num, 'another-secret')).toBe(0);
  });

  it('refuses a deleted device, and accepts a number refused before once a device has it', async () => {
    const created = await s.call({
      method: 'POST',
      url: dm(s, 'device/add'),
      token: admin,
      payload: validDevice(await idOf(s.db, 'polaris')),
    });
    expect(created.code).toBe(0);
    const num = created.data.deviceNum as string;
    expect(await send(s, num)).toBe(0); // not activated: accepted and marked
    expect((await s.call({ method: 'DELETE', url: `${dm(s, 'device/deleteById')}?id=${created.data.id}`, token: admin })).code).toBe(0);
    expect(await send(s, num)).toBe(ErrorCode.DeviceAuthFailed);
    expect(await send(s, num)).toBe(ErrorCode.DeviceAuthFailed);
    const again = await s.call({
      method: 'POST',
      url: dm(s, 'device/add'),
      token: admin,
      payload: validDevice(await idOf(s.db, 'polaris'), { deviceNum: num }),
    });
    expect(again.code).toBe(0);
    expect(await send(s, num)).toBe(0);
  });

  it('refuses a forged secret, a missing one and an unknown number every time', async () => {
    const device = await reportingDevice(s.db, 'oceanic', 5);
    expect(await send(s, device.num)).toBe(0);
    for (let i = 0; i < 3; i++) {
      expect(await send(s, device.num, 'forged')).toBe(ErrorCode.DeviceAuthFailed);
      expect(await send(s, device.num, '')).toBe(ErrorCode.DeviceAuthFailed);
      expect(await send(s, 'NO-SUCH-DEVICE')).toBe(ErrorCode.DeviceAuthFailed);
    }
  });

  describeSecondServer(
    engine,
    () => s,
    (second, soon) => {
      it('sees a deactivation and a deletion made through the other', async () => {
        const device = await reportingDevice(s.db, 'oceanic', 6);
        expect(await send(second(), device.num)).toBe(0);
        const deactivated = await s.call({ method: 'POST', url: `${dm(s, 'activation/deactivate')}?id=${device.id}`, token: admin });
        expect(deactivated.code).toBe(0);
        await soon(async () => ((await ingest(second(), device.num, report())).data?.unactivated === true ? 1 : 0)).toBe(1);

        const created = await s.call({
          method: 'POST',
          url: dm(s, 'device/add'),
          token: admin,
          payload: validDevice(await idOf(s.db, 'polaris')),
        });
        expect(await send(second(), created.data.deviceNum)).toBe(0);
        expect((await s.call({ method: 'DELETE', url: `${dm(s, 'device/deleteById')}?id=${created.data.id}`, token: admin })).code).toBe(0);
        await soon(() => send(second(), created.data.deviceNum)).toBe(ErrorCode.DeviceAuthFailed);
      });
    },
  );
});
