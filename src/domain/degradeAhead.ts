import { latLngToCell } from 'h3-js';
import { lookAngles, SATELLITES } from './satellites';

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
/** The coverage resolution and window (days) the prediction reads. */
export const DEGRADE_RES = 3;
export const DEGRADE_WINDOW_DAYS = 30;
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
  lockedBelowPct: 85,
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

const R_NM = 3_440.065;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;
const wrap180 = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;

/** Where a vessel will be after `hours` at `speedKn` on `headingDeg` (a great circle); longitudes stay in -180..180 across the antimeridian. */
export function projectPoint(lat: number, lon: number, headingDeg: number, speedKn: number, hours: number): [number, number] {
  const d = (speedKn * hours) / R_NM;
  const h = rad(headingDeg);
  const φ1 = rad(lat);
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(h));
  const λ2 = rad(lon) + Math.atan2(Math.sin(h) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return [deg(φ2), wrap180(deg(λ2))];
}

/** The projected path: a point every DEGRADE_STEP_MIN minutes over the look-ahead, with its minutes from now. */
export function projectPath(lat: number, lon: number, headingDeg: number, speedKn: number): { minutes: number; at: [number, number] }[] {
  const out: { minutes: number; at: [number, number] }[] = [];
  for (let m = DEGRADE_STEP_MIN; m <= DEGRADE_LOOKAHEAD_H * 60; m += DEGRADE_STEP_MIN)
    out.push({ minutes: m, at: projectPoint(lat, lon, headingDeg, speedKn, m / 60) });
  return out;
}

export const isPoor = (f: CellFigures | undefined, t: DegradeThresholds): f is CellFigures =>
  !!f && f.samples >= t.minSamples && (f.lockedPct < t.lockedBelowPct || (f.medianSnr !== null && f.medianSnr < t.snrBelowDb));

export interface VesselNow {
  lat: number;
  lon: number;
  heading: number;
  speedKn: number;
  satellite: string;
  /** It has a backup link up or on standby (a vBox's links). */
  hasBackup: boolean;
}

export interface DegradeWarning {
  satellite: string;
  /** Minutes until the projected path enters the poor zone. */
  minutes: number;
  /** The first poor cell on the path (H3, resolution DEGRADE_RES) and its figures for the satellite. */
  cell: string;
  lockedPct: number;
  /** Another satellite known good in that cell and high enough there; else null. */
  suggestion: string | null;
  /** No satellite to suggest, and the vessel has a backup link: use it. */
  useBackup: boolean;
}

/**
 * The warning for one vessel now, or null: the first cell of its projected path (other than the
 * one it is in) where its satellite is poor, with the best other satellite good there.
 */
export function degradeAhead(vessel: VesselNow, coverage: CoverageLookup, t: DegradeThresholds = DEGRADE_DEFAULTS): DegradeWarning | null {
  if (vessel.speedKn < UNDER_WAY_KN) return null;
  const here = latLngToCell(vessel.lat, vessel.lon, DEGRADE_RES);
  let previous = here;
  for (const { minutes, at } of projectPath(vessel.lat, vessel.lon, vessel.heading, vessel.speedKn)) {
    const cell = latLngToCell(at[0], at[1], DEGRADE_RES);
    if (cell === previous) continue;
    previous = cell;
    const figures = coverage(vessel.satellite, cell);
    if (!isPoor(figures, t)) continue;
    let suggestion: { name: string; lockedPct: number; snr: number } | null = null;
    for (const sat of SATELLITES) {
      if (sat.name === vessel.satellite || lookAngles(at, sat.longitude).elevation < t.minElevation) continue;
      const other = coverage(sat.name, cell);
      if (!other || other.samples < t.minSamples || other.lockedPct < t.goodLockedPct) continue;
      const snr = other.medianSnr ?? -Infinity;
      if (!suggestion || other.lockedPct > suggestion.lockedPct || (other.lockedPct === suggestion.lockedPct && snr > suggestion.snr))
        suggestion = { name: sat.name, lockedPct: other.lockedPct, snr };
    }
    return {
      satellite: vessel.satellite,
      minutes,
      cell,
      lockedPct: figures.lockedPct,
      suggestion: suggestion?.name ?? null,
      useBackup: !suggestion && vessel.hasBackup,
    };
  }
  return null;
}
