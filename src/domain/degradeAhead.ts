import { latLngToCell } from 'h3-js';
import { lookAngles, SATELLITES } from './satellites';
import { flowCell, flowHeading, type FlowLookup } from './trafficFlow';
import { EARTH_NM, bearingTo, distanceNm, wrapLongitude } from './greatCircle';

/**
 * "Degradation ahead" (docs/architecture.md, "Degradation ahead"): a vessel under way is projected
 * along its heading at its speed for the next hours; where the fleet's coverage (the map's cells,
 * src/domain/coverage.ts) says the satellite it is on is poor, it is warned before it gets there,
 * with a suggestion: another satellite known good along the path and high enough there, or its
 * backup link. The server's leader (server/modules/vessel/degradeJob.ts) and bench:predict run
 * this same code.
 */

/** How far ahead a vessel is looked at (hours), and the step of its projected path (minutes). */
export const DEGRADE_LOOKAHEAD_H = 6;
export const DEGRADE_STEP_MIN = 20;
/** The coverage resolution (cells about 40 km across: a beam's rim placed within an hour's sailing) and window (days) the prediction reads. */
export const DEGRADE_RES = 4;
export const DEGRADE_WINDOW_DAYS = 30;
/** A warning is raised once the path has entered a poor zone at this many checks in a row (a one-off is the projection's noise: a turn, a port). */
export const DEGRADE_CONFIRM_CHECKS = 3;
/** A warning clears once the path has missed its zone at this many checks in a row (the zone passed, or the vessel turned away). */
export const DEGRADE_CLEAR_CHECKS = 3;
/** A vessel slower than this (kn) is not under way. */
export const UNDER_WAY_KN = 3;

/** When a cell is poor for a satellite, and when another is good enough to suggest (docs/architecture.md; settable). */
export interface DegradeThresholds {
  /** Fewer reports than this in a cell: nothing is said about it. */
  minSamples: number;
  /** Poor: a locked share under this (percent)... */
  lockedBelowPct: number;
  /** ...or a median SNR under this (dB). */
  snrBelowDb: number;
  /** A suggested satellite: locked at least this share (percent) there, and this high (degrees) from there. */
  goodLockedPct: number;
  minElevation: number;
}
export const DEGRADE_DEFAULTS: DegradeThresholds = {
  minSamples: 20,
  lockedBelowPct: 70,
  snrBelowDb: 6,
  goodLockedPct: 95,
  minElevation: 10,
};

/** A cell's figures for one satellite, as the coverage gives them. */
export interface CellFigures {
  samples: number;
  lockedPct: number;
  medianSnr: number | null;
}
export type CoverageLookup = (satellite: string, cell: string) => CellFigures | undefined;

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** Where a vessel will be after `hours` at `speedKn` on `headingDeg` (a great circle); longitudes stay in -180..180 across the antimeridian. */
export function projectPoint(lat: number, lon: number, headingDeg: number, speedKn: number, hours: number): [number, number] {
  const d = (speedKn * hours) / EARTH_NM;
  const h = rad(headingDeg);
  const φ1 = rad(lat);
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(h));
  const λ2 = rad(lon) + Math.atan2(Math.sin(h) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return [deg(φ2), wrapLongitude(deg(λ2))];
}

/** A path this close to its port (nm) has arrived: a port's approach point is placed to about 10 km (src/domain/ports.ts). */
const ARRIVAL_NM = 5;

/**
 * The projected path: a point every DEGRADE_STEP_MIN minutes over the look-ahead, with its minutes
 * from now. A great circle on the heading, turned, with the fleet's traffic
 * (src/domain/trafficFlow.ts), at every half step where the fleet sailed on another heading from
 * there going that way: the path turns where the lane turns, and goes on from each turn on a great
 * circle where the lanes say nothing (or without them). With a `destination` (the port of the
 * voyage under way, src/domain/ports.ts), where the lanes say nothing the path heads for it
 * instead of straight on, and it ends there: a vessel in port sails no further.
 */
