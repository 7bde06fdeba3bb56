import { describe, expect, it } from 'vitest';
import { encodeTrack, gapStarts, simplifyTrack, type TrackColumns } from '../../server/modules/history/simplify';
import { summarise } from '../../server/modules/history/trackQueries';
import { decodeTrack } from '../../src/domain/track';
import { fromSigned, positionSchema, toSigned } from '../../src/domain/position';
import { validate } from '../../src/domain/validate';

const columns = (
  n: number,
  at: (i: number) => { lat: number; lon: number; state?: number; minute?: number; speed?: number },
): TrackColumns => {
  const c: TrackColumns = { t: [], lat: [], lon: [], speed: [], heading: [], signal: [], state: [] };
  for (let i = 0; i < n; i += 1) {
    const p = at(i);
    (c.t as number[]).push((p.minute ?? i) * 60_000 + 1_700_000_000_000);
    (c.lat as number[]).push(p.lat);
    (c.lon as number[]).push(p.lon);
    (c.speed as number[]).push(p.speed ?? 10);
    (c.heading as number[]).push(90);
    (c.signal as number[]).push(70);
    (c.state as number[]).push(p.state ?? 1);
  }
  return c;
};

describe('track simplification', () => {
  it('drops collinear points but keeps first, last, both sides of state changes and gaps', () => {
    const c = columns(1000, (i) => ({ lat: 0, lon: 100 + i * 0.01, state: i >= 400 && i < 420 ? 2 : 1, minute: i < 700 ? i : i + 30 }));
    const gaps = gapStarts(c.t, 10 * 60_000);
    expect(gaps).toEqual([700]);
    const { indices } = simplifyTrack(c, gaps, 3);
    expect(indices).toEqual([0, 399, 400, 419, 420, 699, 700, 999]);
  });

  it('doubles the tolerance until the track fits the cap, never dropping mandatory points', () => {
    const c = columns(5000, (i) => ({ lat: Math.sin(i / 3) * 0.5, lon: 100 + i * 0.001, state: i === 2500 ? 2 : 1 }));
    const fine = simplifyTrack(c, [], 18);
    const capped = simplifyTrack(c, [], 18, 500);
    expect(fine.indices.length).toBeGreaterThan(500);
    expect(capped.indices.length).toBeLessThanOrEqual(500);
    expect(capped.toleranceDegrees).toBeGreaterThan(fine.toleranceDegrees);
    for (const i of [0, 2499, 2500, 2501, 4999]) expect(capped.indices).toContain(i);
  });

  it('does not draw a line across the world at the antimeridian', () => {
    const c = columns(200, (i) => ({ lat: 10, lon: ((179 + i * 0.01 + 180) % 360) - 180 }));
    const { indices } = simplifyTrack(c, [], 3);
    // A straight line eastwards across 180°: only its ends are needed.
    expect(indices).toEqual([0, 199]);
  });

  it('encodes compactly and decodes to the same points, breaks after gaps', () => {
    const c = columns(50, (i) => ({
      lat: -33.12345 + i * 0.001,
      lon: 151.2 - i * 0.002,
      minute: i < 25 ? i : i + 60,
      state: i % 10 === 0 ? 2 : 1,
    }));
    const gaps = gapStarts(c.t, 10 * 60_000);
    const all = Array.from({ length: 50 }, (_, i) => i);
    const points = decodeTrack(encodeTrack(c, all, gaps));
    expect(points).toHaveLength(50);
    expect(points[25]!.afterGap).toBe(true);
    expect(points.filter((p) => p.afterGap)).toHaveLength(1);
    for (const [i, p] of points.entries()) {
      expect(p.time).toBe(c.t[i]);
      expect(p.lat).toBeCloseTo(c.lat[i]!, 5);
      expect(p.lon).toBeCloseTo(c.lon[i]!, 5);
      expect(p.state).toBe(c.state[i]);
    }
    // A gap between two kept points that are not neighbours is still marked.
    const sparse = decodeTrack(encodeTrack(c, [0, 10, 40, 49], gaps));
    expect(sparse.map((p) => p.afterGap)).toEqual([false, false, true, false]);
  });

  it('summarises distance, time online and stops without crossing gaps', () => {
    // 61 reports a minute apart along a meridian (0.01° = 0.6 nm each), slow for 20 minutes in the middle.
    const c = columns(61, (i) => ({ lat: i * 0.01, lon: 0, speed: i >= 20 && i < 40 ? 0.2 : 10 }));
    const s = summarise(c, []);
    expect(s.distanceNm).toBeCloseTo(36, 0);
    expect(s.onlineSeconds).toBe(3600);
    expect(s.underWaySeconds).toBe(40 * 60);
    expect(s.stops).toBe(1);
  });
});

describe('hand-typed position rule', () => {
  const check = (p: object) => validate(positionSchema, p);
  it('accepts 0-180 E/W and 0-90 N/S with at most two decimals', () => {
    for (const [lon, lat] of [
      ['0', '0'],
      ['180', '90'],
      ['114.2', '22.30'],
      ['7.05', '89.99'],
    ]) {
      expect(check({ longitude: lon, lonHemisphere: 'E', latitude: lat, latHemisphere: 'S' }).ok, `${lon} ${lat}`).toBe(true);
    }
    expect(toSigned({ longitude: '122.45', lonHemisphere: 'W', latitude: '8.5', latHemisphere: 'S' })).toEqual({ lat: -8.5, lon: -122.45 });
    expect(fromSigned(-8.5, -122.45)).toEqual({ longitude: '122.45', lonHemisphere: 'W', latitude: '8.50', latHemisphere: 'S' });
  });
  it('refuses out of range, three decimals, signs, words and missing hemispheres', () => {
    for (const [lon, lat] of [
      ['180.01', '10'],
      ['10', '90.01'],
      ['1.234', '10'],
      ['-5', '10'],
      ['abc', '10'],
      ['', '10'],
      ['1e2', '10'],
      ['10', ' '],
    ]) {
      expect(check({ longitude: lon, lonHemisphere: 'E', latitude: lat, latHemisphere: 'N' }).ok, `${lon} ${lat}`).toBe(false);
    }
    const missing = check({ longitude: '10', latitude: '10', lonHemisphere: 'X' });
    expect(missing.ok ? [] : missing.errors.map((e) => `${e.field}:${e.message}`)).toEqual([
      'lonHemisphere:validation.lonHemisphere',
      'latHemisphere:validation.required',
    ]);
  });
});
