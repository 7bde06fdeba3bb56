/**
 * Online / warn / offline over a time window from a vessel's reports: each report covers the time
 * from itself to the next report, at most the offline threshold (the same rule that turns a
 * device offline at query time); time no report covers is offline. Pure, so it is unit-tested.
 */
export type BandState = 'online' | 'warn' | 'offline';
export interface Band {
  from: number;
  to: number;
  state: BandState;
}
export interface StatePoint {
  /** Device time, epoch ms, ascending. */
  ms: number;
  warn: boolean;
}

export function stateBands(points: readonly StatePoint[], from: number, to: number, thresholdMs: number): Band[] {
  const bands: Band[] = [];
  const push = (start: number, end: number, state: BandState) => {
    if (end <= start) return;
    const last = bands[bands.length - 1];
    if (last && last.state === state && last.to >= start) last.to = Math.max(last.to, end);
    else bands.push({ from: start, to: end, state });
  };
  let cursor = from;
  for (let i = 0; i < points.length; i += 1) {
    const p = points[i]!;
    const next = points[i + 1]?.ms ?? Number.POSITIVE_INFINITY;
    const start = Math.max(p.ms, cursor);
    const end = Math.min(next, p.ms + thresholdMs, to);
    if (end <= start) continue;
    push(cursor, start, 'offline');
    push(start, end, p.warn ? 'warn' : 'online');
    cursor = end;
  }
  push(cursor, to, 'offline');
  return bands;
}

/** Seconds spent in each state. */
export function bandTotals(bands: readonly Band[]): Record<BandState, number> {
  const totals: Record<BandState, number> = { online: 0, warn: 0, offline: 0 };
  for (const b of bands) totals[b.state] += (b.to - b.from) / 1000;
  return totals;
}
