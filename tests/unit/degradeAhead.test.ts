import { describe, expect, it } from 'vitest';
import { latLngToCell } from 'h3-js';
import {
  DEGRADE_CLEAR_CHECKS,
  DEGRADE_CONFIRM_CHECKS,
  DEGRADE_LOOKAHEAD_H,
  DEGRADE_RES,
  DEGRADE_STEP_MIN,
  confirmWarnings,
  degradeAhead,
  projectPath,
  projectPoint,
  type CellFigures,
} from '../../src/domain/degradeAhead';
import { degradeDetail, degradeDetailOf } from '../../src/domain/degradeDetail';
import { alarmMeaning } from '../../src/domain/faultCodes';
import { ownPorts, portNamed } from '../../src/domain/ports';
import { geofenceCentre } from '../../src/domain/geofences';
import { distanceNm } from '../../src/domain/greatCircle';
import { SEA_ROUTES } from '../../server/simulator/seaRoutes';

const GOOD: CellFigures = { samples: 200, lockedPct: 99, medianSnr: 11 };
const POOR: CellFigures = { samples: 200, lockedPct: 40, medianSnr: 3 };
// In the Indian Ocean, heading east at 15 kn on AsiaSat 7 (105.5° E: high there); Intelsat 39 (62° E) is up too.
const VESSEL = { lat: -10, lon: 80, heading: 90, speedKn: 15, satellite: 'AsiaSat 7', hasBackup: false };

/** A coverage where the given cells are poor for AsiaSat 7 and good for Intelsat 39, and everything else good for AsiaSat 7. */
const coverageWith =
  (poor: Set<string>, others: Record<string, CellFigures> = {}) =>
  (satellite: string, cell: string): CellFigures | undefined => {
    if (satellite === 'AsiaSat 7') return poor.has(cell) ? POOR : GOOD;
    return others[satellite];
  };

