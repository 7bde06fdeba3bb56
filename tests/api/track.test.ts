import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, idOf, startWithLogins, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { decodeTrack, type EncodedTrack } from '../../src/domain/track';
import { minutely, seedReports } from './trackFixtures';

interface TrackData {
  device: { id: number; name: string; offlineMinutes: number };
  from: string;
  to: string;
  total: number;
  detail: boolean;
  track: EncodedTrack;
  cuts: number[];
  summary: { distanceNm: number; underWaySeconds: number; onlineSeconds: number; stops: number; reports: number; gaps: number };
}

describe.each(engines)('location track on %s', (engine) => {
  let s: TestServer;
  let tokens: Record<string, string>;
  let ship: number; // oceanic's, granted to oceanops
  let ungranted: number; // oceanic's, not granted to oceanops
  let polarisShip: number;
  // The main track: 6 hours due north at one report a minute, ending 10 minutes ago; warn from
  // minute 100 to 109; no reports from minute 200 to 239 (a 41-minute gap, threshold 10).
  const track = minutely(360, 10, (i) => ({
    lat: 10 + i * 0.01,
    lon: 120,
    speed: i >= 300 && i < 330 ? 0.2 : 12,
    warn: i >= 100 && i < 110,
  })).filter((_, i) => i < 200 || i >= 240);
  const oldest = minutely(10, 40 * 1440, () => ({ lat: 1, lon: 100 }));

  beforeAll(async () => {
    ({ s, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'polaris']));
    const rows = await s.db.query<{ id: number; granted: boolean }>(
      `SELECT d.id, EXISTS (SELECT 1 FROM sub_user_grants g JOIN users u ON u.id = g.sub_user_id WHERE u.name = 'oceanops' AND g.device_id = d.id) AS granted
         FROM devices d JOIN users o ON o.id = d.owner_id WHERE o.name = 'oceanic' AND d.owner_sub_id IS NULL ORDER BY d.id`,
    );
    ship = rows.find((r) => r.granted)!.id;
    ungranted = rows.find((r) => !r.granted)!.id;
    [{ id: polarisShip }] = (await s.db.query<{ id: number }>('SELECT min(id) AS id FROM devices WHERE owner_id = $1', [
      await idOf(s.db, 'polaris'),
    ])) as [{ id: number }];
    await s.db.query('DELETE FROM device_offline_thresholds WHERE device_id = ANY($1::int[])', [[ship, polarisShip]]);
    await s.db.query('INSERT INTO device_offline_thresholds (device_id, offline_minutes) VALUES ($1, 10), ($2, 10)', [ship, polarisShip]);
    await seedReports(s.db, ship, track);
    // Older reports: 5 days ago (inside 1 week, outside 3 days) and 40 days ago (outside every window).
    await seedReports(
      s.db,
      ship,
      minutely(60, 5 * 1440, (i) => ({ lat: 5, lon: 110 + i * 0.01 })),
    );
    await seedReports(s.db, ship, oldest);
    await seedReports(
      s.db,
      polarisShip,
      minutely(30, 5, (i) => ({ lat: -30, lon: 170 + i * 0.1 })),
    );
  });
  afterAll(() => s.close());

  const get = (token: string, query: string, lang: 'zh' | 'en' = 'en') =>
    s.call<TrackData>({ url: `${s.base}/deviceModule/history/track?${query}`, token, lang });

  it('returns the 3-day window simplified: first, last, both sides of each state change and gap; breaks after gaps', async () => {
    const res = await get(tokens.oceanic!, `deviceId=${ship}&window=3d&zoom=3`);
    expect(res.code).toBe(0);
    expect(res.data.total).toBe(track.length);
    const points = decodeTrack(res.data.track);
    const times = points.map((p) => p.time);
    const t = (i: number) => track[i]!.at.getTime();
    // A straight line north: only the mandatory points survive.
    expect(times[0]).toBe(t(0));
    expect(times.at(-1)).toBe(t(track.length - 1));
    for (const i of [99, 100, 109, 110, 199, 200]) expect(times, `index ${i}`).toContain(t(i));
    expect(points.length).toBeLessThan(20);
    expect(points.find((p) => p.time === t(100))!.state).toBe(2);
    expect(points.find((p) => p.time === t(99))!.state).toBe(1);
    // Index 200 of the filtered list is minute 240, the first report after the gap.
    const afterGap = points.findIndex((p) => p.time === t(200));
    expect(points[afterGap]!.afterGap).toBe(true);
    expect(points.filter((p) => p.afterGap)).toHaveLength(1);
    expect(points[0]!.lat).toBeCloseTo(10, 5);
    expect(points[0]!.lon).toBeCloseTo(120, 5);
  });

  it('keeps a report at least every window/samples when asked (playback)', async () => {
    // 3 days / 72 = one an hour: no two kept points more than an hour apart, except across the gap.
    const res = await get(tokens.oceanic!, `deviceId=${ship}&window=3d&zoom=3&samples=72`);
    const points = decodeTrack(res.data.track);
    expect(points.length).toBeGreaterThan(6);
    for (let i = 1; i < points.length; i += 1) {
      if (!points[i]!.afterGap) expect(points[i]!.time - points[i - 1]!.time).toBeLessThanOrEqual(3_600_000);
    }
    expect((await get(tokens.oceanic!, `deviceId=${ship}&samples=6000`)).code).toBe(ErrorCode.Validation);
  });

  it('keeps the turns of a zig-zag and returns more detail for a zoomed-in box', async () => {
    const zig = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 AND id <> $2 ORDER BY id LIMIT 1', [
      await idOf(s.db, 'oceanic'),
      ship,
    ]);
    const id = zig[0]!.id;
    // Zig-zag with a 0.5-degree swing every 30 minutes over a day, and a 0.002-degree wobble that
    // only a zoomed-in view can show.
    await seedReports(
      s.db,
      id,
      minutely(1440, 5, (i) => ({
        lat: 20 + i * 0.001,
        lon: 130 + (Math.floor(i / 30) % 2 ? 30 - (i % 30) : i % 30) * (0.5 / 30) + (i % 2 ? 0.002 : 0),
      })),
    );
    const overview = await get(tokens.admin!, `deviceId=${id}&window=3d&zoom=4`);
    expect(overview.code).toBe(0);
    const o = decodeTrack(overview.data.track);
    // Every turn that stands out by more than about a pixel at zoom 4 (0.09 degrees) is kept.
    const turns = o.map((p) => Math.round((p.time - o[0]!.time) / 60_000));
    for (let turn = 30; turn <= 1350; turn += 30) expect(turns).toContain(turn);
    expect(o.length).toBeLessThan(200);
    const detail = await get(tokens.admin!, `deviceId=${id}&window=3d&zoom=14&west=130&east=130.6&south=20.2&north=20.4`);
    expect(detail.data.detail).toBe(true);
    const d = decodeTrack(detail.data.track);
    expect(d.length).toBeGreaterThan(150);
    // Only points in the box, plus one neighbour each side of every entry.
    const inside = d.filter((p) => p.lat >= 20.2 && p.lat <= 20.4).length;
    expect(inside).toBeGreaterThanOrEqual(d.length - 2 * (detail.data.cuts.length + 1));
  });

  it('summarises the window: distance, time under way, time online, stops, gaps', async () => {
    const { data } = await get(tokens.oceanic!, `deviceId=${ship}&window=3d`);
    // 320 reports, two runs joined by a gap: 199 + 119 one-minute steps of 0.01 degrees of latitude (0.6 nm).
    expect(data.summary.reports).toBe(320);
    expect(data.summary.gaps).toBe(1);
    expect(data.summary.onlineSeconds).toBe((199 + 119) * 60);
    expect(data.summary.distanceNm).toBeCloseTo(318 * 0.6, 0);
    expect(data.summary.stops).toBe(1);
    expect(data.summary.underWaySeconds).toBe((199 + 119 - 30) * 60);
  });

  it('bounds the windows: presets end now, custom ranges are ordered and at most a month', async () => {
    const week = await get(tokens.oceanic!, `deviceId=${ship}&window=1w`);
    expect(week.data.total).toBe(track.length + 60);
    const month = await get(tokens.oceanic!, `deviceId=${ship}&window=1m`);
    expect(month.data.total).toBe(track.length + 60);
    const from = new Date(Date.now() - 6 * 86_400_000).toISOString();
    const to = new Date(Date.now() - 4 * 86_400_000).toISOString();
    const custom = await get(tokens.oceanic!, `deviceId=${ship}&window=custom&from=${from}&to=${to}`);
    expect(custom.data.total).toBe(60);
    const tooLong = await get(
      tokens.oceanic!,
      `deviceId=${ship}&window=custom&from=${new Date(Date.now() - 40 * 86_400_000).toISOString()}&to=${to}`,
    );
    expect(tooLong.code).toBe(ErrorCode.Validation);
    expect(tooLong.data).toEqual([{ field: 'to', message: 'A custom range can span at most 1 month' }]);
    const reversed = await get(tokens.oceanic!, `deviceId=${ship}&window=custom&from=${to}&to=${from}`, 'zh');
    expect(reversed.data).toEqual([{ field: 'to', message: '结束时间必须晚于开始时间' }]);
    const missing = await get(tokens.oceanic!, `deviceId=${ship}&window=custom&from=${from}`);
    expect(missing.code).toBe(ErrorCode.Validation);
    const badWindow = await get(tokens.oceanic!, `deviceId=${ship}&window=5d`);
    expect(badWindow.code).not.toBe(0);
  });

  it('shows each level only the vessels it may see; a foreign or unknown id is not found', async () => {
    expect((await get(tokens.oceanops!, `deviceId=${ship}`)).code).toBe(0);
    expect((await get(tokens.oceanops!, `deviceId=${ungranted}`)).code).toBe(ErrorCode.NotFound);
    expect((await get(tokens.polaris!, `deviceId=${ship}`)).code).toBe(ErrorCode.NotFound);
    expect((await get(tokens.oceanic!, `deviceId=${polarisShip}`)).code).toBe(ErrorCode.NotFound);
    expect((await get(tokens.oceanic!, 'deviceId=999999')).code).toBe(ErrorCode.NotFound);
    const foreign = await get(tokens.polaris!, `deviceId=${ship}`);
    expect(foreign.data).toBeNull();
    expect((await get(tokens.admin!, `deviceId=${polarisShip}`)).data.total).toBe(30);
    const exp = await s.call({ url: `${s.base}/deviceModule/history/track/export?deviceId=${ship}&format=csv`, token: tokens.polaris! });
    expect(exp.code).toBe(ErrorCode.NotFound);
  });

  it('exports every report as GPX, KML and CSV, gaps splitting the lines', async () => {
    const oceanops = await idOf(s.db, 'oceanops');
    const file = async (format: string) => {
      // One export per user per 10 s (-101, the throttle of the other exports): free the slot.
      await s.db.query('DELETE FROM export_throttle WHERE user_id = $1', [oceanops]);
      const res = await s.app.inject({
        url: `${s.base}/deviceModule/history/track/export?deviceId=${ship}&window=3d&format=${format}&token=${tokens.oceanops}`,
      });
      expect(res.headers['content-disposition']).toMatch(new RegExp(`attachment; filename="track-.*\\.${format}"`));
      return res;
    };
    const gpx = await file('gpx');
    expect(gpx.headers['content-type']).toContain('application/gpx+xml');
    expect(gpx.body.match(/<trkseg>/g)).toHaveLength(2);
    expect(gpx.body.match(/<trkpt /g)).toHaveLength(track.length);
    expect(gpx.body).toContain(`<trkpt lat="10" lon="120"><time>${track[0]!.at.toISOString()}</time></trkpt>`);
    const kml = await file('kml');
    expect(kml.body.match(/<LineString>/g)).toHaveLength(2);
    expect(kml.body).toContain('<name>start</name>');
    expect(kml.body).toContain('120,10 120,10.01');
    const csv = await file('csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('time,latitude,longitude,speed_kn,heading,signal_level,state,after_gap');
    expect(lines).toHaveLength(track.length + 1);
    expect(lines[101]).toBe(`${track[100]!.at.toISOString()},11,120,12,0,70,warn,0`);
    expect(lines[201]!.endsWith(',1')).toBe(true);
    expect(lines.filter((l) => l.endsWith(',1'))).toHaveLength(1);
  });

  it("shares the exports' throttle: another export within 10 s answers -101, whichever list it was", async () => {
    const oceanic = await idOf(s.db, 'oceanic');
    await s.db.query('DELETE FROM export_throttle WHERE user_id = $1', [oceanic]);
    const exportTrack = () =>
      s.app.inject({
        url: `${s.base}/deviceModule/history/track/export?deviceId=${ship}&window=3d&format=csv&token=${tokens.oceanic}&lang=en`,
      });
    const first = await exportTrack();
    expect(first.headers['content-type']).toContain('text/csv');
    const again = await exportTrack();
    expect(again.json()).toMatchObject({
      code: ErrorCode.ExportTooFrequent,
      msg: 'Do not export data frequently. Wait 10 seconds and try again',
    });
    // The device list's export counts too, in both directions.
    const devices = await s.call({ url: `${s.base}/deviceModule/device/export?format=csv`, token: tokens.oceanic!, lang: 'en' });
    expect(devices.code).toBe(ErrorCode.ExportTooFrequent);
    await s.db.query(`UPDATE export_throttle SET last_export_at = now() - interval '11 seconds' WHERE user_id = $1`, [oceanic]);
    expect(
      (await s.app.inject({ url: `${s.base}/deviceModule/device/export?format=csv&token=${tokens.oceanic}` })).headers['content-type'],
    ).toContain('text/csv');
    expect((await exportTrack()).json().code).toBe(ErrorCode.ExportTooFrequent);
    // A refused export (a vessel the user cannot see) takes no slot.
    await s.db.query('DELETE FROM export_throttle WHERE user_id = $1', [oceanic]);
    expect(
      (await s.call({ url: `${s.base}/deviceModule/history/track/export?deviceId=${polarisShip}&format=csv`, token: tokens.oceanic! }))
        .code,
    ).toBe(ErrorCode.NotFound);
    expect((await exportTrack()).headers['content-type']).toContain('text/csv');
  });

  it('refuses a locked track history in the query, the export and the location history', async () => {
    const polarisId = await idOf(s.db, 'polaris');
    const grants = await s.call<{ list: { id: number }[] }>({
      url: `${s.base}/deviceModule/deviceAuth/getAll?enterpriseId=${polarisId}&feature=trackHistory`,
      token: tokens.admin!,
    });
    for (const g of grants.data.list) {
      expect(
        (await s.call({ method: 'DELETE', url: `${s.base}/deviceModule/deviceAuth/deleteById?id=${g.id}`, token: tokens.admin! })).code,
      ).toBe(0);
    }
    const locked = await get(tokens.polaris!, `deviceId=${polarisShip}`);
    expect(locked.code).toBe(ErrorCode.Forbidden);
    expect(locked.msg).toBe('Please contact your service provider to unlock it');
    expect(locked.data).toBeNull();
    const exp = await s.call({
      url: `${s.base}/deviceModule/history/track/export?deviceId=${polarisShip}&format=gpx`,
      token: tokens.polaris!,
      lang: 'zh',
    });
    expect(exp.code).toBe(ErrorCode.Forbidden);
    expect(exp.msg).toBe('请联系您的服务商解锁此功能');
    const loc = await s.call({ url: `${s.base}/deviceModule/history/location?deviceId=${polarisShip}`, token: tokens.polaris! });
    expect(loc.code).toBe(ErrorCode.Forbidden);
    // The admin is never locked out.
    expect((await get(tokens.admin!, `deviceId=${polarisShip}`)).code).toBe(0);
  });

  it("thins the location history to the view and keeps each point's time", async () => {
    const loc = (window: string, zoom: number) =>
      s.call<{ points: [number, number, number, number, number][]; cellDegrees: number }>({
        url: `${s.base}/deviceModule/history/location?deviceId=${ship}&window=${window}&zoom=${zoom}`,
        token: tokens.oceanops!,
      });
    const week = await loc('week', 3);
    expect(week.code).toBe(0);
    const counted = week.data.points.reduce((sum, p) => sum + p[4], 0);
    expect(counted).toBe(track.length + 60);
    expect(week.data.points.length).toBeLessThan(counted / 5);
    const fine = await loc('week', 12);
    expect(fine.data.points.length).toBeGreaterThan(week.data.points.length);
    const year = await loc('year', 3);
    expect(year.data.points.reduce((sum, p) => sum + p[4], 0)).toBe(track.length + 70);
    // Oldest visit first; each with the first and last time in its cell.
    const times = year.data.points.map((p) => p[3]);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The oldest cell is the 40-day-old visit: ten reports at one place.
    expect(year.data.points[0]).toEqual([1, 100, oldest[0]!.at.getTime() / 1000, oldest[9]!.at.getTime() / 1000, 10]);
    expect((await loc('decade', 3)).code).toBe(ErrorCode.Validation);
  });

  describe('hand-typed position (docs/requirements.md §5)', () => {
    const set = (token: string, body: object, lang: 'zh' | 'en' = 'en') =>
      s.call({ method: 'POST', url: `${s.base}/deviceModule/history/manualPosition/set`, token, payload: body, lang });

    it('stores a valid position in signed degrees for levels 1 and 2 in scope', async () => {
      const res = await set(tokens.oceanic!, {
        deviceId: ship,
        longitude: '122.45',
        lonHemisphere: 'W',
        latitude: '8.5',
        latHemisphere: 'S',
      });
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({ lat: -8.5, lon: -122.45, setBy: 'oceanic' });
      const got = await s.call({ url: `${s.base}/deviceModule/history/manualPosition/get?deviceId=${ship}`, token: tokens.oceanops! });
      expect(got.data).toMatchObject({ lat: -8.5, lon: -122.45 });
      expect(
        (await set(tokens.admin!, { deviceId: ship, longitude: '180', lonHemisphere: 'E', latitude: '90.00', latHemisphere: 'N' })).code,
      ).toBe(0);
      const loc = await s.call({ url: `${s.base}/deviceModule/history/location?deviceId=${ship}`, token: tokens.oceanic! });
      expect(loc.data.manual).toMatchObject({ lat: 90, lon: 180 });
      expect(
        (
          await s.call({
            method: 'DELETE',
            url: `${s.base}/deviceModule/history/manualPosition/deleteByDeviceId?deviceId=${ship}`,
            token: tokens.oceanic!,
          })
        ).code,
      ).toBe(0);
      expect(
        (await s.call({ url: `${s.base}/deviceModule/history/manualPosition/get?deviceId=${ship}`, token: tokens.oceanic! })).data,
      ).toBeNull();
    });

    it('refuses out-of-range values, more than two decimals and missing hemispheres, in both languages', async () => {
      const bad = await set(tokens.oceanic!, {
        deviceId: ship,
        longitude: '180.01',
        lonHemisphere: 'E',
        latitude: '12.345',
        latHemisphere: 'X',
      });
      expect(bad.code).toBe(ErrorCode.Validation);
      expect(bad.data).toEqual([
        { field: 'longitude', message: 'Longitude must be a number from 0 to 180 with at most two decimals' },
        { field: 'latitude', message: 'Latitude must be a number from 0 to 90 with at most two decimals' },
        { field: 'latHemisphere', message: 'Choose north (N) or south (S)' },
      ]);
      const zh = await set(tokens.oceanic!, { deviceId: ship, longitude: '-10', latitude: '91', latHemisphere: 'N' }, 'zh');
      expect(zh.data).toEqual([
        { field: 'longitude', message: '经度必须是 0 到 180 之间的数字，最多两位小数' },
        { field: 'lonHemisphere', message: '必填项' },
        { field: 'latitude', message: '纬度必须是 0 到 90 之间的数字，最多两位小数' },
      ]);
      expect(
        (await s.call({ url: `${s.base}/deviceModule/history/manualPosition/get?deviceId=${ship}`, token: tokens.oceanic! })).data,
      ).toBeNull();
    });

    it('lets no sub-user set one, and no one set one on a vessel outside their scope', async () => {
      const body = { deviceId: ship, longitude: '10', lonHemisphere: 'E', latitude: '10', latHemisphere: 'N' };
      expect((await set(tokens.oceanops!, body)).code).toBe(ErrorCode.Forbidden);
      expect((await set(tokens.polaris!, body)).code).toBe(ErrorCode.NotFound);
      expect((await set(tokens.oceanic!, { ...body, deviceId: polarisShip })).code).toBe(ErrorCode.NotFound);
      expect(
        (await s.call({ url: `${s.base}/deviceModule/history/manualPosition/get?deviceId=${ship}`, token: tokens.polaris! })).code,
      ).toBe(ErrorCode.NotFound);
    });
  });
});
