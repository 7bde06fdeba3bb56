/**
 * npm run bench:stats - time and fleet statistics over a large report history (docs/architecture.md, "Telemetry storage").
 * For each engine (PostgreSQL in a scratch schema at DATABASE_URL or the local default, dropped
 * afterwards; PGlite in memory): adds vessels, loads reports with generate_series (the hourly
 * rollup trigger off during the load, then the rollups built in one pass as migration 013's
 * backfill does, timed), then times over HTTP, one request at a time, p50 and p99, side by side
 * with the trivial /ping of the same server: the fleet statistics over 5 and 15 days (an admin,
 * every vessel; an enterprise, half of them), one vessel's time statistics over 15 days, a vessel's
 * charts over 7 days (bands from the rollups) and 24 hours. Then the
 * same fleet statistics computed from every report (the way before the rollups) a few times, as
 * the reference. Prints figures; asserts nothing.
 *
 *   npm run bench:stats                                   both engines, 10M reports on PostgreSQL, 300k on PGlite
 *   npm run bench:stats -- --engine postgres --reports 1000000
 *   flags: --engine postgres|pglite|both  --reports N (PostgreSQL)  --pglite-reports N  --vessels V (1,000)
 *          --interval S (seconds between a vessel's reports, 60)  --runs R (30)  --reference-runs R (2; 0 skips)  --keep (PostgreSQL: keep the scratch schema)
 *   BENCH_SMOKE=1: PGlite only, 50 vessels, 20,000 reports one every 600 s, 3 runs, 1 reference run (bench/smoke.ts)
 */
import { DEVICE_KINDS } from '../src/domain/deviceKinds';
import type { DeviceInput } from '../src/domain/deviceSchemas';
import { insertDevices } from '../server/modules/devices/importQueries';
import { fleetStatistics, statisticsWindow } from '../server/modules/vessel/statisticsQueries';
import type { Db } from '../server/db/connection';
import type { Principal } from '../src/domain/levels';
import { loginToken, postgresAvailable, startBenchServer } from './benchServer';
import { sized } from './smoke';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const ENGINE = flag('engine', sized('both', 'pglite'));
const PG_REPORTS = Number(flag('reports', sized('10000000', '20000')));
const PGLITE_REPORTS = Number(flag('pglite-reports', sized('300000', '20000')));
const VESSELS = Number(flag('vessels', sized('1000', '50')));
const INTERVAL_S = Number(flag('interval', sized('60', '600')));
const RUNS = Number(flag('runs', sized('30', '3')));
const REFERENCE_RUNS = Number(flag('reference-runs', sized('2', '1')));
/** Keep the PostgreSQL scratch schema (its URL is printed), to look at plans afterwards. */
const KEEP = args.includes('--keep');
/** Of every 500 reports of a vessel, the first 20 are missing (20 offline intervals): gaps longer than the threshold. */
const GAP_EVERY = 500;
const GAP_LENGTH = 20;

