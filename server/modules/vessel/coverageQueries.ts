import type { Db, Queryable } from '../../db/connection';
import {
  COVERAGE_KEEP_DAYS,
  COVERAGE_LINK_KINDS,
  SATELLITE_LAYER,
  SNR_HIST_BUCKETS,
  histMedian,
  utcDay,
  utcWeek,
  type CoverageCell,
} from '../../../src/domain/coverage';
import { coverageSamples, tallyCoverage, type CoverageRow, type CoverageSample } from './coverageTally';
import type { CellFigures } from '../../../src/domain/degradeAhead';
import { TRAFFIC_KEEP_DAYS, addTrafficRows, pruneTraffic, tallyTraffic } from './trafficQueries';

// The fleet's coverage map (migration 033; docs/architecture.md, "Coverage"): built by the leader, read by the map.

const HIST = Array.from({ length: SNR_HIST_BUCKETS }, (_, i) => `h${i}`);

/**
 * Reports read per statement while the cells are built. Smaller batches hold the embedded database
 * for less time each, but each adds about as many cells as a large one (10,000 vessels fill the
 * same cells): at 5,000 the soak's ingest fell by a third (docs/architecture.md, "Soak").
 */
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
  heading: number;
  speed: number;
  unactivated: boolean;
  link_kinds: number | null;
  links_up: number | null;
}

const CURSOR_SQL = 'SELECT after_received::text, after_device, after_time::text FROM coverage_state WHERE id = 1';
const readCursor = async (db: Queryable) => (await db.query<Cursor>(CURSOR_SQL))[0]!;

/** The next reports after the cursor, in the order they were received. */
const nextReports = (db: Queryable, c: Cursor, limit: number, settleS: number) =>
  db.query<ReportRow>(
    `SELECT received_at::text AS received_key, device_time::text AS time_key, device_id, device_time, lat, lon, satellite_name, snr, modem_lock, heading, speed, unactivated, link_kinds, links_up FROM device_reports
      WHERE received_at >= COALESCE($1::timestamptz, '-infinity') AND received_at <= now() - make_interval(secs => $5)
        AND (received_at, device_id, device_time) > (COALESCE($1::timestamptz, '-infinity'), COALESCE($2::int, 0), COALESCE($3::timestamptz, '-infinity'))
      ORDER BY received_at, device_id, device_time LIMIT $4`,
    [c.after_received, c.after_device, c.after_time, limit, settleS],
  );

const upsertSql = (
  table: 'coverage_daily' | 'coverage_weekly',
) => `INSERT INTO ${table} (res, day, kind, satellite, cell, lat, lon, samples, locked, ${HIST.join(', ')})
  SELECT * FROM unnest($1::smallint[], $2::date[], $3::text[], $4::text[], $5::bigint[], $6::real[], $7::real[], $8::int[], $9::int[],
    ${HIST.map((_, i) => `$${i + 10}::int[]`).join(', ')})
  ON CONFLICT (res, day, kind, satellite, cell) DO UPDATE SET samples = ${table}.samples + EXCLUDED.samples,
    locked = ${table}.locked + EXCLUDED.locked, ${HIST.map((h) => `${h} = ${table}.${h} + EXCLUDED.${h}`).join(', ')}`;

const DAY_MS = 86_400_000;
/** The Monday (UTC) of a day's week. */
const mondayOf = (day: string) => utcWeek(Date.parse(`${day}T00:00:00Z`));

/** The day rows summed by week (a batch may hold several days of one cell's week: one row each). */
function byWeek(rows: readonly CoverageRow[]): CoverageRow[] {
  const weeks = new Map<string, CoverageRow>();
  for (const r of rows) {
    const day = mondayOf(r.day);
    const key = `${r.res}|${day}|${r.kind}|${r.satellite}|${r.cell}`;
    const w = weeks.get(key);
    if (!w) weeks.set(key, { ...r, day, hist: [...r.hist] });
    else {
      w.samples += r.samples;
      w.locked += r.locked;
      r.hist.forEach((n, i) => (w.hist[i]! += n));
    }
  }
  return [...weeks.values()];
}

