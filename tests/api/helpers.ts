import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { startServer } from '../../server/start';
import type { ServerConfig } from '../../server/config';
import type { AppOptions } from '../../server/app';
import { openDb, type Db } from '../../server/db/connection';
import type { DeviceLink } from '../../server/link/deviceLink';
import { DEMO_ACCOUNTS } from '../../server/db/demoAccounts';
import { pgliteTemplate } from './pgliteTemplate';

export type Engine = 'pglite' | 'postgres';

/** The engines this run covers: PGlite always, PostgreSQL when globalSetup found one. */
export const engines: Engine[] = inject('pgUrl') ? ['pglite', 'postgres'] : ['pglite'];

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  base: string;
  /** PostgreSQL: the URL of this server's schema ('' on PGlite), for a second server on it (createTestServer's `shareSchemaOf`). */
  databaseUrl: string;
  /** The devices' MQTT link: the embedded broker on a free port (vitest sets MQTT_PORT=0), or what the overrides ask for. */
  link: DeviceLink;
  /** Logs in a demo account and returns its token. */
  login(name: string, password?: string): Promise<string>;
  /** Calls the API with a token and returns the parsed envelope. */
  call<T = any>(
    options: InjectOptions & { token?: string; lang?: 'zh' | 'en' },
  ): Promise<{ code: number; msg: string; data: T; status: number }>;
  close(): Promise<void>;
}

/**
 * A fresh server with migrations and demo data, on PGlite in memory or in a throw-away schema of
 * the PostgreSQL database (dropped on close).
 */
export async function createTestServer(
  engine: Engine,
  overrides: Partial<ServerConfig> = {},
  {
    shareSchemaOf,
    openLink,
    logStream,
  }: { shareSchemaOf?: TestServer; openLink?: AppOptions['openLink']; logStream?: AppOptions['logStream'] } = {},
): Promise<TestServer> {
  let databaseUrl = '';
  let dropSchema: (() => Promise<void>) | undefined;
  if (shareSchemaOf) {
    // A second replica on the first server's schema (PostgreSQL only); the first drops it.
    if (engine !== 'postgres' || !shareSchemaOf.databaseUrl) throw new Error('only PostgreSQL servers can share a schema');
    databaseUrl = shareSchemaOf.databaseUrl;
  } else if (engine === 'postgres') {
    const url = inject('pgUrl');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const u = new URL(url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    };
  }
  const settings = { databaseUrl, dataDir: 'memory://', logLevel: 'silent' as const, seedDemo: true, ...overrides };
  const loadDataDir = !settings.databaseUrl && settings.dataDir === 'memory://' ? pgliteTemplate() : undefined;
  const { app, db, config, link } = await startServer(settings, {
    ...(openLink ? { openLink } : {}),
    ...(logStream ? { logStream } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const base = `/cz/${config.apiSegment}`;

  const call: TestServer['call'] = async ({ token, lang, url, ...rest }) => {
    const target = new URL(`http://x${url}`);
    if (token) target.searchParams.set('token', token);
    if (lang) target.searchParams.set('lang', lang);
    const res = await app.inject({ ...rest, url: target.pathname + target.search });
    const body = res.headers['content-type']?.toString().includes('json') ? res.json() : { code: NaN, msg: res.body, data: null };
    return { ...body, status: res.statusCode };
  };

  const login = async (name: string, password = DEMO_PASSWORDS[name] ?? '') => {
    const res = await app.inject({
      method: 'POST',
      url: `${base}/users/login`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ name, password }).toString(),
    });
    const body = res.json();
    if (body.code !== 0) throw new Error(`login ${name} failed: ${res.body}`);
    return body.data.token as string;
  };

  return {
    app,
    db,
    base,
    databaseUrl,
    link,
    call,
    login,
    async close() {
      await app.close();
      await dropSchema?.();
    },
  };
}

const DEMO_PASSWORDS: Record<string, string> = Object.fromEntries(DEMO_ACCOUNTS.map((a) => [a.name, a.password]));

/** The demo users' ids as seeded (admin 1, oceanic 2, oceanops 3, oceanbridge 4, polaris 5, polarisops 6). */
/** The demo users' ids by name. */
export async function demoIds(s: TestServer): Promise<Record<string, number>> {
  const rows = await s.db.query<{ id: number; name: string }>('SELECT id, name FROM users');
  return Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

export async function idOf(db: Db, name: string): Promise<number> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM users WHERE name = $1', [name]);
  return row!.id;
}

/**
 * A test file's usual set-up: a fresh server (createTestServer), the demo users' ids by name and
 * a token of each named demo account. The server is closed again if a login fails.
 */
export async function startWithLogins(
  engine: Engine,
  names: readonly string[],
): Promise<{ s: TestServer; ids: Record<string, number>; tokens: Record<string, string> }> {
  const s = await createTestServer(engine);
  try {
    const ids = await demoIds(s);
    const tokens: Record<string, string> = {};
    for (const name of names) tokens[name] = await s.login(name);
    return { s, ids, tokens };
  } catch (error) {
    await s.close();
    throw error;
  }
}

/**
 * Cases against a second server on the first one's PostgreSQL schema: `second()` is that server,
 * `soon` polls for a change it hears of through LISTEN/NOTIFY (within milliseconds). PGlite
 * belongs to one process, so on PGlite nothing is registered.
 */
export function describeSecondServer(
  engine: Engine,
  first: () => TestServer,
  cases: (second: () => TestServer, soon: (fn: () => Promise<number>) => ReturnType<typeof expect.poll<number>>) => void,
): void {
  if (engine !== 'postgres') return;
  describe('two servers on one PostgreSQL', () => {
    let b: TestServer;
    beforeAll(async () => {
      b = await createTestServer(engine, {}, { shareSchemaOf: first() });
    });
    afterAll(() => b.close());
    cases(
      () => b,
      (fn) => expect.poll(fn, { timeout: 2000, interval: 5 }),
    );
  });
}

/** An empty database, for migration tests: PGlite in memory, or a throw-away schema of the test PostgreSQL. */
export async function emptyDb(engine: string): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (engine === 'pglite') {
    const db = await openDb({ databaseUrl: '', dataDir: 'memory://' });
    return { db, drop: () => db.close() };
  }
  const url = inject('pgUrl');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const db = await openDb({ databaseUrl: u.toString(), dataDir: '' });
  return {
    db,
    drop: async () => {
      await db.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}
