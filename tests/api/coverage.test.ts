import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellToParent, latLngToCell } from 'h3-js';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { ingest, report, reportingDevice } from './monitoringFixtures';
import { ingestAt } from './vesselFixtures';
import { buildCoverage } from '../../server/modules/vessel';
import { coverageBySatellite } from '../../server/modules/vessel/coverageQueries';
import { windowDays } from '../../src/domain/coverage';
import { trafficSince } from '../../server/modules/vessel/trafficQueries';
import { flowCell, flowSector } from '../../src/domain/trafficFlow';

const MIN = 60_000;
const DAY = 1_440 * MIN;
// A spot in the Southern Ocean no demo vessel sails, and one on the antimeridian.
const SPOT = { lat: -55.5, lon: -140.2 };
const DATELINE = { lat: -48.3, lon: 179.5 };
const DATELINE_EAST = -179.5;
const LINK_SPOT = { lat: -60.5, lon: -100.2 };
const CUT_SPOT = { lat: -63.5, lon: 60.2 };
const GONE_SPOT = { lat: -64.5, lon: 80.2 };
const SAT = 'Intelsat 18';
const around = (p: { lat: number; lon: number }) => `south=${p.lat - 1}&west=${p.lon - 1}&north=${p.lat + 1}&east=${p.lon + 1}`;