/** Adds counted rows to their cells, by day and by week (a statement each; a cell already there adds up). */
export async function addCoverageRows(db: Queryable, rows: readonly CoverageRow[]) {
  if (!rows.length) return;
  for (const [table, list] of [
    ['coverage_daily', rows],
    ['coverage_weekly', byWeek(rows)],
  ] as const) {
    await db.query(upsertSql(table), [
      list.map((r) => r.res),
      list.map((r) => r.day),
      list.map((r) => r.kind),
      list.map((r) => r.satellite),
      list.map((r) => r.cell),
      list.map((r) => r.lat),
      list.map((r) => r.lon),
      list.map((r) => r.samples),
      list.map((r) => r.locked),
      ...HIST.map((_, i) => list.map((r) => r.hist[i])),
    ]);
  }
}

/**
 * A window of UTC days [from, to] as rows of the cells: its whole weeks from coverage_weekly and
 * the days either side from coverage_daily (a relation of their columns; `res` is the SQL of the
 * resolution's parameter, the window's 6 parameters are numbered from `first`).
 */
export function windowRows(res: string, from: string, to: string, first: number): { sql: string; params: string[] } {
  const fromMs = Date.parse(`${from}T00:00:00Z`);
  const toMs = Date.parse(`${to}T00:00:00Z`);
  const firstMonday = fromMs + ((7 - ((new Date(fromMs).getUTCDay() + 6) % 7)) % 7) * DAY_MS;
  const lastSunday = toMs - ((new Date(toMs).getUTCDay() + 7) % 7) * DAY_MS;
  const none = ['2000-01-02', '2000-01-01'];
  const whole = firstMonday + 6 * DAY_MS <= lastSunday;
  const params = whole
    ? [utcDay(firstMonday), utcDay(lastSunday - 6 * DAY_MS), from, utcDay(firstMonday - DAY_MS), utcDay(lastSunday + DAY_MS), to]
    : [...none, from, to, ...none];
  const [a, b, c, d, e, f] = params.map((_, i) => `$${first + i}::date`);
  const columns = `kind, satellite, cell, lat, lon, samples, locked, ${HIST.join(', ')}`;
  return {
    sql: `(SELECT ${columns} FROM coverage_weekly WHERE res = ${res} AND day BETWEEN ${a} AND ${b}
           UNION ALL
           SELECT ${columns} FROM coverage_daily WHERE res = ${res} AND (day BETWEEN ${c} AND ${d} OR day BETWEEN ${e} AND ${f}))`,
    params,
  };
}

/**
 * Counts the reports received since the last run into the coverage cells, a batch at a time, for at
 * most `budgetMs`; each batch and the cursor move in one transaction, which checks the cursor is
 * still the one it read (another leader, for a moment, cannot count a batch twice). A late report
 * lands in its own day's cells when it is received: nothing is rebuilt. The fleet's traffic
 * (trafficQueries.ts) is counted from the same reports, in the same transactions. A report awaiting its
 * vessel's activation, with neither a satellite nor links (a 4G-only terminal), or older than the kept days, is passed over. Days older than the kept ones
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
    const perReport: CoverageSample[][] = reports
      .filter((r) => !r.unactivated && r.device_time.getTime() >= keep)
      .map((r) => [
        ...coverageSamples({
          deviceTime: r.device_time,
          lat: r.lat,
          lon: r.lon,
          satellite: r.satellite_name,
          snr: r.snr,
          locked: r.modem_lock,
          linkKinds: r.link_kinds,
          linksUp: r.links_up,
        }),
      ])
      .filter((list) => list.length);
    const rows = tallyCoverage(perReport.flat());
    // The fleet's traffic, from the same reports (any link: a 4G-only vessel sails the lanes too), of the weeks it keeps.
    const keepTraffic = Date.now() - (TRAFFIC_KEEP_DAYS + 7) * 86_400_000;
    const traffic = tallyTraffic(
      reports.filter((r) => !r.unactivated && r.device_time.getTime() >= keepTraffic).map((r) => ({ ...r, deviceTime: r.device_time })),
    );
    const last = reports[reports.length - 1]!;
    const moved = await db.transaction(async (tx) => {
      const now = await tx.query<Cursor>(`${CURSOR_SQL} FOR UPDATE`);
      if (!sameCursor(now[0]!, cursor)) return false;
      await addCoverageRows(tx, rows);
      await addTrafficRows(tx, traffic);
      await tx.query(
        'UPDATE coverage_state SET after_received = $1::timestamptz, after_device = $2, after_time = $3::timestamptz WHERE id = 1',
        [last.received_key, last.device_id, last.time_key],
      );
      return true;
    });
    if (!moved) break;
    counted += perReport.length;
    if (reports.length < batch || Date.now() - started > budgetMs) break;
  }
  for (const table of ['coverage_daily', 'coverage_weekly'])
    await db.query(`DELETE FROM ${table} WHERE res IN (2, 3, 4) AND day < (now() AT TIME ZONE 'UTC')::date - $1::int`, [
      COVERAGE_KEEP_DAYS + 7,
    ]);
  await pruneTraffic(db, TRAFFIC_KEEP_DAYS);
  return counted;
}

const sameCursor = (a: Cursor, b: Cursor) =>
  a.after_received === b.after_received && a.after_device === b.after_device && a.after_time === b.after_time;

type SummedRow = { samples: number; locked: number } & Record<string, number>;
/** A cell's summed row as its figures: reports, locked share (whole percent), median SNR. */
const figuresOf = (r: SummedRow): CellFigures => ({
  samples: r.samples,
  lockedPct: Math.round((100 * r.locked) / r.samples),
  medianSnr: histMedian(HIST.map((h) => r[h]!)),
});

