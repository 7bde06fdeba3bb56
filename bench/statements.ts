import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { addSoakFleet, loginToken, startBenchServer } from './benchServer';
import { consoleCalls } from './consoleCalls';
import { arg, sized } from './smoke';
import { isBackground } from '../server/db/priority';
import { openLite } from '../server/db/pgliteSession';
import { preparedStatements } from '../server/db/pgliteStatements';

/**
 * npm run bench:statements — what the console's calls cost the embedded database, statement by
 * statement, with PGlite's own query() (each statement parsed and planned afresh: the reference)
 * and with the server's prepared statements (server/db/pgliteStatements.ts), side by side in one
 * run (docs/architecture.md, "Prepared statements"). The soak's fleet (10,000 vessels, 200 users,
 * a twentieth of the vessels in alarm) is stored in a PGlite folder; the statements of bench:soak's
 * four console calls are caught as an enterprise and a sub-user make them over HTTP; then, with
 * the server stopped, each call's statements run `--rounds` times (200) both ways, in turn, on the
 * folder. Prints the median database time per call both ways; asserts nothing.
 * BENCH_SMOKE=1: 300 vessels, 8 users, 5 rounds (bench/smoke.ts).
 */
const VESSELS = Number(arg('vessels', sized('10000', '300')));
const USERS = Number(arg('users', sized('200', '8')));
const ROUNDS = Number(arg('rounds', sized('200', '5')));
const PASSWORD = 'statements123';

interface Statement {
  sql: string;
  params: unknown[];
}

const dataDir = await mkdtemp(join(tmpdir(), 'bench-statements-'));
const server = await startBenchServer('pglite', { dataDir });
const users = await addSoakFleet(server.db, { vessels: VESSELS, users: USERS, prefix: 'T', secret: 'statements', password: PASSWORD });
await server.db.query(
  `INSERT INTO device_state (device_id, reported_at, received_at, state, lat, lon, speed, heading, azimuth, elevation, skew,
     satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on)
   SELECT id, now(), now(), CASE WHEN id % 20 = 0 THEN 2 ELSE 1 END, 12.5, 110.2, 15, 201, 255, 40, 3, 'APSTAR 6D', 134, 5.5, 9, true, true
     FROM devices ON CONFLICT (device_id) DO NOTHING`,
);
await server.db.query('ANALYZE');

// The statements each call sends (the server's background work left out).
let caught: Statement[] | null = null;
const query = server.db.query.bind(server.db);
server.db.query = (<T>(sql: string, params: unknown[] = []) => {
  if (caught && !isBackground()) caught.push({ sql, params });
  return query<T>(sql, params);
}) as typeof server.db.query;
const callers = [users.find((n) => n.startsWith('soake'))!, users.find((n) => n.startsWith('soaks'))!];
const calls: { who: string; name: string; statements: Statement[] }[] = [];
const origin = new URL(server.url).origin;
for (const who of callers) {
  const token = await loginToken(server.url, who, PASSWORD);
  for (const { name, call } of consoleCalls(new URL(server.url).pathname)) {
    const { method, path, headers, body } = call(token);
    // The second call's statements: the first may read the session.
    for (let i = 0; i < 2; i++) {
      caught = [];
      const res = await fetch(`${origin}${path}`, { method, headers, body });
      if (!(await res.text()).startsWith('{"code":0')) throw new Error(`${name} failed for ${who}`);
    }
    calls.push({ who: who.startsWith('soake') ? 'enterprise' : 'sub-user', name, statements: caught! });
    caught = null;
  }
}
await server.stop();

const lite = await openLite({ folder: dataDir });
const prepared = preparedStatements(lite);
const unordered = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows: Record<string, string | number>[] = [];
let same = true;
for (const { who, name, statements } of calls) {
  const fresh: number[] = [];
  const named: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now();
    const a = [];
    for (const s of statements) a.push((await lite.query(s.sql, s.params)).rows);
    fresh.push(performance.now() - t);
    t = performance.now();
    const b = [];
    for (const s of statements) b.push(await prepared(s.sql, s.params, false));
    named.push(performance.now() - t);
    // A GROUP BY without ORDER BY may come back in another order with another plan: compared as sets.
    same &&= isDeepStrictEqual(a.map(unordered), b.map(unordered));
  }
  rows.push({
    caller: who,
    call: name,
    statements: statements.length,
    'query() ms': +median(fresh).toFixed(2),
    'prepared ms': +median(named).toFixed(2),
    'saved %': Math.round((1 - median(named) / median(fresh)) * 100),
  });
}
await lite.close();
await rm(dataDir, { recursive: true, force: true });
console.log(
  `\nbench:statements — the console's calls on PGlite, ${VESSELS.toLocaleString('en')} vessels, ${USERS} users: median database time per call over ${ROUNDS} rounds`,
);
console.table(rows);
const total = (key: string) => rows.reduce((n, r) => n + (r[key] as number), 0);
console.log(
  `all four calls, both callers: query() ${total('query() ms').toFixed(1)} ms, prepared ${total('prepared ms').toFixed(1)} ms; the same answers both ways: ${same ? 'yes' : 'NO'}`,
);
process.exit(0);
