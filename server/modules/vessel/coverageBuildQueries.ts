import type { Db, Queryable } from '../../db/connection';
import { COVERAGE_KEEP_DAYS } from '../../../src/domain/coverage';
import { addCoverageRows } from './coverageQueries';
import { coverageSamples, tallyCoverage, type CoverageRow, type CoverageSample } from './coverageTally';
import { TRAFFIC_KEEP_DAYS, addTrafficRows, pruneTraffic, tallyTraffic, type TrafficRow } from './trafficQueries';

// The leader's coverage builder (docs/architecture.md, "Coverage"): the reports received since its last run, counted into the cells.

/**
 * Reports counted per batch. Each batch adds about as many cells as a smaller one would (10,000
 * vessels fill the same cells), so the batch is large and its work is cut into short statements
 * instead (COVERAGE_READ_STEP, COVERAGE_ADD_STEP): at 5,000 reports a batch the soak's ingest fell
 * by a third (docs/architecture.md, "Soak").
 */
export const COVERAGE_BATCH = 20_000;
/** Reports read per statement. */
export const COVERAGE_READ_STEP = 5_000;
/** Cell rows (or traffic rows) added per statement, each step in a transaction of its own. */
export const COVERAGE_ADD_STEP = 3_000;
/** Reports received this recently (seconds) are left for the next run: a group still being committed may hold older receive times. */
export const COVERAGE_SETTLE_S = 30;

/** A report's place in the order of receipt, its times as text: a JavaScript Date would drop PostgreSQL's microseconds. */
interface Mark {
  received: string | null;
  device: number | null;
  time: string | null;
}
/** The last report counted, and the batch being added (its last report; none: between batches) with the steps done (migration 039). */
interface State {
  after: Mark;
  batch: Mark | null;
  done: number;
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

async function readState(db: Queryable, lock = ''): Promise<State> {
  const [s] = await db.query<Record<string, string | number | null>>(
    `SELECT after_received::text, after_device, after_time::text, batch_received::text, batch_device, batch_time::text, batch_done
       FROM coverage_state WHERE id = 1 ${lock}`,
  );
  const mark = (p: string): Mark => ({
    received: s![`${p}_received`] as string | null,
    device: s![`${p}_device`] as number | null,
    time: s![`${p}_time`] as string | null,
  });
  const batch = mark('batch');
  return { after: mark('after'), batch: batch.received === null ? null : batch, done: s!.batch_done as number };
}

const sameMark = (a: Mark | null, b: Mark | null) =>
  a === b || (!!a && !!b && a.received === b.received && a.device === b.device && a.time === b.time);
const sameState = (a: State, b: State) => sameMark(a.after, b.after) && sameMark(a.batch, b.batch) && a.done === b.done;

/** The next reports after `after` (up to `until` when given), in the order they were received. */
const nextReports = (db: Queryable, after: Mark, until: Mark | null, limit: number, settleS: number) =>
  db.query<ReportRow>(
    `SELECT received_at::text AS received_key, device_time::text AS time_key, device_id, device_time, lat, lon, satellite_name, snr, modem_lock, heading, speed, unactivated, link_kinds, links_up FROM device_reports
      WHERE received_at >= COALESCE($1::timestamptz, '-infinity') AND received_at <= now() - make_interval(secs => $5)
        AND (received_at, device_id, device_time) > (COALESCE($1::timestamptz, '-infinity'), COALESCE($2::int, 0), COALESCE($3::timestamptz, '-infinity'))
        AND (received_at, device_id, device_time) <= (COALESCE($6::timestamptz, 'infinity'), COALESCE($7::int, 2147483647), COALESCE($8::timestamptz, 'infinity'))
      ORDER BY received_at, device_id, device_time LIMIT $4`,
    [after.received, after.device, after.time, limit, settleS, until?.received ?? null, until?.device ?? null, until?.time ?? null],
  );

const markOf = (r: ReportRow): Mark => ({ received: r.received_key, device: r.device_id, time: r.time_key });

/** A batch's reports, read COVERAGE_READ_STEP at a time: the unfinished batch again, or the next `batch` reports. */
async function readBatch(db: Queryable, state: State, batch: number, settleS: number): Promise<ReportRow[]> {
  const reports: ReportRow[] = [];
  for (;;) {
    const left = state.batch ? COVERAGE_READ_STEP : Math.min(COVERAGE_READ_STEP, batch - reports.length);
    const from = reports.length ? markOf(reports[reports.length - 1]!) : state.after;
    const step = await nextReports(db, from, state.batch, left, settleS);
    reports.push(...step);
    if (step.length < left || (!state.batch && reports.length >= batch)) return reports;
  }
}

/** What a batch adds: its cells' rows (in the order of their key, so that a batch read again is cut into the same steps) and its traffic rows. */
function tallyBatch(reports: readonly ReportRow[], end: Mark): { counted: number; rows: CoverageRow[]; traffic: TrafficRow[] } {
  // The kept days count back from the batch's last receipt, not from the clock: a batch read
  // again after a while is tallied the same, and cut into the same steps.
  const asOf = Date.parse(end.received!);
  const keep = asOf - COVERAGE_KEEP_DAYS * 86_400_000;
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
  const key = (r: CoverageRow) => `${r.res}|${r.day}|${r.kind}|${r.satellite}|${r.cell.padStart(20, '0')}`;
  const rows = tallyCoverage(perReport.flat()).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  // The fleet's traffic, from the same reports (any link: a 4G-only vessel sails the lanes too), of the weeks it keeps.
  const keepTraffic = asOf - (TRAFFIC_KEEP_DAYS + 7) * 86_400_000;
  const traffic = tallyTraffic(
    reports.filter((r) => !r.unactivated && r.device_time.getTime() >= keepTraffic).map((r) => ({ ...r, deviceTime: r.device_time })),
  );
  return { counted: perReport.length, rows, traffic };
}

function slices<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Counts the reports received since the last run into the coverage cells, a batch at a time, for at
 * most `budgetMs`. A batch is added in steps of `addStep` rows, each in a transaction that
 * first checks the builder's state is still the one it left (another leader for a moment, or a
 * second call, cannot count a batch twice: the one that finds it moved reads it again and goes on) and records the step done; the last step moves the cursor past the batch. A
 * batch cut short is read again and finished from its next step. A late report lands in its own
 * day's cells when it is received: nothing is rebuilt. The fleet's traffic (trafficQueries.ts) is
 * counted from the same reports, in the same steps. A report awaiting its vessel's activation, with
 * neither a satellite nor links (a 4G-only terminal), or older than the kept days, is passed over.
 * Days older than the kept ones are deleted. Returns the reports counted.
 */
