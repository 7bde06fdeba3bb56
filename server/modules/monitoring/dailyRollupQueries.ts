import type { Db, Queryable } from '../../db/connection';
import { STATISTICS_RANGES_DAYS } from '../../../src/domain/constants';

/**
 * The daily rollups (migration 030, docs/architecture.md "Telemetry storage"): days of each time
 * zone alignment in use sealed by the leader, vessel-days marked by a late change rebuilt, and the
 * SQL that reads a window's whole days from them and the rest from the hour rows. Every step of the
 * leader's work is its own short transaction of at most `chunk` vessel-days, so the embedded
 * database's one connection serves the console between them.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A day is sealed this long after it ends: an ingest transaction that began before its end has committed by then. */
const SEAL_AFTER_MS = 5 * 60_000;

/** The UTC hour at which the days of a whole-hour UTC offset start (0 for UTC, 16 for UTC+8, 5 for UTC-5). */
export const alignOf = (utcOffset: number) => ((-utcOffset % 24) + 24) % 24;

/** The start of the day (at an alignment) that holds `ms`. */
export const dayStart = (ms: number, align: number) => Math.floor((ms - align * HOUR_MS) / DAY_MS) * DAY_MS + align * HOUR_MS;

/**
 * The first day of an alignment not sealed yet (epoch ms): its days before it are read from
 * report_daily. Null until its first seal; an alignment asked for the first time is registered, and
 * the leader seals it from its next run.
 */
export async function sealedUntilMs(db: Queryable, align: number): Promise<number | null> {
  const [row] = await db.query<{ ms: number | null }>(
    'SELECT (extract(epoch FROM sealed_until) * 1000)::float8 AS ms FROM report_daily_state WHERE align = $1::int',
    [align],
  );
  if (row) return row.ms;
  await db.query('INSERT INTO report_daily_state (align) VALUES ($1::int) ON CONFLICT DO NOTHING', [align]);
  return null;
}

export interface DailyRollupOptions {
  /** Vessel-days built per transaction. */
  chunk?: number;
  now?: number;
}

/** Builds (or rebuilds) these vessel-days from their hour rows in one statement, taking their marks away. */
async function build(db: Queryable, ids: readonly number[], days: readonly number[]) {
  await db.query('SELECT report_daily_build($1::int[], $2::timestamptz[])', [ids, days.map((d) => new Date(d))]);
}

/** Seals one alignment's ended days after its sealed_until (from its oldest hour row on the first run). */
async function sealAlignment(db: Queryable, align: number, from: number | null, now: number, chunk: number): Promise<number> {
  const end = dayStart(now - SEAL_AFTER_MS, align);
  if (from === null) {
    const [first] = await db.query<{ ms: number | null }>(
      'SELECT (extract(epoch FROM min(hour_start)) * 1000)::float8 AS ms FROM report_hourly',
    );
    from = first?.ms == null ? end : Math.min(dayStart(first.ms, align), end);
  }
  let sealed = 0;
  for (let day = from; day < end; day += DAY_MS) {
    for (let after = 0; ;) {
      const ids = (
        await db.query<{ id: number }>(
          `SELECT DISTINCT device_id AS id FROM report_hourly
            WHERE hour_start >= to_timestamp($1::float8 / 1000) AND hour_start < to_timestamp($1::float8 / 1000) + interval '24 hours'
              AND device_id > $2::int ORDER BY device_id LIMIT $3::int`,
          [day, after, chunk],
        )
      ).map((r) => r.id);
      if (!ids.length) break;
      await build(
        db,
        ids,
        ids.map(() => day),
      );
      after = ids[ids.length - 1]!;
    }
    await db.query('UPDATE report_daily_state SET sealed_until = to_timestamp($2::float8 / 1000) WHERE align = $1::int', [
      align,
      day + DAY_MS,
    ]);
    sealed += 1;
  }
  return sealed;
}

/**
 * The leader's minute: seals every ended day of each alignment in use, then rebuilds the marked
 * vessel-days of sealed days. Returns the days sealed (all alignments) and the vessel-days rebuilt.
 */
export async function sealDailyRollups(db: Db, { chunk = 2_000, now = Date.now() }: DailyRollupOptions = {}) {
  let sealed = 0;
  const states = await db.query<{ align: number; ms: number | null }>(
    'SELECT align, (extract(epoch FROM sealed_until) * 1000)::float8 AS ms FROM report_daily_state ORDER BY align',
  );
  for (const state of states) sealed += await sealAlignment(db, state.align, state.ms, now, chunk);
  let rebuilt = 0;
  for (;;) {
    const marked = await db.query<{ id: number; ms: number }>(
      `SELECT x.device_id AS id, (extract(epoch FROM x.day_start) * 1000)::float8 AS ms
         FROM report_daily_dirty x JOIN report_daily_state s ON s.align * 3600 = extract(epoch FROM x.day_start)::bigint % 86400
        WHERE x.day_start < s.sealed_until ORDER BY x.day_start, x.device_id LIMIT $1::int`,
      [chunk],
    );
    if (!marked.length) break;
    await build(
      db,
      marked.map((m) => m.id),
      marked.map((m) => m.ms),
    );
    rebuilt += marked.length;
  }
  return { sealed, rebuilt };
}

