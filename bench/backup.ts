import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { backupsOf } from '../server/ops';
import { restoreBackup } from '../server/ops/backup/backup';
import { moveToPostgres } from '../server/ops/backup/moveToPostgres';
import { PG_URL, postgresAvailable, startBenchServer } from './benchServer';
import { sized } from './smoke';

/**
 * bench:backup — what a backup costs the running server, and how long restore and a move take.
 * A server on each engine (PGlite in a folder, as the product runs it) with REPORTS reports; while
 * /ready (one database statement) is called every 20 ms, the backup runs. Side by side in one run:
 * /ready's latency before the backup (the reference) and during it; then a restore into an empty
 * folder or schema, and (PostgreSQL available) a move of the PGlite folder into an empty schema.
 * Prints figures; asserts nothing. BENCH_SMOKE=1: 20,000 reports.
 */
const REPORTS = Number(process.env.BENCH_REPORTS ?? sized(1_000_000, 20_000));

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;
const fmt = (xs: number[]) =>
  `p50 ${pct(xs, 50).toFixed(0)} / p99 ${pct(xs, 99).toFixed(0)} / max ${Math.max(...xs).toFixed(0)} ms (${xs.length} calls)`;

/**
 * Calls /ready on a fixed 20-ms schedule until `work` ends. Each latency is counted from the call's
 * planned time, so a stall of the server's event loop (the bench runs in the server's process) or of
 * its database shows in full, not only when a call happened to be in flight.
 */
async function pollDuring(base: string, work: () => Promise<unknown>): Promise<{ ms: number; latencies: number[]; peakRss: number }> {
  const latencies: number[] = [];
  let done = false;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
  const poll = (async () => {
    let planned = performance.now();
    while (!done) {
      await fetch(`${base}/ready`).then((r) => r.arrayBuffer());
      const now = performance.now();
      latencies.push(now - planned);
      planned = Math.max(planned + 20, now);
      await new Promise((r) => setTimeout(r, Math.max(0, planned - performance.now())));
    }
  })();
  const t = performance.now();
  await work();
  const ms = performance.now() - t;
  done = true;
  await poll;
  clearInterval(sampler);
  return { ms, latencies, peakRss: Math.max(peakRss, process.memoryUsage().rss) };
}

async function run(engine: 'pglite' | 'postgres', root: string) {
  const folders = {
    dataDir: join(root, engine, 'pglite'),
    firmwareDir: join(root, engine, 'firmware'),
    backupDir: join(root, engine, 'backups'),
  };
  const server = await startBenchServer(
    engine,
    engine === 'pglite' ? folders : { firmwareDir: folders.firmwareDir, backupDir: folders.backupDir },
  );
  const origin = new URL(server.url).origin;
  const { db } = server;
  const ships = await db.query<{ id: number }>('SELECT id FROM devices ORDER BY id LIMIT 10');
  const per = Math.ceil(REPORTS / ships.length);
  for (const { id } of ships) {
    for (let from = 0; from < per; from += 50_000) {
      await db.query(
        `INSERT INTO device_reports (device_id, device_time, received_at, lat, lon, speed, heading, azimuth, elevation, skew,
                satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, faults)
         SELECT $1::int, t, t, 10 + i * 0.00001, 120 + i * 0.00002, 12, 90, 180, 45, 0, 'AsiaSat 7', 105.5, 50 + i % 40, 11, true, true, '{}'
           FROM generate_series($2::int, $3::int) i, LATERAL (SELECT now() - make_interval(mins => i) AS t) x
         ON CONFLICT DO NOTHING`,
        [id, from, Math.min(per, from + 50_000) - 1],
      );
    }
  }
  const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports')) as [{ n: number }];
  const idle = await pollDuring(origin, () => new Promise((r) => setTimeout(r, 2000)));
  const rssBefore = process.memoryUsage().rss;
  const backups = backupsOf(server.app)!;
  let file = '';
  let size = 0;
  const during = await pollDuring(origin, async () => {
    const result = await backups.run('manual');
    file = result.file;
    size = result.sizeBytes;
  });
  // What stays after it, 2 s later (with --expose-gc, after a collection): the server's memory as it goes on.
  await new Promise((r) => setTimeout(r, 2000));
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;
  await server.stop();
  console.log(`\n${engine}: ${n.toLocaleString('en')} reports`);
  console.log(`  /ready before the backup  ${fmt(idle.latencies)}`);
  console.log(`  /ready during the backup  ${fmt(during.latencies)}`);
  console.log(`  backup                    ${(during.ms / 1000).toFixed(1)} s, ${(size / 1e6).toFixed(1)} MB`);
  const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;
  console.log(
    `  process RSS               ${mb(rssBefore)} before, ${mb(during.peakRss)} at most during, ${mb(rssAfter)} after (the bench runs in the server's process)`,
  );

  // Restore into an empty folder, or an empty schema of the same name (the dump names its schema).
  let restoreMs = 0;
  if (engine === 'pglite') {
    const t = performance.now();
    await restoreBackup(file, {
      databaseUrl: '',
      dataDir: join(root, 'restored', 'pglite'),
      firmwareDir: join(root, 'restored', 'firmware'),
      backupDir: '',
    });
    restoreMs = performance.now() - t;
  } else {
    const schema = new URL(server.config.databaseUrl).searchParams.get('options')!.split('=')[1]!;
    const t = performance.now();
    await restoreBackup(file, {
      databaseUrl: server.config.databaseUrl,
      dataDir: '',
      firmwareDir: join(root, 'restored-pg'),
      backupDir: '',
    });
    restoreMs = performance.now() - t;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
  console.log(`  restore, checked          ${(restoreMs / 1000).toFixed(1)} s`);
  return folders;
}

const root = mkdtempSync(join(tmpdir(), 'bench-backup-'));
try {
  console.log(`bench:backup — ${REPORTS.toLocaleString('en')} reports; /ready polled every 20 ms`);
  const pglite = await run('pglite', root);
  if (process.env.BENCH_PG !== '0' && (await postgresAvailable())) {
    await run('postgres', root);
    const schema = `bench_move_${Date.now()}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const target = new URL(PG_URL);
    target.searchParams.set('options', `-c search_path=${schema}`);
    const t = performance.now();
    const moved = await moveToPostgres(pglite, target.toString());
    console.log(
      `\nmove-to-postgres: ${moved.rows.toLocaleString('en')} rows of ${moved.tables} tables in ${((performance.now() - t) / 1000).toFixed(1)} s, checked`,
    );
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  } else console.log('\n(PostgreSQL not reachable: its backup and the move were not measured)');
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(0);