export async function buildCoverage(
  db: Db,
  { batch = COVERAGE_BATCH, budgetMs = 20_000, settleS = COVERAGE_SETTLE_S, addStep = COVERAGE_ADD_STEP } = {},
): Promise<number> {
  const started = Date.now();
  let counted = 0;
  for (;;) {
    let state = await readState(db);
    const reports = await readBatch(db, state, batch, settleS);
    if (!reports.length && !state.batch) break;
    // A batch cut short whose reports are all gone since (their vessel deleted, retention): the
    // cursor moves past it with nothing added.
    const end = state.batch ?? markOf(reports[reports.length - 1]!);
    const tally = tallyBatch(reports, end);
    const steps: ((tx: Queryable) => Promise<void>)[] = [
      ...slices(tally.rows, addStep).map((rows) => (tx: Queryable) => addCoverageRows(tx, rows)),
      ...slices(tally.traffic, addStep).map((rows) => (tx: Queryable) => addTrafficRows(tx, rows)),
    ];
    // The batch's steps from the next one undone; the last moves the cursor (alone when there is nothing to add).
    const resumed = state.batch !== null;
    const stop = Math.max(steps.length, state.done + 1);
    let moved = true;
    for (let k = state.done; moved && k < stop; k++) {
      const last = k === stop - 1;
      const next: State = last ? { after: end, batch: null, done: 0 } : { after: state.after, batch: end, done: k + 1 };
      const expected = state;
      moved = await db.transaction(async (tx) => {
        if (!sameState(await readState(tx, 'FOR UPDATE'), expected)) return false;
        await steps[k]?.(tx);
        await tx.query(
          `UPDATE coverage_state SET after_received = $1::timestamptz, after_device = $2, after_time = $3::timestamptz,
             batch_received = $4::timestamptz, batch_device = $5, batch_time = $6::timestamptz, batch_done = $7 WHERE id = 1`,
          [
            next.after.received,
            next.after.device,
            next.after.time,
            next.batch?.received ?? null,
            next.batch?.device ?? null,
            next.batch?.time ?? null,
            next.done,
          ],
        );
        return true;
      });
      state = next;
    }
    // Another builder moved first (a leader for a moment, or a call beside the leader's): go on from where it is.
    if (!moved && Date.now() - started <= budgetMs) continue;
    if (!moved) break;
    counted += tally.counted;
    if ((!resumed && reports.length < batch) || Date.now() - started > budgetMs) break;
  }
  for (const table of ['coverage_daily', 'coverage_weekly'])
    await db.query(`DELETE FROM ${table} WHERE res IN (2, 3, 4) AND day < (now() AT TIME ZONE 'UTC')::date - $1::int`, [
      COVERAGE_KEEP_DAYS + 7,
    ]);
  await pruneTraffic(db, TRAFFIC_KEEP_DAYS);
  return counted;
}
