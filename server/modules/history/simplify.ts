import { degreesPerPixel, TRACK_MAX_POINTS, type EncodedTrack } from '../../../src/domain/track';

/** A device's reports in a window, column by column, in time order (times in epoch ms). */
export interface TrackColumns {
  t: Float64Array | number[];
  lat: Float64Array | number[];
  lon: Float64Array | number[];
  speed: Float64Array | number[];
  heading: Float64Array | number[];
  signal: Float64Array | number[];
  state: Int8Array | number[];
}

/** Indices of points that follow an offline gap: no report for longer than the threshold. */
export function gapStarts(t: TrackColumns['t'], thresholdMs: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < t.length; i += 1) if (t[i]! - t[i - 1]! > thresholdMs) out.push(i);
  return out;
}

/** Web Mercator y in degree-like units, so one tolerance means the same pixels in x and y. */
const mercatorY = (lat: number) => (Math.log(Math.tan(Math.PI / 4 + (Math.max(-85, Math.min(85, lat)) * Math.PI) / 360)) * 180) / Math.PI;

/**
 * Douglas-Peucker over [first, last] on the plane of the map, marking kept points in `keep`.
 * Iterative (a month of reports would overflow a recursive one).
 */
function douglasPeucker(x: Float64Array, y: Float64Array, first: number, last: number, tolSq: number, keep: Uint8Array): void {
  const stack = [first, last];
  while (stack.length) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    if (b - a < 2) continue;
    const ax = x[a]!;
    const ay = y[a]!;
    const dx = x[b]! - ax;
    const dy = y[b]! - ay;
    const lenSq = dx * dx + dy * dy;
    let worst = -1;
    let worstSq = tolSq;
    for (let i = a + 1; i < b; i += 1) {
      let px = x[i]! - ax;
      let py = y[i]! - ay;
      if (lenSq > 0) {
        const u = Math.max(0, Math.min(1, (px * dx + py * dy) / lenSq));
        px -= u * dx;
        py -= u * dy;
      }
      const dSq = px * px + py * py;
      if (dSq > worstSq) {
        worstSq = dSq;
        worst = i;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(a, worst, worst, b);
    }
  }
}

export interface Simplified {
  /** Indices of the kept points, ascending. */
  indices: number[];
  /** The tolerance used, in degrees. */
  toleranceDegrees: number;
}

/**
 * The points a view at `zoom` needs: always the first and the last, both sides of every state
 * change and of every offline gap (`gaps` are the indices that follow one), and whatever
 * Douglas-Peucker keeps at about a pixel in between. Over `maxPoints` the tolerance doubles until
 * the track fits (mandatory points are never dropped). `within`, when given, limits the result to
 * a range of indices (the zoomed-in part); `sampleMs` also keeps a report at least that often.
 */
export function simplifyTrack(
  c: TrackColumns,
  gaps: readonly number[],
  zoom: number,
  maxPoints = TRACK_MAX_POINTS,
  within?: { start: number; end: number },
  sampleMs = 0,
): Simplified {
  const start = within?.start ?? 0;
  const end = within?.end ?? c.t.length - 1;
  if (end < start) return { indices: [], toleranceDegrees: 0 };
  const n = end - start + 1;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  let unwrap = 0;
  for (let i = 0; i < n; i += 1) {
    // Across the antimeridian the longitude stays continuous, so no segment spans the world.
    const lon = c.lon[start + i]!;
    if (i > 0) {
      const prev = c.lon[start + i - 1]!;
      if (lon - prev > 180) unwrap -= 360;
      else if (prev - lon > 180) unwrap += 360;
    }
    x[i] = lon + unwrap;
    y[i] = mercatorY(c.lat[start + i]!);
  }
  const mandatory = new Uint8Array(n);
  mandatory[0] = 1;
  mandatory[n - 1] = 1;
  for (let i = 1; i < n; i += 1) {
    if (c.state[start + i] !== c.state[start + i - 1]) {
      mandatory[i - 1] = 1;
      mandatory[i] = 1;
    }
  }
  for (const g of gaps) {
    if (g <= start || g > end) continue;
    mandatory[g - start] = 1;
    mandatory[g - start - 1] = 1;
  }
  // Playback: a report at least every sampleMs, so the report at the cursor follows the clock.
  if (sampleMs > 0) {
    let last = c.t[start]!;
    for (let i = 1; i < n; i += 1) {
      if (c.t[start + i]! - last >= sampleMs) {
        mandatory[i] = 1;
        last = c.t[start + i]!;
      }
    }
  }
  const anchors: number[] = [];
  for (let i = 0; i < n; i += 1) if (mandatory[i]) anchors.push(i);

  let tolerance = degreesPerPixel(zoom);
  for (;;) {
    const keep = mandatory.slice();
    const tolSq = tolerance * tolerance;
    for (let k = 1; k < anchors.length; k += 1) douglasPeucker(x, y, anchors[k - 1]!, anchors[k]!, tolSq, keep);
    const indices: number[] = [];
    for (let i = 0; i < n; i += 1) if (keep[i]) indices.push(start + i);
    if (indices.length <= maxPoints || indices.length <= anchors.length) return { indices, toleranceDegrees: tolerance };
    tolerance *= 2;
  }
}

/** The kept points in the compact wire format of src/domain/track.ts. */
export function encodeTrack(c: TrackColumns, indices: readonly number[], gaps: readonly number[]): EncodedTrack {
  const t0 = indices.length ? Math.floor(c.t[indices[0]!]! / 1000) : 0;
  const out: EncodedTrack = { t0, t: [], lat: [], lon: [], speed: [], heading: [], signal: [], state: [], breaks: [] };
  let pt = t0;
  let plat = 0;
  let plon = 0;
  let prevIndex = -1;
  let g = 0;
  for (const [k, i] of indices.entries()) {
    const t = Math.round(c.t[i]! / 1000);
    const lat = Math.round(c.lat[i]! * 1e5);
    const lon = Math.round(c.lon[i]! * 1e5);
    out.t.push(t - pt);
    out.lat.push(lat - plat);
    out.lon.push(lon - plon);
    out.speed.push(Math.round(c.speed[i]! * 10));
    out.heading.push(Math.round(c.heading[i]!) % 360);
    out.signal.push(Math.round(c.signal[i]!));
    out.state.push(c.state[i]!);
    // A point follows a gap when an offline gap lies between it and the previous kept point.
    while (g < gaps.length && gaps[g]! <= prevIndex) g += 1;
    if (k > 0 && g < gaps.length && gaps[g]! <= i) out.breaks.push(k);
    pt = t;
    plat = lat;
    plon = lon;
    prevIndex = i;
  }
  return out;
}
