import { cellToLatLng, cellToParent, latLngToCell } from 'h3-js';
import {
  COVERAGE_FINEST,
  COVERAGE_LINK_KINDS,
  COVERAGE_RESOLUTIONS,
  SATELLITE_LAYER,
  SNR_HIST_BUCKETS,
  snrBucket,
  utcDay,
} from '../../../src/domain/coverage';
import { LINK_KINDS } from '../../../src/domain/links';

/** A report as the coverage map counts it (docs/architecture.md, "Coverage"). */
export interface CoverageSample {
  deviceTime: Date;
  lat: number;
  lon: number;
  /** 'geo' for a satellite's report, else a link kind (src/domain/coverage.ts, COVERAGE_LINK_KINDS). */
  kind: string;
  /** The satellite; '' in a link kind's layer. */
  satellite: string;
  /** Null: none counted (a link layer's reports). */
  snr: number | null;
  /** Locked on the satellite; in a link layer, the link available. */
  locked: boolean;
}

/** A report as its history keeps it: its satellite (null: none) and its links' bitmasks (src/domain/links.ts, linkKindBits; null: no links). */
export interface ReportForCoverage {
  deviceTime: Date;
  lat: number;
  lon: number;
  satellite: string | null;
  snr: number;
  locked: boolean;
  linkKinds: number | null;
  linksUp: number | null;
}

/** What a report counts in the map's layers: its satellite's, and one for each link kind it has (available or not). */
export function* coverageSamples(r: ReportForCoverage): Generator<CoverageSample> {
  const at = { deviceTime: r.deviceTime, lat: r.lat, lon: r.lon };
  if (r.satellite !== null) yield { ...at, kind: SATELLITE_LAYER, satellite: r.satellite, snr: r.snr, locked: r.locked };
  if (!r.linkKinds) return;
  for (const kind of COVERAGE_LINK_KINDS) {
    const bit = 1 << LINK_KINDS.indexOf(kind);
    if (r.linkKinds & bit) yield { ...at, kind, satellite: '', snr: null, locked: ((r.linksUp ?? 0) & bit) !== 0 };
  }
}

/** A row of coverage_daily (migration 033) to add: cell as a decimal string (a bigint). */
export interface CoverageRow {
  res: number;
  day: string;
  kind: string;
  satellite: string;
  cell: string;
  lat: number;
  lon: number;
  samples: number;
  locked: number;
  hist: number[];
}

/**
 * Adds reports to the rows of their cell at each kept resolution, layer (a satellite or a link kind) and UTC day: the
 * finest cell is found once (h3-js), the coarser ones are its parents. Reports are summed in
 * memory, so a batch writes one row per cell, not one per report.
 */
export function tallyCoverage(samples: Iterable<CoverageSample>): CoverageRow[] {
  const rows = new Map<string, CoverageRow>();
  const centres = new Map<string, [number, number]>();
  for (const s of samples) {
    if (!Number.isFinite(s.lat) || !Number.isFinite(s.lon) || Math.abs(s.lat) > 90 || Math.abs(s.lon) > 180) continue;
    const day = utcDay(s.deviceTime.getTime());
    const finest = latLngToCell(s.lat, s.lon, COVERAGE_FINEST);
    for (const res of COVERAGE_RESOLUTIONS) {
      const h = res === COVERAGE_FINEST ? finest : cellToParent(finest, res);
      const key = `${res}|${day}|${s.kind}|${s.satellite}|${h}`;
      let row = rows.get(key);
      if (!row) {
        let centre = centres.get(h);
        if (!centre) centres.set(h, (centre = cellToLatLng(h)));
        row = {
          res,
          day,
          kind: s.kind,
          satellite: s.satellite,
          cell: BigInt(`0x${h}`).toString(),
          lat: centre[0],
          lon: centre[1],
          samples: 0,
          locked: 0,
          hist: new Array<number>(SNR_HIST_BUCKETS).fill(0),
        };
        rows.set(key, row);
      }
      row.samples += 1;
      if (s.locked) row.locked += 1;
      if (s.snr !== null) row.hist[snrBucket(s.snr)]! += 1;
    }
  }
  return [...rows.values()];
}
