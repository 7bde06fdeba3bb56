import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { dm, validDevice } from './deviceFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';

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
});
