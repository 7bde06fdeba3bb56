import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createTestServer, type TestServer } from './helpers';
import { issueDemoSecrets } from '../../server/simulator/demoDevices';
import { SimFleet } from '../../server/simulator/fleet';
import { SEA_ROUTES, type LatLon } from '../../server/simulator/seaRoutes';
import { distanceNm } from '../../src/domain/greatCircle';
import { buildCoverage, checkDegradeAhead } from '../../server/modules/vessel';
import { degradeDetailOf } from '../../src/domain/degradeDetail';
import type { WarningStreak } from '../../src/domain/degradeAhead';

/** The ports of the demo's sea lanes, where their routes begin and end. */
const PORTS = new Map<string, LatLon>(
  SEA_ROUTES.flatMap((r) => [[r.from, r.waypoints[0]!] as const, [r.to, r.waypoints.at(-1)!] as const]),
);

/** The demo tells a story on first start (server/db/seedStory.ts). */
describe('demo story seed', () => {
  let server: TestServer;
  beforeAll(async () => {
    const before = process.env.SEED_STORY;
    process.env.SEED_STORY = '1';
    try {
      server = await createTestServer('pglite');
    } finally {
      if (before === undefined) delete process.env.SEED_STORY;
      else process.env.SEED_STORY = before;
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('gives every activated demo vessel a month of reports, the newest 7 days every 10 minutes', async () => {
    const rows = await server.db.query<{ id: number; n: number; days: number; recent: number }>(
      `SELECT d.id, count(r.*)::int AS n, (extract(epoch FROM max(r.device_time) - min(r.device_time)) / 86400)::float8 AS days,
              (count(*) FILTER (WHERE r.device_time > max_t.t - interval '2 days'))::int AS recent
         FROM devices d JOIN device_reports r ON r.device_id = d.id
         JOIN LATERAL (SELECT max(device_time) AS t FROM device_reports WHERE device_id = d.id) max_t ON true
        WHERE d.activated GROUP BY d.id`,
    );
    const [{ activated }] = await server.db.query<{ activated: number }>('SELECT count(*)::int AS activated FROM devices WHERE activated');
    expect(rows.length).toBe(activated);
    for (const r of rows) {
      expect(r.days).toBeGreaterThan(29);
      expect(r.recent).toBeGreaterThan(130); // 288 slots, less the silent spells
    }
  });

  it("runs every activated vessel's history without a gap up to the start, and its first live report carries on from there", async () => {
    const rows = await server.db.query<{ id: number; name: string; emptyHours: number; newestAgoS: number; lat: number; lon: number }>(
      `SELECT d.id, d.name, extract(epoch FROM now() - s.reported_at)::float8 AS "newestAgoS", s.lat, s.lon,
              (SELECT count(*) FROM generate_series(0, 23) h WHERE NOT EXISTS (SELECT 1 FROM device_reports r WHERE r.device_id = d.id
                  AND r.device_time > now() - (h + 1) * interval '1 hour' AND r.device_time <= now() - h * interval '1 hour'))::int AS "emptyHours"
         FROM devices d JOIN device_state s ON s.device_id = d.id WHERE d.activated ORDER BY d.id`,
    );
    const [{ activated }] = await server.db.query<{ activated: number }>('SELECT count(*)::int AS activated FROM devices WHERE activated');
    expect(rows.length).toBe(activated);
    for (const r of rows) {
      expect({ name: r.name, emptyHours: r.emptyHours }).toEqual({ name: r.name, emptyHours: 0 });
      expect(r.newestAgoS).toBeLessThan(600);
    }
    // The demo fleet as the server starts it (server/simulator/startDemo.ts): its first reports are where the history ends.
    const devices = await issueDemoSecrets(server.db);
    const now = Date.now();
    const first = new SimFleet(devices, 1, now).tick(now + 10_000);
    expect(first.length).toBeGreaterThan(rows.length / 2);
    for (const { device, reports } of first) {
      const stored = rows[devices.findIndex((d) => d.deviceNum === device.deviceNum)]!;
      expect(distanceNm([stored.lat, stored.lon], [reports.at(-1)!.lat, reports.at(-1)!.lon])).toBeLessThan(2);
    }
  });

  it('shows a vessel reporting up to the start as online through the last days (Pacific Star)', async () => {
    const token = await server.login('oceanic');
    const [{ id }] = await server.db.query<{ id: number }>(`SELECT id FROM devices WHERE name = 'Pacific Star'`);
    const res = await server.call<{ list: { date: string; availability: number }[] }>({
      method: 'GET',
      url: `${server.base}/deviceModule/statistics/getDaily?id=${id}&days=5`,
      token,
    });
    expect(res.code).toBe(0);
    // Today is cut at now; the days before are whole.
    for (const day of res.data.list.slice(-3)) expect({ date: day.date, ok: day.availability > 0.8 }).toEqual({ date: day.date, ok: true });
  });

  it("sails each vessel's current voyage towards its destination, due when its speed gets it there", async () => {
    const rows = await server.db.query<{
      name: string;
      destination: string;
      etaH: number;
      etdH: number;
      lat: number;
      lon: number;
      heading: number;
      lat3: number | null;
      lon3: number | null;
    }>(
      `SELECT d.name, v.destination, extract(epoch FROM v.eta - now())::float8 / 3600 AS "etaH", extract(epoch FROM now() - v.etd)::float8 / 3600 AS "etdH",
              s.lat, s.lon, s.heading::float8 AS heading, p.lat AS lat3, p.lon AS lon3
         FROM devices d JOIN device_state s ON s.device_id = d.id
         JOIN voyages v ON v.device_id = d.id AND v.etd < now() AND v.eta > now()
         LEFT JOIN LATERAL (SELECT r.lat, r.lon FROM device_reports r WHERE r.device_id = d.id AND r.device_time <= now() - interval '3 hours'
                              AND r.device_time >= v.etd ORDER BY r.device_time DESC LIMIT 1) p ON true
        WHERE d.activated ORDER BY d.id`,
    );
    const [{ activated }] = await server.db.query<{ activated: number }>('SELECT count(*)::int AS activated FROM devices WHERE activated');
    expect(rows.length).toBe(activated); // one voyage under way each
    for (const r of rows) {
      const port = PORTS.get(r.destination);
      expect(port, r.destination).toBeDefined();
      const left = distanceNm([r.lat, r.lon], port!);
      // Closer to its destination than three hours ago (when it had left its last port by then).
      if (r.lat3 !== null && r.lon3 !== null) expect(left, r.name).toBeLessThan(distanceNm([r.lat3, r.lon3], port!));
      // Due after now, at a speed a vessel makes (the route is longer than the great circle).
      expect(r.etaH).toBeGreaterThan(0);
      expect(left / r.etaH, r.name).toBeGreaterThan(5);
      expect(left / r.etaH, r.name).toBeLessThan(22);
      expect(r.etdH).toBeGreaterThan(0);
    }
  });

  it('starts no two demo vessels on the same spot', async () => {
    const rows = await server.db.query<{ name: string; lat: number; lon: number }>(
      `SELECT d.name, s.lat, s.lon FROM devices d JOIN device_state s ON s.device_id = d.id WHERE d.activated`,
    );
    let nearest = { km: Infinity, pair: '' };
    for (const [i, a] of rows.entries())
      for (const b of rows.slice(i + 1)) {
        const km = distanceNm([a.lat, a.lon], [b.lat, b.lon]) * 1.852;
        if (km < nearest.km) nearest = { km, pair: `${a.name} / ${b.name}` };
      }
    expect(nearest.km, nearest.pair).toBeGreaterThan(50);
  });

  it("warns, at its third check, the vessel the story sails towards the rim of its satellite's beam (degradation ahead)", async () => {
    // As the leader does after a fresh start (server/simulator/startDemo.ts): the month of history
    // counted into the coverage, then a check every 5 minutes; a warning stands at the third in a row.
    expect(await buildCoverage(server.db, { budgetMs: 120_000, settleS: 0 })).toBeGreaterThan(10_000);
    const streaks = new Map<number, WarningStreak>();
    for (let check = 1; check <= 3; check++) await checkDegradeAhead(server.db, streaks);
    const alarms = await server.db.query<{ name: string; kind: string; detail: string; satellite: string }>(
      `SELECT d.name, d.device_kind AS kind, a.detail, s.satellite_name AS satellite FROM alarms a
         JOIN devices d ON d.id = a.device_id JOIN device_state s ON s.device_id = d.id
        WHERE a.code = 'DEGRADE_AHEAD' AND a.cleared_at IS NULL`,
    );
    expect(alarms.length).toBeGreaterThan(0);
    // The story's vBox on Los Angeles - Honolulu, still on the satellite whose beam it sails out of.
    const story = alarms.find((a) => a.kind === 'vbox' && a.satellite === 'Eutelsat 117 West B');
    expect(story, JSON.stringify(alarms)).toBeDefined();
    const detail = degradeDetailOf(story!.detail)!;
    expect(detail.satellite).toBe('Eutelsat 117 West B');
    expect(detail.minutes).toBeGreaterThan(30);
    expect(detail.minutes).toBeLessThanOrEqual(360);
  });

  it('has each kind report what it has: a 4G router its 4G signal and no satellite pointing, a VSAT terminal its pointing', async () => {
    const kinds = await server.db.query<{ kind: string; n: number; lte: number; pointing: number }>(
      `SELECT d.device_kind AS kind, count(*)::int AS n, count(r.lte_signal)::int AS lte,
              count(*) FILTER (WHERE r.azimuth IS NOT NULL OR r.elevation IS NOT NULL OR r.skew IS NOT NULL OR r.satellite_name IS NOT NULL)::int AS pointing
         FROM devices d JOIN device_reports r ON r.device_id = d.id WHERE d.activated GROUP BY 1`,
    );
    const of = (kind: string) => kinds.find((k) => k.kind === kind)!;
    expect(of('4g').n).toBeGreaterThan(0);
    expect(of('4g')).toMatchObject({ lte: of('4g').n, pointing: 0 });
    expect(of('vsat')).toMatchObject({ lte: 0, pointing: of('vsat').n });
    // Nor does it raise the antenna's or the satellite modem's faults (only its mainboard's firmware, E90).
    const [routerFaults] = await server.db.query<{ codes: string[] }>(
      `SELECT coalesce(array_agg(DISTINCT a.code), '{}') AS codes FROM alarms a JOIN devices d ON d.id = a.device_id
        WHERE d.device_kind = '4g' AND a.code ~ '^E[0-9]+$'`,
    );
    expect(routerFaults!.codes.filter((c) => c !== 'E90')).toEqual([]);
    // Live: a 4G router's first report goes through the ingest without pointing and is stored so.
    const devices = await issueDemoSecrets(server.db);
    const [router] = await server.db.query<{ num: string; id: number }>(
      `SELECT device_num AS num, id FROM devices WHERE activated AND device_kind = '4g' AND device_num LIKE 'A1%' ORDER BY id LIMIT 1`,
    );
    const now = Date.now();
    const sent = new SimFleet(devices, 1, now).tick(now).find((f) => f.device.deviceNum === router!.num)!;
    const report = sent.reports.at(-1)!;
    expect(report).not.toHaveProperty('azimuth');
    expect(report).not.toHaveProperty('satellite');
    expect(report.lteSignal).toEqual(expect.any(Number));
    const res = await server.app.inject({
      method: 'POST',
      url: `${server.base}/deviceModule/ingest/report`,
      headers: { 'x-device-num': sent.device.deviceNum, 'x-device-secret': sent.device.secret },
      payload: report,
    });
    expect(res.json()).toMatchObject({ code: 0 });
    const [stored] = await server.db.query<Record<string, unknown>>(
      `SELECT azimuth, elevation, skew, satellite_name AS "satelliteName", lte_signal AS "lteSignal" FROM device_state WHERE device_id = $1`,
      [router!.id],
    );
    expect(stored).toEqual({ azimuth: null, elevation: null, skew: null, satelliteName: null, lteSignal: report.lteSignal });
  });

  it('raises and clears faults, keeps the latest state, rolls up hours and lists voyages', async () => {
    const [c] = await server.db.query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM alarms WHERE cleared_at IS NOT NULL)::int AS cleared, (SELECT count(*) FROM device_state)::int AS states,
              (SELECT count(*) FROM report_hourly)::int AS hourly, (SELECT count(*) FROM voyages WHERE eta > now() AND etd < now())::int AS underway,
              (SELECT count(DISTINCT round(lon::numeric)) FROM device_state)::int AS places`,
    );
    expect(c!.cleared).toBeGreaterThan(100);
    expect(c!.states).toBeGreaterThan(30);
    expect(c!.hourly).toBeGreaterThan(10_000);
    expect(c!.underway).toBeGreaterThan(30);
    expect(c!.places).toBeGreaterThan(10);
  });

  it('has firmware with a finished and a running rollout, after-sales reports, a camera and extra links', async () => {
    const [c] = await server.db.query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM firmware_packages)::int AS fw,
              (SELECT count(*) FROM firmware_rollouts r WHERE NOT EXISTS (SELECT 1 FROM firmware_rollout_targets t WHERE t.rollout_id = r.id AND t.state NOT IN ('updated', 'failed')))::int AS finished,
              (SELECT count(*) FROM firmware_rollouts r WHERE EXISTS (SELECT 1 FROM firmware_rollout_targets t WHERE t.rollout_id = r.id AND t.state IN ('queued', 'downloading', 'updating')))::int AS running,
              (SELECT count(*) FROM after_sales_reports)::int AS aftersales, (SELECT count(*) FROM cameras)::int AS cameras,
              (SELECT count(*) FROM extra_links)::int AS links`,
    );
    expect(c).toMatchObject({ fw: 4, finished: 1, running: 1 });
    expect(c!.aftersales).toBeGreaterThan(0);
    expect(c!.cameras).toBeGreaterThan(0);
    expect(c!.links).toBe(2);
  });

  it('gives the demo firmware packages real files: a vessel of the running rollout downloads the listed bytes', async () => {
    const packages = await server.db.query<{ key: string }>('SELECT storage_key AS key FROM firmware_packages');
    expect(packages.length).toBe(4);
    for (const p of packages) expect(p.key).toMatch(/^[0-9a-f-]{36}\.bin$/);
    const [target] = await server.db.query<{ num: string; rolloutId: number; size: string; sha256: string }>(
      `SELECT d.device_num AS num, t.rollout_id AS "rolloutId", p.file_size::text AS size, p.sha256
         FROM firmware_rollout_targets t JOIN devices d ON d.id = t.device_id JOIN firmware_rollouts r ON r.id = t.rollout_id
         JOIN firmware_packages p ON p.id = r.firmware_id WHERE t.state = 'downloading' LIMIT 1`,
    );
    const secret = (await issueDemoSecrets(server.db)).find((d) => d.deviceNum === target!.num)!.secret;
    const res = await server.app.inject({
      method: 'GET',
      url: `${server.base}/deviceModule/firmware/device/download?rolloutId=${target!.rolloutId}`,
      headers: { 'x-device-num': target!.num, 'x-device-secret': secret },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(Number(target!.size));
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(target!.sha256);
  });
});
