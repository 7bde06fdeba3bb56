import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { ingest, minutesAgo, report, reportingDevice, uploadData } from './monitoringFixtures';
import { sweepDataPeriods } from '../../server/modules/dataPlans';

describe.each(engines)('data usage and data plans on %s', (engine) => {
  let s: TestServer;
  let tokens: Record<string, string>;
  let granted: number;
  let ungranted: number;
  beforeAll(async () => {
    ({ s, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'polaris']));
    const rows = await s.db.query<{ id: number; granted: boolean }>(
      `SELECT d.id, EXISTS (SELECT 1 FROM sub_user_grants g JOIN users u ON u.id = g.sub_user_id WHERE u.name = 'oceanops' AND g.device_id = d.id) AS granted
         FROM devices d JOIN users o ON o.id = d.owner_id WHERE o.name = 'oceanic' AND d.owner_sub_id IS NULL AND d.activated ORDER BY d.id`,
    );
    granted = rows.find((r) => r.granted)!.id;
    ungranted = rows.find((r) => !r.granted)!.id;
  });
  afterAll(() => s.close());

  const api = (path: string, token: string, payload?: object, lang: 'zh' | 'en' = 'en') =>
    payload
      ? s.call<any>({ method: 'POST', url: `${s.base}/deviceModule/dataPlan/${path}`, token, payload, lang })
      : s.call<any>({ url: `${s.base}/deviceModule/dataPlan/${path}`, token, lang });
  const usage = (deviceId: number, token = tokens.oceanic!) => api(`getUsage?deviceId=${deviceId}&days=3`, token);
  const setPlan = (deviceId: number, quotaBytes: number, resetDay = 1, token = tokens.oceanic!) =>
    api('set', token, { deviceId, quotaBytes, resetDay });
  const dataAlarms = (id: number) =>
    s.db.query<{ id: number; code: string; severity: string; cleared_at: Date | null }>(
      `SELECT id::int AS id, code, severity, cleared_at FROM alarms WHERE device_id = $1 AND code LIKE 'DATA%' ORDER BY id`,
      [id],
    );
  const active = async (id: number) => (await dataAlarms(id)).filter((a) => !a.cleared_at).map((a) => a.code);
  const bell = (token: string) => uploadData(s, token, { deviceStatus: [2], unacknowledgedOnly: true, dataPlanAlarms: true });

  it('stores bytesUsed, sums it per hour and per period, and never counts a duplicate twice', async () => {
    const d = await reportingDevice(s.db, 'oceanic', 2);
    const batch = [report({ bytesUsed: 1000 }, minutesAgo(3)), report({ bytesUsed: 2000 }, minutesAgo(2)), report({}, minutesAgo(1))];
    expect((await ingest(s, d.num, { reports: batch })).data).toMatchObject({ accepted: 3 });
    const stored = await s.db.query<{ b: string | number | null }>(
      'SELECT bytes_used AS b FROM device_reports WHERE device_id = $1 ORDER BY device_time',
      [d.id],
    );
    expect(stored.map((r) => (r.b === null ? null : Number(r.b)))).toEqual([1000, 2000, null]);
    const [hourly] = await s.db.query<{ b: number }>('SELECT sum(bytes_used)::float8 AS b FROM report_hourly WHERE device_id = $1', [d.id]);
    expect(hourly!.b).toBe(3000);
    // The same batch again: all duplicates, nothing added.
    expect((await ingest(s, d.num, { reports: batch })).data).toMatchObject({ accepted: 0, duplicates: 3 });
    // An older report still counts toward the period.
    expect((await ingest(s, d.num, report({ bytesUsed: 500 }, minutesAgo(10)))).data).toMatchObject({ accepted: 1, outOfOrder: 1 });
    const u = (await usage(d.id)).data;
    expect(u).toMatchObject({ usedBytes: 3500, quotaBytes: null, percent: null, plan: null, level: 0 });
    expect(u.daily).toHaveLength(3);
    expect(u.daily.reduce((sum: number, x: any) => sum + x.bytes, 0)).toBe(3500);
    expect(new Date(u.periodStart).getUTCDate()).toBe(1);
    expect(new Date(u.periodStart).getUTCHours()).toBe(0);
  });

  it("refuses a bad bytesUsed with a message in the caller's language", async () => {
    const d = await reportingDevice(s.db, 'oceanic', 2);
    for (const bad of [-1, 1.5, '100', 10_000_000_001]) {
      const res = await ingest(s, d.num, report({ bytesUsed: bad }, minutesAgo(0.5)));
      expect(res.code).toBe(ErrorCode.Validation);
      expect(res.data).toEqual([
        { field: 'bytesUsed', message: 'Data used (bytesUsed) must be a whole number of bytes from 0 to 10 GB (10000000000)' },
      ]);
    }
    const zh = await ingest(s, d.num, report({ bytesUsed: -5 }, minutesAgo(0.5)), undefined, 'zh');
    expect(zh.data[0].message).toBe('流量（bytesUsed）必须是 0 到 10 GB（10000000000 字节）之间的整数');
  });

  it('validates a plan in zh and en, and keeps it to levels 1 and 2 on vessels they see', async () => {
    const en = await api('set', tokens.oceanic!, { deviceId: granted, quotaBytes: 0, resetDay: 29 });
    expect(en.code).toBe(ErrorCode.Validation);
    expect(Object.fromEntries(en.data.map((f: any) => [f.field, f.message]))).toEqual({
      quotaBytes: 'The quota must be more than 0 and at most 1,000,000 GB',
      resetDay: 'The reset day must be a whole number from 1 to 28',
    });
    const zh = await api('set', tokens.oceanic!, { deviceId: granted, quotaBytes: 1e16, resetDay: 0 }, 'zh');
    expect(Object.fromEntries(zh.data.map((f: any) => [f.field, f.message]))).toEqual({
      quotaBytes: '流量额度必须大于 0 且不超过 1,000,000 GB',
      resetDay: '重置日必须是 1 到 28 之间的整数',
    });
    expect((await api('set', tokens.oceanic!, { deviceId: granted, quotaBytes: 1.5, resetDay: 3 })).data[0].field).toBe('quotaBytes');

    const polarisVessel = (await reportingDevice(s.db, 'polaris', 0)).id;
    expect((await setPlan(polarisVessel, 1e9)).code).toBe(ErrorCode.NotFound);
    expect((await usage(polarisVessel)).code).toBe(ErrorCode.NotFound);
    expect((await setPlan(granted, 1e9, 1, tokens.oceanops!)).code).toBe(ErrorCode.Forbidden);
    expect((await api('remove', tokens.oceanops!, { deviceId: granted })).code).toBe(ErrorCode.Forbidden);

    const saved = await setPlan(granted, 50e9, 15);
    expect(saved).toMatchObject({
      code: 0,
      data: { plan: { deviceId: granted, quotaBytes: 50e9, resetDay: 15, updatedByName: 'oceanic' }, quotaBytes: 50e9 },
    });
    expect(new Date(saved.data.periodStart).getUTCDate()).toBe(15);
    // A sub-user reads the plan of a vessel granted to it, not of another.
    expect((await api(`getByDevice?deviceId=${granted}`, tokens.oceanops!)).data).toMatchObject({ quotaBytes: 50e9, resetDay: 15 });
    expect((await usage(granted, tokens.oceanops!)).data).toMatchObject({ quotaBytes: 50e9 });
    expect((await usage(ungranted, tokens.oceanops!)).code).toBe(ErrorCode.NotFound);
    expect((await api('remove', tokens.oceanic!, { deviceId: granted })).data).toEqual({ changed: 1 });
    expect((await api(`getByDevice?deviceId=${granted}`, tokens.oceanic!)).data).toBeNull();
  });

  it('raises DATA80 once and DATA100 at the quota; device reports neither refresh nor clear them', async () => {
    const d = await reportingDevice(s.db, 'oceanic', 3);
    await setPlan(d.id, 10_000);
    await ingest(s, d.num, report({ bytesUsed: 7000 }, minutesAgo(20)));
    expect(await active(d.id)).toEqual([]);
    await ingest(s, d.num, report({ bytesUsed: 1500 }, minutesAgo(19)));
    expect(await dataAlarms(d.id)).toMatchObject([{ code: 'DATA80', severity: 'minor', cleared_at: null }]);
    await ingest(s, d.num, report({ bytesUsed: 100 }, minutesAgo(18)));
    expect(await dataAlarms(d.id)).toHaveLength(1);

    // Cleared by hand: not raised again in this period.
    const [data80] = await dataAlarms(d.id);
    expect(
      (await s.call({ method: 'POST', url: `${s.base}/deviceModule/alarm/clear`, token: tokens.oceanic!, payload: { ids: [data80!.id] } }))
        .data,
    ).toEqual({ changed: 1 });
    await ingest(s, d.num, report({ bytesUsed: 100 }, minutesAgo(17)));
    expect(await active(d.id)).toEqual([]);

    await ingest(s, d.num, report({ bytesUsed: 2000 }, minutesAgo(16)));
    expect(await active(d.id)).toEqual(['DATA100']);
    expect((await dataAlarms(d.id)).at(-1)).toMatchObject({ code: 'DATA100', severity: 'major' });
    expect((await usage(d.id)).data).toMatchObject({ usedBytes: 10_700, quotaBytes: 10_000, percent: 107, level: 100 });

    // A device fault comes and goes: the data alarm stays.
    await ingest(s, d.num, report({ faults: ['E05'] }, minutesAgo(15)));
    await ingest(s, d.num, report({ faults: [] }, minutesAgo(14)));
    expect(await active(d.id)).toEqual(['DATA100']);
  });

  it('lists data alarms like any alarm and rings the bell while unacknowledged (the bare poll unchanged)', async () => {
    const d = await reportingDevice(s.db, 'oceanic', 4);
    await setPlan(d.id, 1000);
    await ingest(s, d.num, report({ bytesUsed: 850 }, minutesAgo(5)));
    const list = await s.call<any>({
      url: `${s.base}/deviceModule/alarm/getAll?pageSize=50&deviceId=${d.id}&active=true&code=DATA80`,
      token: tokens.oceanic!,
      lang: 'en',
    });
    expect(list.data.list).toHaveLength(1);
    expect(list.data.list[0]).toMatchObject({
      code: 'DATA80',
      kind: 'dataPlan',
      unit: 'dataPlan',
      severity: 'minor',
      meaning: 'Over 80 % of the data plan used this period',
    });
    const zh = await s.call<any>({
      url: `${s.base}/deviceModule/alarm/getAll?pageSize=50&deviceId=${d.id}`,
      token: tokens.oceanic!,
      lang: 'zh',
    });
    expect(zh.data.list[0].meaning).toBe('本期流量已用 80% 以上');

    // The device is online (status 1): the bell's query finds it through its data alarm only.
    expect((await uploadData(s, tokens.oceanic!, { deviceId: d.id })).data[0].status).toBe(1);
    expect((await bell(tokens.oceanic!)).data.map((x) => x.id)).toContain(d.id);
    expect((await uploadData(s, tokens.oceanic!, { deviceStatus: [2], unacknowledgedOnly: true })).data.map((x) => x.id)).not.toContain(
      d.id,
    );
    expect((await uploadData(s, tokens.oceanic!, { deviceStatus: [2] })).data.map((x) => x.id)).not.toContain(d.id);
    expect((await bell(tokens.polaris!)).data.map((x) => x.id)).not.toContain(d.id);

    const ack = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/alarm/acknowledge`,
      token: tokens.oceanic!,
      payload: { ids: [list.data.list[0].id] },
    });
    expect(ack.data).toEqual({ changed: 1 });
    expect((await bell(tokens.oceanic!)).data.map((x) => x.id)).not.toContain(d.id);
  });

  it('clears data alarms when the quota is raised above the usage, and raises them again when it is lowered', async () => {
    const d = await reportingDevice(s.db, 'oceanic', 5);
    await setPlan(d.id, 1000);
    await ingest(s, d.num, report({ bytesUsed: 1200 }, minutesAgo(5)));
    expect((await active(d.id)).sort()).toEqual(['DATA100', 'DATA80']);
    // 1200 of 1400 is still past 80 %: only DATA100 clears.
    await setPlan(d.id, 1400);
    expect(await active(d.id)).toEqual(['DATA80']);
    expect((await setPlan(d.id, 10_000)).data).toMatchObject({ usedBytes: 1200, percent: 12, level: 0 });
    expect(await active(d.id)).toEqual([]);
    await setPlan(d.id, 1100);
    expect((await active(d.id)).sort()).toEqual(['DATA100', 'DATA80']);
  });

  it("starts a new period on the reset day: usage restarts and the old period's alarms clear", async () => {
    const d = await reportingDevice(s.db, 'oceanic', 6);
    await setPlan(d.id, 1000);
    await ingest(s, d.num, report({ bytesUsed: 900 }, minutesAgo(5)));
    expect(await active(d.id)).toEqual(['DATA80']);
    // A month goes by: the stored usage now belongs to the previous period.
    await s.db.query(
      `UPDATE report_hourly SET hour_start = hour_start - interval '1 month', first_at = first_at - interval '1 month',
      last_at = last_at - interval '1 month' WHERE device_id = $1`,
      [d.id],
    );
    await s.db.query(`UPDATE data_usage SET period_start = period_start - interval '1 month' WHERE device_id = $1`, [d.id]);
    expect(await sweepDataPeriods(s.db)).toBeGreaterThanOrEqual(1);
    expect(await active(d.id)).toEqual([]);
    const u = (await usage(d.id)).data;
    expect(u).toMatchObject({ usedBytes: 0, percent: 0, level: 0, previous: { usedBytes: 900 } });
    // The new period raises its own alarm once usage crosses again.
    await ingest(s, d.num, report({ bytesUsed: 850 }, minutesAgo(1)));
    expect(await active(d.id)).toEqual(['DATA80']);
    expect(await sweepDataPeriods(s.db)).toBe(0);
  });

  it("lists the fleet's usage, highest share first, with filters", async () => {
    const all = await api('getAll?pageSize=100&planned=true', tokens.oceanic!);
    expect(all.code).toBe(0);
    const percents = all.data.list.map((r: any) => r.percent);
    expect(percents.length).toBeGreaterThanOrEqual(3);
    expect([...percents].sort((a: number, b: number) => b - a)).toEqual(percents);
    expect(all.data.list.every((r: any) => r.quotaBytes > 0)).toBe(true);
    const over = await api('getAll?pageSize=100&minPercent=100', tokens.oceanic!);
    expect(over.data.list.length).toBeGreaterThanOrEqual(1);
    expect(over.data.list.every((r: any) => r.percent >= 100)).toBe(true);
    expect(over.data.list[0]).toMatchObject({ levelName: 'over100', usedGb: expect.any(Number), quotaGb: expect.any(Number) });
    const polaris = await api('getAll?pageSize=100&planned=true', tokens.polaris!);
    expect(polaris.data.total).toBe(0);
  });
});