/** Where a rollup query reads hour rows and where day rows (placeholders of parameters). */
export interface RollupBounds {
  /** Hour rows start after it (epoch ms): the window's start less the largest threshold and an hour. */
  earliest: string;
  /** The sealed whole days of the window's alignment, [daysFrom, daysTo) in epoch ms, are read from report_daily (none when equal). */
  daysFrom: string;
  daysTo: string;
  /** The alignment, in seconds after a UTC midnight. */
  alignSeconds: string;
  /**
   * A span (migration 035) that holds every report of the window from its start up to `through`,
   * when one was built for the window's alignment and days: the vessels it holds unmarked read it
   * and the hours from `through` on, instead of their days and hours.
   */
  span?: { align: string; days: string };
}

/** A mark on a vessel counts against a span built less than this after it (an ingest transaction begun before has committed by then). */
export const SPAN_MARK_MARGIN = "interval '5 minutes'";

/**
 * Whether a span was built for a window's alignment and days that starts at the window's start and
 * ends (`through`) within it; the pair is registered the first time it is asked for, and the leader
 * builds it from its next run (server/modules/monitoring/spanRollupQueries.ts). A hint only: the
 * query reads the state again itself (rollupBucketsSql), in the same snapshot as the span rows.
 */
async function spanBuilt(db: Queryable, align: number, days: number, fromMs: number, toMs: number) {
  const [row] = await db.query<{ start: number | null; through: number | null }>(
    `SELECT (extract(epoch FROM span_start) * 1000)::float8 AS start, (extract(epoch FROM through) * 1000)::float8 AS through
       FROM report_span_state WHERE align = $1::int AND days = $2::int`,
    [align, days],
  );
  if (!row) await db.query('INSERT INTO report_span_state (align, days) VALUES ($1::int, $2::int) ON CONFLICT DO NOTHING', [align, days]);
  return row?.start === fromMs && row.through !== null && row.through > fromMs && row.through <= toMs;
}

/**
 * The bounds of a window [fromMs, toMs] read at a UTC offset, their parameters pushed on `params`:
 * its whole days at that offset's alignment, up to the alignment's sealed_until, come from the days.
 */
export async function rollupBounds(
  db: Queryable,
  params: unknown[],
  window: { fromMs: number; toMs: number; utcOffset: number; days?: number },
  earliestMs: number,
  { spans = false }: { spans?: boolean } = {},
): Promise<RollupBounds> {
  const align = alignOf(window.utcOffset);
  const sealed = (await sealedUntilMs(db, align)) ?? 0;
  const daysFrom = dayStart(window.fromMs + DAY_MS - 1, align);
  const daysTo = Math.max(daysFrom, Math.min(dayStart(window.toMs, align), sealed));
  // Spans are kept for the statistics page's windows only (the last 5, 10 or 15 days), and only its query reads them.
  const days = window.days ?? 0;
  const spanned = spans && (STATISTICS_RANGES_DAYS as readonly number[]).includes(days) && daysFrom === window.fromMs;
  const span = spanned && (await spanBuilt(db, align, days, daysFrom, window.toMs));
  return {
    earliest: `$${params.push(earliestMs)}`,
    daysFrom: `$${params.push(daysFrom)}`,
    daysTo: `$${params.push(daysTo)}`,
    alignSeconds: `$${params.push(align * 3600)}`,
    ...(span && {
      span: {
        align: `$${params.push(align)}`,
        days: `$${params.push(days)}`,
      },
    }),
  };
}

const ms = (placeholder: string) => `to_timestamp(${placeholder}::float8 / 1000)`;
const BUCKET_COLUMNS = (t: string) =>
  `${t}.last_at, ${t}.first_at, ${t}.next_at, ${t}.last_warn, ${t}.covered_us, ${t}.warn_covered_us, ${t}.long_gaps_us, ${t}.warn_long_gaps_us, ${t}.bytes_used`;

/**
 * The CTE `buckets` (device_id, minutes, start, last_at, first_at, next_at, last_warn, covered_us,
 * warn_covered_us, long_gaps_us, warn_long_gaps_us, bytes_used): a day row for each sealed whole day of the
 * window that no late change marked, and hour rows for the rest (the hours before the window whose
 * last report may cover its start, the window's edges, and the marked days). Each bucket's time
 * between its reports and from its last report to the next is what its hours' would be, so a query
 * over buckets answers exactly as over hours. Needs the CTEs `th` (device_id, minutes: the
 * vessels and their thresholds) and `w` (f, t: the window); $5 is the window's end in epoch ms.
 * With a span (b.span, read with its state in this statement's snapshot, so a build switching
 * meanwhile changes nothing), the vessels with no mark newer than it read instead one bucket for
 * the window's start up to `through` (its next_at the first report of the hours after, so the
 * bytes_used of that bucket are null), then those hours. While the vessel's threshold is the one
 * the span was built at, the span's time at it stands for its short and long gaps (none to unnest).
 */
