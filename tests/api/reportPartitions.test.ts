import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { reportingDevice } from './monitoringFixtures';
import { every, ingestAt } from './vesselFixtures';
import { pruneHistory } from '../../server/modules/monitoring';

const DAY = 86_400_000;
/** The partition that holds a time (migration 017: one a UTC calendar month). */
const partitionOf = (ms: number) => {
  const d = new Date(ms);
  return `device_reports_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};
const addMonths = (ms: number, months: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 15);
};

describe.each(engines)('report partitions on %s', (engine) => {
  let s: TestServer;
  let vessel: { id: number; num: string };
  const now = Date.now();
  const count = async (sql: string, params: unknown[] = []) => Number((await s.db.query<{ n: number }>(sql, params))[0]!.n);
  const exists = async (name: string) =>
    (await s.db.query<{ r: string | null }>('SELECT to_regclass($1)::text AS r', [name]))[0]!.r !== null;
  /** Which partition holds each of the vessel's reports. */
  const where = async () =>
    s.db.query<{ part: string; n: number }>(
      `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM device_reports WHERE device_id = $1 GROUP BY 1 ORDER BY 1`,
      [vessel.id],
    );

  beforeAll(async () => {
    s = await createTestServer(engine);
    vessel = await reportingDevice(s.db, 'oceanic', 0);
  }, 120_000);
  afterAll(() => s.close());

  it('is partitioned by month, with this month and three ahead ready from the first start', async () => {
    expect(await count(`SELECT count(*)::int AS n FROM pg_partitioned_table WHERE partrelid = 'device_reports'::regclass`)).toBe(1);
    for (const months of [0, 1, 2, 3]) expect(await exists(partitionOf(addMonths(now, months)))).toBe(true);
    expect(await exists('device_reports_default')).toBe(true);
  });

  it('routes reports to their month (old ones without a month to the default partition) and still refuses duplicates', async () => {
    // Months back to 7 months ago get partitions, as after a long-running install; older is default.
    await s.db.query(`SELECT ensure_report_partitions(now() - interval '7 months', now())`);
    const times = [addMonths(now, -10), addMonths(now, -6), addMonths(now, -5), ...every(60, now - 2 * DAY, now - 60_000)];
    await ingestAt(s, vessel.num, times);
    await ingestAt(s, vessel.num, times.slice(0, 3)); // duplicates: not stored twice
    const parts = new Map((await where()).map((r) => [r.part, r.n]));
    expect(parts.get('device_reports_default')).toBe(1);
    expect(parts.get(partitionOf(addMonths(now, -6)))).toBe(1);
    expect(parts.get(partitionOf(addMonths(now, -5)))).toBe(1);
    expect([...parts.values()].reduce((a, b) => a + b, 0)).toBe(times.length);
  });

  it('retention drops the months past the window whole, deletes the rest in batches, and keeps rollups', async () => {
    const token = await s.login('admin');
    const set = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/monitor/updateSettings`,
      token,
      payload: { retentionDays: 90 },
    });
    expect(set.code).toBe(0);
    const rollupsBefore = await count('SELECT count(*)::int AS n FROM report_hourly WHERE device_id = $1', [vessel.id]);
    const old = await count(`SELECT count(*)::int AS n FROM device_reports WHERE device_time < now() - interval '90 days'`);
    expect(old).toBeGreaterThanOrEqual(3);
    const gone = await pruneHistory(s.db, { batchSize: 100 });
    expect(gone.reports).toBe(old);
    expect(await exists(partitionOf(addMonths(now, -6)))).toBe(false);
    expect(await exists(partitionOf(addMonths(now, -5)))).toBe(false);
    expect(await count(`SELECT count(*)::int AS n FROM device_reports WHERE device_time < now() - interval '90 days'`)).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1', [vessel.id])).toBe(48);
    expect(await count('SELECT count(*)::int AS n FROM report_hourly WHERE device_id = $1', [vessel.id])).toBe(rollupsBefore);
    // This month and the months ahead stay, and new reports keep landing in them.
    for (const months of [0, 1, 2, 3]) expect(await exists(partitionOf(addMonths(now, months)))).toBe(true);
    await ingestAt(s, vessel.num, [now]);
    expect(new Map((await where()).map((r) => [r.part, r.n])).get(partitionOf(now))).toBeGreaterThan(0);
  });
});