export interface CoverageQuery {
  res: number;
  from: string;
  to: string;
  /** The layer: 'geo' (the satellites: SATELLITE_LAYER) or a link kind. */
  kind: string;
  /** One satellite's cells; null: every satellite's (or a link layer). */
  satellite: string | null;
  /** [south, west, north, east] in degrees: cells whose centre is inside (west > east crosses the antimeridian); null: the world. */
  bounds: [number, number, number, number] | null;
}

/** The cells of a window and layer: reports, locked share and median SNR per cell, summed over its days (and satellites when none is chosen). */
export async function readCoverage(db: Queryable, q: CoverageQuery): Promise<CoverageCell[]> {
  const b = q.bounds;
  const w = windowRows('$1::smallint', q.from, q.to, 8);
  const rows = await db.query<{ cell: string; samples: number; locked: number } & Record<string, number>>(
    `SELECT to_hex(cell) AS cell, sum(samples)::int AS samples, sum(locked)::int AS locked, ${HIST.map((h) => `sum(${h})::int AS ${h}`).join(', ')}
       FROM ${w.sql} r
      WHERE kind = $7 AND ($2::text IS NULL OR satellite = $2)
        AND ($3::real IS NULL OR (lat BETWEEN $3 AND $5 AND CASE WHEN $4::real <= $6::real THEN lon BETWEEN $4 AND $6 ELSE lon >= $4 OR lon <= $6 END))
      GROUP BY cell ORDER BY cell`,
    [q.res, q.satellite, b?.[0] ?? null, b?.[1] ?? null, b?.[2] ?? null, b?.[3] ?? null, q.kind, ...w.params],
  );
  return rows.map((r) => {
    const f = figuresOf(r);
    return [r.cell, f.samples, f.lockedPct, f.medianSnr];
  });
}

/** The satellites, and the link kinds, with cells in a window: the map's choices. */
export async function coverageLayers(db: Queryable, from: string, to: string) {
  const w = windowRows('2', from, to, 1);
  const rows = await db.query<{ kind: string; satellite: string }>(
    `SELECT DISTINCT kind, satellite FROM ${w.sql} r ORDER BY kind, satellite`,
    w.params,
  );
  return {
    satellites: rows.filter((r) => r.kind === SATELLITE_LAYER).map((r) => r.satellite),
    links: COVERAGE_LINK_KINDS.filter((k) => rows.some((r) => r.kind === k)),
  };
}

/** Every satellite's cells of a window at one resolution, keyed "satellite|cell" (the prediction's lookup: src/domain/degradeAhead.ts). */
export async function coverageBySatellite(db: Queryable, res: number, from: string, to: string): Promise<Map<string, CellFigures>> {
  const w = windowRows('$1::smallint', from, to, 2);
  const rows = await db.query<{ satellite: string; cell: string; samples: number; locked: number } & Record<string, number>>(
    `SELECT satellite, to_hex(cell) AS cell, sum(samples)::int AS samples, sum(locked)::int AS locked, ${HIST.map((h) => `sum(${h})::int AS ${h}`).join(', ')}
       FROM ${w.sql} r WHERE kind = '${SATELLITE_LAYER}' GROUP BY satellite, cell`,
    [res, ...w.params],
  );
  return new Map(rows.map((r) => [`${r.satellite}|${r.cell}`, figuresOf(r)]));
}
