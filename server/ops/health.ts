import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/connection';
import { latestMigration } from '../db/migrate';
import type { Leader } from '../leader';
import type { DeviceLink } from '../link/deviceLink';
import type { IngestWriter } from '../modules/monitoring/ingestWriter';
import { databaseAnswers, leaderLockHeld, migrationApplied } from './opsQueries';

/** A readiness check's state: `off` is a part the settings turned off (the broker with MQTT=0); `unknown` could not be checked. */
export type CheckState = 'ok' | 'failing' | 'off' | 'unknown';
export interface Check {
  name: 'database' | 'migrations' | 'broker' | 'ingestBacklog' | 'leader';
  state: CheckState;
  detail: string;
}

/** What readiness reads besides the database; `leader` is set once this replica has taken part in an election (main.ts). */
export interface HealthParts {
  db: Db;
  config: ServerConfig;
  ingest: Pick<IngestWriter, 'backlog'>;
  link: DeviceLink;
  leader: () => Leader | null;
}

/** A database check that hangs (pool exhausted, network gone) fails after this long: a probe must answer. */
const CHECK_TIMEOUT_MS = 2000;

const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });

class CheckTimeout extends Error {}

/**
 * What a failed check says in /ready's public answer: that it timed out, or only that it failed; a
 * driver's words (a host, an address, a user name) go to the server's log, never to the caller.
 */
const message = (error: unknown, log: (text: string) => void = () => undefined) => {
  if (error instanceof CheckTimeout) return error.message;
  log(error instanceof Error ? error.message : String(error));
  return 'error (see the server log)';
};

/**
 * The readiness checks, cheapest first and all cheap: `SELECT 1`, one primary-key lookup in
 * schema_migrations, in-memory state of the broker, the ingest writer and the leader, and on a
 * PostgreSQL replica that does not lead, one look at pg_locks for the leader's lock.
 */
export async function readinessChecks(
  parts: HealthParts,
  migration: Promise<string>,
  log: (text: string) => void = () => undefined,
): Promise<Check[]> {
  const { db, config, ingest, link } = parts;
  const checks: Check[] = [];
  let dbUp = true;
  try {
    await within(databaseAnswers(db), CHECK_TIMEOUT_MS);
    checks.push({ name: 'database', state: 'ok', detail: db.engine });
  } catch (error) {
    dbUp = false;
    checks.push({ name: 'database', state: 'failing', detail: `${db.engine}: ${message(error, log)}` });
  }
  if (!dbUp) checks.push({ name: 'migrations', state: 'unknown', detail: 'the database does not answer' });
  else {
    const version = await migration;
    try {
      const applied = await within(migrationApplied(db, version), CHECK_TIMEOUT_MS);
      checks.push({ name: 'migrations', state: applied ? 'ok' : 'failing', detail: applied ? version : `${version} not applied` });
    } catch (error) {
      checks.push({ name: 'migrations', state: 'failing', detail: message(error, log) });
    }
  }
  if (!config.mqtt) checks.push({ name: 'broker', state: 'off', detail: 'MQTT=0' });
  else if (link.kind === 'none') checks.push({ name: 'broker', state: 'failing', detail: 'no device link' });
  else {
    const status = link.status?.();
    const up = status?.listening ?? true;
    checks.push({
      name: 'broker',
      state: up ? 'ok' : 'failing',
      detail: `${link.kind} ${up ? (link.kind === 'embedded' ? 'listening' : 'connected') : link.kind === 'embedded' ? 'not listening' : 'not connected'}`,
    });
  }
  const { queued, limit } = ingest.backlog();
  checks.push({ name: 'ingestBacklog', state: queued < limit ? 'ok' : 'failing', detail: `${queued} of ${limit} reports` });
  const leader = parts.leader();
  if (!leader) checks.push({ name: 'leader', state: 'failing', detail: 'no election yet' });
  else if (leader.isLeader) checks.push({ name: 'leader', state: 'ok', detail: 'this replica' });
  else if (!dbUp) checks.push({ name: 'leader', state: 'unknown', detail: 'the database does not answer' });
  else {
    try {
      const held = await within(leaderLockHeld(db), CHECK_TIMEOUT_MS);
      checks.push({ name: 'leader', state: held ? 'ok' : 'failing', detail: held ? 'another replica' : 'no replica leads' });
    } catch (error) {
      checks.push({ name: 'leader', state: 'failing', detail: message(error, log) });
    }
  }
  return checks;
}

/**
 * GET /health and GET /ready, outside /cz/{segment} and without a session (docs/api.md, "Health
 * and metrics"): /health says the process answers and touches nothing; /ready answers 200 when
 * every check passes, else 503 naming the failing ones.
 */
export async function healthRoutes(app: FastifyInstance, parts: HealthParts) {
  const started = Date.now();
  const migration = latestMigration();
  migration.catch(() => undefined);
  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'alive', uptimeSeconds: Math.round((Date.now() - started) / 1000) };
  });
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const checks = await readinessChecks(parts, migration, (text) => app.log.warn(`readiness: ${text}`));
    const notReady = checks.filter((c) => c.state !== 'ok' && c.state !== 'off').map((c) => c.name);
    reply.header('cache-control', 'no-store');
    reply.status(notReady.length ? 503 : 200);
    return { status: notReady.length ? 'not ready' : 'ready', failing: notReady, checks };
  });
}