export function projectPath(
  lat: number,
  lon: number,
  headingDeg: number,
  speedKn: number,
  flow: FlowLookup = () => undefined,
  destination?: readonly [number, number],
): { minutes: number; at: [number, number] }[] {
  const out: { minutes: number; at: [number, number] }[] = [];
  const step = DEGRADE_STEP_MIN / 2;
  let from: [number, number] = [lat, lon];
  let heading = headingDeg;
  let since = 0;
  let at = from;
  for (let m = step; m <= DEGRADE_LOOKAHEAD_H * 60; m += step) {
    // In reach of the port's approach (placed to about 10 km) this step: the path ends there, when it would get there.
    const left = destination ? distanceNm(at, destination) : Infinity;
    if (left <= Math.max(ARRIVAL_NM, (speedKn * step) / 60)) {
      out.push({ minutes: m - step + (left / speedKn) * 60, at: [destination![0], destination![1]] });
      break;
    }
    const lane = flowHeading(flow, flowCell(at[0], at[1]), heading);
    const steer = lane ?? (destination ? bearingTo(at, destination) : null);
    if (steer !== null && steer !== heading) [from, heading, since] = [at, steer, 0];
    since += step;
    at = projectPoint(from[0], from[1], heading, speedKn, since / 60);
    if (m % DEGRADE_STEP_MIN === 0) out.push({ minutes: m, at });
  }
  return out;
}

export const isPoor = (f: CellFigures | undefined, t: DegradeThresholds): f is CellFigures =>
  !!f && f.samples >= t.minSamples && (f.lockedPct < t.lockedBelowPct || (f.medianSnr !== null && f.medianSnr < t.snrBelowDb));
const isWeak = (f: CellFigures | undefined, t: DegradeThresholds) =>
  !!f && f.samples >= t.minSamples && f.medianSnr !== null && f.medianSnr < t.snrBelowDb;

/** Reports of every satellite in a cell. */
const cellSamples = (coverage: CoverageLookup, cell: string) =>
  SATELLITES.reduce((n, sat) => n + (coverage(sat.name, cell)?.samples ?? 0), 0);

export interface VesselNow {
  lat: number;
  lon: number;
  heading: number;
  speedKn: number;
  satellite: string;
  /** It has a backup link up or on standby (a vBox's links). */
  hasBackup: boolean;
  /** Its SNR now (dB), when known: already under the threshold, it is at a weak edge itself. */
  snr?: number;
  /** Where the voyage under way ends (its port's approach, src/domain/ports.ts), when known. */
  destination?: readonly [number, number];
}

export interface DegradeWarning {
  satellite: string;
  /** Minutes until the projected path enters the poor zone, and until it leaves that cell (the predicted window). */
  minutes: number;
  untilMinutes: number;
  /** The first poor cell on the path (H3, resolution DEGRADE_RES) and its figures for the satellite. */
  cell: string;
  lockedPct: number;
  /** Another satellite known good in that cell and high enough there; else null. */
  suggestion: string | null;
  /** No satellite to suggest, and the vessel has a backup link: use it. */
  useBackup: boolean;
}

/**
 * The warning for one vessel now, or null. Along its projected path (the cell it is in left out),
 * the zone is the first cell where its satellite is lost, as the fleet has seen it there:
 * - held there but often unlocked (under lockedBelowPct), or with a median SNR under snrBelowDb;
 * - or, past a weak stretch (a cell of the path, or the vessel itself, under snrBelowDb: a beam's
 *   edge), a cell the fleet reports from on other satellites but hardly ever on this one: beyond
 *   the beam's rim nobody holds it.
 * The suggestion is the best other satellite known good in that cell and high enough there.
 */
