import type { Queryable } from '../../db/connection';
import { utcWeek } from '../../../src/domain/coverage';
import { DEGRADE_WINDOW_DAYS } from '../../../src/domain/degradeAhead';
import { FLOW_MIN_SPEED_KN, flowCell, flowSector, headingVector, type FlowFigures } from '../../../src/domain/trafficFlow';

// The fleet's traffic (migration 036; src/domain/trafficFlow.ts): counted by the leader with the coverage, read by the prediction.

/** Days of traffic kept (the prediction's window); the weeks before them are deleted, and older reports not counted. */
export const TRAFFIC_KEEP_DAYS = DEGRADE_WINDOW_DAYS;

/** A report as the traffic counts it. */
export interface TrafficSample {
  deviceTime: Date;
  lat: number;
  lon: number;
  heading: number;
  speed: number;
}
/** A row of traffic_flow to add: cell as a decimal string (a bigint). */
export interface TrafficRow {
  week: string;
  cell: string;
  sector: number;
  samples: number;
  east: number;
  north: number;
}

/** Sums the reports of vessels under way by week, cell and heading sector (a batch writes one row per key). */
export function tallyTraffic(samples: Iterable<TrafficSample>): TrafficRow[] {
  const rows = new Map<string, TrafficRow>();
  for (const s of samples) {
    const placed = Number.isFinite(s.lat) && Number.isFinite(s.lon) && Math.abs(s.lat) <= 90 && Math.abs(s.lon) <= 180;
    if (!placed || !(s.speed >= FLOW_MIN_SPEED_KN) || !Number.isFinite(s.heading)) continue;
    const week = utcWeek(s.deviceTime.getTime());
    const cell = flowCell(s.lat, s.lon);
    const sector = flowSector(s.heading);
    const key = `${week}|${cell}|${sector}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { week, cell: BigInt(`0x${cell}`).toString(), sector, samples: 0, east: 0, north: 0 }));
    const v = headingVector(s.heading);
    row.samples += 1;
    row.east += v.east;
    row.north += v.north;
  }
  return [...rows.values()];
}

/** Adds counted rows to their cells (one statement; a cell already there adds up). */
export async function addTrafficRows(db: Queryable, rows: readonly TrafficRow[]) {
  if (!rows.length) return;
  await db.query(
    `INSERT INTO traffic_flow (week, cell, sector, samples, east, north)
     SELECT * FROM unnest($1::date[], $2::bigint[], $3::smallint[], $4::int[], $5::float8[], $6::float8[])
     ON CONFLICT (week, cell, sector) DO UPDATE SET samples = traffic_flow.samples + EXCLUDED.samples,
       east = traffic_flow.east + EXCLUDED.east, north = traffic_flow.north + EXCLUDED.north`,
    [
      rows.map((r) => r.week),
      rows.map((r) => r.cell),
      rows.map((r) => r.sector),
      rows.map((r) => r.samples),
      rows.map((r) => r.east),
      rows.map((r) => r.north),
    ],
  );
}

/** Deletes the weeks that ended more than `days` days ago. */
export const pruneTraffic = (db: Queryable, days: number) =>
  db.query(`DELETE FROM traffic_flow WHERE week < (now() AT TIME ZONE 'UTC')::date - $1::int - 7`, [days]);

/** The traffic of the weeks that hold the last `days` days, keyed "cell|sector" (the prediction's lookup). */
export async function trafficSince(db: Queryable, days: number): Promise<Map<string, FlowFigures>> {
  const rows = await db.query<{ cell: string; sector: number; samples: number; east: number; north: number }>(
    `SELECT to_hex(cell) AS cell, sector, sum(samples)::int AS samples, sum(east) AS east, sum(north) AS north FROM traffic_flow
      WHERE week >= $1::date GROUP BY cell, sector`,
    [utcWeek(Date.now() - (days - 1) * 86_400_000)],
  );
  return new Map(rows.map((r) => [`${r.cell}|${r.sector}`, { samples: r.samples, east: Number(r.east), north: Number(r.north) }]));
}
