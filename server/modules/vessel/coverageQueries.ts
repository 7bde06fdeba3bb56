import type { Db, Queryable } from '../../db/connection';
import { COVERAGE_KEEP_DAYS, SNR_HIST_BUCKETS, histMedian, type CoverageCell } from '../../../src/domain/coverage';
import { tallyCoverage, type CoverageRow, type CoverageSample } from './coverageTally';
import type { CellFigures } from '../../../src/domain/degradeAhead';

// The fleet's coverage map (migration 033; docs/architecture.md, "Coverage"): built by the leader, read by the map.

const HIST = Array.from({ length: SNR_HIST_BUCKETS }, (_, i) => `h${i}`);

/** Reports read per statement while the cells are built. */
export const COVERAGE_BATCH = 20_000;
/** Reports received this recently (seconds) are left for the next run: a group still being committed may hold older receive times. */
export const COVERAGE_SETTLE_S = 30;

/** The last report counted, its times as text: a JavaScript Date would drop PostgreSQL's microseconds. */
interface Cursor {
  after_received: string | null;
  after_device: number | null;
  after_time: string | null;
}
interface ReportRow {
  received_key: string;
  time_key: string;
  device_id: number;
  device_time: Date;
  lat: number;
  lon: number;
  satellite_name: string | null;
  snr: number;
  modem_lock: boolean;
  unactivated: boolean;
}

const CURSOR_SQL = 'SELECT after_received::text, after_device, after_time::text FROM coverage_state WHERE id = 1';
const readCursor = async (db: Queryable) => (await db.query<Cursor>(CURSOR_SQL))[0]!;

/** The next reports after the cursor, in the order they were received. */
const nextReports = (db: Queryable, c: Cursor, limit: number, settleS: number) =>
  db.query<ReportRow>(
    `SELECT received_at::text AS received_key, device_time::text AS time_key, device_id, device_time, lat, lon, satellite_name, snr, modem_lock, unactivated FROM device_reports
      WHERE received_at >= COALESCE($1::timestamptz, '-infinity') AND received_at <= now() - make_interval(secs => $5)
        AND (received_at, device_id, device_time) > (COALESCE($1::timestamptz, '-infinity'), COALESCE($2::int, 0), COALESCE($3::timestamptz, '-infinity'))
      ORDER BY received_at, device_id, device_time LIMIT $4`,
    [c.after_received, c.after_device, c.after_time, limit, settleS],
  );

const UPSERT_SQL = `INSERT INTO coverage_daily (res, day, satellite, cell, lat, lon, samples, locked, ${HIST.join(', ')})
  SELECT * FROM unnest($1::smallint[], $2::date[], $3::text[], $4::bigint[], $5::real[], $6::real[], $7::int[], $8::int[],
    ${HIST.map((_, i) => `$${i + 9}::int[]`).join(', ')})
  ON CONFLICT (res, day, satellite, cell) DO UPDATE SET samples = coverage_daily.samples + EXCLUDED.samples,
    locked = coverage_daily.locked + EXCLUDED.locked, ${HIST.map((h) => `${h} = coverage_daily.${h} + EXCLUDED.${h}`).join(', ')}`;

/** Adds counted rows to their cells (one statement; a cell already there adds up). */
export async function addCoverageRows(db: Queryable, rows: readonly CoverageRow[]) {
  if (!rows.length) return;
  await db.query(UPSERT_SQL, [
    rows.map((r) => r.res),
    rows.map((r) => r.day),
    rows.map((r) => r.satellite),
    rows.map((r) => r.cell),
    rows.map((r) => r.lat),
    rows.map((r) => r.lon),
    rows.map((r) => r.samples),
    rows.map((r) => r.locked),
    ...HIST.map((_, i) => rows.map((r) => r.hist[i])),
  ]);
}

/**
 * Counts the reports received since the last run into the coverage cells, a batch at a time, for at
 * most `budgetMs`; each batch and the cursor move in one transaction, which checks the cursor is
 * still the one it read (another leader, for a moment, cannot count a batch twice). A late report
 * lands in its own day's cells when it is received: nothing is rebuilt. A report awaiting its
 * vessel's activation, with no satellite (a 4G-only terminal), or older than the kept days, is passed over. Days older than the kept ones
 * are deleted. Returns the reports counted.
 */