describe.each(engines)('the fleet coverage map on %s', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  const t0 = Date.now() - 2 * DAY;
  beforeAll(async () => {
    s = await createTestServer(engine);
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await s.login(name);
    // Whatever the test server holds already is counted first: what follows adds to it.
    await buildCoverage(s.db, { settleS: 0 });
    const oceanic = await reportingDevice(s.db, 'oceanic', 0);
    const polaris = await reportingDevice(s.db, 'polaris', 0);
    // 30 locked reports at 11.5 dB (oceanic), 10 unlocked at -3 dB (polaris), all in one cell.
    await ingestAt(
      s,
      oceanic.num,
      Array.from({ length: 30 }, (_, i) => t0 + i * MIN),
      () => ({ ...SPOT, satellite: { name: SAT, longitude: -180 } }),
    );
    await ingestAt(
      s,
      polaris.num,
      Array.from({ length: 10 }, (_, i) => t0 + i * MIN),
      () => ({
        ...SPOT,
        satellite: { name: SAT, longitude: -180 },
        snr: -3,
        modemLock: false,
      }),
    );
    // Five reports either side of the antimeridian, a day later.
    await ingestAt(
      s,
      oceanic.num,
      Array.from({ length: 5 }, (_, i) => t0 + DAY + i * MIN),
      () => ({ ...DATELINE, satellite: { name: SAT, longitude: -180 } }),
    );
    await ingestAt(
      s,
      polaris.num,
      Array.from({ length: 5 }, (_, i) => t0 + DAY + i * MIN),
      () => ({
        lat: DATELINE.lat,
        lon: DATELINE_EAST,
        satellite: { name: SAT, longitude: -180 },
      }),
    );
    expect(await buildCoverage(s.db, { settleS: 0 })).toBe(50);
  });
  afterAll(() => s.close());

  const coverage = (token: string, query: string, lang: 'zh' | 'en' = 'en') =>
    s.call<any>({ url: `${s.base}/deviceModule/vessel/getCoverage?${query}`, token, lang });

  it('gives a cell its reports, locked share and median SNR, at the finest resolution and its parents', async () => {
    const finest = latLngToCell(SPOT.lat, SPOT.lon, 4);
    for (const res of [4, 3, 2]) {
      const r = await coverage(tokens.oceanic!, `window=7d&res=${res}&satellite=${encodeURIComponent(SAT)}&${around(SPOT)}`);
      expect(r.code).toBe(0);
      expect(r.data.res).toBe(res);
      const cell = r.data.cells.find((c: unknown[]) => c[0] === (res === 4 ? finest : cellToParent(finest, res)));
      // 40 reports, 30 of them locked; the middle report sits in the 10-12 dB bucket.
      expect(cell).toEqual([res === 4 ? finest : cellToParent(finest, res), 40, 75, 11]);
    }
  });

  it('counts each report once, however often it runs, and passes over a report with no satellite', async () => {
    // A 4G-only terminal's report carries no satellite: it is no sample of a satellite's sky.
    const polaris = await reportingDevice(s.db, 'polaris', 0);
    await s.db.query(
      `INSERT INTO device_reports (device_id, device_time, received_at, lat, lon, speed, heading, signal_level, snr, modem_lock, tx_on)
       VALUES ($1, now() - interval '3 days', now(), $2, $3, 0, 0, 60, 12, true, true)`,
      [polaris.id, SPOT.lat, SPOT.lon],
    );
    expect(await buildCoverage(s.db, { settleS: 0 })).toBe(0);
    const r = await coverage(tokens.admin!, `window=7d&res=4&satellite=${encodeURIComponent(SAT)}&${around(SPOT)}`);
    expect(r.data.cells.map((c: unknown[]) => c[1])).toEqual([40]);
  });

  it("counts the fleet's traffic from the same reports, once: vessels under way, by cell and heading sector", async () => {
    const traffic = await trafficSince(s.db, 30);
    const spot = flowCell(SPOT.lat, SPOT.lon);
    // The 40 reports at the spot, heading east at 14.5 kn; the 4G terminal's there, stopped, is no traffic.
    expect(traffic.get(`${spot}|${flowSector(90)}`)).toEqual({ samples: 40, east: expect.closeTo(40, 6), north: expect.closeTo(0, 6) });
    expect([...traffic.keys()].filter((k) => k.startsWith(`${spot}|`))).toHaveLength(1);
  });

  it('counts a late report in its own day, which only the longer windows hold', async () => {
    const oceanic = await reportingDevice(s.db, 'oceanic', 0);
    const late = Date.now() - 12 * DAY;
    const res = await ingest(s, oceanic.num, { reports: [report({ ...SPOT, satellite: { name: SAT, longitude: -180 } }, new Date(late))] });
    expect(res.code).toBe(0);
    expect(await buildCoverage(s.db, { settleS: 0 })).toBe(1);
    const q = `res=4&satellite=${encodeURIComponent(SAT)}&${around(SPOT)}`;
    expect((await coverage(tokens.oceanic!, `window=7d&${q}`)).data.cells[0][1]).toBe(40);
    expect((await coverage(tokens.oceanic!, `window=30d&${q}`)).data.cells[0][1]).toBe(41);
  });

  it('keeps the cells either side of the antimeridian when the bounds cross it', async () => {
    const r = await coverage(
      tokens.oceanic!,
      `window=7d&res=4&satellite=${encodeURIComponent(SAT)}&south=-49&west=179&north=-47&east=-179`,
    );
    expect(r.data.cells.map((c: unknown[]) => c[0]).sort()).toEqual(
      [latLngToCell(DATELINE.lat, DATELINE.lon, 4), latLngToCell(DATELINE.lat, DATELINE_EAST, 4)].sort(),
    );
    expect(r.data.cells.every((c: unknown[]) => c[1] === 5)).toBe(true);
    // Bounds that do not cross it leave both out.
    const plain = await coverage(
      tokens.oceanic!,
      `window=7d&res=4&satellite=${encodeURIComponent(SAT)}&south=-49&west=170&north=-47&east=178`,
    );
    expect(plain.data.cells).toEqual([]);
  });

  it('shows every level the whole fleet’s cells, and never a vessel', async () => {
    const q = `window=7d&res=4&satellite=${encodeURIComponent(SAT)}&${around(SPOT)}`;
    const answers = await Promise.all(['admin', 'oceanic', 'oceanops', 'polaris'].map((name) => coverage(tokens[name]!, q)));
    for (const a of answers) expect(a.data.cells).toEqual(answers[0]!.data.cells);
    expect(JSON.stringify(answers[0]!.data)).not.toMatch(/device|vessel|"id"/i);
    expect(answers[0]!.data.satellites).toContain(SAT);
    // All satellites together, the whole world: the three spots' parents.
    const world = await coverage(tokens.oceanops!, 'window=30d&res=2');
    expect(world.data.satellite).toBeNull();
    expect(world.data.minSamples).toBe(20);
    const parents = [
      latLngToCell(SPOT.lat, SPOT.lon, 2),
      latLngToCell(DATELINE.lat, DATELINE.lon, 2),
      latLngToCell(DATELINE.lat, DATELINE_EAST, 2),
    ];
    for (const p of parents) expect(world.data.cells.map((c: unknown[]) => c[0])).toContain(p);
  });

  it('refuses a bad window, resolution or bounds with the field named, in the caller’s language', async () => {
    expect((await coverage(tokens.oceanic!, 'window=1y')).code).toBe(ErrorCode.Validation);
    expect((await coverage(tokens.oceanic!, 'res=9')).code).toBe(ErrorCode.Validation);
    expect((await coverage(tokens.oceanic!, 'south=100&west=0&north=10&east=10')).code).toBe(ErrorCode.Validation);
    const half = await coverage(tokens.oceanic!, 'south=10&west=0', 'zh');
    expect(half.code).toBe(ErrorCode.Validation);
    expect(JSON.stringify(half.data)).toContain('north');
    expect(JSON.stringify(half.data)).toContain('east');
    const upside = await coverage(tokens.oceanic!, 'south=20&west=0&north=10&east=10', 'zh');
    expect(upside.code).toBe(ErrorCode.Validation);
    expect(JSON.stringify(upside)).toContain('南边界不能在北边界以北');
  });

  it("keeps a layer per link kind from the reports' links, apart from the satellites'", async () => {
    // 30 reports of a vBox on Intelsat 18 with LEO standing by (down for the last 10) and 4G out of
    // reach; 10 of a 4G-only router, its 4G up. Far from the other spots.
    const oceanic = await reportingDevice(s.db, 'oceanic', 0);
    const polaris = await reportingDevice(s.db, 'polaris', 0);
    const geo = { id: 'vsat1', kind: 'geo', state: 'up', active: true, snr: 11 };
    const leo = (state: string) => ({ id: 'leo1', kind: 'leo', state, active: false });
    const lte = (state: string, active = false) => ({ id: 'lte1', kind: 'cellular', state, active });
    const t = t0 + 3 * 60 * MIN;
    await ingestAt(
      s,
      oceanic.num,
      Array.from({ length: 30 }, (_, i) => t + i * MIN),
      (ms) => ({
        ...LINK_SPOT,
        satellite: { name: SAT, longitude: -180 },
        links: [geo, leo(ms < t + 20 * MIN ? 'standby' : 'down'), lte('down')],
      }),
    );
    await ingestAt(
      s,
      polaris.num,
      Array.from({ length: 10 }, (_, i) => t + i * MIN),
      () => ({ ...LINK_SPOT, satellite: undefined, azimuth: undefined, elevation: undefined, skew: undefined, links: [lte('up', true)] }),
    );
    expect(await buildCoverage(s.db, { settleS: 0 })).toBe(40);
    const cell = latLngToCell(LINK_SPOT.lat, LINK_SPOT.lon, 4);
    const layer = async (q: string) => (await coverage(tokens.polaris!, `window=7d&res=4&${q}&${around(LINK_SPOT)}`)).data;
    // A link layer's cell: the reports of vessels with such a link there, the share with it available, no SNR.
    const cellular = await layer('link=cellular');
    expect(cellular.link).toBe('cellular');
    expect(cellular.cells).toEqual([[cell, 40, 25, null]]);
    expect((await layer('link=leo')).cells).toEqual([[cell, 30, 67, null]]);
    expect((await layer('link=microwave')).cells).toEqual([]);
    // The satellites' layer counts the satellite's reports only, with and without links.
    expect((await layer(`satellite=${encodeURIComponent(SAT)}`)).cells).toEqual([[cell, 30, 100, 11]]);
    expect((await layer('')).cells.map((c: unknown[]) => c[1])).toEqual([30]);
    // The choices: link kinds with cells, and satellites without the link layers' rows.
    expect(cellular.links).toEqual(['leo', 'cellular']);
    expect(cellular.satellites).not.toContain('');
    // The prediction reads the satellites' cells only.
    const { from, to } = windowDays(7);
    const bySatellite = await coverageBySatellite(s.db, 4, from, to);
    expect(bySatellite.get(`${SAT}|${cell}`)).toMatchObject({ samples: 30, lockedPct: 100 });
    expect([...bySatellite.keys()].filter((k) => k.startsWith('|'))).toEqual([]);
    // A satellite and a link kind at once, or an unknown kind, is refused.
    const both = await coverage(tokens.polaris!, `link=leo&satellite=${encodeURIComponent(SAT)}`, 'zh');
    expect(both.code).toBe(ErrorCode.Validation);
    expect(JSON.stringify(both)).toContain('请选择卫星或链路类型，不能同时选择');
    expect((await coverage(tokens.polaris!, 'link=geo')).code).toBe(ErrorCode.Validation);
  });

  /** A build of a row a step whose second step fails, as a crash would cut it (a trigger refuses recording it). */
  const buildCutAtSecondStep = async () => {
    await s.db.exec(`CREATE FUNCTION cut_coverage() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.batch_done = 2 THEN RAISE EXCEPTION 'cut'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER cut BEFORE UPDATE ON coverage_state FOR EACH ROW EXECUTE FUNCTION cut_coverage()`);
    try {
      await expect(buildCoverage(s.db, { settleS: 0, addStep: 1 })).rejects.toThrow(/cut/);
    } finally {
      await s.db.exec('DROP TRIGGER cut ON coverage_state; DROP FUNCTION cut_coverage()');
    }
  };

  it('finishes a batch cut short where it stopped, counting each report once', async () => {
    const oceanic = await reportingDevice(s.db, 'oceanic', 0);
    await ingestAt(
      s,
      oceanic.num,
      Array.from({ length: 30 }, (_, i) => t0 + 6 * 60 * MIN + i * MIN),
      () => ({ ...CUT_SPOT, satellite: { name: SAT, longitude: -180 } }),
    );
    // A row a step: the cells at resolutions 2, 3 and 4, then the traffic; the second step fails.
    await buildCutAtSecondStep();
    const [state] = await s.db.query<{ batch_done: number; pending: boolean }>(
      'SELECT batch_done, batch_received IS NOT NULL AS pending FROM coverage_state',
    );
    expect(state).toEqual({ batch_done: 1, pending: true });
    expect(await buildCoverage(s.db, { settleS: 0, addStep: 1 })).toBe(30);
    const finest = latLngToCell(CUT_SPOT.lat, CUT_SPOT.lon, 4);
    for (const res of [4, 3, 2]) {
      // Bounds wide enough to hold the centre of a resolution-2 cell (about 160 km across).
      const wide = `south=${CUT_SPOT.lat - 3}&west=${CUT_SPOT.lon - 5}&north=${CUT_SPOT.lat + 3}&east=${CUT_SPOT.lon + 5}`;
      const r = await coverage(tokens.oceanic!, `window=7d&res=${res}&satellite=${encodeURIComponent(SAT)}&${wide}`);
      expect(r.data.cells.map((c: unknown[]) => [c[0], c[1]])).toEqual([[res === 4 ? finest : cellToParent(finest, res), 30]]);
    }
    const traffic = await trafficSince(s.db, 30);
    expect(traffic.get(`${flowCell(CUT_SPOT.lat, CUT_SPOT.lon)}|${flowSector(90)}`)?.samples).toBe(30);
    expect(await s.db.query('SELECT batch_done FROM coverage_state WHERE batch_received IS NULL')).toEqual([{ batch_done: 0 }]);
  });

  it('moves past a batch cut short whose reports are gone since, and counts the next ones', async () => {
    const oceanic = await reportingDevice(s.db, 'oceanic', 0);
    const at = (i: number) => t0 + 9 * 60 * MIN + i * MIN;
    await ingestAt(
      s,
      oceanic.num,
      Array.from({ length: 10 }, (_, i) => at(i)),
      () => ({ ...GONE_SPOT, satellite: { name: SAT, longitude: -180 } }),
    );
    await buildCutAtSecondStep();
    // The batch's reports deleted meanwhile (as retention or a vessel's deletion would).
    await s.db.query('DELETE FROM device_reports WHERE lat = $1 AND lon = $2', [GONE_SPOT.lat, GONE_SPOT.lon]);
    expect(await buildCoverage(s.db, { settleS: 0, addStep: 1 })).toBe(0);
    expect(await s.db.query('SELECT batch_done FROM coverage_state WHERE batch_received IS NULL')).toEqual([{ batch_done: 0 }]);
    await ingestAt(s, oceanic.num, [at(20)], () => ({ ...GONE_SPOT, satellite: { name: SAT, longitude: -180 } }));
    expect(await buildCoverage(s.db, { settleS: 0 })).toBe(1);
  });

  it('answers nobody without a session', async () => {
    expect((await s.call<any>({ url: `${s.base}/deviceModule/vessel/getCoverage` })).code).not.toBe(0);
  });
});
