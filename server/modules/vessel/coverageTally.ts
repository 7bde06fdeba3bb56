import { cellToLatLng, cellToParent, latLngToCell } from 'h3-js';
import { COVERAGE_FINEST, COVERAGE_RESOLUTIONS, SNR_HIST_BUCKETS, snrBucket, utcDay } from '../../../src/domain/coverage';

/** A report as the coverage map counts it (docs/architecture.md, "Coverage"). */
export interface CoverageSample {
  deviceTime: Date;
  lat: number;
  lon: number;
  satellite: string;
  snr: number;
  locked: boolean;
}

/** A row of coverage_daily (migration 033) to add: cell as a decimal string (a bigint). */
export interface CoverageRow {
  res: number;
  day: string;
  satellite: string;
  cell: string;
  lat: number;
  lon: number;
  samples: number;
  locked: number;
  hist: number[];
}

/**
 * Adds reports to the rows of their cell at each kept resolution, satellite and UTC day: the
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
      const key = `${res}|${day}|${s.satellite}|${h}`;
      let row = rows.get(key);
      if (!row) {
        let centre = centres.get(h);
        if (!centre) centres.set(h, (centre = cellToLatLng(h)));
        row = {
          res,
          day,
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
      row.hist[snrBucket(s.snr)]! += 1;
    }
  }
  return [...rows.values()];
}
