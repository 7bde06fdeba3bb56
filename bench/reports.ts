import { loadavg } from 'node:os';
import type { Db } from '../server/db/connection';
import { buildReport } from '../server/reports/buildReport';
import { reportPdf } from '../server/reports/reportPdf';
import { reportWorkbook } from '../server/reports/reportWorkbook';
import { dayNumbersOf, reportFigures } from '../server/reports/reportFigures';
import { rollupFigures } from '../server/reports/reportQueries';
import { fleetStatistics, statisticsWindow } from '../server/modules/vessel/statisticsQueries';
import { buildReportSpans, sealDailyRollups } from '../server/modules/monitoring';
import type { Principal } from '../src/domain/levels';
import { previousPeriod, type ReportKind, type ReportRange } from '../src/domain/reports';
import { postgresAvailable, startBenchServer } from './benchServer';
import { SMOKE, sized } from './smoke';

/**
 * bench:reports — what a scheduled report and the fleet statistics cost on a large fleet
 * (docs/architecture.md, "Scheduled reports: figures"). For each engine (PostgreSQL in a scratch
 * schema, dropped afterwards; PGlite in memory): the demo fleet plus bench vessels up to
 * REFERENCE vessels, then up to VESSELS, each with an hourly rollup row (report_hourly, as the
 * ingest trigger writes it: a report a minute, some hours with a 10-minute gap, some warn time, a
 * 3-hour outage every 200 hours) for every hour of the last complete month at UTC+8, and 5 alarms
 * per vessel raised within it (most acknowledged and cleared). Side by side in one run:
 *   - the trivial cost: a `SELECT 1` round trip, p50 / p99;
 *   - the fleet statistics over the month's last 15 days (fleetStatistics, the query function of
 *     statistics/getFleet, no HTTP), a level-1 caller, page 1 of 20 by availability, p50 / p99,
 *     at REFERENCE vessels and at VESSELS: first from the hour rows only (the reference: no day
 *     sealed yet), then after sealing every day into the daily rollups (its time printed too);
 *   - the monthly availability + alarms workbook (buildReport, zh, UTC+8), at REFERENCE vessels
 *     once and at VESSELS the median of 3: time, the process's RSS and heapUsed growth (peak during
 *     the build, sampled every 20 ms, less just before it) and the workbook's bytes;
 *   - the report's two reads apart (the statistics of every vessel by name, rollupFigures):
 *     at VESSELS the report is built only when they project at most BUILD_LIMIT_MS (else the
 *     projection is printed);
 *   - the same report as a PDF at REFERENCE vessels;
 *   - at VESSELS, the build's parts apart: figures, workbook (with the figures, the XLSX alone) and PDF.
 * The server runs in this process (PGlite too); PostgreSQL's own memory is not counted.
 * Prints figures; asserts nothing. Rollups and alarms are planted directly, not built from reports.
 *
 *   npm run bench:reports                     both engines (PostgreSQL skipped when none answers)
 *   BENCH_VESSELS=N BENCH_ENGINE=postgres|pglite|both BENCH_KEEP=1 (PostgreSQL: keep the scratch schema)
 *   BENCH_SMOKE=1: 50 vessels (the demo's), 2 days of rollups, a 5-day window, one call each (bench/smoke.ts)
 */
process.env.SEED_STORY ??= '0';

const VESSELS = Number(process.env.BENCH_VESSELS ?? sized(10_000, 50));
const REFERENCE = Math.min(VESSELS, sized(1_050, 50));
const ENGINE = process.env.BENCH_ENGINE ?? 'both';
/** Keep the PostgreSQL scratch schema (its URL is printed), to look at plans afterwards. */
const KEEP = process.env.BENCH_KEEP === '1';
const STAT_RUNS = { postgres: sized(30, 1), pglite: sized(10, 1) };
const REPORT_RUNS = sized(3, 1);
/** A measure's repeats stop once they have taken this long (the first calls always run). */
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 60_000);
/** The large report is built only when its parts, timed first, project at most this long. */
const BUILD_LIMIT_MS = Number(process.env.BENCH_BUILD_LIMIT_MS ?? 120_000);
const STAT_DAYS = sized(15, 5);
const ALARMS_PER_VESSEL = 5;
const OFFSET_HOURS = 8;
/** The vessels a statement plants rollups for (a month: 744 rows each). */
const CHUNK = 500;

