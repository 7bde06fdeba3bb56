import { describe, expect, it } from 'vitest';
import { SimFleet } from '../../server/simulator/fleet';
import { SEA_ROUTES, positionAt, routeGeometry, type LatLon } from '../../server/simulator/seaRoutes';
import { distanceNm } from '../../src/domain/greatCircle';
import { lookAngles } from '../../server/simulator/satellites';
import { reportSchema } from '../../src/domain/reportSchema';
import { validate } from '../../src/domain/validate';

/** Boxes well inside land masses near the routes: [south, north, west, east]. */
const LAND: Record<string, [number, number, number, number]> = {
  'east China': [25, 31, 110, 118.5],
  Taiwan: [22.8, 24.6, 120.6, 121.4],
  Hainan: [18.7, 19.8, 109.0, 110.6],
  'Indochina south': [12, 16, 100, 107.5],
  'Indochina north': [16, 20, 100, 105.5],
  Luzon: [14, 18, 120.5, 122],
  Borneo: [-2, 4, 110, 116],
  'Malay peninsula': [3.8, 5.5, 101.0, 102.8],
  'Sumatra east': [-2, 0.8, 100.8, 103.2],
  'Sumatra north': [2.0, 4.0, 97.0, 98.2],
  'Sri Lanka': [6.5, 9.3, 80.2, 81.5],
  'India south': [10, 15, 77, 79.8],
  'India north': [15, 21, 75, 80],
  'Great Britain': [51.3, 54, -3, 0.3],
  'England south': [50.8, 51.3, -3.5, 0.0],
  France: [44, 49.2, -1, 5],
  Brittany: [47.5, 48.5, -4.3, -1],
  Iberia: [38, 43, -8, -1],
  Netherlands: [52.2, 53, 4.8, 6.5],
  'USA east': [35, 40.2, -100, -74.3],
  'New England': [42, 45, -73, -71.2],
  California: [34.2, 40, -119, -117],
  Baja: [28, 32, -116, -110],
  Oahu: [21.35, 21.6, -158.1, -157.8],
  Molokai: [21.08, 21.18, -157.2, -156.8],
  Maui: [20.6, 20.95, -156.6, -156.1],
  'Big Island': [19.2, 20.1, -155.9, -155.1],
  Brazil: [-22, -5, -50, -42],
  'Sao Paulo coast': [-23.3, -22.0, -47, -44.5],
  'South Africa': [-33.5, -25, 19, 30],
  'Cape Peninsula': [-34.3, -34.0, 18.38, 18.46],
  Africa: [0, 30, -5, 35],
  Newfoundland: [47.5, 51, -58, -53],
  'Nova Scotia': [44, 46, -66, -61],
};
const onLand = ([lat, lon]: LatLon) => Object.entries(LAND).find(([, [s, n, w, e]]) => lat >= s && lat <= n && lon >= w && lon <= e)?.[0];

describe('sea routes', () => {
  it.each(SEA_ROUTES.map((r) => [r.name, r] as const))('%s never crosses a land box (sampled every 2 nm)', (_, route) => {
    const geo = routeGeometry(route);
    expect(geo.lengthNm).toBeGreaterThan(500);
    for (let d = 0; d <= geo.lengthNm; d += 2) {
      const { position } = positionAt(geo, d);
      const land = onLand(position);
      if (land) throw new Error(`${route.name} at ${d.toFixed(0)} nm (${position.join(', ')}) is on ${land}`);
    }
  });

  it('the land check does find land', () => {
    expect(onLand([23.7, 121.0])).toBe('Taiwan');
    expect(onLand([40.0, -80.0])).toBe('USA east');
  });

  it('starts and ends near the named ports', () => {
    const ports: Record<string, LatLon> = {
      Shanghai: [31.2, 121.5],
      Singapore: [1.29, 103.85],
      Colombo: [6.94, 79.84],
      Rotterdam: [51.95, 4.1],
      'New York': [40.6, -74.0],
      'Los Angeles': [33.74, -118.27],
      Honolulu: [21.31, -157.87],
      Santos: [-23.96, -46.33],
      'Cape Town': [-33.91, 18.42],
    };
    for (const r of SEA_ROUTES) {
      expect(distanceNm(r.waypoints[0]!, ports[r.from]!)).toBeLessThan(80);
      expect(distanceNm(r.waypoints[r.waypoints.length - 1]!, ports[r.to]!)).toBeLessThan(80);
    }
  });
});

