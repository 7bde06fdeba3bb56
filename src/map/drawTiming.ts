/**
 * Timing hooks of the map pages for the browser benches (bench/track.ts, bench/coverage.ts; a
 * measurement, not a feature): when a page's data was asked for, when it arrived, and when it was
 * drawn and on screen. They live on `window` because the benches read them from headless Chromium;
 * nothing in the console reads them. One entry per drawing: 'track' (the Track page's overview),
 * 'coverage' (the Coverage Map's cells).
 */
export interface DrawTiming {
  requested: number;
  received?: number;
  drawStart?: number;
  drawEnd?: number;
  drawn?: number;
  /** What was drawn: the track's points, the map's cells. */
  items?: number;
}
export type DrawName = 'track' | 'coverage';

declare global {
  interface Window {
    /** Read by the browser benches: when each map drawing was asked for and when it was on screen. */
    __drawTiming?: Partial<Record<DrawName, DrawTiming>>;
  }
}

/** Wraps a fetch (useCallQuery's `around`): a new timing of `name` starts with each request. */
export const timeRequest =
  (name: DrawName) =>
  async <T>(fetch: () => Promise<T>): Promise<T> => {
    const timings = (window.__drawTiming ??= {});
    const timing: DrawTiming = { requested: performance.now() };
    timings[name] = timing;
    const res = await fetch();
    timing.received = performance.now();
    return res;
  };

/** The timing of one drawing of `name`, on the timing of the request whose answer is drawn (none: nothing is recorded). */
export function startDrawTiming(name: DrawName) {
  const timing = window.__drawTiming?.[name];
  if (timing) timing.drawStart = performance.now();
  return {
    /** The layers are built and added. */
    drawn() {
      if (timing) timing.drawEnd = performance.now();
    },
    /** The next frame has the drawing on screen. */
    onScreen(items: number) {
      if (timing) Object.assign(timing, { drawn: performance.now(), items });
    },
  };
}