const admin: Principal = { id: 1, permissionLevel: '1', parentId: null };
const HOUR_MS = 3_600_000;

/** The last complete month at UTC+8; in smoke mode its last 2 days. */
const month = previousPeriod('month', OFFSET_HOURS);
const RANGE: ReportRange = SMOKE ? { fromMs: month.toMs - 2 * 24 * HOUR_MS, toMs: month.toMs } : month;
/** The statistics window: the range's last STAT_DAYS local days, as getFleet reads them on the range's last day. */
const WINDOW = statisticsWindow(STAT_DAYS, OFFSET_HOURS, RANGE.toMs - 1);
/** The range's last day at 13:30 local: a window ending then is the Statistics page's "last N days" asked mid-day. */
const MIDDAY = RANGE.toMs - 10.5 * HOUR_MS;
const MIDDAY_WINDOW = statisticsWindow(STAT_DAYS, OFFSET_HOURS, MIDDAY);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const median = (xs: number[]) => pct(xs, 50);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const secs = (x: number) => `${(x / 1000).toFixed(2)} s`;

interface Row {
  engine: string;
  what: string;
  figure: string;
}
const table: Row[] = [];
const put = (engine: string, what: string, figure: string) => {
  table.push({ engine, what, figure });
  console.log(`  ${what.padEnd(64)} ${figure}`);
};

/**
 * Hourly rollup rows for the vessels `ids` over the range (and the hours before it the statistics
 * read): one per hour, a report a minute from second (id % 60); every 20th hour a 10-minute gap,
 * every 13th some warn time, 3 hours missing every 200 (an outage); next_at the next row's first_at.
 */
async function plantRollups(db: Db, ids: number[]) {
  const from = new Date(Math.floor(RANGE.fromMs / HOUR_MS) * HOUR_MS - 3 * HOUR_MS).toISOString();
  const to = new Date(RANGE.toMs - HOUR_MS).toISOString();
  for (let i = 0; i < ids.length; i += CHUNK) {
    await db.query(
      `INSERT INTO report_hourly (device_id, hour_start, reports, warn_reports, first_at, last_at, last_warn, next_at, covered_us,
              warn_covered_us, long_gaps_us, warn_long_gaps_us, signal_min, signal_max, signal_sum, snr_min, snr_max, snr_sum,
              azimuth_min, azimuth_max, azimuth_sum, elevation_min, elevation_max, elevation_sum, skew_min, skew_max, skew_sum,
              speed_min, speed_max, speed_sum)
       SELECT d, hs, n, wn, first_at, first_at + interval '59 minutes', k % 26 = 0,
              lead(first_at) OVER (PARTITION BY d ORDER BY hs),
              CASE WHEN gap THEN 2940000000 ELSE 3540000000 END, CASE WHEN k % 13 = 0 THEN 600000000 ELSE 0 END,
              CASE WHEN gap THEN '{600000000}'::bigint[] ELSE '{}'::bigint[] END, '{}'::bigint[],
              40, 80, 60.0 * n, 8, 14, 11.0 * n, 170, 190, 180.0 * n, 40, 50, 45.0 * n, -2, 2, 0, 8, 14, 11.0 * n
         FROM (SELECT d, hs, k, hs + make_interval(secs => d % 60) AS first_at, k % 20 = 0 AS gap,
                      CASE WHEN k % 20 = 0 THEN 50 ELSE 60 END AS n, CASE WHEN k % 13 = 0 THEN 10 ELSE 0 END AS wn
                 FROM unnest($1::int[]) AS d CROSS JOIN generate_series($2::timestamptz, $3::timestamptz, interval '1 hour') AS hs
                 CROSS JOIN LATERAL (SELECT (extract(epoch FROM hs)::bigint / 3600 + d) AS k) kk
                WHERE (k + d * 7) % 200 >= 3) x`,
      [ids.slice(i, i + CHUNK), from, to],
    );
    process.stdout.write(
      `\r  planting rollups: ${Math.min(ids.length, i + CHUNK).toLocaleString('en')} / ${ids.length.toLocaleString('en')} vessels   `,
    );
  }
  process.stdout.write('\n');
}

