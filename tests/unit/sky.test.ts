import { describe, expect, it } from 'vitest';
import { beamDistance, beamLossDb, beamsOf, mastShadow, rainFadeDb, skyAt } from '../../server/simulator/sky';
import { lookAngles } from '../../server/simulator/satellites';
import { SATELLITES } from '../../src/domain/satellites';
import { SimVessel } from '../../server/simulator/vessel';

const SAT = SATELLITES[0]!; // AsiaSat 7, 105.5° E
const HOUR = 3_600_000;

describe('the simulated sky', () => {
  it('lights each satellite’s beams the same way every time, weaker towards the rim and dark outside', () => {
    expect(beamsOf(SAT)).toEqual(beamsOf({ ...SAT }));
    expect(beamsOf(SAT, 2)).not.toEqual(beamsOf(SAT));
    const [north] = beamsOf(SAT);
    const centre: [number, number] = [north!.lat, north!.lon];
    expect(beamDistance(SAT, centre)).toBe(0);
    expect(beamLossDb(SAT, centre)).toBe(0);
    // Along the beam's north-south axis: the inner part clear, the edge weaker and weaker, then nothing.
    const at = (share: number): [number, number] => [north!.lat + north!.rLat * share, north!.lon];
    const inner = beamLossDb(SAT, at(0.5));
    const edge = [0.85, 0.9, 0.95, 0.99].map((k) => beamLossDb(SAT, at(k))!);
    expect(inner).toBe(0);
    for (let i = 1; i < edge.length; i++) expect(edge[i]).toBeGreaterThan(edge[i - 1]!);
    expect(edge[3]).toBeGreaterThan(7);
    expect(beamLossDb(SAT, at(1.05))).toBeNull();
  });

  it('grows rain cells that form, drift and die', () => {
    // Find a rain cell somewhere over a week, then follow it.
    let found: { at: [number, number]; t: number } | null = null;
    const t0 = Date.UTC(2026, 10, 1);
    for (let t = t0; t < t0 + 7 * 24 * HOUR && !found; t += HOUR)
      for (let lat = -40; lat <= 40 && !found; lat += 2)
        for (let lon = -180; lon < 180 && !found; lon += 2) if (rainFadeDb([lat, lon], t) > 6) found = { at: [lat, lon], t };
    expect(found, 'a rain cell within a week').not.toBeNull();
    const { at, t } = found!;
    // It is the same rain each time it is asked, gone a day later, and not there 6 hours before.
    expect(rainFadeDb(at, t)).toBe(rainFadeDb([...at], t));
    expect(rainFadeDb(at, t + 24 * HOUR)).toBeLessThan(0.5);
    expect(rainFadeDb(at, t - 6 * HOUR)).toBeLessThan(rainFadeDb(at, t));
    // It drifts: within 3 hours the fade at the spot changes.
    const later = [1, 2, 3].map((h) => rainFadeDb(at, t + h * HOUR));
    expect(later.some((f) => Math.abs(f - rainFadeDb(at, t)) > 1)).toBe(true);
  });

  it('blocks a low satellite behind the mast, at that relative bearing only', () => {
    const { centre, width } = mastShadow(3);
    expect(width).toBeGreaterThanOrEqual(10);
    // A spot in the beam where AsiaSat 7 is low (under 35°) but held.
    const [beam] = beamsOf(SAT);
    const spot: [number, number] = [beam!.lat, beam!.lon + beam!.rLon * 0.6];
    const look = lookAngles(spot, SAT.longitude);
    expect(look.elevation).toBeLessThan(35);
    const facing = (look.azimuth - centre + 360) % 360; // the satellite dead in the mast's shadow
    const t = Date.UTC(2026, 0, 1);
    expect(skyAt(SAT, spot, { t, heading: facing, vesselIndex: 3 }).cause).toBe('blockage');
    const clear = skyAt(SAT, spot, { t, heading: (facing + 90) % 360, vesselIndex: 3 });
    expect(clear.cause).not.toBe('blockage');
    expect(clear.locked).toBe(true);
  });
});

describe('a simulated terminal under that sky', () => {
  it('moves to another satellite when it loses its own (beam edge, mast shadow), and is down 5-12 minutes while it re-acquires', () => {
    const start = Date.UTC(2026, 10, 1);
    const switches: { downMinutes: number }[] = [];
    for (let index = 0; index < 12 && switches.length < 3; index++) {
      const vessel = new SimVessel(index, 1, start, undefined, 'vsat');
      let satellite: string | null = null;
      let switchedAt: number | null = null;
      for (let m = 1; m <= 3 * 1440; m++) {
        const now = start + m * 60_000;
        const report = vessel.tick(now).at(-1);
        if (!report) continue;
        if (satellite && report.satellite!.name !== satellite && switchedAt === null) switchedAt = now;
        satellite = report.satellite!.name;
        if (switchedAt !== null && report.modemLock) {
          switches.push({ downMinutes: (now - switchedAt) / 60_000 });
          switchedAt = null;
        }
      }
    }
    expect(switches.length).toBeGreaterThan(0);
    for (const s of switches) {
      expect(s.downMinutes).toBeGreaterThanOrEqual(4);
      expect(s.downMinutes).toBeLessThanOrEqual(13);
    }
  });
});
