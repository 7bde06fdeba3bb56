import { useCallback, useEffect, useRef, useState } from 'react';
import type { TrackPoint } from '../../domain/track';

/** Playback speeds; 1x plays one minute of track per second of wall time. */
export const PLAYBACK_SPEEDS = [1, 2, 5, 10, 20, 50] as const;
export const TRACK_MS_PER_SECOND_AT_1X = 60_000;

/** Index of the last point at or before `time` (0 before the start). */
export function indexAt(points: readonly TrackPoint[], time: number): number {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0 || time <= points[0]!.time) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid]!.time <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Where the vessel is at `time`: between two reports on a line, the position moves linearly; across
 * an offline gap it stays at the last report until the next one. `lons` are the drawn longitudes.
 */
export function positionAt(
  points: readonly TrackPoint[],
  lons: readonly number[],
  time: number,
): { index: number; lat: number; lon: number } {
  const index = indexAt(points, time);
  const a = points[index];
  if (!a) return { index: 0, lat: 0, lon: 0 };
  const b = points[index + 1];
  if (!b || b.afterGap || time <= a.time) return { index, lat: a.lat, lon: lons[index] ?? a.lon };
  const f = Math.min(1, (time - a.time) / (b.time - a.time));
  return { index, lat: a.lat + (b.lat - a.lat) * f, lon: lons[index]! + (lons[index + 1]! - lons[index]!) * f };
}

/**
 * The playback clock over [start, end]: the cursor moves every animation frame (onFrame gets it,
 * for the map marker) while React state follows at most ten times a second.
 */
export function usePlayback(start: number, end: number, onFrame: (time: number, follow: boolean) => void) {
  const [cursor, setCursorState] = useState(start);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(10);
  const cursorRef = useRef(start);
  const frame = useRef(onFrame);
  frame.current = onFrame;

  /** Moves the cursor; `follow` false for the reset to the start (the map keeps the whole track in view). */
  const setCursor = useCallback((time: number, follow = true) => {
    cursorRef.current = time;
    setCursorState(time);
    frame.current(time, follow);
  }, []);

  useEffect(() => {
    setPlaying(false);
    setCursor(start, false);
  }, [start, end, setCursor]);

  useEffect(() => {
    if (!playing) return undefined;
    let last = performance.now();
    let lastState = last;
    let id = 0;
    const tick = (now: number) => {
      const next = Math.min(end, cursorRef.current + (now - last) * speed * (TRACK_MS_PER_SECOND_AT_1X / 1000));
      last = now;
      cursorRef.current = next;
      frame.current(next, true);
      if (now - lastState >= 100 || next >= end) {
        lastState = now;
        setCursorState(next);
      }
      if (next >= end) setPlaying(false);
      else id = requestAnimationFrame(tick);
    };
    id = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(id);
  }, [playing, speed, end]);

  const play = useCallback(() => {
    if (cursorRef.current >= end) setCursor(start);
    setPlaying(true);
  }, [start, end, setCursor]);

  return { cursor, playing, speed, setSpeed, play, pause: () => setPlaying(false), seek: (time: number) => setCursor(time) };
}
