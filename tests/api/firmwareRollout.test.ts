import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { check, download, packageFields, reportUpdate, updatableDevices, upload, VSAT } from './firmwareFixtures';

/** A package for every customer's devices (SHARED_FIRMWARE_CUSTOMERS). */
const SHARED = '通用';
const ANTENNA = { deviceType: 'Ku-band VSAT antenna', model: 'SA-100K' };

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe.each(engines)('firmware rollouts through the device API on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let content: Buffer;
  let firmwareId: number;
  let devices: { id: number; num: string }[];
  const rollout = (payload: Record<string, unknown>) =>
    s.call({ method: 'POST', url: `${s.base}/deviceModule/firmware/rollout/add`, token: admin, lang: 'en', payload });
  const targets = async (rolloutId: number) => {
    const res = await s.call({
      method: 'GET',
      url: `${s.base}/deviceModule/firmware/rollout/targets?rolloutId=${rolloutId}&pageSize=100`,
      token: admin,
    });
    return Object.fromEntries(
      res.data.list.map((t: { deviceId: number; state: string; progress: number }) => [t.deviceId, `${t.state}:${t.progress}`]),
    );
  };

  beforeAll(async () => {
    s = await createTestServer(engine);
    admin = await s.login('admin');
    content = randomBytes(300_000);
    firmwareId = (await upload(s, admin, packageFields({ version: 'V4.1.0', customer: SHARED }), content)).data.id;
    devices = await updatableDevices(s.db, 5);
    expect(devices).toHaveLength(5);
  });
  afterAll(() => s.close());

  it('lists the candidates of the type and model', async () => {
    const res = await s.call({
      method: 'GET',
      url: `${s.base}/deviceModule/firmware/rollout/candidates?firmwareId=${firmwareId}&pageSize=100`,
      token: admin,
    });
    expect(res.code).toBe(0);
    const ids = res.data.list.map((d: { id: number }) => d.id);
    expect(ids).toEqual(expect.arrayContaining(devices.map((d) => d.id)));
    const [{ n }] = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices WHERE device_type = $1 AND device_model = $2', [
      VSAT.deviceType,
      VSAT.model,
    ]);
    expect(res.data.total).toBe(n);
  });

  it('refuses devices of another model, unknown devices, no devices and bad pacing', async () => {
    const [other] = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE device_model <> $1 AND activated ORDER BY id LIMIT 1', [
      VSAT.model,
    ]);
    const mismatch = await rollout({ firmwareId, deviceIds: [devices[0]!.id, other!.id], maxConcurrent: 1 });
    expect(mismatch.code).toBe(ErrorCode.FirmwareMismatch);
    expect(mismatch.data).toEqual([{ id: other!.id, name: expect.any(String) }]);
    expect(mismatch.msg).toMatch(/^Firmware for VSAT terminal VT-2000 cannot go to devices of another device type or model: /);
    expect((await rollout({ firmwareId, deviceIds: [999_999], maxConcurrent: 1 })).code).toBe(ErrorCode.NotFound);
    const none = await rollout({ firmwareId, deviceIds: [], maxConcurrent: 1 });
    expect(none.data).toEqual([{ field: 'deviceIds', message: 'Choose the devices or the device group to update' }]);
    const pace = await rollout({ firmwareId, deviceIds: [devices[0]!.id], maxConcurrent: 0 });
    expect(pace.data).toEqual([{ field: 'maxConcurrent', message: 'Devices at a time must be a whole number from 1 to 1000' }]);
    expect((await s.db.query('SELECT 1 FROM firmware_rollouts')).length).toBe(0);
  });

  it("offers a customer's package only to that customer's devices, refuses other types and models, and asks before a downgrade", async () => {
    const owned = (owner: string) =>
      s.db.query<{ id: number; name: string }>(
        `SELECT d.id, d.name FROM devices d JOIN users u ON u.id = d.owner_id
          WHERE u.name = $1 AND d.device_type = $2 AND d.device_model = $3 AND d.activated ORDER BY d.id`,
        [owner, ANTENNA.deviceType, ANTENNA.model],
      );
    const polaris = await owned('polaris');
    const oceanic = await owned('oceanic');
    expect(polaris.length).toBeGreaterThanOrEqual(2);
    expect(oceanic.length).toBeGreaterThanOrEqual(1);
    // The enterprise's company name, in other case and spacing, names the customer.
    const pkg = (
      await upload(s, admin, packageFields({ ...ANTENNA, customer: ' polaris  marine LTD. ', version: 'V3.5.0' }), randomBytes(100))
    ).data.id;
    const offered = await s.call({
      method: 'GET',
      url: `${s.base}/deviceModule/firmware/rollout/candidates?firmwareId=${pkg}&pageSize=100`,
      token: admin,
    });
    expect(offered.code).toBe(0);
    expect(new Set(offered.data.list.map((d: { ownerName: string }) => d.ownerName))).toEqual(new Set(['polaris']));
    expect(offered.data.list.map((d: { id: number }) => d.id)).toEqual(expect.arrayContaining(polaris.map((d) => d.id)));

    // Oceanic's antenna is refused on the server, in the caller's language.
    const foreign = await rollout({ firmwareId: pkg, deviceIds: [polaris[0]!.id, oceanic[0]!.id], maxConcurrent: 1 });
    expect(foreign.code).toBe(ErrorCode.FirmwareMismatch);
    expect(foreign.data).toEqual([{ id: oceanic[0]!.id, name: oceanic[0]!.name }]);
    expect(foreign.msg).toMatch(/^This firmware is for the customer polaris +marine LTD\. and cannot go to devices of other customers: /);
    expect(foreign.msg).toContain(oceanic[0]!.name);
    const [vsat] = await s.db.query<{ id: number; name: string }>(
      'SELECT id, name FROM devices WHERE device_model = $1 AND activated ORDER BY id LIMIT 1',
      [VSAT.model],
    );
    const zh = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/firmware/rollout/add`,
      token: admin,
      lang: 'zh',
      payload: { firmwareId: pkg, deviceIds: [vsat!.id], maxConcurrent: 1, allowDowngrade: true },
    });
    expect(zh.code).toBe(ErrorCode.FirmwareMismatch);
    expect(zh.msg).toBe(`Ku-band VSAT antenna SA-100K 的固件不能升级其他设备类型或型号的设备：${vsat!.name}`);

    // V1.2.5 over ADU V2.2.6 is a downgrade: refused until confirmed.
    const older = (await upload(s, admin, packageFields({ ...ANTENNA, customer: 'Polaris Marine', version: 'V1.1.9' }), randomBytes(100)))
      .data.id;
    const [target, newer] = polaris;
    await s.db.query("UPDATE devices SET adu_version = CASE WHEN id = $1 THEN 'V2.2.6' ELSE 'V1.0.0' END WHERE id = ANY($2::int[])", [
      target!.id,
      [target!.id, newer!.id],
    ]);
    const asked = await rollout({ firmwareId: older, deviceIds: [target!.id, newer!.id], maxConcurrent: 1 });
    expect(asked.code).toBe(ErrorCode.FirmwareDowngrade);
    expect(asked.data).toEqual([{ id: target!.id, name: target!.name, version: 'V2.2.6' }]);
    expect(asked.msg).toBe(`Devices running a newer version than V1.1.9 (1): ${target!.name}. Confirm the downgrade to go ahead`);
    expect((await s.db.query('SELECT 1 FROM firmware_rollouts WHERE firmware_id = $1', [older])).length).toBe(0);
    const confirmed = await rollout({ firmwareId: older, deviceIds: [target!.id, newer!.id], maxConcurrent: 1, allowDowngrade: true });
    expect(confirmed.code).toBe(0);
    expect(confirmed.data.total).toBe(2);
    await s.call({ method: 'POST', url: `${s.base}/deviceModule/firmware/rollout/cancel?id=${confirmed.data.id}`, token: admin });
  });

  it('paces a rollout: at most N devices at a time, the rest queued until a slot frees', async () => {
    const [a, b, c] = devices;
    const created = await rollout({ firmwareId, deviceIds: [a!.id, b!.id, c!.id], maxConcurrent: 2 });
    expect(created.code).toBe(0);
    expect(created.data).toMatchObject({ firmwareId, maxConcurrent: 2, total: 3, counts: { queued: 3, updated: 0 } });
    const id = created.data.id;

    const first = await check(s, a!.num);
    expect(first.data).toMatchObject({
      rolloutId: id,
      state: 'downloading',
      version: 'V4.1.0',
      size: content.length,
      sha256: sha256(content),
    });
    expect((await check(s, b!.num)).data.state).toBe('downloading');
    const third = await check(s, c!.num);
    expect(third.data).toEqual({ rolloutId: id, state: 'queued', progress: 0, retryAfterSeconds: 30 });
    expect(await targets(id)).toEqual({ [a!.id]: 'downloading:0', [b!.id]: 'downloading:0', [c!.id]: 'queued:0' });
    // A queued device cannot download nor report.
    expect((await download(s, c!.num, id)).json().code).toBe(ErrorCode.Forbidden);
    expect((await reportUpdate(s, c!.num, { rolloutId: id, state: 'downloading', progress: 10 })).code).toBe(ErrorCode.Validation);

    // a downloads whole, b by ranges; both files are the package.
    const whole = await download(s, a!.num, id);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(sha256(whole.rawPayload)).toBe(sha256(content));
    const head = await download(s, b!.num, id, 'bytes=0-99999');
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-99999/${content.length}`);
    const tail = await download(s, b!.num, id, 'bytes=100000-');
    expect(sha256(Buffer.concat([head.rawPayload, tail.rawPayload]))).toBe(sha256(content));
    expect((await download(s, b!.num, id, `bytes=${content.length}-`)).statusCode).toBe(416);

    for (const [state, progress] of [
      ['downloading', 40],
      ['downloading', 100],
      ['downloaded', null],
      ['updating', 50],
    ] as const) {
      const res = await reportUpdate(s, a!.num, { rolloutId: id, state, progress });
      expect(res.code, `${state} ${progress}`).toBe(0);
    }
    expect((await targets(id))[a!.id]).toBe('updating:50');
    // Still two devices hold a slot: c waits.
    expect((await check(s, c!.num)).data.state).toBe('queued');
    expect((await reportUpdate(s, a!.num, { rolloutId: id, state: 'updated' })).data).toEqual({ state: 'updated', progress: 100 });
    expect((await check(s, a!.num)).data).toBeNull();
    // a finished: c gets the slot.
    expect((await check(s, c!.num)).data.state).toBe('downloading');
    expect((await reportUpdate(s, b!.num, { rolloutId: id, state: 'failed', message: 'checksum mismatch' })).code).toBe(0);
    for (const state of ['downloaded', 'updating', 'updated'])
      expect((await reportUpdate(s, c!.num, { rolloutId: id, state })).code).toBe(0);
    expect(await targets(id)).toEqual({ [a!.id]: 'updated:100', [b!.id]: 'failed:0', [c!.id]: 'updated:100' });

    const got = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/rollout/getById?id=${id}`, token: admin });
    expect(got.data.counts).toEqual({ queued: 0, downloading: 0, downloaded: 0, updating: 0, updated: 2, failed: 1 });
    const listed = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/getById?id=${firmwareId}`, token: admin });
    expect(listed.data).toMatchObject({ status: 'finished', rollouts: 1, targets: 3, updatedCount: 2, failedCount: 1 });
  });

  it('holds the pace when many devices ask at once', async () => {
    const antenna = { deviceType: 'Ku-band VSAT antenna', model: 'SA-100K' };
    const fleet = await updatableDevices(s.db, 20, antenna);
    expect(fleet.length).toBeGreaterThanOrEqual(5);
    const pkg = (await upload(s, admin, packageFields({ ...antenna, version: 'V3.0.1', customer: SHARED }), randomBytes(100))).data.id;
    const id = (await rollout({ firmwareId: pkg, deviceIds: fleet.map((d) => d.id), maxConcurrent: 2 })).data.id;
    const answers = await Promise.all(fleet.map((d) => check(s, d.num)));
    expect(answers.filter((a) => a.data.state === 'downloading')).toHaveLength(2);
    expect(answers.filter((a) => a.data.state === 'queued')).toHaveLength(fleet.length - 2);
    const got = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/rollout/getById?id=${id}`, token: admin });
    expect(got.data.counts).toMatchObject({ downloading: 2, queued: fleet.length - 2 });
  });

  it('frees the slot of a device silent for too long (failed: timeout)', async () => {
    const antenna = { deviceType: 'Microwave link', model: 'MW-80' };
    const [x, y] = await updatableDevices(s.db, 2, antenna);
    const pkg = (await upload(s, admin, packageFields({ ...antenna, version: 'V3.0.2', customer: SHARED }), randomBytes(100))).data.id;
    const id = (await rollout({ firmwareId: pkg, deviceIds: [x!.id, y!.id], maxConcurrent: 1 })).data.id;
    expect((await check(s, x!.num)).data.state).toBe('downloading');
    expect((await check(s, y!.num)).data.state).toBe('queued');
    await s.db.query(
      `UPDATE firmware_rollout_targets SET updated_at = now() - interval '20 minutes' WHERE rollout_id = $1 AND device_id = $2`,
      [id, x!.id],
    );
    expect((await check(s, y!.num)).data.state).toBe('downloading');
    const [stalled] = await s.db.query<{ state: string; message: string }>(
      'SELECT state, message FROM firmware_rollout_targets WHERE rollout_id = $1 AND device_id = $2',
      [id, x!.id],
    );
    expect(stalled).toEqual({ state: 'failed', message: 'timeout' });
  });

  it('refuses transitions out of order, with the states named', async () => {
    const [, , , d] = devices;
    const id = (await rollout({ firmwareId, deviceIds: [d!.id], maxConcurrent: 1 })).data.id;
    expect((await check(s, d!.num)).data.state).toBe('downloading');
    const skip = await reportUpdate(s, d!.num, { rolloutId: id, state: 'updated' });
    expect(skip.code).toBe(ErrorCode.Validation);
    expect(skip.msg).toBe('The update state cannot change from downloading to updated');
    const bad = await reportUpdate(s, d!.num, { rolloutId: id, state: 'installing', progress: 120 });
    expect(bad.data.map((e: { field: string }) => e.field).sort()).toEqual(['progress', 'state']);
    const status = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/getById?id=${firmwareId}`, token: admin });
    expect(status.data.status).toBe('rollingOut');
    // A device already in an unfinished rollout is not put in another.
    const busy = await rollout({ firmwareId, deviceIds: [d!.id], maxConcurrent: 1 });
    expect(busy.code).toBe(ErrorCode.Duplicate);
    expect(busy.data).toEqual([d!.id]);
  });

  it('authenticates devices like the ingest endpoint', async () => {
    const [, , , , e] = devices;
    expect((await check(s, e!.num, 'wrong-secret')).code).toBe(ErrorCode.DeviceAuthFailed);
    expect((await check(s, 'FFFFFFFF')).code).toBe(ErrorCode.DeviceAuthFailed);
    expect((await check(s, e!.num)).data).toBeNull();
    // Another device cannot download or report for a rollout it is not in.
    const [{ id }] = await s.db.query<{ id: number }>('SELECT max(id)::int AS id FROM firmware_rollouts');
    expect((await download(s, e!.num, id)).json().code).toBe(ErrorCode.NotFound);
    expect((await reportUpdate(s, e!.num, { rolloutId: id, state: 'failed' })).code).toBe(ErrorCode.NotFound);
  });

  it('rolls out to a group and cancels what is still queued; a disabled package waits', async () => {
    const [group] = await s.db.query<{ id: number; n: number }>(
      `SELECT m.group_id AS id, count(*)::int AS n FROM device_group_members m JOIN devices d ON d.id = m.device_id
        WHERE d.device_type = $1 AND d.device_model = $2 AND d.activated
          AND NOT EXISTS (SELECT 1 FROM firmware_rollout_targets t WHERE t.device_id = d.id AND t.state IN ('queued', 'downloading', 'downloaded', 'updating'))
        GROUP BY m.group_id ORDER BY n DESC LIMIT 1`,
      [VSAT.deviceType, VSAT.model],
    );
    const second = (await upload(s, admin, packageFields({ version: 'V4.2.0', customer: SHARED }), randomBytes(1000))).data.id;
    const created = await rollout({ firmwareId: second, groupId: group!.id, maxConcurrent: 1 });
    expect(created.code).toBe(0);
    expect(created.data.total).toBe(group!.n);
    const [member] = await s.db.query<{ num: string; id: number }>(
      'SELECT d.device_num AS num, d.id FROM firmware_rollout_targets t JOIN devices d ON d.id = t.device_id WHERE t.rollout_id = $1 ORDER BY d.id LIMIT 1',
      [created.data.id],
    );
    await updatableDevices(s.db, 100);
    await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/firmware/setEnabled`,
      token: admin,
      payload: { id: second, enabled: false },
    });
    expect((await check(s, member!.num)).data).toBeNull();
    await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/firmware/setEnabled`,
      token: admin,
      payload: { id: second, enabled: true },
    });
    expect((await check(s, member!.num)).data.state).toBe('downloading');
    const cancelled = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/firmware/rollout/cancel?id=${created.data.id}`,
      token: admin,
    });
    expect(cancelled.data.counts).toMatchObject({ downloading: 1, queued: 0, failed: group!.n - 1 });
    expect(cancelled.data.cancelledAt).not.toBeNull();
  });
});