/** ALARMS_PER_VESSEL alarms per vessel raised within the range: 80 % acknowledged, 90 % cleared (each code of a vessel once). */
async function plantAlarms(db: Db, ids: number[]) {
  await db.query(
    `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, acked_at, acked_by, cleared_at, cleared_by)
     SELECT d, 'E0' || (j + 1), (ARRAY['critical', 'major', 'minor', 'minor', 'major'])[j + 1], r, r + interval '10 minutes',
            CASE WHEN (d + j) % 5 <> 0 THEN r + make_interval(mins => 5 + (d * 13 + j) % 115) END,
            CASE WHEN (d + j) % 5 <> 0 THEN 1 END,
            CASE WHEN (d + j) % 10 <> 0 THEN r + make_interval(mins => 30 + (d * 17 + j) % 570) END,
            CASE WHEN (d + j) % 10 <> 0 THEN 1 END
       FROM unnest($1::int[]) AS d CROSS JOIN generate_series(0, $2::int - 1) AS j
       CROSS JOIN LATERAL (SELECT to_timestamp(($3::float8 + ((d::bigint * 7919 + j * 104729) % $4::bigint) * 1000) / 1000) AS r) rr
     ON CONFLICT DO NOTHING`,
    [ids, ALARMS_PER_VESSEL, RANGE.fromMs, Math.floor((RANGE.toMs - RANGE.fromMs) / 1000 - 1)],
  );
}

/** Adds vessels up to `total`, plants the rollups and alarms of those without; returns the fleet's size. */
async function growFleet(db: Db, total: number): Promise<number> {
  const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices')) as [{ n: number }];
  if (total > n) {
    // Numbered on from the vessels already there (addBenchVessels numbers from 0, so it serves one growth only).
    const owners = (await db.query<{ id: number }>(`SELECT id FROM users WHERE name IN ('oceanic', 'polaris') ORDER BY id`)).map(
      (r) => r.id,
    );
    await db.query(
      `INSERT INTO devices (name, device_num, device_sn, owner_id, manufacture_date, device_type, adu_version, bdu_version,
         manufacture_info, device_model, device_kind, activated, activated_at)
       SELECT 'Report vessel ' || lpad(g::text, 6, '0'), 'R' || lpad(upper(to_hex(g)), 7, '0'), 'RBENCH' || g, ($1::int[])[1 + g % cardinality($1::int[])],
              '2024-01-01', 'Bench terminal', 'V2.0.0', 'V1.0.0', 'bench', 'B-1', (ARRAY['antenna','vsat','4g','microwave','vbox','others'])[1 + g % 6],
              true, now()
         FROM generate_series($2::int, $3::int - 1) g`,
      [owners, n, total],
    );
  }
  // The vessels without rollups yet: the demo's have no history (SEED_STORY=0), so the first growth plants theirs too.
  const ids = (
    await db.query<{ id: number }>(
      'SELECT d.id FROM devices d WHERE NOT EXISTS (SELECT 1 FROM report_hourly h WHERE h.device_id = d.id) ORDER BY d.id',
    )
  ).map((r) => r.id);
  const started = performance.now();
  // Planted rows are all of past days: the trigger that marks a changed past day (migration 030) is off meanwhile, and
  // the days are sealed afresh afterwards (seal()).
  await db.exec('ALTER TABLE report_hourly DISABLE TRIGGER report_daily_mark');
  await plantRollups(db, ids);
  await db.exec('ALTER TABLE report_hourly ENABLE TRIGGER report_daily_mark');
  await db.exec('UPDATE report_daily_state SET sealed_until = NULL; DELETE FROM report_daily; DELETE FROM report_daily_dirty');
  // So are the statistics windows' spans (migration 035), which the trigger would have marked for the planted vessels.
  await db.exec(
    'UPDATE report_span_state SET span_start = NULL, through = NULL, built_at = NULL; DELETE FROM report_span; DELETE FROM report_span_dirty',
  );
  await plantAlarms(db, ids);
  // The ingest writes hour rows hour after hour; planted vessel by vessel they would lie in vessel order, and a
  // window's hours would be read from every page of the table.
  if (db.engine === 'postgres') await db.exec('CLUSTER report_hourly USING report_hourly_hour_idx');
  for (const table of ['report_hourly', 'alarms', 'devices']) await db.exec(`${db.engine === 'postgres' ? 'VACUUM ' : ''}ANALYZE ${table}`);
  const [c] = await db.query<{ v: number; h: number; a: number }>(
    'SELECT (SELECT count(*) FROM devices)::int AS v, (SELECT count(*) FROM report_hourly)::int AS h, (SELECT count(*) FROM alarms)::int AS a',
  );
  console.log(
    `  fleet: ${c!.v.toLocaleString('en')} vessels, ${c!.h.toLocaleString('en')} hourly rollups, ${c!.a.toLocaleString('en')} alarms ` +
      `(${ids.length.toLocaleString('en')} vessels planted in ${secs(performance.now() - started)})`,
  );
  return c!.v;
}

