import autocannon from 'autocannon';
import { loginToken, postgresAvailable, startBenchServer } from './benchServer';
import { hashPassword } from '../server/auth/password';

/**
 * Throughput and latency of getSelf and getAll (1,000 users) against a trivial route of the same
 * server in the same run, on PGlite and on PostgreSQL. Prints figures; asserts nothing.
 */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 20;

async function measure(url: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, workers: 1 });
  const non2xx = result.non2xx + result.errors;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed: non2xx };
}

async function run(engine: 'pglite' | 'postgres') {
  const server = await startBenchServer(engine);
  const hash = await hashPassword('benchpass');
  const [{ id: enterpriseId }] = await server.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`) as [{ id: number }];
  await server.db.query(
    `INSERT INTO users (name, nickname, password_hash, permission_level, parent_id)
     SELECT 'bench' || chr(97 + (g / 676) % 26) || chr(97 + (g / 26) % 26) || chr(97 + g % 26), 'Bench user ' || g, $1,
            CASE WHEN g % 10 = 0 THEN '2' ELSE '3' END, CASE WHEN g % 10 = 0 THEN NULL ELSE $2::int END
       FROM generate_series(1, 994) g`,
    [hash, enterpriseId],
  );
  const token = await loginToken(server.url, 'admin', 'admin123');
  const routes = {
    trivial: `${server.url}/ping`,
    getSelf: `${server.url}/users/getSelf?token=${token}`,
    getAll: `${server.url}/users/getAll?pageIndex=1&pageSize=20&token=${token}`,
    'getAll (page 40)': `${server.url}/users/getAll?pageIndex=40&pageSize=20&token=${token}`,
  };
  const rows: Record<string, string | number>[] = [];
  let trivialRps = 0;
  for (const [name, url] of Object.entries(routes)) {
    const m = await measure(url);
    if (name === 'trivial') trivialRps = m.rps;
    rows.push({ engine, route: name, 'req/s': Math.round(m.rps), 'p50 ms': m.p50, 'p99 ms': m.p99, 'vs trivial': `${Math.round((m.rps / trivialRps) * 100)}%`, failed: m.failed });
  }
  await server.stop();
  return rows;
}

const engines: ('pglite' | 'postgres')[] = ['pglite'];
if (await postgresAvailable()) engines.push('postgres');
const all = [];
for (const engine of engines) all.push(...(await run(engine)));
console.log(`\nbench:api — ${CONNECTIONS} connections, ${DURATION_S} s per route, 1,000 users`);
console.table(all);
