import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { dm, validDevice } from './deviceFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';
import { SECRET, ingest, report } from './monitoringFixtures';
import { hashDeviceSecret } from '../../server/auth/deviceCredentials';

const sp = (s: TestServer, path: string) => `${s.base}/supportModule/${path}`;

describe.each(engines)('supportModule fault clearing on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  let oceanicDevice: number;
  let grantedDevice: number;
  let polarisDevice: number;
  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'oceanbridge', 'polaris']));
    const add = async (owner: number) =>
      (await s.call({ method: 'POST', url: dm(s, 'device/add'), token: tokens.admin, payload: validDevice(owner) })).data.id as number;
    oceanicDevice = await add(ids.oceanic!);
    grantedDevice = await add(ids.oceanic!);
    polarisDevice = await add(ids.polaris!);
    await s.call({
      method: 'POST',
      url: dm(s, 'subUserGrant/set'),
      token: tokens.oceanic,
      payload: { subUserId: ids.oceanops, deviceIds: [grantedDevice] },
    });
  });
  afterAll(() => s.close());
  const post = (who: string, path: string, payload: unknown, lang?: 'zh' | 'en') =>
    s.call({ method: 'POST', url: sp(s, path), token: tokens[who], payload: payload as object, lang });
  const get = (who: string, path: string, lang?: 'zh' | 'en') => s.call({ url: sp(s, path), token: tokens[who], lang });
  const record = (deviceId: number, overrides: Record<string, unknown> = {}) => ({
    deviceId,
    code: 'E05',
    stepsDone: [0, 1],
    action: 'Dried and tightened the LNB connector',
    cleared: true,
    ...overrides,
  });

  it('serves the fault table with steps in both languages; E90 says contact the manufacturer', async () => {
    const codes = (await get('oceanops', 'faultClearing/faultCodes')).data as {
      code: string;
      steps: { zh: string; en: string }[];
      contactManufacturer: boolean;
    }[];
    expect(codes.map((c) => c.code)).toEqual(['E01', 'E02', 'E03', 'E04', 'E05', 'E06', 'E07', 'E08', 'E11', 'E12', 'E90']);
    for (const c of codes) expect(c.steps.length).toBeGreaterThan(0);
    const e90 = codes.find((c) => c.code === 'E90')!;
    expect(e90.contactManufacturer).toBe(true);
    expect(e90.steps[0]!.en).toMatch(/contact the manufacturer/i);
    expect(e90.steps[0]!.zh).toContain('联系厂家');
    expect(codes.filter((c) => c.contactManufacturer).map((c) => c.code)).toEqual(['E90']);
  });

  it('records what was done and whether it cleared, in the device history, for every level that sees the device', async () => {
    const mine = await post('oceanic', 'faultClearing/addRecord', record(oceanicDevice));
    expect(mine.code).toBe(0);
    expect(mine.data).toMatchObject({ deviceId: oceanicDevice, code: 'E05', stepsDone: [0, 1], cleared: true, recordedByName: 'oceanic' });
    const sub = await post(
      'oceanops',
      'faultClearing/addRecord',
      record(grantedDevice, { code: 'E90', stepsDone: [0, 5], cleared: false, action: 'Called the manufacturer' }),
    );
    expect(sub.data).toMatchObject({ stepsDone: [0], cleared: false, recordedByName: 'oceanops' });
    const admin = await post('admin', 'faultClearing/addRecord', record(polarisDevice));
    expect(admin.code).toBe(0);
    const history = await get('oceanic', `faultClearing/getRecords?deviceId=${oceanicDevice}`);
    expect(history.data.list.map((r: { id: number }) => r.id)).toEqual([mine.data.id]);
  });

  it("scopes the records per level: another enterprise's device or an ungranted vessel answers not found", async () => {
    expect((await post('polaris', 'faultClearing/addRecord', record(oceanicDevice))).code).toBe(ErrorCode.NotFound);
    expect((await get('polaris', `faultClearing/getRecords?deviceId=${oceanicDevice}`)).code).toBe(ErrorCode.NotFound);
    expect((await post('oceanops', 'faultClearing/addRecord', record(oceanicDevice))).code).toBe(ErrorCode.NotFound);
    expect((await get('oceanbridge', `faultClearing/getRecords?deviceId=${grantedDevice}`)).code).toBe(ErrorCode.NotFound);
    const devicesOf = async (who: string) =>
      new Set((await get(who, 'faultClearing/getRecords?pageSize=500')).data.list.map((r: { deviceId: number }) => r.deviceId));
    expect(await devicesOf('polaris')).toEqual(new Set([polarisDevice]));
    expect(await devicesOf('oceanic')).toEqual(new Set([oceanicDevice, grantedDevice]));
    expect(await devicesOf('oceanops')).toEqual(new Set([grantedDevice]));
    expect(await devicesOf('oceanbridge')).toEqual(new Set());
    expect(await devicesOf('admin')).toEqual(new Set([oceanicDevice, grantedDevice, polarisDevice]));
  });

  it('validates a record in the request language and writes nothing when it is bad', async () => {
    const before = (await get('admin', 'faultClearing/getRecords')).data.total;
    const bad = await post('oceanic', 'faultClearing/addRecord', { deviceId: oceanicDevice, code: 'E99', action: '' }, 'en');
    expect(bad.code).toBe(ErrorCode.Validation);
    expect(bad.data).toEqual([
      { field: 'code', message: 'Unknown fault code' },
      { field: 'action', message: 'required' },
      { field: 'cleared', message: 'required' },
    ]);
    expect((await get('admin', 'faultClearing/getRecords')).data.total).toBe(before);
  });

  it("a record of a fault cleared acknowledges the vessel's alarms of its code, in the audit log, or says why not", async () => {
    const granted = grantedDevice;
    await s.db.query('UPDATE devices SET activated = true, secret_hash = $2 WHERE id = $1', [granted, hashDeviceSecret(SECRET)]);
    const [{ num }] = (await s.db.query('SELECT device_num AS num FROM devices WHERE id = $1', [granted])) as { num: string }[];
    expect((await ingest(s, num, report({ faults: ['E05', 'E06'] }))).code).toBe(0);
    const alarmsOf = async () =>
      (await s.call({ url: `${s.base}/deviceModule/alarm/getAll?deviceId=${granted}&active=true`, token: tokens.oceanic })).data.list.map(
        (a: { id: number; code: string; ackedByName: string | null }) => ({ id: a.id, code: a.code, ackedByName: a.ackedByName }),
      );
    const before = await alarmsOf();
    const e05 = before.find((a: { code: string }) => a.code === 'E05')!;
    expect(e05.ackedByName).toBeNull();

    // Not cleared: nothing acknowledged, and the answer says so.
    const tried = await post('oceanops', 'faultClearing/addRecord', record(granted, { cleared: false }));
    expect(tried.data.alarms).toEqual({ acknowledged: [], reason: 'notCleared', ackedByName: null });
    expect((await alarmsOf()).find((a: { code: string }) => a.code === 'E05').ackedByName).toBeNull();

    // Cleared: the E05 alarm is acknowledged by the sub-user who recorded it; E06 stays as it was.
    const done = await post('oceanops', 'faultClearing/addRecord', record(granted));
    expect(done.code).toBe(0);
    expect(done.data.alarms).toEqual({ acknowledged: [e05.id], reason: null, ackedByName: null });
    const after = await alarmsOf();
    expect(after.find((a: { code: string }) => a.code === 'E05').ackedByName).toBe('oceanops');
    expect(after.find((a: { code: string }) => a.code === 'E06').ackedByName).toBeNull();
    const audit = await s.call({ url: `${s.base}/supportModule/auditLog/getAll?entity=alarm&entityId=${e05.id}`, token: tokens.oceanic });
    expect(audit.data.list).toEqual([
      expect.objectContaining({
        userName: 'oceanops',
        entity: 'alarm',
        action: 'acknowledge',
        after: expect.objectContaining({ record: done.data.id }),
      }),
    ]);

    // Saved again: already acknowledged, by whom; a code without an alarm: none to acknowledge.
    const again = await post('oceanops', 'faultClearing/addRecord', record(granted));
    expect(again.data.alarms).toEqual({ acknowledged: [], reason: 'alreadyAcknowledged', ackedByName: 'oceanops' });
    const none = await post('oceanic', 'faultClearing/addRecord', record(granted, { code: 'E01' }));
    expect(none.data.alarms).toEqual({ acknowledged: [], reason: 'noActiveAlarm', ackedByName: null });
  });

  it('names the step that starts an after-sales report (none for E90, which goes to the manufacturer)', async () => {
    const codes = (await get('oceanic', 'faultClearing/faultCodes')).data as {
      code: string;
      steps: unknown[];
      reportStep: number | null;
    }[];
    const e05 = codes.find((c) => c.code === 'E05')!;
    expect(e05.reportStep).toBe(e05.steps.length - 1);
    expect(codes.find((c) => c.code === 'E90')!.reportStep).toBeNull();
  });
});