async function roundTrips(db: Db, engine: string) {
  const times: number[] = [];
  for (let i = 0; i < sized(220, 5); i++) {
    const t = performance.now();
    await db.query('SELECT 1');
    if (i >= sized(20, 0)) times.push(performance.now() - t);
  }
  put(engine, 'reference: SELECT 1 round trip p50 / p99', `${ms(pct(times, 50))} / ${ms(pct(times, 99))}`);
}

/** Seals every day of the planted history from scratch, as the leader's first run on an old database does (daily rollups, migration 030). */
async function seal(db: Db, engine: string, vessels: number) {
  const t = performance.now();
  const { sealed } = await sealDailyRollups(db);
  await db.exec(`${db.engine === 'postgres' ? 'VACUUM ' : ''}ANALYZE report_daily`);
  const [c] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM report_daily');
  put(
    engine,
    `daily rollups: ${sealed} days sealed for ${vessels.toLocaleString('en')} vessels (${c!.n.toLocaleString('en')} rows)`,
    secs(performance.now() - t),
  );
}

/**
 * `how`: read from the hour rows only (before the days are sealed) or with the daily rollups, over
 * WINDOW; or over MIDDAY_WINDOW, with the daily rollups, then with the window's span (built by
 * spans(), which the first call registers). Returns page 1's figures.
 */
async function statistics(db: Db, engine: 'postgres' | 'pglite', vessels: number, how: 'hours' | 'days' | 'midday days' | 'midday spans') {
  const window = how.startsWith('midday') ? MIDDAY_WINDOW : WINDOW;
  const call = () => fleetStatistics(db, admin, window, { pageIndex: 1, pageSize: 20, sort: 'availability' });
  if (!SMOKE) await call();
  const times: number[] = [];
  let total = 0;
  const started = performance.now();
  // Up to STAT_RUNS calls, fewer (at least 3) when they take more than BUDGET_MS together.
  for (let i = 0; i < STAT_RUNS[engine] && (i < 3 || performance.now() - started < BUDGET_MS); i++) {
    const t = performance.now();
    total = (await call()).total;
    times.push(performance.now() - t);
  }
  put(
    engine,
    `fleet statistics ${STAT_DAYS} d, ${vessels.toLocaleString('en')} vessels, ${how}, p50 / p99 (${times.length} calls)`,
    `${ms(pct(times, 50))} / ${ms(pct(times, 99))}${total === vessels ? '' : ` (total ${total}!)`}`,
  );
  return JSON.stringify((await call()).list);
}

/** Builds MIDDAY_WINDOW's span as the leader does 10 minutes past an hour (its time printed), then times the statistics with it. */
async function spans(db: Db, engine: 'postgres' | 'pglite', vessels: number) {
  const fromDays = await statistics(db, engine, vessels, 'midday days');
  const t = performance.now();
  await db.exec('DELETE FROM report_span; UPDATE report_span_state SET through = NULL');
  const built = await buildReportSpans(db, { now: MIDDAY });
  await db.exec(`${db.engine === 'postgres' ? 'VACUUM ' : ''}ANALYZE report_span`);
  put(engine, `spans: ${built} built for ${vessels.toLocaleString('en')} vessels`, secs(performance.now() - t));
  const fromSpans = await statistics(db, engine, vessels, 'midday spans');
  if (fromSpans !== fromDays) put(engine, 'spans: page 1 differs from the days!', '');
}

