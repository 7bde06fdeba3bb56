import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { ingest, minutesAgo, report, reportingDevice, uploadData, grantedAndUngranted } from './monitoringFixtures';

describe.each(engines)('monitoring alarms and visibility on %s', (engine) => {
  let s: TestServer;
  let tokens: Record<string, string>;
  let oceanicDevice: { id: number; num: string };
  let polarisDevice: { id: number; num: string };
  let grantedDevice: number;
  let ungrantedDevice: number;
  beforeAll(async () => {
    ({ s, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'polaris']));
    oceanicDevice = await reportingDevice(s.db, 'oceanic', 0);
    polarisDevice = await reportingDevice(s.db, 'polaris', 0);
    ({ granted: grantedDevice, ungranted: ungrantedDevice } = await grantedAndUngranted(s.db));
  });
  afterAll(() => s.close());
  const alarms = (token: string, query = '') =>
    s.call<{ list: any[]; total: number }>({ url: `${s.base}/deviceModule/alarm/getAll?pageSize=100${query}`, token });
  const post = (path: string, token: string, payload: object) =>
    s.call({ method: 'POST', url: `${s.base}/deviceModule/alarm/${path}`, token, payload });
  const deviceAlarms = (id: number) =>
    s.db.query<{ code: string; raised_at: Date; last_seen_at: Date; cleared_at: Date | null }>(
      'SELECT code, raised_at, last_seen_at, cleared_at FROM alarms WHERE device_id = $1 ORDER BY id',
      [id],
    );

  it('raises one alarm per fault code, refreshes it on repeats and clears it when the fault goes away', async () => {
    const d = oceanicDevice;
    const [t1, t2, t3] = [minutesAgo(6), minutesAgo(5), minutesAgo(4)];
    await ingest(s, d.num, report({ faults: ['E01', 'E05'] }, t1));
    await ingest(s, d.num, report({ faults: ['E05'] }, t2));
    let rows = await deviceAlarms(d.id);
    expect(rows.map((r) => [r.code, r.cleared_at?.toISOString() ?? null])).toEqual([
      ['E01', t2.toISOString()],
      ['E05', null],
    ]);
    expect(rows[1]!.last_seen_at.toISOString()).toBe(t2.toISOString());
    expect(rows[1]!.raised_at.toISOString()).toBe(t1.toISOString());
    await ingest(s, d.num, report({ faults: ['E05'] }, t3));
    rows = await deviceAlarms(d.id);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.last_seen_at.toISOString()).toBe(t3.toISOString());
    const list = await alarms(tokens.oceanic!, `&deviceId=${d.id}&active=true`);
    expect(list.data.list).toHaveLength(1);
    expect(list.data.list[0]).toMatchObject({ code: 'E05', severity: 'major', unit: 'antenna', active: true, ackedAt: null });
  });

  it('does not let an out-of-order report touch alarms, and walks a batch in time order', async () => {
    const d = await reportingDevice(s.db, 'oceanic', 1);
    await ingest(s, d.num, report({ faults: [] }, minutesAgo(3)));
    await ingest(s, d.num, report({ faults: ['E08'] }, minutesAgo(9)));
    expect(await deviceAlarms(d.id)).toHaveLength(0);
    const [cleared, raised] = [minutesAgo(1), minutesAgo(2)];
    await ingest(s, d.num, { reports: [report({ faults: [] }, cleared), report({ faults: ['E08'] }, raised)] });
    const rows = await deviceAlarms(d.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ code: 'E08' });
    expect(rows[0]!.raised_at.toISOString()).toBe(raised.toISOString());
    expect(rows[0]!.cleared_at?.toISOString()).toBe(cleared.toISOString());
  });

  it('acknowledges one or many alarms with who and when; the bell query then leaves the device out', async () => {
    const d = polarisDevice;
    await ingest(s, d.num, report({ faults: ['E02', 'E90'] }, minutesAgo(1)));
    const bell = await uploadData(s, tokens.polaris!, { deviceStatus: [2], unacknowledgedOnly: true });
    expect(bell.data.map((x) => x.id)).toContain(d.id);
    const active = (await alarms(tokens.polaris!, `&deviceId=${d.id}&active=true`)).data.list;
    expect(active.map((a) => a.code).sort()).toEqual(['E02', 'E90']);
    const ack = await post('acknowledge', tokens.polaris!, { ids: active.map((a) => a.id) });
    expect(ack).toMatchObject({ code: 0, data: { changed: 2 } });
    const after = (await alarms(tokens.polaris!, `&deviceId=${d.id}&acknowledged=true`)).data.list;
    expect(after.every((a) => a.ackedByName === 'polaris' && a.ackedAt)).toBe(true);
    expect((await uploadData(s, tokens.polaris!, { deviceStatus: [2], unacknowledgedOnly: true })).data.map((x) => x.id)).not.toContain(
      d.id,
    );
    expect((await uploadData(s, tokens.polaris!, { deviceStatus: [2] })).data.map((x) => x.id)).toContain(d.id);
  });

  it('clears alarms by hand (admins and enterprises); a fault still reported raises a new one', async () => {
    const d = polarisDevice;
    const active = (await alarms(tokens.polaris!, `&deviceId=${d.id}&active=true&code=E02`)).data.list;
    expect((await post('clear', tokens.polaris!, { ids: [active[0].id] })).data).toEqual({ changed: 1 });
    expect((await alarms(tokens.polaris!, `&deviceId=${d.id}&active=true`)).data.list.map((a) => a.code)).toEqual(['E90']);
    await ingest(s, d.num, report({ faults: ['E02', 'E90'] }, minutesAgo(0.5)));
    expect((await alarms(tokens.polaris!, `&deviceId=${d.id}&active=true`)).data.total).toBe(2);
    expect((await alarms(tokens.polaris!, `&deviceId=${d.id}&code=E02`)).data.total).toBe(2);
  });

  it('filters by severity, code, active and owner, and says the meaning in the asked language', async () => {
    const critical = (await alarms(tokens.admin!, '&severity=critical')).data.list;
    expect(critical.length).toBeGreaterThan(0);
    expect(critical.every((a) => a.severity === 'critical')).toBe(true);
    const cleared = (await alarms(tokens.admin!, '&active=false')).data.list;
    expect(cleared.every((a) => a.clearedAt)).toBe(true);
    const polarisId = (await s.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'polaris'`))[0]!.id;
    expect((await alarms(tokens.admin!, `&ownerId=${polarisId}`)).data.list.every((a) => a.ownerId === polarisId)).toBe(true);
    const zh = await s.call({ url: `${s.base}/deviceModule/alarm/getAll?code=E90`, token: tokens.admin!, lang: 'zh' });
    expect(zh.data.list[0].meaning).toBe('主板固件损坏');
    expect((await alarms(tokens.admin!, '&code=E77')).code).toBe(ErrorCode.Validation);
  });

  describe('visibility per level', () => {
    it('admin sees every alarm; an enterprise only its own; a foreign alarm id is not found', async () => {
      const all = (await alarms(tokens.admin!)).data.list;
      const [{ n }] = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alarms');
      expect(all).toHaveLength(n);
      expect(all.map((a) => a.deviceId)).toEqual(expect.arrayContaining([oceanicDevice.id, polarisDevice.id]));
      const oceanic = (await alarms(tokens.oceanic!)).data.list;
      expect(oceanic.every((a) => a.deviceId !== polarisDevice.id)).toBe(true);
      const polarisAlarm = all.find((a) => a.deviceId === polarisDevice.id)!;
      expect((await post('acknowledge', tokens.oceanic!, { ids: [polarisAlarm.id] })).code).toBe(ErrorCode.NotFound);
      expect((await post('clear', tokens.oceanic!, { ids: [polarisAlarm.id, 999999] })).code).toBe(ErrorCode.NotFound);
      expect((await uploadData(s, tokens.oceanic!, { deviceId: polarisDevice.id })).code).toBe(ErrorCode.NotFound);
      expect((await uploadData(s, tokens.oceanic!, {})).data.every((d) => d.ownerName === 'oceanic')).toBe(true);
      expect((await uploadData(s, tokens.oceanic!, { ownerId: [polarisDevice.id] })).data).toEqual([]);
    });

    it('a sub-user sees only granted vessels and may acknowledge but not clear', async () => {
      const secretOf = 'UPDATE devices SET secret_hash = (SELECT secret_hash FROM devices WHERE id = $2) WHERE id = $1';
      const nums = await s.db.query<{ id: number; num: string }>('SELECT id, device_num AS num FROM devices WHERE id = ANY($1::int[])', [
        [grantedDevice, ungrantedDevice],
      ]);
      for (const d of nums) {
        await s.db.query(secretOf, [d.id, oceanicDevice.id]);
        expect((await ingest(s, d.num, report({ faults: ['E11'] }, minutesAgo(1)))).code).toBe(0);
      }
      const visible = (await uploadData(s, tokens.oceanops!, {})).data.map((d) => d.id);
      expect(visible).toContain(grantedDevice);
      expect(visible).not.toContain(ungrantedDevice);
      expect((await uploadData(s, tokens.oceanops!, { deviceId: ungrantedDevice })).code).toBe(ErrorCode.NotFound);
      const list = (await alarms(tokens.oceanops!)).data.list;
      expect(list.map((a) => a.deviceId)).toContain(grantedDevice);
      expect(list.every((a) => visible.includes(a.deviceId))).toBe(true);
      const hidden = (await alarms(tokens.oceanic!, `&deviceId=${ungrantedDevice}`)).data.list[0];
      expect((await post('acknowledge', tokens.oceanops!, { ids: [hidden.id] })).code).toBe(ErrorCode.NotFound);
      const mine = list.find((a) => a.deviceId === grantedDevice);
      expect((await post('acknowledge', tokens.oceanops!, { ids: [mine.id] })).code).toBe(0);
      expect((await post('clear', tokens.oceanops!, { ids: [mine.id] })).code).toBe(ErrorCode.Forbidden);
    });
  });

  describe('dashboard', () => {
    it('counts visible devices per state and per kind', async () => {
      const res = await s.call({ url: `${s.base}/deviceModule/monitor/statusCounts`, token: tokens.polaris! });
      const total = (await uploadData(s, tokens.polaris!, {})).data.length;
      expect(res.data.total).toBe(total);
      expect(res.data.online + res.data.offline + res.data.warn).toBe(total);
      expect(res.data.warn).toBeGreaterThanOrEqual(1);
      const kinds = Object.values(res.data.byKind as Record<string, { total: number }>).reduce((n, k) => n + k.total, 0);
      expect(kinds).toBe(total);
    });

    it('lists the faults seen most this week, visible ones only', async () => {
      const admin = await s.call({ url: `${s.base}/deviceModule/monitor/topFaults`, token: tokens.admin!, lang: 'en' });
      expect(admin.data.map((f: { code: string }) => f.code)).toEqual(expect.arrayContaining(['E02', 'E90', 'E05', 'E08']));
      expect(admin.data.find((f: { code: string }) => f.code === 'E02')).toMatchObject({
        alarms: 2,
        devices: 1,
        severity: 'critical',
        unit: 'antenna',
        meaning: 'Antenna power detection failed',
      });
      expect(admin.data[0]).toMatchObject({ code: 'E11', alarms: 2, devices: 2 });
      const oceanic = await s.call({ url: `${s.base}/deviceModule/monitor/topFaults`, token: tokens.oceanic! });
      expect(oceanic.data.map((f: { code: string }) => f.code)).not.toContain('E90');
    });
  });
});
