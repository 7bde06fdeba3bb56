import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { startServer } from '../server/start';
import { serveConsole } from '../server/serveConsole';
import type { ServerConfig } from '../server/config';
import type { AppOptions } from '../server/app';
import type { Queryable } from '../server/db/connection';
import { hashDeviceSecret } from '../server/auth/deviceCredentials';
import { hashPassword } from '../server/auth/password';

export const PG_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Is a PostgreSQL server answering at PG_URL? */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

type Started = Awaited<ReturnType<typeof startServer>>;

/**
 * A server with demo data on PGlite (in memory) or in a scratch schema of PostgreSQL, listening on a
 * free port; `beforeListen` may add to it first (e.g. serve the built console).
 */
export async function startBenchServer(
  engine: 'pglite' | 'postgres',
  overrides: Partial<ServerConfig> = {},
  beforeListen?: (server: Started) => Promise<void>,
  appOptions: AppOptions = {},
) {
  let databaseUrl = '';
  let cleanup = async () => undefined as void;
  if (engine === 'postgres') {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const u = new URL(PG_URL);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
    cleanup = async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    };
  }
  const server = await startServer(
    { databaseUrl, dataDir: 'memory://', logLevel: 'silent', port: 0, host: '127.0.0.1', mqttPort: 0, ...overrides },
    appOptions,
  );
  await beforeListen?.(server);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    ...server,
    url: `http://127.0.0.1:${port}/cz/${server.config.apiSegment}`,
    async stop() {
      await server.app.close();
      await cleanup();
    },
  };
}

export async function loginToken(url: string, name: string, password: string): Promise<string> {
  const res = await fetch(`${url}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name, password }),
  });
  const body = (await res.json()) as { code: number; data: { token: string } };
  if (body.code !== 0) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.data.token;
}

/**
 * `count` activated vessels numbered `prefix` + hex, all with `secret`, owned by `ownerIds`
 * in turn (vessel g belongs to ownerIds[g % ownerIds.length]).
 */
export async function addBenchVessels(
  db: Queryable,
  { prefix, secret, count, ownerIds }: { prefix: string; secret: string; count: number; ownerIds: readonly number[] },
) {
  await db.query(
    `INSERT INTO devices (name, device_num, device_sn, owner_id, manufacture_date, device_type, adu_version, bdu_version,
       manufacture_info, device_model, device_kind, activated, activated_at, secret_hash)
     SELECT 'Bench vessel ' || g, $1 || lpad(upper(to_hex(g)), 8 - length($1), '0'), 'BENCH' || g, ($2::int[])[1 + g % cardinality($2::int[])],
            '2024-01-01', 'Bench terminal', 'V2.0.0', 'V1.0.0', 'bench', 'B-1', (ARRAY['antenna','vsat','4g','microwave','vbox','others'])[1 + g % 6],
            true, now(), $3
       FROM generate_series(0, $4::int - 1) g`,
    [prefix, ownerIds, hashDeviceSecret(secret), count],
  );
}

/**
 * The bench server serving the built console in `dist` (the browser benches: bench:track,
 * bench:coverage): the product's production build is made there first when it is missing or
 * BENCH_BUILD=1, so a full run measures the console people get.
 */
export async function startConsoleBenchServer(engine: 'pglite' | 'postgres', dist: string, overrides: Partial<ServerConfig> = {}) {
  if (!existsSync(`${dist}/index.html`) || process.env.BENCH_BUILD === '1') {
    console.log(`building the console into ${dist} …`);
    execSync(`npx vite build --logLevel error --outDir ${dist} --emptyOutDir`, {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  return startBenchServer(engine, { ...overrides, consoleDir: dist }, async (started) => {
    if (!(await serveConsole(started.app, started.config))) throw new Error(`no built console in ${dist}`);
  });
}

/**
 * The soak's fleet (bench:soak, bench:statements): `users` console users, a quarter of them
 * enterprises owning the `vessels` in turn, the others their sub-users, each granted 20 of its
 * enterprise's vessels; all with `password`. Returns the users' names.
 */
export async function addSoakFleet(
  db: Queryable,
  o: { vessels: number; users: number; prefix: string; secret: string; password: string },
): Promise<string[]> {
  const enterprises = Math.max(1, Math.round(o.users / 4));
  const hash = await hashPassword(o.password);
  const ids = await db.query<{ id: number }>(
    `INSERT INTO users (name, nickname, password_hash, permission_level) SELECT 'soake' || g, 'Soak enterprise ' || g, $1, '2' FROM generate_series(1, $2::int) g RETURNING id`,
    [hash, enterprises],
  );
  const ownerIds = ids.map((r) => r.id);
  await db.query(
    `INSERT INTO users (name, nickname, password_hash, permission_level, parent_id)
     SELECT 'soaks' || g, 'Soak sub-user ' || g, $1, '3', ($2::int[])[1 + g % cardinality($2::int[])] FROM generate_series(1, $3::int) g`,
    [hash, ownerIds, o.users - enterprises],
  );
  await addBenchVessels(db, { prefix: o.prefix, secret: o.secret, count: o.vessels, ownerIds });
  await db.query(
    `INSERT INTO sub_user_grants (sub_user_id, device_id)
     SELECT u.id, d.id FROM users u CROSS JOIN LATERAL (SELECT id FROM devices WHERE owner_id = u.parent_id ORDER BY id LIMIT 20) d WHERE u.name LIKE 'soaks%'`,
  );
  return (await db.query<{ name: string }>(`SELECT name FROM users WHERE name LIKE 'soak%' ORDER BY id`)).map((r) => r.name);
}