const admin: Principal = { id: 1, permissionLevel: '1', parentId: null };
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`.padStart(11);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function addVessels(db: Db, count: number): Promise<number[]> {
  const [row] = await db.query<{ max: number }>('SELECT COALESCE(max(id), 0)::int AS max FROM devices');
  const owners = (await db.query<{ id: number }>(`SELECT id FROM users WHERE name IN ('oceanic', 'polaris') ORDER BY id`)).map((r) => r.id);
  const devices: DeviceInput[] = [];
  for (let i = row!.max + 1; devices.length < count; i++) {
    const hex = (0x20000000 + i).toString(16).toUpperCase();
    devices.push({
      name: `Stats vessel ${String(i).padStart(6, '0')}`,
      deviceNum: hex,
      mac: `04.00.${hex.match(/../g)!.join('.')}`,
      deviceSn: `SSN${i}`,
      ownerId: owners[i % 2]!,
      ownerSubId: 0,
      manufactureDate: '2023-06-01',
      deviceType: 'VSAT terminal',
      aduVersion: 'V2.0.1',
      bduVersion: 'V1.4.0',
      manufactureInfo: 'Bench factory',
      deviceModel: 'BM-1',
      deviceKind: DEVICE_KINDS[i % DEVICE_KINDS.length]!,
    });
  }
  for (let start = 0; start < devices.length; start += 5_000)
    await db.transaction((tx) => insertDevices(tx, devices.slice(start, start + 5_000)));
  return (await db.query<{ id: number }>('SELECT id FROM devices WHERE id > $1 ORDER BY id', [row!.max])).map((r) => r.id);
}

/** About `total` reports over the vessels, every INTERVAL_S up to a minute ago, loaded with generate_series; then the rollups. */
async function loadReports(db: Db, ids: number[], total: number) {
  const perVessel = Math.ceil(((total / ids.length) * GAP_EVERY) / (GAP_EVERY - GAP_LENGTH));
  const end = Date.now() / 1000 - 60;
  const chunk = Math.max(1, Math.floor(500_000 / perVessel));
  await db.query('ALTER TABLE device_reports DISABLE TRIGGER device_reports_hourly');
  const started = Date.now();
  for (let i = 0; i < ids.length; i += chunk) {
    await db.query(
      `INSERT INTO device_reports (device_id, device_time, received_at, lat, lon, speed, heading, azimuth, elevation, skew, satellite_name,
              satellite_longitude, signal_level, snr, modem_lock, tx_on, faults)
       SELECT d.id, to_timestamp($2::float8 - k * $3::float8 - (d.id % 7)), now(), 20 + (k % 100) * 0.01, 110 + (k % 50) * 0.01, 10 + k % 5, 90,
              180, 45, 0, 'AsiaSat 7', 105.5, 50 + k % 40, 10 + k % 3, k % 211 <> 0, true, CASE WHEN k % 97 = 0 THEN '{E05}'::text[] ELSE '{}'::text[] END
         FROM unnest($1::int[]) AS d(id) CROSS JOIN generate_series(0, $4::int - 1) AS k
        WHERE k % ${GAP_EVERY} >= ${GAP_LENGTH}`,
      [ids.slice(i, i + chunk), end, INTERVAL_S, perVessel],
    );
    process.stdout.write(
      `\r  loading reports: ${Math.min(ids.length, i + chunk)} / ${ids.length} vessels, ${seconds(Date.now() - started)}   `,
    );
  }
  const loadMs = Date.now() - started;
  await db.query('ALTER TABLE device_reports ENABLE TRIGGER device_reports_hourly');
  const rollupStarted = Date.now();
  await db.query(`SELECT report_hourly_rebuild(array_agg(device_id), array_agg(hs))
    FROM (SELECT DISTINCT device_id, date_bin('1 hour', device_time, timestamptz '2000-01-01 00:00:00+00') AS hs FROM device_reports) k`);
  await db.query(`UPDATE report_hourly h SET next_at = n.nx
    FROM (SELECT device_id, hour_start, lead(first_at) OVER (PARTITION BY device_id ORDER BY hour_start) AS nx FROM report_hourly) n
   WHERE h.device_id = n.device_id AND h.hour_start = n.hour_start AND n.nx IS NOT NULL`);
  const rollupMs = Date.now() - rollupStarted;
  for (const table of ['device_reports', 'report_hourly']) await db.exec(`${db.engine === 'postgres' ? 'VACUUM ' : ''}ANALYZE ${table}`);
  const [n] = await db.query<{ reports: number; rollups: number; days: number }>(
    `SELECT (SELECT count(*) FROM device_reports)::int AS reports, (SELECT count(*) FROM report_hourly)::int AS rollups,
            (SELECT extract(epoch FROM max(device_time) - min(device_time)) / 86400 FROM device_reports)::float8 AS days`,
  );
  const sizes =
    db.engine === 'postgres'
      ? (
          await db.query<{
            r: string;
            h: string;
          }>(`SELECT pg_size_pretty((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('device_reports'))) AS r,
              pg_size_pretty(pg_total_relation_size('report_hourly')) AS h`)
        )[0]
      : undefined;
  process.stdout.write('\n');
  console.log(
    `  ${n!.reports.toLocaleString('en')} reports over ${n!.days.toFixed(1)} days loaded in ${seconds(loadMs)}; ` +
      `${n!.rollups.toLocaleString('en')} hourly rollups built in ${seconds(rollupMs)}${sizes ? ` (sizes: reports ${sizes.r}, rollups ${sizes.h})` : ''}`,
  );
}

async function time(url: string, runs: number): Promise<{ p50: number; p99: number }> {
  const once = async () => {
    const res = await fetch(url);
    const body = (await res.json()) as { code: number };
    if (body.code !== 0) throw new Error(`${url}: ${JSON.stringify(body).slice(0, 300)}`);
  };
  for (let i = 0; i < Math.min(3, runs); i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function benchEngine(engine: 'pglite' | 'postgres', reports: number) {
  console.log(
    `\n${engine}: ${VESSELS.toLocaleString('en')} vessels, about ${reports.toLocaleString('en')} reports, one every ${INTERVAL_S} s`,
  );
  const server = await startBenchServer(engine, { seedDemo: true });
  try {
    const ids = await addVessels(server.db, VESSELS);
    await loadReports(server.db, ids, reports);
    const adminToken = await loginToken(server.url, 'admin', 'admin123');
    const oceanicToken = await loginToken(server.url, 'oceanic', 'oceanic123');
    const routes: [string, string, number][] = [
      ['/ping (trivial route)', `${server.url}/ping`, Math.max(RUNS, 200)],
      [
        `fleet statistics, 5 days, admin (${(VESSELS + 50).toLocaleString('en')} vessels), page 1`,
        `${server.url}/deviceModule/statistics/getFleet?token=${adminToken}&days=5&utcOffset=8&pageSize=20`,
        RUNS,
      ],
      [
        'fleet statistics, 15 days, admin, page 1',
        `${server.url}/deviceModule/statistics/getFleet?token=${adminToken}&days=15&utcOffset=8&pageSize=20`,
        RUNS,
      ],
      [
        'fleet statistics, 15 days, admin, by name, page 10',
        `${server.url}/deviceModule/statistics/getFleet?token=${adminToken}&days=15&utcOffset=0&pageSize=20&pageIndex=10&sort=name&order=asc`,
        RUNS,
      ],
      [
        'fleet statistics, 15 days, one enterprise (half)',
        `${server.url}/deviceModule/statistics/getFleet?token=${oceanicToken}&days=15&utcOffset=8&pageSize=20`,
        RUNS,
      ],
      [
        'time statistics, one vessel, 15 days',
        `${server.url}/deviceModule/statistics/getDaily?token=${adminToken}&id=${ids[0]}&days=15&utcOffset=8`,
        RUNS,
      ],
      [
        'time statistics, one vessel, 5 days',
        `${server.url}/deviceModule/statistics/getDaily?token=${adminToken}&id=${ids[ids.length - 1]}&days=5&utcOffset=-5`,
        RUNS,
      ],
      [
        'vessel charts, 7 days (bands from the rollups)',
        `${server.url}/deviceModule/vessel/getSeries?token=${adminToken}&id=${ids[1]}&window=7d`,
        RUNS,
      ],
      [
        'vessel charts, 24 hours (from the reports)',
        `${server.url}/deviceModule/vessel/getSeries?token=${adminToken}&id=${ids[2]}&window=24h`,
        RUNS,
      ],
    ];
    console.log(`  ${'route'.padEnd(62)}${'p50'.padStart(11)}${'p99'.padStart(11)}  runs`);
    for (const [name, url, runs] of routes) {
      const { p50, p99 } = await time(url, runs);
      console.log(`  ${name.padEnd(62)}${fmt(p50)}${fmt(p99)}  ${runs}`);
    }
    if (REFERENCE_RUNS > 0) {
      for (const days of [5, 15]) {
        const times: number[] = [];
        let same = true;
        for (let i = 0; i < REFERENCE_RUNS; i++) {
          const w = statisticsWindow(days, 8);
          const q = { pageIndex: 1, pageSize: 20 };
          const started = performance.now();
          const fromReports = await fleetStatistics(server.db, admin, w, q, 'reports');
          times.push(performance.now() - started);
          const fromRollups = await fleetStatistics(server.db, admin, w, q, 'rollups');
          same &&=
            JSON.stringify(fromReports.list.map((r) => [r.deviceId, r.onlineSeconds, r.warnSeconds])) ===
            JSON.stringify(fromRollups.list.map((r) => [r.deviceId, r.onlineSeconds, r.warnSeconds]));
        }
        times.sort((a, b) => a - b);
        console.log(
          `  ${`reference: fleet statistics, ${days} days, from every report (no HTTP)`.padEnd(62)}${fmt(percentile(times, 50))}${fmt(times[times.length - 1]!)}  ${REFERENCE_RUNS}  (max shown as p99; same answer as the rollups: ${same ? 'yes' : 'NO'})`,
        );
      }
    }
  } finally {
    if (KEEP && engine === 'postgres') {
      console.log(`  kept: ${server.config.databaseUrl}`);
      await server.app.close();
    } else await server.stop();
  }
}

const engines: ('pglite' | 'postgres')[] = ENGINE === 'both' ? ['postgres', 'pglite'] : [ENGINE as 'pglite' | 'postgres'];
for (const engine of engines) {
  if (engine === 'postgres' && !(await postgresAvailable())) {
    console.log('\npostgres: no PostgreSQL answers at DATABASE_URL (or 127.0.0.1:5432/test); skipped');
    continue;
  }
  await benchEngine(engine, engine === 'postgres' ? PG_REPORTS : PGLITE_REPORTS);
}
process.exit(0);
