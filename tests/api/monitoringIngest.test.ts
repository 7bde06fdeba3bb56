import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { ingest, minutesAgo, report, reportingDevice, uploadData } from './monitoringFixtures';

describe.each(engines)('monitoring ingest on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let device: { id: number; num: string };
  beforeAll(async () => {
    s = await createTestServer(engine);
    admin = await s.login('admin');
    device = await reportingDevice(s.db, 'oceanic', 0);
  });
  afterAll(() => s.close());
  const historyCount = async (id: number) =>
    (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1', [id]))[0]!.n;
  const stateOf = async (id: number) => (await uploadData(s, admin, { deviceId: id })).data[0];

  it('accepts one valid report and keeps it as history and latest state', async () => {
    const at = minutesAgo(1);
    const res = await ingest(s, device.num, report({ speed: 17.5 }, at));
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ accepted: 1, duplicates: 0, outOfOrder: 0, unactivated: false, latestReportedAt: at.toISOString() });
    const state = await stateOf(device.id);
    expect(state).toMatchObject({ id: device.id, status: 1, speed: 17.5, satelliteName: 'AsiaSat 7', modemLock: true, faults: [] });
    expect(new Date(state.reportedAt).toISOString()).toBe(at.toISOString());
  });

  it('accepts a report without satellite pointing (a 4G router, src/domain/deviceKinds.ts) and keeps it without', async () => {
    const at = minutesAgo(0.8);
    const res = await ingest(
      s,
      device.num,
      report({ azimuth: undefined, elevation: null, skew: undefined, satellite: undefined, lteSignal: -84 }, at),
    );
    expect(res.code).toBe(0);
    const state = await stateOf(device.id);
    expect(state).toMatchObject({
      azimuth: null,
      elevation: null,
      skew: null,
      satelliteName: null,
      satelliteLongitude: null,
      lteSignal: -84,
    });
    expect(new Date(state.reportedAt).toISOString()).toBe(at.toISOString());
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['deviceTime', { deviceTime: '2024-01-01 10:00' }, 'deviceTime'],
    ['deviceTime without zone', { deviceTime: '2024-01-01T10:00:00' }, 'deviceTime'],
    ['deviceTime not a date', { deviceTime: '2024-13-45T10:00:00Z' }, 'deviceTime'],
    ['deviceTime 30 February', { deviceTime: '2024-02-30T10:00:00Z' }, 'deviceTime'],
    ['satellite name with a control character', { satellite: { name: 'Asia\u0000Sat', longitude: 1 } }, 'satellite.name'],
    ['lat', { lat: 91 }, 'lat'],
    ['lat text', { lat: 'north' }, 'lat'],
    ['lon', { lon: -180.5 }, 'lon'],
    ['speed', { speed: 61 }, 'speed'],
    ['speed negative', { speed: -1 }, 'speed'],
    ['heading', { heading: 361 }, 'heading'],
    ['azimuth', { azimuth: -1 }, 'azimuth'],
    ['elevation', { elevation: 95 }, 'elevation'],
    ['skew', { skew: 100 }, 'skew'],
    ['satellite name', { satellite: { name: '', longitude: 1 } }, 'satellite.name'],
    ['satellite longitude', { satellite: { name: 'X', longitude: 200 } }, 'satellite.longitude'],
    ['signalLevel', { signalLevel: 101 }, 'signalLevel'],
    ['snr', { snr: 99 }, 'snr'],
    ['modemLock', { modemLock: 'yes' }, 'modemLock'],
    ['txOn missing', { txOn: undefined }, 'txOn'],
    ['lteSignal', { lteSignal: 5 }, 'lteSignal'],
    ['faults unknown', { faults: ['E99'] }, 'faults[0]'],
    ['faults not a list', { faults: 'E01' }, 'faults'],
    ['firmware', { firmware: { adu: '2.1', bdu: 'V1.0.0' } }, 'firmware.adu'],
  ];
  it.each(invalid)('refuses a bad %s with code 1 naming the field, storing nothing', async (_, bad, field) => {
    const before = await historyCount(device.id);
    const res = await ingest(s, device.num, report(bad, minutesAgo(0.5)));
    expect(res.code).toBe(ErrorCode.Validation);
    expect(res.data.map((e: { field: string }) => e.field)).toContain(field);
    expect(await historyCount(device.id)).toBe(before);
  });

  it('answers the field messages in the asked language', async () => {
    const en = await ingest(s, device.num, report({ lat: 100 }), undefined, 'en');
    const zh = await ingest(s, device.num, report({ lat: 100 }), undefined, 'zh');
    expect(en.data[0].message).toBe('Latitude must be between -90 and 90');
    expect(zh.data[0].message).toBe('纬度必须在 -90 到 90 之间');
  });

  it('refuses a wrong secret, a missing secret and an unknown device with code 13', async () => {
    expect((await ingest(s, device.num, report(), 'wrong')).code).toBe(ErrorCode.DeviceAuthFailed);
    expect((await ingest(s, device.num, report(), '')).code).toBe(ErrorCode.DeviceAuthFailed);
    expect((await ingest(s, 'FFFFFFFF', report())).code).toBe(ErrorCode.DeviceAuthFailed);
  });

  it('refuses a report more than 5 minutes in the future, and the whole batch with it', async () => {
    const before = await historyCount(device.id);
    const future = new Date(Date.now() + 6 * 60_000);
    const res = await ingest(s, device.num, { reports: [report({}, minutesAgo(3)), report({}, future)] });
    expect(res.code).toBe(ErrorCode.Validation);
    expect(res.data).toEqual([
      { field: 'reports[1].deviceTime', message: 'Device time is more than 5 minutes ahead of the server; refused' },
    ]);
    expect(await historyCount(device.id)).toBe(before);
    const nearFuture = await ingest(s, device.num, report({}, new Date(Date.now() + 60_000)));
    expect(nearFuture.code).toBe(0);
  });

  it('stores a batch in one go, counts duplicates and keeps out-of-order reports out of the latest state', async () => {
    const d = await reportingDevice(s.db, 'oceanic', 1);
    const t = [10, 9, 8, 7].map(minutesAgo);
    const first = await ingest(s, d.num, {
      reports: [report({ speed: 10 }, t[1]), report({ speed: 10 }, t[1]), report({ speed: 11 }, t[2])],
    });
    expect(first.data).toMatchObject({ accepted: 2, duplicates: 1, outOfOrder: 0 });
    const again = await ingest(s, d.num, report({ speed: 10 }, t[1]));
    expect(again.data).toMatchObject({ accepted: 0, duplicates: 1, outOfOrder: 0, latestReportedAt: null });
    const older = await ingest(s, d.num, report({ speed: 5 }, t[0]));
    expect(older.data).toMatchObject({ accepted: 1, duplicates: 0, outOfOrder: 1 });
    expect((await stateOf(d.id)).speed).toBe(11);
    expect(await historyCount(d.id)).toBe(3);
    const newer = await ingest(s, d.num, report({ speed: 12 }, t[3]));
    expect(newer.data).toMatchObject({ accepted: 1, outOfOrder: 0 });
    expect((await stateOf(d.id)).speed).toBe(12);
  });

  it('refuses an empty batch, a batch over 1000 and a bad item with its index', async () => {
    expect((await ingest(s, device.num, { reports: [] })).code).toBe(ErrorCode.Validation);
    const big = Array.from({ length: 1001 }, (_, i) => report({}, minutesAgo(100 + i)));
    const tooMany = await ingest(s, device.num, { reports: big });
    expect(tooMany.code).toBe(ErrorCode.Validation);
    expect(tooMany.msg).toBe('At most 1000 reports per request');
    const bad = await ingest(s, device.num, { reports: [report({}, minutesAgo(2)), report({ heading: 400 }, minutesAgo(2.5))] });
    expect(bad.data).toEqual([{ field: 'reports[1].heading', message: 'Heading must be between 0 and 360 degrees' }]);
    expect((await ingest(s, device.num, { reports: 'x' })).code).toBe(ErrorCode.Validation);
  });

  it('accepts 1000 reports in one batch', async () => {
    const d = await reportingDevice(s.db, 'polaris', 0);
    const batch = Array.from({ length: 1000 }, (_, i) => report({ heading: i % 360 }, new Date(Date.now() - (1000 - i) * 10_000)));
    const res = await ingest(s, d.num, { reports: batch });
    expect(res.data).toMatchObject({ accepted: 1000, duplicates: 0 });
    expect(await historyCount(d.id)).toBe(1000);
  });

  // Anyone may report as an unactivated device (it has no secret yet): its report only awaits activation (docs/api.md).
  it('accepts reports of an unactivated device without a secret, keeps them only as awaiting activation, and raises no alarm', async () => {
    const d = await reportingDevice(s.db, 'oceanic', 0, false);
    const res = await ingest(s, d.num, report({ faults: ['E01'] }), '');
    expect(res.data).toMatchObject({ accepted: 1, unactivated: true });
    expect(await historyCount(d.id)).toBe(0);
    expect(await s.db.query('SELECT 1 FROM device_pending_reports WHERE device_id = $1', [d.id])).toHaveLength(1);
    expect((await stateOf(d.id)).reportedAt).toBeNull();
    expect(await s.db.query('SELECT 1 FROM alarms WHERE device_id = $1', [d.id])).toHaveLength(0);
  });

  describe('state derivation', () => {
    it('is online after a clean report, warn with a fault or a lost lock, offline past the threshold', async () => {
      const d = await reportingDevice(s.db, 'oceanic', 2);
      await ingest(s, d.num, report({}, minutesAgo(3)));
      expect((await stateOf(d.id)).status).toBe(1);
      await ingest(s, d.num, report({ modemLock: false }, minutesAgo(2)));
      expect((await stateOf(d.id)).status).toBe(2);
      await ingest(s, d.num, report({ faults: ['E05'] }, minutesAgo(1)));
      expect((await stateOf(d.id)).status).toBe(2);
      await s.db.query(`UPDATE device_state SET reported_at = now() - interval '11 minutes' WHERE device_id = $1`, [d.id]);
      expect(await stateOf(d.id)).toMatchObject({ status: 0, offlineMinutes: 10 });
    });

    it('uses the device threshold over the enterprise one over the default', async () => {
      const d = await reportingDevice(s.db, 'oceanic', 3);
      await ingest(s, d.num, report({}, minutesAgo(1)));
      await s.db.query(`UPDATE device_state SET reported_at = now() - interval '15 minutes' WHERE device_id = $1`, [d.id]);
      expect((await stateOf(d.id)).status).toBe(0);
      const oceanic = await s.login('oceanic');
      const set = (body: object, token = oceanic) =>
        s.call({ method: 'POST', url: `${s.base}/deviceModule/monitor/setOfflineThreshold`, token, payload: body });
      expect((await set({ minutes: 20 })).code).toBe(0);
      expect(await stateOf(d.id)).toMatchObject({ status: 1, offlineMinutes: 20 });
      expect((await set({ deviceId: d.id, minutes: 12 })).code).toBe(0);
      expect(await stateOf(d.id)).toMatchObject({ status: 0, offlineMinutes: 12 });
      expect((await set({ deviceId: d.id, minutes: 0 })).code).toBe(ErrorCode.Validation);
      const polarisDevice = await reportingDevice(s.db, 'polaris', 1);
      expect((await set({ deviceId: polarisDevice.id, minutes: 5 })).code).toBe(ErrorCode.NotFound);
      expect((await set({ deviceId: d.id, minutes: null })).code).toBe(0);
      expect((await set({ minutes: null })).code).toBe(0);
      expect((await stateOf(d.id)).offlineMinutes).toBe(10);
    });

    it('calls a device that never reported offline and filters by state', async () => {
      const offline = await uploadData(s, admin, { deviceStatus: [0] });
      expect(offline.data.length).toBeGreaterThan(0);
      expect(offline.data.every((d) => d.status === 0)).toBe(true);
      const online = await uploadData(s, admin, { deviceStatus: [1] });
      expect(online.data.every((d) => d.status === 1)).toBe(true);
      expect(online.data.map((d) => d.id)).toContain(device.id);
    });
  });
});
