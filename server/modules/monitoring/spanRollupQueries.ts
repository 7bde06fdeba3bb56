import type { Db } from '../../db/connection';
import { dayStart, rollupBucketsSql, SPAN_MARK_MARGIN, sealedUntilMs } from './dailyRollupQueries';
import { THRESHOLD_SQL } from './stateSql';

/**
 * Spans (migration 035, docs/architecture.md "Telemetry storage"): for each statistics window in
 * use (an alignment and a number of days), one bucket per vessel from the window's first local
 * midnight up to `through`, the last whole hour that ended SPAN_AFTER_MS ago. Built by the leader
 * every hour, beside the build in use, which it then replaces; every statement is one chunk of
 * vessels, so the embedded database serves the console between them.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A span ends at the last whole hour that ended this long ago: its reports have arrived by then (later ones mark the vessel). */
const SPAN_AFTER_MS = 10 * 60_000;

/**
 * One chunk of vessels' span: the buckets of the window's start up to `through` (day rows of
 * sealed unmarked days, hour rows elsewhere) folded into one, as a day row folds its hours
 * (migration 030, report_daily_build): the gaps between buckets of at most 60 s counted whole,
 * the longer ones kept; and its time at each vessel's threshold now. $1 the vessels, $2 alignment, $3 days, $4 through, $5 through less 1 ms,
 * $6 the span's start, $7 the end of its sealed days, $8 the alignment in seconds.
 */
const BUILD_SQL = `
  WITH th AS (
    SELECT d.id AS device_id, ${THRESHOLD_SQL} AS minutes
      FROM devices d
      LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
      LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
     WHERE d.id = ANY($1::int[])
  ),
  w AS (SELECT to_timestamp($6::float8 / 1000) AS f, to_timestamp($5::float8 / 1000) AS t),
  ${rollupBucketsSql({ earliest: '$6', daysFrom: '$6', daysTo: '$7', alignSeconds: '$8' })},
  g AS (
    SELECT device_id, minutes, start, first_at, last_at, last_warn, covered_us, warn_covered_us, long_gaps_us, warn_long_gaps_us,
           (extract(epoch FROM first_at - lag(last_at) OVER x) * 1000000)::bigint AS gap, lag(last_warn) OVER x AS pw
      FROM buckets WINDOW x AS (PARTITION BY device_id ORDER BY start)
  ), span AS (
    SELECT device_id, max(minutes) AS minutes, min(first_at) AS first_at, max(last_at) AS last_at, (array_agg(last_warn ORDER BY start DESC))[1] AS last_warn,
           (sum(covered_us) + COALESCE(sum(gap) FILTER (WHERE gap <= 60000000), 0))::bigint AS covered_us,
           (sum(warn_covered_us) + COALESCE(sum(gap) FILTER (WHERE gap <= 60000000 AND pw), 0))::bigint AS warn_covered_us,
           report_gaps_cat(long_gaps_us) || COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000), '{}') AS long_gaps_us,
           report_gaps_cat(warn_long_gaps_us) || COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000 AND pw), '{}') AS warn_long_gaps_us
      FROM g GROUP BY device_id
  )
  INSERT INTO report_span (align, days, span_start, through, device_id, first_at, last_at, last_warn, covered_us, warn_covered_us, long_gaps_us,
         warn_long_gaps_us, minutes, inner_us, warn_inner_us)
  SELECT $2::int, $3::int, to_timestamp($6::float8 / 1000), to_timestamp($4::float8 / 1000), device_id, first_at, last_at, last_warn, covered_us, warn_covered_us, long_gaps_us,
         warn_long_gaps_us, minutes,
         covered_us + COALESCE((SELECT sum(least(x, minutes * 60000000::bigint)) FROM unnest(long_gaps_us) x), 0)::bigint,
         warn_covered_us + COALESCE((SELECT sum(least(x, minutes * 60000000::bigint)) FROM unnest(warn_long_gaps_us) x), 0)::bigint
    FROM span`;

/** Builds one window's span up to `through` for every vessel, `chunk` vessels a statement. */
async function buildSpan(db: Db, align: number, days: number, spanStart: number, through: number, chunk: number) {
  const sealed = (await sealedUntilMs(db, align)) ?? 0;
  const daysTo = Math.max(spanStart, Math.min(dayStart(through, align), sealed));
  // What an earlier attempt at this very build left (the build in use has another start or end).
  await db.query(
    `DELETE FROM report_span WHERE align = $1::int AND days = $2::int AND span_start = to_timestamp($3::float8 / 1000)
        AND through = to_timestamp($4::float8 / 1000)`,
    [align, days, spanStart, through],
  );
  for (let after = 0; ;) {
    const ids = (await db.query<{ id: number }>('SELECT id FROM devices WHERE id > $1::int ORDER BY id LIMIT $2::int', [after, chunk])).map(
      (r) => r.id,
    );
    if (!ids.length) break;
    await db.query(BUILD_SQL, [ids, align, days, through, through - 1, spanStart, daysTo, align * 3600]);
    after = ids[ids.length - 1]!;
  }
}

/**
 * The leader's minute: each window in use whose span does not end at the last whole hour ended
 * SPAN_AFTER_MS ago (or starts at another day) is built anew. Its marks older than every build by
 * more than the margin are dropped. Returns the spans built.
 */
export async function buildReportSpans(db: Db, { chunk = 2_000, now: at }: { chunk?: number; now?: number } = {}) {
  // The database's clock, the one its trigger marks late reports by (`now` for tests and benches).
  const now = at ?? (await db.query<{ ms: number }>('SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms'))[0]?.ms ?? Date.now();
  const states = await db.query<{ align: number; days: number; start: number | null; through: number | null }>(
    `SELECT align, days, (extract(epoch FROM span_start) * 1000)::float8 AS start, (extract(epoch FROM through) * 1000)::float8 AS through
       FROM report_span_state ORDER BY align, days`,
  );
  let built = 0;
  for (const s of states) {
    const through = Math.floor((now - SPAN_AFTER_MS) / HOUR_MS) * HOUR_MS;
    const spanStart = dayStart(now, s.align) - (s.days - 1) * DAY_MS;
    if ((s.start === spanStart && s.through === through) || through <= spanStart) continue;
    // Taken before any read: a change made after it marks its vessel against this build.
    const [{ at }] = (await db.query<{ at: Date }>('SELECT now() AS at')) as [{ at: Date }];
    await buildSpan(db, s.align, s.days, spanStart, through, chunk);
    await db.query(
      `UPDATE report_span_state SET span_start = to_timestamp($3::float8 / 1000), through = to_timestamp($4::float8 / 1000), built_at = $5::timestamptz
        WHERE align = $1::int AND days = $2::int`,
      [s.align, s.days, spanStart, through, at],
    );
    // Readers take the state and the rows in one statement: one that began before the switch still sees the old rows.
    await db.query(
      `DELETE FROM report_span WHERE align = $1::int AND days = $2::int
          AND (span_start <> to_timestamp($3::float8 / 1000) OR through <> to_timestamp($4::float8 / 1000))`,
      [s.align, s.days, spanStart, through],
    );
    built += 1;
  }
  if (built)
    await db.query(
      `DELETE FROM report_span_dirty WHERE marked_at < (SELECT min(built_at) FROM report_span_state WHERE built_at IS NOT NULL) - ${SPAN_MARK_MARGIN}`,
    );
  return built;
}