describe('degradation ahead', () => {
  it('warns at DEGRADE_CONFIRM_CHECKS findings in a row, holds the warning through DEGRADE_CLEAR_CHECKS - 1 misses, and forgets a finding not confirmed', () => {
    let streaks = new Map<string, { found: number; missed: number }>();
    const check = (...found: string[]) => {
      const r = confirmWarnings(streaks, found);
      streaks = r.streaks;
      return { confirmed: [...r.confirmed], held: [...r.held] };
    };
    for (let k = 1; k < DEGRADE_CONFIRM_CHECKS; k++) expect(check('a', 'b')).toEqual({ confirmed: [], held: [] });
    expect(check('a')).toEqual({ confirmed: ['a'], held: [] });
    // b, missed once before its warning stood, starts again from nothing.
    expect(streaks.has('b')).toBe(false);
    for (let k = 1; k < DEGRADE_CLEAR_CHECKS; k++) expect(check()).toEqual({ confirmed: [], held: ['a'] });
    expect(check('a')).toEqual({ confirmed: ['a'], held: [] });
    for (let k = 1; k < DEGRADE_CLEAR_CHECKS; k++) check();
    expect(check()).toEqual({ confirmed: [], held: [] });
    expect(streaks.size).toBe(0);
  });

  it('projects a path along the heading, across the antimeridian too', () => {
    const path = projectPath(-10, 80, 90, 15);
    expect(path).toHaveLength((DEGRADE_LOOKAHEAD_H * 60) / DEGRADE_STEP_MIN);
    expect(path[0]!.minutes).toBe(DEGRADE_STEP_MIN);
    // 15 kn for 6 h = 90 nm = 1.5° of longitude at the equator, a little more at 10° S.
    expect(path.at(-1)!.at[1]).toBeCloseTo(80 + 90 / 60 / Math.cos((10 * Math.PI) / 180), 1);
    const [lat, lon] = projectPoint(-48, 179.5, 90, 20, 3);
    expect(lon).toBeLessThan(-179);
    expect(lat).toBeCloseTo(-48, 0);
    // North at 12 kn for 5 h: 1° of latitude, same longitude.
    expect(projectPoint(10, 100, 0, 12, 5)).toEqual([expect.closeTo(11, 2), expect.closeTo(100, 5)]);
  });

  it('heads for the voyage’s port where the lanes say nothing, ends there, and says nothing of a zone past it', () => {
    // A port 2° north-east of the vessel (about 170 nm): at 15 kn the path turns to it and arrives in about 11 h, past the look-ahead.
    const port = [-8, 82] as const;
    const toward = projectPath(-10, 80, 90, 15, undefined, port);
    expect(toward).toHaveLength((DEGRADE_LOOKAHEAD_H * 60) / DEGRADE_STEP_MIN);
    const distances = [[-10, 80] as const, ...toward.map((p) => p.at)].map((at) => distanceNm(at, port));
    // Every step closes on it by the step's distance (15 kn × 20 min = 5 nm).
    for (let i = 1; i < distances.length; i++) expect(distances[i - 1]! - distances[i]!).toBeCloseTo(5, 0);
    // A port 30 nm ahead is reached in 2 h: the path ends on it then.
    const near = projectPoint(-10, 80, 90, 15, 2);
    const short = projectPath(-10, 80, 90, 15, undefined, near);
    expect(short.at(-1)).toEqual({ minutes: expect.closeTo(120, 1), at: [near[0], near[1]] });
    expect(short.slice(0, -1).map((p) => p.minutes)).toEqual([20, 40, 60, 80, 100]);
    // Across the antimeridian: from 179.6° E to a port at 179.4° W (56 nm), 20 kn closes 6.7 nm a step and arrives in about 2 h 50.
    const across = projectPath(21, 179.6, 90, 20, undefined, [21, -179.4]);
    expect(across.at(-1)).toEqual({ minutes: expect.closeTo((distanceNm([21, 179.6], [21, -179.4]) / 20) * 60, 0), at: [21, -179.4] });
    const left = [[21, 179.6] as const, ...across.map((p) => p.at)].map((at) => distanceNm(at, [21, -179.4]));
    for (let i = 1; i < left.length - 1; i++) expect(left[i - 1]! - left[i]!).toBeCloseTo(20 / 3, 1);
    // A poor zone 4 h ahead on the heading: warned on the way, not when the voyage ends at a port before it.
    const zoneAt = projectPath(VESSEL.lat, VESSEL.lon, VESSEL.heading, VESSEL.speedKn).find((p) => p.minutes === 240)!.at;
    const zone = coverageWith(new Set([latLngToCell(zoneAt[0], zoneAt[1], DEGRADE_RES)]));
    expect(degradeAhead(VESSEL, zone)).not.toBeNull();
    expect(degradeAhead({ ...VESSEL, destination: projectPoint(VESSEL.lat, VESSEL.lon, 90, 15, 2) }, zone)).toBeNull();
  });

  it('names a voyage’s port by its UN/LOCODE, its name or an alias, in English or Chinese', () => {
    for (const text of ['SGSIN', 'sg sin', 'Singapore', ' singapore ', 'Singapore, SG', 'Port of Singapore', '新加坡'])
      expect(portNamed(text)?.locode).toBe('SGSIN');
    expect(portNamed('火奴鲁鲁')?.name).toBe('Honolulu');
    expect(portNamed('New York/New Jersey')?.locode).toBe('USNYC');
    expect(portNamed('Los Angeles/Long Beach')?.locode).toBe('USLAX');
    for (const text of ['Atlantis', '', null, undefined, 'Port of']) expect(portNamed(text)).toBeUndefined();
    // Every demo route's ports are known, where the simulated vessels turn.
    for (const route of SEA_ROUTES)
      for (const [name, end] of [
        [route.from, route.waypoints[0]!],
        [route.to, route.waypoints.at(-1)!],
      ] as const)
        expect(distanceNm(portNamed(name)!.at, end)).toBeLessThan(10);
  });

  it('names a fleet’s own port (its port geofences) first, as the product’s are named, and the product’s beside them', () => {
    const own = ownPorts([
      { name: 'Tarawa Anchorage', at: [1.4, 172.9] },
      { name: 'Colombo', at: [6.9, 79.9] },
      { name: 'Port of Darwin', at: [-12.4, 130.8] },
    ]);
    for (const text of ['Darwin', 'Port of Darwin', 'port of darwin']) expect(portNamed(text, own)?.at).toEqual([-12.4, 130.8]);
    for (const text of ['Tarawa Anchorage', 'tarawa-anchorage', 'Port of Tarawa Anchorage', 'Tarawa Anchorage, KI'])
      expect(portNamed(text, own)?.at).toEqual([1.4, 172.9]);
    expect(portNamed('Tarawa Anchorage')).toBeUndefined();
    // The fleet's own "Colombo" is where its ships go; the product's other ports still count.
    expect(portNamed('Colombo', own)?.at).toEqual([6.9, 79.9]);
    expect(portNamed('LKCMB', own)?.at).toEqual([6.96, 79.8]);
    expect(portNamed('Singapore', own)?.at).toEqual([1.25, 103.95]);
    expect(portNamed('Atlantis', own)).toBeUndefined();
    // A name that is all punctuation names nothing (not even the empty part before the slash of "/Atlantis").
    expect(portNamed('/Atlantis', ownPorts([{ name: 'Port of --', at: [0, 0] }]))).toBeUndefined();
    // A geofence is where it is: a circle's centre, a polygon's mean vertex; none without either.
    expect(geofenceCentre({ shape: 'circle', lat: 1, lon: 2, radiusM: 500 })).toEqual([1, 2]);
    expect(
      geofenceCentre({
        shape: 'polygon',
        points: [
          [0, 0],
          [0, 2],
          [2, 2],
          [2, 0],
        ],
      }),
    ).toEqual([1, 1]);
    expect(
      geofenceCentre({
        shape: 'polygon',
        points: [
          [-1, 179],
          [-1, -179],
          [1, -179],
          [1, 179],
        ],
      }),
    ).toEqual([0, -180]);
    expect(geofenceCentre({ shape: 'polygon', points: [] })).toBeNull();
    expect(geofenceCentre({ shape: 'circle', lat: null, lon: 2 })).toBeNull();
  });

  it('warns of the first poor cell ahead, with the minutes to it and a satellite good there', () => {
    const ahead = projectPath(VESSEL.lat, VESSEL.lon, VESSEL.heading, VESSEL.speedKn);
    const target = ahead.find((p) => p.minutes === 180)!;
    const cell = latLngToCell(target.at[0], target.at[1], DEGRADE_RES);
    const firstMinutes = ahead.find((p) => latLngToCell(p.at[0], p.at[1], DEGRADE_RES) === cell)!.minutes;
    const w = degradeAhead(VESSEL, coverageWith(new Set([cell]), { 'Intelsat 39': GOOD, 'Eutelsat 10B': GOOD }));
    expect(w).toMatchObject({ satellite: 'AsiaSat 7', cell, minutes: firstMinutes, lockedPct: 40, useBackup: false });
    // Eutelsat 10B (10° E) is below 10° of elevation there; Intelsat 39 is suggested.
    expect(w!.suggestion).toBe('Intelsat 39');
    // No other satellite known good there: the backup link, when it has one.
    expect(degradeAhead({ ...VESSEL, hasBackup: true }, coverageWith(new Set([cell])))).toMatchObject({
      suggestion: null,
      useBackup: true,
    });
    expect(degradeAhead(VESSEL, coverageWith(new Set([cell])))).toMatchObject({ suggestion: null, useBackup: false });
  });

  it('says nothing of the cell it is in, a zone behind it, too few reports, a weak edge alone, or when it is not under way; warns of the rim past a weak edge', () => {
    const here = latLngToCell(VESSEL.lat, VESSEL.lon, DEGRADE_RES);
    expect(degradeAhead(VESSEL, coverageWith(new Set([here])))).toBeNull();
    const behind = projectPath(VESSEL.lat, VESSEL.lon, 270, 15).at(-1)!.at;
    expect(degradeAhead(VESSEL, coverageWith(new Set([latLngToCell(behind[0], behind[1], DEGRADE_RES)])))).toBeNull();
    const ahead = projectPath(VESSEL.lat, VESSEL.lon, 90, 15).at(-1)!.at;
    const aheadCell = latLngToCell(ahead[0], ahead[1], DEGRADE_RES);
    const few = (satellite: string, cell: string) => (cell === aheadCell ? { ...POOR, samples: 5 } : GOOD);
    expect(degradeAhead(VESSEL, few)).toBeNull();
    expect(degradeAhead({ ...VESSEL, speedKn: 1 }, coverageWith(new Set([aheadCell])))).toBeNull();
    // A weak median SNR, still locked, is a beam's edge, not yet the loss: the loss is where the
    // fleet reports on other satellites only (past the rim).
    const weakCell = (() => {
      const p = projectPath(VESSEL.lat, VESSEL.lon, 90, 15).find((q) => q.minutes === 120)!.at;
      return latLngToCell(p[0], p[1], DEGRADE_RES);
    })();
    const edge = (satellite: string, cell: string) =>
      satellite === 'AsiaSat 7'
        ? cell === weakCell
          ? { samples: 200, lockedPct: 97, medianSnr: 3 }
          : cell === aheadCell
            ? undefined
            : GOOD
        : undefined;
    expect(degradeAhead(VESSEL, edge)).toBeNull();
    const rim = (satellite: string, cell: string) => (satellite === 'Intelsat 39' && cell === aheadCell ? GOOD : edge(satellite, cell));
    expect(degradeAhead(VESSEL, rim)).toMatchObject({ cell: aheadCell, lockedPct: 0, suggestion: 'Intelsat 39' });
    // Already weak where it is: the rim ahead is enough.
    const plain = (satellite: string, cell: string) =>
      satellite === 'AsiaSat 7' ? (cell === aheadCell ? undefined : GOOD) : cell === aheadCell ? GOOD : undefined;
    expect(degradeAhead(VESSEL, plain)).toBeNull();
    expect(degradeAhead({ ...VESSEL, snr: 3 }, plain)).toMatchObject({ cell: aheadCell });
  });

  it('writes a detail in no language that the console reads back', () => {
    const w = { satellite: 'Eutelsat 117 West B', minutes: 80, lockedPct: 42, suggestion: 'Telstar 19V', useBackup: false };
    expect(degradeDetail(w)).toBe('Eutelsat 117 West B · 80 min · 42 % · → Telstar 19V');
    expect(degradeDetailOf(degradeDetail(w))).toEqual(w);
    const backup = { ...w, suggestion: null, useBackup: true };
    expect(degradeDetailOf(degradeDetail(backup))).toEqual(backup);
    expect(degradeDetailOf('E05 antenna fault')).toBeNull();
  });
});

