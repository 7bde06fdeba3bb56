import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { reportingDevice } from './monitoringFixtures';
import { every, ingestAt } from './vesselFixtures';
import { pruneHistory } from '../../server/modules/monitoring';
import { fleetStatistics, statisticsWindow } from '../../server/modules/vessel/statisticsQueries';
import type { Principal } from '../../src/domain/levels';

const DAY = 86_400_000;
const admin: Principal = { id: 1, permissionLevel: '1', parentId: null };

describe.each(engines)('report retention on %s', (engine) => {
  let s: TestServer;
  let vessel: { id: number; num: string };
  let token: string;
  const now = Date.now();
  const count = async (sql: string, params: unknown[] = []) => (await s.db.query<{ n: number }>(sql, params))[0]!.n;
  beforeAll(async () => {
    s = await createTestServer(engine);
    token = await s.login('admin');
    vessel = await reportingDevice(s.db, 'oceanic', 0);
    // 12 days at one report every 10 minutes.
    await ingestAt(s, vessel.num, every(10, now - 12 * DAY, now - 60_000));
  }, 120_000);
  afterAll(() => s.close());

  const onlineOverFifteenDays = async (source: 'rollups' | 'reports') => {
    const fleet = await fleetStatistics(s.db, admin, statisticsWindow(15, 0, now), { pageIndex: 1, pageSize: 500 }, source);
    return fleet.list.find((r) => r.deviceId === vessel.id)!.onlineSeconds!;
  };

  it('deletes reports older than the setting in batches, keeping the hourly rollups', async () => {
    const before = await count('SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1', [vessel.id]);
    // Every vessel's old reports (the demo data may hold some too), and this vessel's.
    const old = await count(`SELECT count(*)::int AS n FROM device_reports WHERE device_time < now() - interval '3 days'`);
    const oldOfVessel = await count(
      `SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1 AND device_time < now() - interval '3 days'`,
      [vessel.id],
    );
    expect(oldOfVessel).toBeGreaterThan(1000);
    const rollupsBefore = await count('SELECT count(*)::int AS n FROM report_hourly WHERE device_id = $1', [vessel.id]);
    const onlineBefore = await onlineOverFifteenDays('rollups');
    expect(onlineBefore).toBeGreaterThan(11 * 86_400);

    // The admin setting (docs/api.md, /monitor/updateSettings) is the retention in force.
    const set = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/monitor/updateSettings`,
      token,
      payload: { retentionDays: 3 },
    });
    expect(set.code).toBe(0);
    const gone = await pruneHistory(s.db, { batchSize: 100, rollupRetentionDays: 0 });
    expect(gone).toEqual({ reports: old, rollups: 0 });
    expect(await count(`SELECT count(*)::int AS n FROM device_reports WHERE device_time < now() - interval '3 days'`)).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1', [vessel.id])).toBe(before - oldOfVessel);
    // Rollups stay: the statistics of the older days are still answered; the reports alone no longer can.
    expect(await count('SELECT count(*)::int AS n FROM report_hourly WHERE device_id = $1', [vessel.id])).toBe(rollupsBefore);
    expect(await onlineOverFifteenDays('rollups')).toBe(onlineBefore);
    expect(await onlineOverFifteenDays('reports')).toBeLessThan(4 * 86_400);
    expect(await pruneHistory(s.db, { batchSize: 100 })).toEqual({ reports: 0, rollups: 0 });
  });

  it('deletes rollups after their own retention, never before the reports', async () => {
    // Fewer rollup days than report days: the reports' retention wins (nothing is deleted).
    await s.call({ method: 'POST', url: `${s.base}/deviceModule/monitor/updateSettings`, token, payload: { retentionDays: 8 } });
    const older = await count(`SELECT count(*)::int AS n FROM report_hourly WHERE hour_start < now() - interval '8 days'`);
    expect(older).toBeGreaterThan(3 * 24);
    expect((await pruneHistory(s.db, { batchSize: 50, rollupRetentionDays: 2 })).rollups).toBe(older);
    expect(await count(`SELECT count(*)::int AS n FROM report_hourly WHERE hour_start < now() - interval '8 days'`)).toBe(0);
    const recent = await count(
      `SELECT count(*)::int AS n FROM report_hourly WHERE hour_start >= now() - interval '8 days' AND device_id = $1`,
      [vessel.id],
    );
    expect(recent).toBeGreaterThanOrEqual(8 * 24 - 1);
    await s.call({ method: 'POST', url: `${s.base}/deviceModule/monitor/updateSettings`, token, payload: { retentionDays: 1 } });
    const gone = await pruneHistory(s.db, { batchSize: 50, rollupRetentionDays: 5 });
    expect(gone.rollups).toBeGreaterThanOrEqual(3 * 24 - 1);
    expect(await count(`SELECT count(*)::int AS n FROM report_hourly WHERE hour_start < now() - interval '5 days'`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM device_reports WHERE device_time < now() - interval '1 day'`)).toBe(0);
    // New reports keep being rolled up after a pruning.
    await ingestAt(s, vessel.num, [now]);
    const hour = new Date(Math.floor(now / 3_600_000) * 3_600_000);
    const rolled = await count('SELECT COALESCE(max(reports), 0)::int AS n FROM report_hourly WHERE device_id = $1 AND hour_start = $2', [
      vessel.id,
      hour,
    ]);
    expect(rolled).toBeGreaterThan(0);
    expect(rolled).toBe(
      await count(
        `SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1 AND device_time >= $2 AND device_time < $2::timestamptz + interval '1 hour'`,
        [vessel.id, hour],
      ),
    );
  });
});
