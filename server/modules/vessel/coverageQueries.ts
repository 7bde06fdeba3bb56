import type { Queryable } from '../../db/connection';
import {
  COVERAGE_LINK_KINDS,
  SATELLITE_LAYER,
  SNR_HIST_BUCKETS,
  histMedian,
  utcDay,
  utcWeek,
  type CoverageCell,
} from '../../../src/domain/coverage';
import type { CoverageRow } from './coverageTally';
import type { CellFigures } from '../../../src/domain/degradeAhead';

// The fleet's coverage map (migration 033; docs/architecture.md, "Coverage"): built by the leader, read by the map.

const HIST = Array.from({ length: SNR_HIST_BUCKETS }, (_, i) => `h${i}`);

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
