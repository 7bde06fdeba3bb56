import { checkRuleAlarms } from '../server/notify/ruleAlarms';
import { addBenchVessels, postgresAvailable, startBenchServer } from './benchServer';
import { SMOKE, sized } from './smoke';

/**
 * bench:rule-checks — the leader's minute check of what alarm rules raise themselves (offline,
 * weak signal, geofences: server/notify/ruleAlarms.ts) over a fleet of VESSELS vessels of one
 * enterprise, scattered over the oceans, 2 % of them weak for 20 minutes. Side by side in one run:
 * the check as the demo ships (no trigger rules; its port geofences) and with an offline rule, a
 * weak-signal rule and GEOFENCES more geofences of which a rule watches half. Each timed 3 times,
 * the median printed; the first run of each is the one that raises. Prints figures; asserts nothing.
 * BENCH_SMOKE=1: 500 vessels, PGlite only.
 */
const VESSELS = Number(process.env.BENCH_VESSELS ?? sized(10_000, 500));
const GEOFENCES = sized(200, 20);

async function run(engine: 'pglite' | 'postgres') {
  const server = await startBenchServer(engine);
  const { db } = server;
  const [{ id: owner }] = (await db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`)) as [{ id: number }];
  await addBenchVessels(db, { prefix: 'R', secret: 'rule-bench-secret', count: VESSELS, ownerIds: [owner] });
  // Each vessel's latest state and three reports over the last 20 minutes, at a place of its own; every 50th is weak.
  const state = `SELECT d.id, t, (hashtext(d.device_num) % 6000) / 100.0, (hashtext(d.device_num || 'x') % 17000) / 100.0,
                        CASE WHEN d.id % 50 = 0 THEN 12 ELSE 70 END, CASE WHEN d.id % 50 = 0 THEN 2 ELSE 11 END
                   FROM devices d, (SELECT now() - make_interval(mins => m) AS t FROM unnest(ARRAY[20, 10, 1]) m) times
                  WHERE d.device_num LIKE 'R%'`;
  const columns = `speed, heading, azimuth, elevation, skew, satellite_name, satellite_longitude, modem_lock, tx_on`;
  const fixed = `10, 90, 180, 45, 0, 'AsiaSat 7', 105.5, true, true`;
  await db.query(
    `INSERT INTO device_reports (device_id, device_time, received_at, lat, lon, signal_level, snr, ${columns})
     SELECT id, t, t, lat, lon, sig, snr, ${fixed} FROM (${state}) AS s(id, t, lat, lon, sig, snr)`,
  );
  await db.query(
    `INSERT INTO device_state (device_id, reported_at, received_at, state, lat, lon, signal_level, snr, ${columns})
     SELECT DISTINCT ON (id) id, t, t, 1, lat, lon, sig, snr, ${fixed} FROM (${state}) AS s(id, t, lat, lon, sig, snr) ORDER BY id, t DESC
     ON CONFLICT (device_id) DO NOTHING`,
  );
  const timed = async () => {
    const runs: { ms: number; result: Awaited<ReturnType<typeof checkRuleAlarms>> }[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const result = await checkRuleAlarms(db);
      runs.push({ ms: performance.now() - t0, result });
    }
    const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
    const first = runs[0]!.result;
    return {
      'median ms': Math.round(sorted[1]!),
      'first ms': Math.round(runs[0]!.ms),
      'first run raised': `offline ${first.offline}, weak ${first.weak}, in geofence ${first.geofences.raised}`,
      'arrivals (first run)': first.geofences.arrivals,
    };
  };
  const shipped = await timed();
  await db.query(
    `INSERT INTO geofences (owner_id, name, kind, shape, lat, lon, radius_m, created_by)
     SELECT $1, 'Bench area ' || g, 'area', 'circle', (g * 37 % 120) - 60, (g * 71 % 340) - 170, 300000, $1 FROM generate_series(1, $2::int) g`,
    [owner, GEOFENCES],
  );
  const watched = await db.query<{ id: number }>(`SELECT id FROM geofences WHERE name LIKE 'Bench area %' AND id % 2 = 0`);
  await db.query(
    `INSERT INTO alarm_rules (owner_id, name, enabled, codes, min_severity, device_ids, group_ids, contact_point_ids, user_ids,
                              notify_cleared, escalate_contact_point_ids, offline_minutes, signal_below, low_minutes, geofence_ids, geofence_trigger, created_by)
     VALUES ($1, 'Bench offline', true, '[]', 'major', '[]', '[]', '[]', '[]', true, '[]', 60, NULL, NULL, '[]', 'enter', $1),
            ($1, 'Bench weak', true, '[]', 'major', '[]', '[]', '[]', '[]', true, '[]', NULL, 30, 10, '[]', 'enter', $1),
            ($1, 'Bench areas', true, '[]', 'minor', '[]', '[]', '[]', '[]', true, '[]', NULL, NULL, NULL, $2::jsonb, 'enter', $1)`,
    [owner, JSON.stringify(watched.map((g) => g.id))],
  );
  const withRules = await timed();
  await server.stop();
  return [
    { check: 'as shipped (demo geofences, no trigger rules)', ...shipped },
    { check: `offline + weak-signal rules, ${GEOFENCES} more geofences (${watched.length} watched)`, ...withRules },
  ];
}

const engines: ('pglite' | 'postgres')[] = ['pglite'];
if (!SMOKE && (await postgresAvailable())) engines.push('postgres');
console.log(`\nbench:rule-checks — ${VESSELS.toLocaleString('en')} vessels, 2 % weak for 20 min; the leader runs this check once a minute`);
for (const engine of engines) {
  console.log(engine);
  console.table(await run(engine));
}