export const rollupBucketsSql = (b: RollupBounds) => {
  const sp = b.span;
  // `ts`: th with whether each vessel reads the span; without a span, th and every vessel its days.
  const t = sp ? 'ts' : 'th';
  const unspanned = sp ? 'AND NOT ts.spanned' : '';
  // `st`: the span's state when it still starts at the window's start and ends within it (else none, and no vessel reads it).
  const spanned = sp
    ? `st AS (
       SELECT s.through, s.built_at FROM report_span_state s CROSS JOIN w
        WHERE s.align = ${sp.align}::int AND s.days = ${sp.days}::int AND s.span_start = ${ms(b.daysFrom)}
          AND s.through > ${ms(b.daysFrom)} AND s.through <= w.t AND s.built_at IS NOT NULL
     ), ts AS (
       SELECT th.device_id, th.minutes, NOT EXISTS (SELECT 1 FROM report_span_dirty m CROSS JOIN st
                WHERE m.device_id = th.device_id AND m.marked_at >= st.built_at - ${SPAN_MARK_MARGIN}) AND EXISTS (SELECT 1 FROM st) AS spanned
         FROM th
     ), `
    : '';
  const spanRows = sp
    ? `
       UNION ALL
       SELECT ts.device_id, ts.minutes, rh.hour_start, ${BUCKET_COLUMNS('rh')}
         FROM ts JOIN report_hourly rh ON rh.device_id = ts.device_id
        WHERE rh.hour_start >= (SELECT through FROM st) AND rh.hour_start <= ${ms('$5')} AND ts.spanned
       UNION ALL
       SELECT ts.device_id, ts.minutes, ${ms(b.daysFrom)}, rs.last_at, rs.first_at, nx.next_at, rs.last_warn,
              CASE WHEN same THEN rs.inner_us ELSE rs.covered_us END, CASE WHEN same THEN rs.warn_inner_us ELSE rs.warn_covered_us END,
              CASE WHEN same THEN '{}' ELSE rs.long_gaps_us END, CASE WHEN same THEN '{}' ELSE rs.warn_long_gaps_us END, NULL::bigint
         FROM ts JOIN report_span rs ON rs.device_id = ts.device_id
          AND rs.align = ${sp.align}::int AND rs.days = ${sp.days}::int AND rs.span_start = ${ms(b.daysFrom)} AND rs.through = (SELECT through FROM st)
         LEFT JOIN (SELECT device_id, min(first_at) AS next_at FROM report_hourly
                     WHERE hour_start >= (SELECT through FROM st) AND hour_start <= ${ms('$5')} GROUP BY device_id) nx ON nx.device_id = ts.device_id
         CROSS JOIN LATERAL (SELECT rs.minutes = ts.minutes AS same) m
        WHERE ts.spanned`
    : '';
  return `${spanned}buckets AS (
       SELECT th.device_id, th.minutes, rh.hour_start AS start, ${BUCKET_COLUMNS('rh')}
         FROM th JOIN report_hourly rh ON rh.device_id = th.device_id CROSS JOIN w
        WHERE rh.hour_start > w.f - make_interval(mins => th.minutes) - interval '1 hour' AND rh.hour_start <= w.t
          AND rh.hour_start > ${ms(b.earliest)} AND rh.hour_start < ${ms(b.daysFrom)}
       UNION ALL
       SELECT ${t}.device_id, ${t}.minutes, rh.hour_start, ${BUCKET_COLUMNS('rh')}
         FROM ${t} JOIN report_hourly rh ON rh.device_id = ${t}.device_id
        WHERE rh.hour_start >= ${ms(b.daysTo)} AND rh.hour_start <= ${ms('$5')} ${unspanned}
       UNION ALL
       SELECT ${t}.device_id, ${t}.minutes, rh.hour_start, ${BUCKET_COLUMNS('rh')}
         FROM ${t} JOIN report_daily_dirty x ON x.device_id = ${t}.device_id
         JOIN report_hourly rh ON rh.device_id = x.device_id AND rh.hour_start >= x.day_start AND rh.hour_start < x.day_start + interval '24 hours'
        WHERE x.day_start >= ${ms(b.daysFrom)} AND x.day_start < ${ms(b.daysTo)}
          AND extract(epoch FROM x.day_start)::bigint % 86400 = ${b.alignSeconds}::int ${unspanned}
       UNION ALL
       SELECT ${t}.device_id, ${t}.minutes, rd.day_start, ${BUCKET_COLUMNS('rd')}
         FROM ${t} JOIN report_daily rd ON rd.device_id = ${t}.device_id
        WHERE rd.day_start >= ${ms(b.daysFrom)} AND rd.day_start < ${ms(b.daysTo)}
          AND extract(epoch FROM rd.day_start)::bigint % 86400 = ${b.alignSeconds}::int ${unspanned}
          AND NOT EXISTS (SELECT 1 FROM report_daily_dirty x WHERE x.device_id = rd.device_id AND x.day_start = rd.day_start)${spanRows}
     )`;
};
