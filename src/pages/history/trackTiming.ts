/**
 * The Track page's timing hooks for bench/track.ts (a benchmark, not a feature): when the overview
 * track was asked for, when it arrived, and when it was drawn and on screen. They live on `window`
 * because the bench reads them from headless Chromium; nothing in the console reads them.
 */
export interface TrackTiming {
  requested: number;
  received?: number;
  drawStart?: number;
  drawEnd?: number;
  drawn?: number;
  points?: number;
}

declare global {
  interface Window {
    /** Timing hooks read by bench/track.ts: when the track was asked for and when it was drawn. */
    __trackTiming?: TrackTiming;
  }
}

/** Wraps the overview track's fetch (useCallQuery's `around`): a new timing starts with each request. */
export async function timeTrackRequest<T>(fetch: () => Promise<T>): Promise<T> {
  window.__trackTiming = { requested: performance.now() };
  const res = await fetch();
  if (window.__trackTiming) window.__trackTiming.received = performance.now();
  return res;
}

/** The timing of one drawing of the overview, on the timing of the request whose answer is drawn (none: nothing is recorded). */
export function startDrawTiming() {
  const timing = window.__trackTiming;
  if (timing) timing.drawStart = performance.now();
  return {
    /** The layers are built and added. */
    drawn() {
      if (timing) timing.drawEnd = performance.now();
    },
    /** The next frame has the drawing on screen. */
    onScreen(points: number) {
      if (timing) Object.assign(timing, { drawn: performance.now(), points });
    },
  };
}
