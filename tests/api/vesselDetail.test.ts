import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { SERIES_POINTS } from '../../src/domain/vesselSchemas';
import { reportingDevice } from './monitoringFixtures';
import { every, ingestAt, vesselIds } from './vesselFixtures';

const HOUR = 3_600_000;

describe.each(engines)('vessel detail data on %s', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  let vessel: { id: number; num: string };
  let ids: Awaited<ReturnType<typeof vesselIds>>;
  let now: number;
  beforeAll(async () => {
    s = await createTestServer(engine);
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await s.login(name);
    vessel = await reportingDevice(s.db, 'oceanic', 0);
    ids = await vesselIds(s);
    now = Date.now();
    // 8 days at one report every 10 minutes, but nothing from 4 h to 2 h ago (offline), and
    // fault E05 from 60 to 30 minutes ago (warn).
    const times = every(10, now - 8 * 24 * HOUR, now - 60_000).filter((t) => t < now - 4 * HOUR || t >= now - 2 * HOUR);
    await ingestAt(s, vessel.num, times, (t) => ({
      faults: t >= now - HOUR && t < now - HOUR / 2 ? ['E05'] : [],
      signalLevel: 50 + ((t / 600_000) % 40),
      speed: t < now - 24 * HOUR ? 3 : 12,
    }));
  });
  afterAll(() => s.close());

  const series = (token: string, id: number, window: string, lang: 'zh' | 'en' = 'en') =>
    s.call<any>({ url: `${s.base}/deviceModule/vessel/getSeries?id=${id}&window=${window}`, token, lang });

  it('buckets each data window to a few hundred points with min, max and avg', async () => {
    for (const [window, hours] of [
      ['6h', 6],
      ['12h', 12],
      ['24h', 24],
      ['7d', 168],
    ] as const) {
      const res = await series(tokens.oceanic!, vessel.id, window);
      expect(res.code).toBe(0);
      const { points, bucketSeconds, from, to } = res.data;
      expect(Date.parse(to) - Date.parse(from)).toBe(hours * HOUR);
      expect(bucketSeconds).toBe(Math.ceil((hours * 3600) / SERIES_POINTS));
      expect(points.length).toBeGreaterThan(0);
      expect(points.length).toBeLessThanOrEqual(SERIES_POINTS + 1);
      for (const p of points) {
        expect(p.t).toBeGreaterThanOrEqual(Date.parse(from) - bucketSeconds * 1000);
        expect(p.signalMin).toBeLessThanOrEqual(p.signalAvg);
        expect(p.signalAvg).toBeLessThanOrEqual(p.signalMax);
      }
      // Reports per bucket add up to the reports in the window.
      const expected = (
        await s.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1 AND device_time > $2 AND device_time <= $3',
          [vessel.id, from, to],
        )
      )[0]!.n;
      expect(points.reduce((a: number, p: { n: number }) => a + p.n, 0)).toBe(expected);
    }
  });

  it('only the 7-day window reaches the slower days, and 6 h aggregates many reports per point at 7 d', async () => {
    const week = await series(tokens.oceanic!, vessel.id, '7d');
    const day = await series(tokens.oceanic!, vessel.id, '24h');
    expect(week.data.points.some((p: any) => p.speedMax === 3)).toBe(true);
    expect(day.data.points.every((p: any) => p.speedMin === 12)).toBe(true);
    expect(Math.max(...week.data.points.map((p: any) => p.n))).toBeGreaterThan(1);
  });

  it('gives online, warn and offline bands and the faults of the window with their remedies', async () => {
    const res = await series(tokens.oceanic!, vessel.id, '6h', 'en');
    const { bands, totals, faults } = res.data;
    const offline = bands.filter((b: any) => b.state === 'offline');
    // The gap: the last report before it (4 h 10 min ago) covers 10 minutes, so about 1 h 50 min offline.
    const longest = Math.max(...offline.map((b: any) => b.to - b.from));
    expect(longest).toBeGreaterThan(1.7 * HOUR);
    expect(longest).toBeLessThanOrEqual(2 * HOUR);
    const warn = bands.filter((b: any) => b.state === 'warn');
    expect(warn).toHaveLength(1);
    expect(totals.warn).toBeCloseTo(1800, -2);
    expect(totals.online + totals.warn + totals.offline).toBeCloseTo(6 * 3600, 0);
    expect(bands[0].from).toBe(Date.parse(res.data.from));
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ code: 'E05', meaning: 'LNB detection failed' });
    expect(faults[0].remedy).toMatch(/LNB/);
    const zh = await series(tokens.oceanic!, vessel.id, '6h', 'zh');
    expect(zh.data.faults[0].meaning).toBe('LNB检测失败');
  });

  it('returns the device fields, its latest report and the active faults', async () => {
    const res = await s.call<any>({ url: `${s.base}/deviceModule/vessel/getDetail?id=${vessel.id}`, token: tokens.oceanic!, lang: 'en' });
    expect(res.code).toBe(0);
    expect(res.data.device).toMatchObject({ id: vessel.id, deviceNum: vessel.num });
    expect(res.data.latest).toMatchObject({ satelliteName: 'AsiaSat 7', status: 1 });
    expect(Date.parse(res.data.latest.reportedAt)).toBeGreaterThan(now - 2 * 60_000);
    expect(res.data.faults).toEqual([]);
    expect(res.data.currentVoyage).toBeNull();
  });

  it('refuses an unknown window', async () => {
    const res = await series(tokens.oceanic!, vessel.id, '3d');
    expect(res.code).not.toBe(0);
  });

  it('scopes detail and series per level; another enterprise or an ungranted vessel is not found', async () => {
    for (const path of ['vessel/getDetail?id=', 'vessel/getSeries?window=6h&id=']) {
      const get = (token: string, id: number) => s.call({ url: `${s.base}/deviceModule/${path}${id}`, token, lang: 'en' });
      expect((await get(tokens.admin!, vessel.id)).code).toBe(0);
      expect((await get(tokens.oceanops!, ids.granted)).code).toBe(0);
      const ungranted = await get(tokens.oceanops!, ids.ungranted);
      expect(ungranted.code).toBe(ErrorCode.NotFound);
      expect(ungranted.data).toBeNull();
      const foreign = await get(tokens.polaris!, vessel.id);
      expect(foreign).toMatchObject({ code: ErrorCode.NotFound, msg: 'No such device', data: null });
      expect((await get(tokens.oceanic!, ids.polaris)).code).toBe(ErrorCode.NotFound);
    }
  });

  it('refuses the charts of a vessel whose IoT data feature is locked, with the message', async () => {
    const res = await series(tokens.polaris!, ids.polaris, '6h', 'en');
    expect(res).toMatchObject({ code: ErrorCode.Forbidden, msg: 'Please contact your service provider to unlock it', data: null });
    const zh = await series(tokens.polaris!, ids.polaris, '6h', 'zh');
    expect(zh.msg).toBe('请联系您的服务商解锁此功能');
    // The detail itself stays readable; an admin is never locked.
    expect((await s.call({ url: `${s.base}/deviceModule/vessel/getDetail?id=${ids.polaris}`, token: tokens.polaris! })).code).toBe(0);
    expect((await series(tokens.admin!, ids.polaris, '6h')).code).toBe(0);
  });
});