describe('fleet simulator', () => {
  const devices = Array.from({ length: 20 }, (_, i) => ({ deviceNum: `F1${String(i).padStart(6, '0')}`, secret: 's' }));
  const start = Date.parse('2026-01-01T00:00:00Z');
  const run = (seed: number, rounds: number) => {
    const fleet = new SimFleet(devices, seed, start);
    const all = [];
    for (let r = 1; r <= rounds; r++) all.push(fleet.tick(start + r * 10_000));
    return all;
  };

  it('gives the same reports for the same seed, and others for another seed', () => {
    expect(run(7, 60)).toEqual(run(7, 60));
    expect(run(7, 5)).not.toEqual(run(8, 5));
  });

  it('sends valid reports at 10-22 kn, at sea, with lock losses, faults and outages over a simulated day', () => {
    const fleet = new SimFleet(devices, 1, start);
    let lockLost = 0;
    let faulty = 0;
    let silent = 0;
    let batches = 0;
    const codes = new Set<string>();
    for (let r = 1; r <= 24 * 30; r++) {
      const out = fleet.tick(start + r * 120_000);
      silent += devices.length - out.length;
      for (const { reports } of out) {
        if (reports.length > 1) batches += 1;
        for (const report of reports) {
          const checked = validate(reportSchema, report);
          if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
          expect(report.speed).toBeGreaterThanOrEqual(10);
          expect(report.speed).toBeLessThanOrEqual(22);
          expect(onLand([report.lat, report.lon])).toBeUndefined();
          if (!report.modemLock) lockLost += 1;
          if (report.faults.length) faulty += 1;
          report.faults.forEach((c) => codes.add(c));
        }
      }
    }
    expect(lockLost).toBeGreaterThan(0);
    expect(faulty).toBeGreaterThan(0);
    expect(codes.size).toBeGreaterThan(3);
    expect(silent).toBeGreaterThan(0);
    expect(batches).toBeGreaterThan(0);
  });

  it("carries on from a vessel's latest stored report when it starts again (a restart), not from where its seed put it", () => {
    const first = new SimFleet(devices.slice(0, 10), 1, start);
    const latest = new Map<string, { lat: number; lon: number; heading: number }>();
    for (let r = 1; r <= 6 * 60; r++)
      for (const { device, reports } of first.tick(start + r * 60_000)) {
        const { lat, lon, heading } = reports.at(-1)!;
        latest.set(device.deviceNum, { lat, lon, heading });
      }
    const restartAt = start + 7 * 3_600_000;
    const again = new SimFleet(
      devices.slice(0, 10).map((d) => ({ ...d, lastReport: latest.get(d.deviceNum) })),
      1,
      restartAt,
    );
    let compared = 0;
    for (const { device, reports } of again.tick(restartAt + 10_000)) {
      const before = latest.get(device.deviceNum)!;
      const after = reports.at(-1)!;
      expect(distanceNm([before.lat, before.lon], [after.lat, after.lon])).toBeLessThan(1);
      expect(Math.abs(((after.heading - before.heading + 540) % 360) - 180)).toBeLessThan(20);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(5);
  });

  it('heads along its route', () => {
    const fleet = new SimFleet(devices.slice(0, 1), 3, start);
    const a = fleet.tick(start + 60_000)[0]!.reports.at(-1)!;
    const b = fleet.tick(start + 3_600_000)[0]?.reports.at(-1);
    if (!b) return;
    const moved = distanceNm([a.lat, a.lon], [b.lat, b.lon]);
    expect(moved).toBeGreaterThan(8);
    expect(moved).toBeLessThan(23);
  });

  it('points the antenna south and up from the northern hemisphere towards a satellite on its meridian', () => {
    const look = lookAngles([22, 105.5], 105.5);
    expect(look.azimuth).toBeCloseTo(180, 0);
    expect(look.elevation).toBeGreaterThan(60);
    expect(Math.abs(look.skew)).toBeLessThan(1);
  });
});
