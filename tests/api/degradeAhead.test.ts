import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellToLatLng, latLngToCell } from 'h3-js';
import { createTestServer, engines, type TestServer } from './helpers';
import { ingest, report, reportingDevice } from './monitoringFixtures';
import { checkDegradeAhead } from '../../server/modules/vessel';
import { addCoverageRows } from '../../server/modules/vessel/coverageQueries';
import { SATELLITE_LAYER, SNR_HIST_BUCKETS, snrBucket } from '../../src/domain/coverage';
import { DEGRADE_CLEAR_CHECKS, DEGRADE_CONFIRM_CHECKS, DEGRADE_RES, projectPath, type WarningStreak } from '../../src/domain/degradeAhead';
import { faultInfo } from '../../src/domain/faultCodes';

const AT = { lat: -10, lon: 80 };
const ASIASAT = { name: 'AsiaSat 7', longitude: 105.5 };

describe.each(engines)('degradation ahead on %s', (engine) => {
  let s: TestServer;
  let vessel: { id: number; num: string };
  let zone: string;
  const streaks = new Map<number, WarningStreak>();
  const send = async (heading: number, minutesAgo = 1) => {
    const res = await ingest(s, vessel.num, {
      reports: [report({ ...AT, heading, speed: 15, satellite: ASIASAT, modemLock: true }, new Date(Date.now() - minutesAgo * 60_000))],
    });
    expect(res.code).toBe(0);
  };
  const active = () =>
    s.db.query<{ severity: string; detail: string }>(
      `SELECT severity, detail FROM alarms WHERE device_id = $1 AND code = 'DEGRADE_AHEAD' AND cleared_at IS NULL`,
      [vessel.id],
    );
  beforeAll(async () => {
    s = await createTestServer(engine);
    vessel = await reportingDevice(s.db, 'oceanic', 0);
    // The fleet's coverage: three hours east of the vessel AsiaSat 7 is poor (40 % locked), Intelsat 39 good.
    const ahead = projectPath(AT.lat, AT.lon, 90, 15).find((p) => p.minutes === 180)!.at;
    zone = latLngToCell(ahead[0], ahead[1], DEGRADE_RES);
    const [lat, lon] = cellToLatLng(zone);
    const today = new Date().toISOString().slice(0, 10);
    const hist = (bucket: number) => Array.from({ length: SNR_HIST_BUCKETS }, (_, i) => (i === bucket ? 200 : 0));
    const row = { res: DEGRADE_RES, day: today, kind: SATELLITE_LAYER, cell: BigInt(`0x${zone}`).toString(), lat, lon, samples: 200 };
    await addCoverageRows(s.db, [
      { ...row, satellite: 'AsiaSat 7', locked: 80, hist: hist(snrBucket(3)) },
      { ...row, satellite: 'Intelsat 39', locked: 200, hist: hist(snrBucket(11)) },
    ]);
  });
  afterAll(() => s.close());

  it('warns a vessel heading into a zone where its satellite is poor, suggests another, and keeps one alarm while it closes in', async () => {
    await send(90, 2);
    // Found at the first checks, raised at the DEGRADE_CONFIRM_CHECKS-th in a row.
    for (let check = 1; check < DEGRADE_CONFIRM_CHECKS; check++) {
      expect(await checkDegradeAhead(s.db, streaks)).toMatchObject({ found: 1, warned: 0, raised: 0 });
      expect(await active()).toHaveLength(0);
    }
    expect(await checkDegradeAhead(s.db, streaks)).toMatchObject({ found: 1, warned: 1, raised: 1, cleared: 0 });
    const [alarm] = await active();
    expect(alarm!.severity).toBe('minor');
    expect(alarm!.detail).toMatch(/^AsiaSat 7 · \d+ min · 40 % · → Intelsat 39$/);
    expect(faultInfo('DEGRADE_AHEAD')!.meaning).toEqual({ zh: '前方链路预计变差', en: 'Link expected to degrade ahead' });
    // A second check keeps the same alarm (and refreshes its detail).
    await send(90, 1);
    expect(await checkDegradeAhead(s.db, streaks)).toMatchObject({ warned: 1, raised: 0, kept: 1, cleared: 0 });
    expect(await active()).toHaveLength(1);
  });

  it('holds the warning through a missed check, and clears it once the vessel has turned away for DEGRADE_CLEAR_CHECKS checks', async () => {
    const [before] = await active();
    await send(270, 0);
    // A new leader, its counts empty, starts from the alarm standing: it holds it rather than clearing it.
    expect(await checkDegradeAhead(s.db, new Map())).toMatchObject({ found: 0, held: 1, cleared: 0 });
    expect(await active()).toEqual([before]);
    // Missed at the first checks: the alarm stands as it was (one alarm, one notification, for one zone).
    for (let check = 1; check < DEGRADE_CLEAR_CHECKS; check++) {
      expect(await checkDegradeAhead(s.db, streaks)).toMatchObject({ found: 0, warned: 0, held: 1, cleared: 0 });
      expect(await active()).toEqual([before]);
    }
    // Found again while held: the same alarm goes on, the misses start again.
    await send(90, 0);
    expect(await checkDegradeAhead(s.db, streaks)).toMatchObject({ found: 1, warned: 1, raised: 0, kept: 1, cleared: 0 });
    expect(streaks.get(vessel.id)).toMatchObject({ missed: 0 });
    await send(270, 0);
    for (let check = 1; check < DEGRADE_CLEAR_CHECKS; check++)
      expect(await checkDegradeAhead(s.db, streaks)).toMatchObject({ held: 1, cleared: 0 });
    expect(await checkDegradeAhead(s.db, streaks)).toMatchObject({ found: 0, warned: 0, held: 0, cleared: 1 });
    expect(streaks.size).toBe(0);
    expect(await active()).toHaveLength(0);
  });

  it('heads for the port of the voyage under way, the product’s or the fleet’s own: the zone east is off its way north', async () => {
    await send(90, 0);
    const voyage = (destination: string, etdHours: number, etaHours: number) =>
      s.db.query(
        `INSERT INTO voyages (device_id, voyage_no, destination, etd, eta, agent)
         VALUES ($1, 'V-' || $2, $2, now() + make_interval(hours => $3), now() + make_interval(hours => $4), 'Agent')`,
        [vessel.id, destination, etdHours, etaHours],
      );
    try {
      // A voyage yet to depart, or to a port nobody knows: the path goes on east, into the zone.
      await voyage('Colombo', 2, 40);
      expect(await checkDegradeAhead(s.db, new Map())).toMatchObject({ found: 1 });
      await s.db.query('DELETE FROM voyages WHERE device_id = $1', [vessel.id]);
      await voyage('Atlantis', -10, 40);
      expect(await checkDegradeAhead(s.db, new Map())).toMatchObject({ found: 1 });
      // A port of the fleet's own (a port geofence of its enterprise, 7° north) named as the voyage's
      // destination steers it there, away from the zone; another enterprise's port of that name does not.
      const addPort = async (user: string, points: [number, number][]) =>
        (
          await s.call({
            method: 'POST',
            url: `${s.base}/supportModule/geofence/add`,
            token: await s.login(user),
            payload: { name: 'Atlantis', kind: 'port', shape: 'polygon', points },
          })
        ).code;
      const north: [number, number][] = [
        [-2.9, 79.9],
        [-2.9, 80.1],
        [-3.1, 80.1],
        [-3.1, 79.9],
      ];
      expect(await addPort('polaris', north)).toBe(0);
      expect(await checkDegradeAhead(s.db, new Map())).toMatchObject({ found: 1 });
      expect(await addPort('oceanic', north)).toBe(0);
      expect(await checkDegradeAhead(s.db, new Map())).toMatchObject({ found: 0 });
      // Under way to Colombo (LKCMB, 17° north): the path turns north, away from the zone.
      await s.db.query('DELETE FROM voyages WHERE device_id = $1', [vessel.id]);
      await voyage('Port of Colombo', -10, 40);
      expect(await checkDegradeAhead(s.db, new Map())).toMatchObject({ found: 0 });
    } finally {
      await s.db.query(`DELETE FROM geofences WHERE name = 'Atlantis'`);
      await s.db.query('DELETE FROM voyages WHERE device_id = $1', [vessel.id]);
      await s.db.query(`DELETE FROM alarms WHERE device_id = $1 AND code = 'DEGRADE_AHEAD'`, [vessel.id]);
    }
  });

  it('leaves out a vessel that is not locked, or not under way', async () => {
    const res = await ingest(s, vessel.num, { reports: [report({ ...AT, heading: 90, speed: 1, satellite: ASIASAT }, new Date())] });
    expect(res.code).toBe(0);
    expect(await checkDegradeAhead(s.db, streaks)).toMatchObject({ warned: 0, raised: 0 });
  });
});
