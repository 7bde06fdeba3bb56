import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { addBenchVessels, postgresAvailable, startBenchServer } from './benchServer';
import { SMOKE, sized } from './smoke';

/**
 * bench:ingest — reports per second through the HTTP ingest (one report per request, and batches
 * of 100), on PGlite and on PostgreSQL, with 10,000 vessels; then the alarm poll
 * (getAllDeviceUploadDataWithCondition, admin: all 10,000) alone, with the bare body (every
 * vessel in alarm) and with the console bell's query (one vessel, src/api/bellQuery.ts), and the
 * bell's poll while vessels report at 1,000, 3,000 and 6,000 reports/s offered. The load runs in a child process.
 * Prints figures; asserts nothing. BENCH_SMOKE=1: 500 vessels, 1 s per run, one rate (200/s), PGlite only (bench/smoke.ts).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? sized(5, 1));
/** Offered single-report rates while the alarm query runs (BENCH_RATES=1000,3000,6000). */
const RATES = (process.env.BENCH_RATES ?? sized('1000,3000,6000', '200')).split(',').map(Number);
const VESSELS = sized(10_000, 500);
/** The offered rate of the links run (reports with and without links, side by side). */
const LINK_RATE = sized(3000, 200);
/** How many pairs of links runs (without, with) to take in turn (BENCH_LINK_PAIRS). */
const LINK_PAIRS = Number(process.env.BENCH_LINK_PAIRS ?? sized(2, 1));
/** BENCH_PARTS=links (or ingest,alarm,rates,links): only these parts run; all by default. */
const PARTS = process.env.BENCH_PARTS?.split(',');
const part = (name: 'ingest' | 'alarm' | 'rates' | 'links') => !PARTS || PARTS.includes(name);
const SECRET = 'bench-device-secret';
const PREFIX = 'B';
const LOAD = fileURLToPath(new URL('./ingestLoad.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

interface Figures {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  errors: number;
  refused: number;
}

function load(options: Record<string, unknown>): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      TSX,
      [LOAD, JSON.stringify({ seconds: SECONDS, devices: VESSELS, numPrefix: PREFIX, secret: SECRET, ...options })],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`load exited ${code}`)),
    );
  });
}

async function run(engine: 'pglite' | 'postgres') {
  const server = await startBenchServer(engine);
  const [{ id: owner }] = (await server.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`)) as [{ id: number }];
  await addBenchVessels(server.db, { prefix: PREFIX, secret: SECRET, count: VESSELS, ownerIds: [owner] });
  const login = await fetch(`${server.url}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=admin&password=admin123',
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const rows: Record<string, string | number>[] = [];
  const row = (what: string, f: Figures, reportsPerRequest = 1) =>
    rows.push({
      engine,
      what,
      'req/s': Math.round(f.rps),
      'reports/s': Math.round(f.rps * reportsPerRequest),
      'p50 ms': f.p50,
      'p99 ms': f.p99,
      'refused/failed': f.refused + f.errors,
    });

  /**
   * Device time of the next run's first reports: each run starts after the last report of the one
   * before, so every run sends new reports in order, as vessels do (not duplicates or late ones).
   */
  let clock = Date.now() - 20 * 86_400_000;
  const ingestRun = async (options: Record<string, unknown>, size = 1) => {
    const figures = await load({ ...options, apiBase: server.url, from: clock });
    clock += (Math.ceil(figures.total / VESSELS) + 1) * size * 1000;
    return figures;
  };
  if (part('ingest')) {
    row('ingest, 1 report per request', await ingestRun({ mode: 'single', connections: 32 }));
    row('ingest, batches of 100', await ingestRun({ mode: 'batch', connections: 8, batchSize: 100 }, 100), 100);
  }
  if (part('alarm') || part('rates')) await alarmsAndRates();
  // Reports with three links each (GEO, LEO, 4G; a failover every 30 rounds) beside the same rate without, in turn (drift shows).
  if (part('links')) {
    // The first run after the vessels are added is slow (cold caches): a warm-up, not one of the pairs.
    if (!part('ingest'))
      row(
        'warm-up, no links (not compared)',
        await ingestRun({ mode: 'single', connections: Math.max(32, LINK_RATE / 50), rate: LINK_RATE }),
      );
    for (let pair = 0; pair < LINK_PAIRS; pair++)
      for (const links of [false, true])
        row(
          `ingest at ${LINK_RATE.toLocaleString('en')} reports/s offered, ${links ? '3 links per report' : 'no links'}`,
          await ingestRun({ mode: 'single', connections: Math.max(32, LINK_RATE / 50), rate: LINK_RATE, links }),
        );
  }
  await server.stop();
  return rows;

  async function alarmsAndRates() {
    // Every vessel has a latest state (5% in warn with an active alarm) before the alarm query runs.
    await server.db.query(
      `INSERT INTO device_state (device_id, reported_at, received_at, state, lat, lon, speed, heading, azimuth, elevation, skew,
       satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, faults)
     SELECT d.id, $2::timestamptz - (d.id % 60) * interval '1 second', now(), CASE WHEN d.id % 20 = 0 THEN 2 ELSE 1 END, 10, 110, 15, 90, 200, 60, 5,
            'AsiaSat 7', 105.5, 70, 11, true, true, CASE WHEN d.id % 20 = 0 THEN ARRAY['E05'] ELSE '{}'::text[] END
       FROM devices d WHERE d.device_num LIKE $1
     ON CONFLICT (device_id) DO UPDATE SET reported_at = EXCLUDED.reported_at, state = EXCLUDED.state, faults = EXCLUDED.faults`,
      [`${PREFIX}%`, new Date(clock)],
    );
    await server.db.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at)
     SELECT s.device_id, 'E05', 'major', now(), now() FROM device_state s WHERE 'E05' = ANY(s.faults) ON CONFLICT DO NOTHING`,
    );
    const [states] = await server.db.query<{ n: number; warn: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE state = 2)::int AS warn FROM device_state`,
    );
    if (part('alarm')) {
      row(
        `alarm poll alone, bare body: every vessel in alarm (${states!.n} vessels reported, ${states!.warn} warn)`,
        await load({ mode: 'alarm', alarmBody: 'spec', apiBase: server.url, connections: 4, token }),
      );
      row(
        "alarm poll alone, the bell's query (one vessel)",
        await load({ mode: 'alarm', alarmBody: 'bell', apiBase: server.url, connections: 4, token }),
      );
    }
    if (part('rates'))
      for (const rate of RATES) {
        const [ingest, alarm] = await Promise.all([
          ingestRun({ mode: 'single', connections: Math.max(32, rate / 50), rate }),
          load({ mode: 'alarm', alarmBody: 'bell', apiBase: server.url, connections: 1, token, rate: 20 }),
        ]);
        row(`ingest at ${rate.toLocaleString('en')} reports/s offered`, ingest);
        row("bell's alarm poll meanwhile (20/s)", alarm);
      }
  }
}

/** BENCH_ENGINES=pglite or postgres runs one engine only. */
const only = process.env.BENCH_ENGINES;
const engines: ('pglite' | 'postgres')[] = [];
if (!only || only === 'pglite') engines.push('pglite');
if ((only === 'postgres' || (!only && !SMOKE)) && (await postgresAvailable())) engines.push('postgres');
const all = [];
for (const engine of engines) all.push(...(await run(engine)));
console.log(`\nbench:ingest — ${VESSELS.toLocaleString('en')} vessels, ${SECONDS} s per run, load from a separate process`);
console.table(all);
