import autocannon from 'autocannon';
import { loginToken, postgresAvailable, startBenchServer } from './benchServer';
import { hashPassword } from '../server/auth/password';
import { SMOKE, sized } from './smoke';
import { MONITOR_PAGE_QUERY } from './consoleCalls';

/**
 * Throughput and latency of the authenticated routes a console calls most, side by side with the
 * trivial `/ping` of the same server in the same run, on PGlite and on PostgreSQL (docs/architecture.md, "Server", cheap authentication per call):
 * users/getSelf, users/getAll (1,000 users), the device list's first page, the voyage list (a declared resource), the status monitor's
 * page and the bell's alarm poll. The enterprise account "oceanic" calls them, so the routes that
 * need a permission run their permission check (the super user skips it). Prints figures; asserts
 * nothing.
 *
 *   npm run bench:api                       both engines (PostgreSQL at DATABASE_URL or the local default)
 *   BENCH_ENGINE=postgres npm run bench:api one engine
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=50   longer runs, more connections (defaults 5 s, 50)
 *   BENCH_SMOKE=1                           1 s per route, 10 connections, PGlite only (bench/smoke.ts)
 *   BENCH_METRICS=off|on|both               Prometheus metrics off (the default setting), on (METRICS_TOKEN set, and
 *                                           /metrics scraped every second meanwhile), or both side by side (default off)
 */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? sized(5, 1));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? sized(50, 10));
const METRICS = process.env.BENCH_METRICS === 'both' ? ['off', 'on'] : process.env.BENCH_METRICS === 'on' ? ['on'] : ['off'];
const METRICS_TOKEN = 'bench-metrics-token';

interface Route {
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  background?: boolean;
}

async function measure(url: string, route: Route) {
  const result = await autocannon({
    url: url + route.path,
    method: route.method ?? 'GET',
    connections: CONNECTIONS,
    duration: DURATION_S,
    workers: 1,
    headers: {
      ...(route.body ? { 'content-type': 'application/json' } : {}),
      ...(route.background ? { 'x-background': '1' } : {}),
    },
    body: route.body ? JSON.stringify(route.body) : undefined,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** One call of the route, to check that it answers code 0 before it is measured. */
async function check(url: string, name: string, route: Route) {
  const res = await fetch(url + route.path, {
    method: route.method ?? 'GET',
    headers: route.body ? { 'content-type': 'application/json' } : {},
    body: route.body ? JSON.stringify(route.body) : undefined,
  });
  const body = (await res.json()) as { code: number };
  if (body.code !== 0) throw new Error(`${name} answers ${JSON.stringify(body).slice(0, 200)}`);
}

async function run(engine: 'pglite' | 'postgres', metrics: string) {
  const server = await startBenchServer(engine, metrics === 'on' ? { metricsToken: METRICS_TOKEN } : {});
  const hash = await hashPassword('benchpass');
  const [{ id: enterpriseId }] = (await server.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`)) as [{ id: number }];
  await server.db.query(
    `INSERT INTO users (name, nickname, password_hash, permission_level, parent_id)
     SELECT 'bench' || chr(97 + (g / 676) % 26) || chr(97 + (g / 26) % 26) || chr(97 + g % 26), 'Bench user ' || g, $1,
            CASE WHEN g % 10 = 0 THEN '2' ELSE '3' END, CASE WHEN g % 10 = 0 THEN NULL ELSE $2::int END
       FROM generate_series(1, 994) g`,
    [hash, enterpriseId],
  );
  // Twenty voyages per vessel, for the voyage list.
  await server.db.query(
    `INSERT INTO voyages (device_id, voyage_no, destination, etd, eta, agent)
     SELECT d.id, 'V' || d.id || '-' || g, 'Port ' || g, now() - g * interval '7 days', now() - g * interval '7 days' + interval '5 days', 'Agent ' || g
       FROM devices d, generate_series(1, 20) g`,
  );
  const [{ n: devices }] = (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE owner_id = $1`, [
    enterpriseId,
  ])) as [{ n: number }];
  const token = await loginToken(server.url, 'oceanic', 'oceanic123');
  const t = `token=${token}`;
  const upload = '/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition';
  const routes: Record<string, Route> = {
    ping: { path: '/ping' },
    'users/getSelf': { path: `/users/getSelf?${t}` },
    'users/getAll (1k users)': { path: `/users/getAll?pageIndex=1&pageSize=20&${t}` },
    'device list page 1': { path: `/deviceModule/device/getAll?pageIndex=1&pageSize=20&${t}` },
    // A declared resource (docs/extending.md): its routes and SQL are built from its definition.
    'voyages page 1 (declared)': { path: `/deviceModule/voyage/getAll?pageIndex=1&pageSize=20&${t}` },
    'status monitor page 1': {
      path: `${upload}?${t}`,
      method: 'POST',
      body: MONITOR_PAGE_QUERY,
    },
    'alarm poll (bell)': {
      path: `${upload}?${t}`,
      method: 'POST',
      background: true,
      body: { deviceStatus: [2], unacknowledgedOnly: true, pageIndex: 1, pageSize: 1 },
    },
  };
  for (const [name, route] of Object.entries(routes)) await check(server.url, name, route);
  // With metrics on, a scrape every second meanwhile (Prometheus's default is one per minute): its cost is in the figures.
  const metricsUrl = server.url.replace(/\/cz\/.*$/, '/metrics');
  let scrapes = 0;
  const scraper =
    metrics === 'on'
      ? setInterval(() => {
          void fetch(metricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
            .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`/metrics answers ${res.status}`))))
            .then(() => scrapes++)
            .catch((error: Error) => console.error(error.message));
        }, 1000)
      : undefined;
  const rows: Record<string, string | number>[] = [];
  let pingRps = 0;
  for (const [name, route] of Object.entries(routes)) {
    const m = await measure(server.url, route);
    if (name === 'ping') pingRps = m.rps;
    rows.push({
      engine,
      metrics,
      route: name,
      'req/s': Math.round(m.rps),
      'p50 ms': m.p50,
      'p99 ms': m.p99,
      '/ping': (m.rps / pingRps).toFixed(2),
      failed: m.failed,
    });
  }
  clearInterval(scraper);
  if (metrics === 'on' && !scrapes) throw new Error('no /metrics scrape succeeded');
  await server.stop();
  return { rows, devices };
}

const wanted = process.env.BENCH_ENGINE;
const engines: ('pglite' | 'postgres')[] = [];
if (!wanted || wanted === 'pglite') engines.push('pglite');
if ((wanted === 'postgres' || (!wanted && !SMOKE)) && (await postgresAvailable())) engines.push('postgres');
const all = [];
let devices = 0;
for (const engine of engines) {
  for (const metrics of METRICS) {
    const result = await run(engine, metrics);
    all.push(...result.rows);
    devices = result.devices;
  }
}
console.log(
  `\nbench:api — ${CONNECTIONS} connections, ${DURATION_S} s per route, 1,000 users, caller "oceanic" (${devices} devices of its own)`,
);
console.table(all);