export function degradeAhead(
  vessel: VesselNow,
  coverage: CoverageLookup,
  t: DegradeThresholds = DEGRADE_DEFAULTS,
  flow?: FlowLookup,
): DegradeWarning | null {
  if (vessel.speedKn < UNDER_WAY_KN) return null;
  const here = latLngToCell(vessel.lat, vessel.lon, DEGRADE_RES);
  let weakBefore = (vessel.snr !== undefined && vessel.snr < t.snrBelowDb) || isWeak(coverage(vessel.satellite, here), t);
  let previous = here;
  const path = projectPath(vessel.lat, vessel.lon, vessel.heading, vessel.speedKn, flow, vessel.destination);
  const cells = path.map(({ at }) => latLngToCell(at[0], at[1], DEGRADE_RES));
  for (const [k, { minutes, at }] of path.entries()) {
    const cell = cells[k]!;
    if (cell === previous) continue;
    previous = cell;
    const figures = coverage(vessel.satellite, cell);
    const beyondRim =
      weakBefore && (figures?.samples ?? 0) < t.minSamples && cellSamples(coverage, cell) - (figures?.samples ?? 0) >= t.minSamples;
    if (!beyondRim && !isPoor(figures, t)) continue;
    if (!beyondRim && !(figures!.lockedPct < t.lockedBelowPct) && !weakBefore) {
      // A weak cell: the edge begins here; the loss is further on (or in a cell it is often lost in).
      weakBefore = true;
      continue;
    }
    let suggestion: { name: string; lockedPct: number; snr: number } | null = null;
    for (const sat of SATELLITES) {
      if (sat.name === vessel.satellite || lookAngles(at, sat.longitude).elevation < t.minElevation) continue;
      const other = coverage(sat.name, cell);
      if (!other || other.samples < t.minSamples || other.lockedPct < t.goodLockedPct) continue;
      const snr = other.medianSnr ?? -Infinity;
      if (!suggestion || other.lockedPct > suggestion.lockedPct || (other.lockedPct === suggestion.lockedPct && snr > suggestion.snr))
        suggestion = { name: sat.name, lockedPct: other.lockedPct, snr };
    }
    let last = k;
    while (cells[last + 1] === cell) last += 1;
    return {
      satellite: vessel.satellite,
      minutes,
      untilMinutes: path[last]!.minutes + DEGRADE_STEP_MIN,
      cell,
      lockedPct: figures?.lockedPct ?? 0,
      suggestion: suggestion?.name ?? null,
      useBackup: !suggestion && vessel.hasBackup,
    };
  }
  return null;
}

/** A vessel's checks in a row: found heading into a poor zone, and (once warned) missed since. */
export interface WarningStreak {
  found: number;
  missed: number;
}

/**
 * The warnings standing after a check, from the streaks kept by the caller from one check to the
 * next (`streaks`) and the vessels found now (`warnedNow`):
 * - a vessel is warned once found at DEGRADE_CONFIRM_CHECKS checks in a row (`confirmed`);
 * - a warned vessel not found now stays warned (`held`, its warning as it was) until it has been
 *   missed at DEGRADE_CLEAR_CHECKS checks in a row: a single miss is the projection's noise too
 *   (the heading's jitter moving the path across a cell's border), and a warning that cleared and
 *   came back would reach its people twice for one zone;
 * - a vessel neither found nor warned starts again from nothing.
 */
export function confirmWarnings<K>(
  streaks: ReadonlyMap<K, WarningStreak>,
  warnedNow: Iterable<K>,
): { confirmed: Set<K>; held: Set<K>; streaks: Map<K, WarningStreak> } {
  const next = new Map<K, WarningStreak>();
  const confirmed = new Set<K>();
  const held = new Set<K>();
  for (const key of warnedNow) {
    const found = Math.min(DEGRADE_CONFIRM_CHECKS, (streaks.get(key)?.found ?? 0) + 1);
    next.set(key, { found, missed: 0 });
    if (found >= DEGRADE_CONFIRM_CHECKS) confirmed.add(key);
  }
  for (const [key, streak] of streaks) {
    if (next.has(key) || streak.found < DEGRADE_CONFIRM_CHECKS || streak.missed + 1 >= DEGRADE_CLEAR_CHECKS) continue;
    next.set(key, { found: streak.found, missed: streak.missed + 1 });
    held.add(key);
  }
  return { confirmed, held, streaks: next };
}
