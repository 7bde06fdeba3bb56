import { LINK_KINDS, type LinkKind } from './links';

/**
 * The fleet's coverage map (docs/architecture.md, "Coverage"; docs/api.md, "GET /vessel/getCoverage"):
 * link quality per H3 cell, built from every vessel's reports. It describes the sky, not a
 * customer: every level sees the whole fleet's cells, and a cell carries figures only, never a
 * vessel. Server, console and tests read these constants.
 */

/** The map's windows, in days. */
export const COVERAGE_WINDOWS = { '7d': 7, '30d': 30, '90d': 90 } as const;
export type CoverageWindow = keyof typeof COVERAGE_WINDOWS;
export const COVERAGE_WINDOW_NAMES = Object.keys(COVERAGE_WINDOWS) as CoverageWindow[];
/** A day in UTC, YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The Monday (UTC) of a moment's week, YYYY-MM-DD. */
export const utcWeek = (ms: number) => utcDay(ms - ((new Date(ms).getUTCDay() + 6) % 7) * 86_400_000);
/** The UTC days of a window of `days` days ending today (today counted): the first and the last. */
export const windowDays = (days: number, now = Date.now()) => ({ from: utcDay(now - (days - 1) * 86_400_000), to: utcDay(now) });

/** Days of cells kept: the longest window and the day in progress. */
export const COVERAGE_KEEP_DAYS = 91;

/** The H3 resolutions kept (about 158, 60 and 23 km a cell edge). */
export const COVERAGE_RESOLUTIONS = [2, 3, 4] as const;
export type CoverageResolution = (typeof COVERAGE_RESOLUTIONS)[number];
/** The finest resolution, at which a report's cell is found (the coarser ones are its parents). */
export const COVERAGE_FINEST: CoverageResolution = 4;

/** About how wide a cell is at each resolution (km, flat side to flat side), for the map's note. */
export const COVERAGE_CELL_KM: Record<CoverageResolution, number> = { 2: 270, 3: 100, 4: 40 };

/** The resolution a map zoom shows: the cells stay a few dozen pixels wide. */
export function resolutionForZoom(zoom: number): CoverageResolution {
  if (zoom <= 3) return 2;
  if (zoom <= 5) return 3;
  return 4;
}

/** A cell with fewer reports than this has figures, but is not coloured: too few to say. */
export const COVERAGE_MIN_SAMPLES = 20;

/**
 * The SNR histogram: 2 dB buckets from -4 dB (the first also holds anything lower, the last
 * anything from 26 dB up). A column per bucket (h0...h15), so that a window sums them in SQL.
 */
export const SNR_HIST_MIN = -4;
export const SNR_HIST_STEP = 2;
export const SNR_HIST_BUCKETS = 16;

export function snrBucket(snr: number): number {
  return Math.min(SNR_HIST_BUCKETS - 1, Math.max(0, Math.floor((snr - SNR_HIST_MIN) / SNR_HIST_STEP)));
}

/** The median SNR read from a histogram: the middle of the bucket holding the middle report (to 1 dB); null when empty. */
export function histMedian(hist: readonly number[]): number | null {
  const total = hist.reduce((a, b) => a + b, 0);
  if (!total) return null;
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i]!;
    if (seen * 2 >= total) return SNR_HIST_MIN + SNR_HIST_STEP * (i + 0.5);
  }
  return null;
}

/**
 * One cell of GET /vessel/getCoverage, as a tuple to keep the answer small at world zoom:
 * [H3 index (hex), reports, locked share 0-100 (whole percent), median SNR in dB (null: none)].
 */
export type CoverageCell = [cell: string, samples: number, lockedPct: number, medianSnr: number | null];

/** What the map asks for (GET /vessel/getCoverage's query). */
export interface CoverageQuery {
  window: CoverageWindow;
  res: CoverageResolution;
  satellite?: string;
  /** A link kind's layer instead of the satellites' (COVERAGE_LINK_KINDS). */
  link?: CoverageLinkKind;
  south?: number;
  west?: number;
  north?: number;
  east?: number;
}

export interface CoverageAnswer {
  window: CoverageWindow;
  res: CoverageResolution;
  /** The satellite asked for; null: all satellites together (or a link kind's layer). */
  satellite: string | null;
  /** The link kind asked for; null: the satellites. */
  link: CoverageLinkKind | null;
  /** The first day counted and the last (UTC, YYYY-MM-DD). */
  from: string;
  to: string;
  minSamples: number;
  /** Satellites with cells in the window, for the map's choice. */
  satellites: string[];
  /** Link kinds with cells in the window, for the map's choice. */
  links: CoverageLinkKind[];
  cells: CoverageCell[];
}

/** Quality bands of the map's colours, by median SNR (dB): poor under 4, fair under 8, good from 8. */
export const SNR_BANDS = [
  { key: 'poor', below: 4 },
  { key: 'fair', below: 8 },
  { key: 'good', below: Infinity },
] as const;
export type SnrBand = (typeof SNR_BANDS)[number]['key'];
export const snrBand = (snr: number): SnrBand => SNR_BANDS.find((b) => snr < b.below)!.key;

/**
 * The link kinds with a layer of their own (a vBox's links: src/domain/links.ts). GEO VSAT is not
 * one: its cells are the satellites'. A link layer's cell counts the reports of vessels that have
 * such a link from there, and as "locked" those where one was up or on standby (it could carry
 * the traffic there); the reports keep no figures per link, so its cells have no median SNR.
 */
export const COVERAGE_LINK_KINDS = LINK_KINDS.filter((k): k is Exclude<LinkKind, 'geo'> => k !== 'geo');
export type CoverageLinkKind = (typeof COVERAGE_LINK_KINDS)[number];
/** The satellites' rows in the coverage tables (migration 038: `kind`). */
export const SATELLITE_LAYER = 'geo';

/** A link layer's colours, by the share of reports with the link available (percent): poor under 50, fair under 90, good from 90. */
export const AVAILABLE_BANDS = [
  { key: 'poor', below: 50 },
  { key: 'fair', below: 90 },
  { key: 'good', below: Infinity },
] as const satisfies readonly { key: SnrBand; below: number }[];
export const availableBand = (pct: number): SnrBand => AVAILABLE_BANDS.find((b) => pct < b.below)!.key;

/**
 * A cell's colour band on the map: by its median SNR in the satellites' layers, by the share of
 * reports with the link available in a link layer; null (not coloured) with fewer reports than
 * `minSamples`, or no SNR to go by.
 */
export function cellBand([, samples, lockedPct, medianSnr]: CoverageCell, minSamples: number, linkLayer: boolean): SnrBand | null {
  if (samples < minSamples) return null;
  if (linkLayer) return availableBand(lockedPct);
  return medianSnr === null ? null : snrBand(medianSnr);
}
