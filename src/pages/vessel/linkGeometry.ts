import type { FailoverReason, LinkState, LinkWindow } from '../../domain/links';
import { formatDate } from '../../format/date';
import { STATE_COLORS } from './stateColors';

/** A link's states on its lane: up green, standby slate blue, down red (the vessel pages' palette). */
export const LINK_STATE_COLORS: Record<LinkState, string> = { up: STATE_COLORS.online, standby: '#8ea4c2', down: STATE_COLORS.warn };
/** A failover's marker by its reason: a link lost (red, amber), back to the preferred link (green), by hand (blue). */
export const FAILOVER_COLORS: Record<FailoverReason, string> = {
  lockLost: '#c62828',
  obstruction: '#ef8f00',
  restored: '#2e7d32',
  manual: '#1565c0',
};

/** Where an instant or a span sits on a lane of [from, to), in percent of its width (clamped to the lane). */
export function place(at: number, from: number, to: number) {
  const span = Math.max(1, to - from);
  return Math.min(100, Math.max(0, ((at - from) / span) * 100));
}

export function spanOf(start: number, end: number, from: number, to: number) {
  const left = place(start, from, to);
  return { left, width: Math.max(0, place(end, from, to) - left) };
}

export interface Tick {
  at: number;
  left: number;
  label: string;
  /** Drawn on a narrow screen too (the others only from 600 px). */
  major: boolean;
}

const HOUR = 3_600_000;
/** Ticks closer than this to an end (percent) are left out: their label would not fit. */
const EDGE = 3;

/**
 * The time axis of a window in the selected zone (whole hours east of UTC): every 3 hours (HH:00) for
 * 24 h, every midnight (MM-DD) for 7 d; on a narrow screen every 6 hours / every other day.
 */
export function timeTicks(from: number, to: number, timeZone: number, window: LinkWindow): Tick[] {
  const step = window === '7d' ? 24 * HOUR : 3 * HOUR;
  const zone = timeZone * HOUR;
  const ticks: Tick[] = [];
  for (let local = Math.ceil((from + zone) / step) * step; local - zone < to; local += step) {
    const at = local - zone;
    const left = place(at, from, to);
    if (left < EDGE || left > 100 - EDGE) continue;
    const text = formatDate(at, timeZone);
    const index = Math.round(local / step);
    ticks.push({ at, left, label: window === '7d' ? text.slice(5, 10) : text.slice(11, 16), major: index % 2 === 0 });
  }
  return ticks;
}

/** A part of a whole as a percent to a tenth; '—' without a whole. */
export const share = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '—');

/** A figure to a tenth at most, or '—'. */
export const figure = (v: number | null | undefined) =>
  typeof v === 'number' && Number.isFinite(v) ? String(Math.round(v * 10) / 10) : '—';