/** Builds the report `runs` times; the median time, the largest memory growth, the workbook's bytes. */
async function report(db: Db, engine: string, vessels: number, runs: number) {
  const times: number[] = [];
  let rss = 0;
  let heap = 0;
  let bytes = 0;
  let counted = 0;
  const started = performance.now();
  // Up to `runs` builds, fewer (at least 1) past BUDGET_MS.
  for (let i = 0; i < runs && (i === 0 || performance.now() - started < BUDGET_MS); i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const t = performance.now();
    const built = await buildReport(db, {
      caller: admin,
      kinds: ['availability', 'alarms'],
      range: RANGE,
      lang: 'zh',
      offsetHours: OFFSET_HOURS,
      title: 'Monthly',
    });
    times.push(performance.now() - t);
    clearInterval(sampler);
    const after = process.memoryUsage();
    rss = Math.max(rss, Math.max(peakRss, after.rss) - before.rss);
    heap = Math.max(heap, Math.max(peakHeap, after.heapUsed) - before.heapUsed);
    bytes = built.xlsx.length;
    counted = built.vessels;
  }
  const days = Math.round((RANGE.toMs - RANGE.fromMs) / 86_400_000);
  put(
    engine,
    `report ${days} d, ${vessels.toLocaleString('en')} vessels: build ${times.length > 1 ? `median of ${times.length}` : 'once'}`,
    `${secs(median(times))}${times.length > 1 ? ` (runs ${times.map((x) => (x / 1000).toFixed(2)).join(', ')})` : ''}${counted === vessels ? '' : ` (${counted} vessels!)`}`,
  );
  put(engine, `report ${vessels.toLocaleString('en')} vessels: RSS / heapUsed growth (peak)`, `${mb(rss)} / ${mb(heap)}`);
  // The build's three parts once more, apart: the figures read, the workbook written, the PDF drawn.
  const kinds: ReportKind[] = ['availability', 'alarms'];
  let t = performance.now();
  const figures = await reportFigures(db, admin, kinds, RANGE, OFFSET_HOURS);
  const figuresMs = performance.now() - t;
  t = performance.now();
  await reportWorkbook({ lang: 'zh', offsetHours: OFFSET_HOURS }, 'Monthly', kinds, RANGE, figures);
  const workbookMs = performance.now() - t;
  t = performance.now();
  await reportPdf(figures, { kinds, range: RANGE, lang: 'zh', offsetHours: OFFSET_HOURS, title: 'Monthly' });
  put(
    engine,
    `report ${vessels.toLocaleString('en')} vessels: figures / workbook / PDF, once`,
    `${secs(figuresMs)} / ${secs(workbookMs)} / ${secs(performance.now() - t)} (the XLSX alone: ${secs(figuresMs + workbookMs)})`,
  );
  put(
    engine,
    `report ${vessels.toLocaleString('en')} vessels: workbook`,
    `${(bytes / 1e6).toFixed(2)} MB (${bytes.toLocaleString('en')} bytes)`,
  );
}

/** The report's PDF (server/reports/reportPdf.ts): the figures read, then the PDF written, each timed once, and its bytes. */
async function pdf(db: Db, engine: string, vessels: number) {
  const kinds: ReportKind[] = ['availability', 'alarms'];
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const figures = await reportFigures(db, admin, kinds, RANGE, OFFSET_HOURS);
  const t1 = performance.now();
  const file = await reportPdf(figures, { kinds, range: RANGE, lang: 'zh', offsetHours: OFFSET_HOURS, title: 'Monthly' });
  const t2 = performance.now();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  put(
    engine,
    `PDF, ${vessels.toLocaleString('en')} vessels: figures + PDF (RSS growth)`,
    `${secs(t2 - t0)} (figures ${secs(t1 - t0)}, PDF ${secs(t2 - t1)}; ${mb(peak - before)}), ${(file.length / 1e6).toFixed(2)} MB`,
  );
}