export async function buildCoverage(
  db: Db,
  { batch = COVERAGE_BATCH, budgetMs = 20_000, settleS = COVERAGE_SETTLE_S } = {},
): Promise<number> {
  const started = Date.now();
  let counted = 0;
  for (;;) {
    const cursor = await readCursor(db);
    const reports = await nextReports(db, cursor, batch, settleS);
    if (!reports.length) break;
    const keep = Date.now() - COVERAGE_KEEP_DAYS * 86_400_000;
    const samples: CoverageSample[] = reports
      .filter((r) => !r.unactivated && r.satellite_name !== null && r.device_time.getTime() >= keep)
      .map((r) => ({ deviceTime: r.device_time, lat: r.lat, lon: r.lon, satellite: r.satellite_name!, snr: r.snr, locked: r.modem_lock }));
    const rows = tallyCoverage(samples);
    const last = reports[reports.length - 1]!;
    const moved = await db.transaction(async (tx) => {
      const now = await tx.query<Cursor>(`${CURSOR_SQL} FOR UPDATE`);
      if (!sameCursor(now[0]!, cursor)) return false;
      await addCoverageRows(tx, rows);
      await tx.query(
        'UPDATE coverage_state SET after_received = $1::timestamptz, after_device = $2, after_time = $3::timestamptz WHERE id = 1',
        [last.received_key, last.device_id, last.time_key],
      );
      return true;
    });
    if (!moved) break;
    counted += samples.length;
    if (reports.length < batch || Date.now() - started > budgetMs) break;
  }
  await db.query(`DELETE FROM coverage_daily WHERE res IN (2, 3, 4) AND day < (now() AT TIME ZONE 'UTC')::date - $1::int`, [
    COVERAGE_KEEP_DAYS,
  ]);
  return counted;
}

const sameCursor = (a: Cursor, b: Cursor) =>
  a.after_received === b.after_received && a.after_device === b.after_device && a.after_time === b.after_time;

export interface CoverageQuery {
  res: number;
  from: string;
  to: string;
  satellite: string | null;
  /** [south, west, north, east] in degrees: cells whose centre is inside (west > east crosses the antimeridian); null: the world. */
  bounds: [number, number, number, number] | null;
}

/** The cells of a window: reports, locked share and median SNR per cell, summed over its days (and satellites when none is chosen). */
export async function readCoverage(db: Queryable, q: CoverageQuery): Promise<CoverageCell[]> {
  const b = q.bounds;
  const rows = await db.query<{ cell: string; samples: number; locked: number } & Record<string, number>>(
    `SELECT to_hex(cell) AS cell, sum(samples)::int AS samples, sum(locked)::int AS locked, ${HIST.map((h) => `sum(${h})::int AS ${h}`).join(', ')}
       FROM coverage_daily
      WHERE res = $1 AND day BETWEEN $2::date AND $3::date AND ($4::text IS NULL OR satellite = $4)
        AND ($5::real IS NULL OR (lat BETWEEN $5 AND $7 AND CASE WHEN $6::real <= $8::real THEN lon BETWEEN $6 AND $8 ELSE lon >= $6 OR lon <= $8 END))
      GROUP BY cell ORDER BY cell`,
    [q.res, q.from, q.to, q.satellite, b?.[0] ?? null, b?.[1] ?? null, b?.[2] ?? null, b?.[3] ?? null],
  );
  return rows.map((r) => [r.cell, r.samples, Math.round((100 * r.locked) / r.samples), histMedian(HIST.map((h) => r[h]!))]);
}

/** The satellites with cells in a window, for the map's choice. */
export const coverageSatellites = async (db: Queryable, from: string, to: string) =>
  (
    await db.query<{ satellite: string }>(
      'SELECT DISTINCT satellite FROM coverage_daily WHERE res = 2 AND day BETWEEN $1::date AND $2::date ORDER BY satellite',
      [from, to],
    )
  ).map((r) => r.satellite);

/** Every satellite's cells of a window at one resolution, keyed "satellite|cell" (the prediction's lookup: src/domain/degradeAhead.ts). */
export async function coverageBySatellite(db: Queryable, res: number, from: string, to: string): Promise<Map<string, CellFigures>> {
  const rows = await db.query<{ satellite: string; cell: string; samples: number; locked: number } & Record<string, number>>(
    `SELECT satellite, to_hex(cell) AS cell, sum(samples)::int AS samples, sum(locked)::int AS locked, ${HIST.map((h) => `sum(${h})::int AS ${h}`).join(', ')}
       FROM coverage_daily WHERE res = $1 AND day BETWEEN $2::date AND $3::date GROUP BY satellite, cell`,
    [res, from, to],
  );
  return new Map(
    rows.map((r) => [
      `${r.satellite}|${r.cell}`,
      { samples: r.samples, lockedPct: Math.round((100 * r.locked) / r.samples), medianSnr: histMedian(HIST.map((h) => r[h]!)) },
    ]),
  );
}