describe('a degradation warning in words (the alarm list, its exports and the notifications)', () => {
  it('says which satellite, when, how poor it is there and what to do, in either language', () => {
    const repoint = degradeDetail({ satellite: 'AsiaSat 7', minutes: 80, lockedPct: 42, suggestion: 'APSTAR 6D', useBackup: false });
    expect(alarmMeaning('DEGRADE_AHEAD', repoint, 'en')).toBe(
      'Link expected to degrade ahead: AsiaSat 7 in about 1 h 20 min, locked 42 % of the time there · suggested: re-point to APSTAR 6D',
    );
    expect(alarmMeaning('DEGRADE_AHEAD', repoint, 'zh')).toBe(
      '前方链路预计变差：约 1 小时 20 分钟后，AsiaSat 7 在该处的锁定率仅 42% · 建议改指 APSTAR 6D',
    );
    const backup = degradeDetail({ satellite: 'Eutelsat 117 West B', minutes: 45, lockedPct: 0, suggestion: null, useBackup: true });
    expect(alarmMeaning('DEGRADE_AHEAD', backup, 'en')).toBe(
      'Link expected to degrade ahead: Eutelsat 117 West B in about 45 min, locked 0 % of the time there · suggested: switch to the backup link',
    );
    expect(alarmMeaning('DEGRADE_AHEAD', backup, 'zh')).toBe(
      '前方链路预计变差：约 45 分钟后，Eutelsat 117 West B 在该处的锁定率仅 0% · 建议切换到备用链路',
    );
    const none = degradeDetail({ satellite: 'AsiaSat 7', minutes: 125, lockedPct: 60, suggestion: null, useBackup: false });
    expect(alarmMeaning('DEGRADE_AHEAD', none, 'en')).toBe(
      'Link expected to degrade ahead: AsiaSat 7 in about 2 h 5 min, locked 60 % of the time there',
    );
  });

  it('keeps a detail it cannot read as it is, and other alarms’ details untouched', () => {
    expect(alarmMeaning('DEGRADE_AHEAD', 'garbled', 'en')).toBe('Link expected to degrade ahead: garbled');
    expect(alarmMeaning('SIGNAL_LOW', 'AsiaSat 7 · 80 min · 42 %', 'en')).toMatch(/: AsiaSat 7 · 80 min · 42 %$/);
  });
});