/**
 * The report's two reads, timed once each: the statistics of every vessel by name over the range
 * (one statement, as the report reads them), and rollupFigures over `vessels` (every vessel's hours
 * once); `rollup` false leaves the second out. Returns the build's projection from them.
 */
async function reportParts(db: Db, engine: string, vessels: number, rollup: boolean, rollupPerVessel = 0) {
  const dayNumbers = dayNumbersOf(RANGE, OFFSET_HOURS);
  const window = { days: dayNumbers.length, utcOffset: OFFSET_HOURS, dayNumbers, fromMs: RANGE.fromMs, toMs: RANGE.toMs };
  let t = performance.now();
  await fleetStatistics(db, admin, window, { pageIndex: 1, pageSize: vessels, sort: 'name', order: 'asc' });
  const statisticsMs = performance.now() - t;
  let rollupMs = rollupPerVessel * vessels;
  if (rollup) {
    const ids = (await db.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).map((r) => r.id);
    t = performance.now();
    await rollupFigures(db, admin, RANGE, OFFSET_HOURS, ids);
    rollupMs = performance.now() - t;
  }
  const projected = statisticsMs + rollupMs;
  put(
    engine,
    `report ${vessels.toLocaleString('en')} vessels, parts: statistics of all / rollupFigures`,
    `${secs(statisticsMs)} / ${rollup ? secs(rollupMs) : `not run (${secs(rollupMs)} scaled from the reference)`} → projected ${secs(projected)}`,
  );
  return { projected, rollupPerVessel: rollupMs / vessels };
}

async function run(engine: 'postgres' | 'pglite') {
  console.log(`\n${engine}:`);
  const server = await startBenchServer(engine);
  const db = server.db;
  try {
    await roundTrips(db, engine);
    const small = await growFleet(db, REFERENCE);
    await statistics(db, engine, small, 'hours');
    await seal(db, engine, small);
    await statistics(db, engine, small, 'days');
    await spans(db, engine, small);
    await report(db, engine, small, 1);
    const reference = await reportParts(db, engine, small, true);
    await pdf(db, engine, small);
    if (VESSELS > small) {
      const large = await growFleet(db, VESSELS);
      await statistics(db, engine, large, 'hours');
      await seal(db, engine, large);
      await statistics(db, engine, large, 'days');
      await spans(db, engine, large);
      const { projected } = await reportParts(db, engine, large, false, reference.rollupPerVessel);
      if (projected <= BUILD_LIMIT_MS) await report(db, engine, large, REPORT_RUNS);
      else
        put(
          engine,
          `report ${large.toLocaleString('en')} vessels: build`,
          `not run: projected ${secs(projected)} > ${secs(BUILD_LIMIT_MS)}`,
        );
    }
    await roundTrips(db, engine);
  } finally {
    if (KEEP && engine === 'postgres') {
      console.log(`  kept: ${server.config.databaseUrl}`);
      await server.app.close();
    } else await server.stop();
  }
}

console.log(
  `bench:reports — ${VESSELS.toLocaleString('en')} vessels (reference ${REFERENCE.toLocaleString('en')}); report range ` +
    `${new Date(RANGE.fromMs).toISOString()} – ${new Date(RANGE.toMs).toISOString()} (zh, UTC+8); statistics window ` +
    `${new Date(WINDOW.fromMs).toISOString()} – ${new Date(WINDOW.toMs).toISOString()}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
);
const pgUp = ENGINE !== 'pglite' && (await postgresAvailable());
if (ENGINE !== 'pglite' && !pgUp) console.log('\npostgres: no PostgreSQL answers at DATABASE_URL (or 127.0.0.1:5432/test); skipped');
if (pgUp) await run('postgres');
if (ENGINE !== 'postgres') await run('pglite');
console.log(
  `\nbench:reports — figures (load average at the end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')})`,
);
console.log(`  ${'engine'.padEnd(9)} ${'measure'.padEnd(64)} figure`);
for (const r of table) console.log(`  ${r.engine.padEnd(9)} ${r.what.padEnd(64)} ${r.figure}`);
process.exit(0);
