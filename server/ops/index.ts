import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/connection';
import type { Leader } from '../leader';
import type { DeviceLink } from '../link/deviceLink';
import type { IngestWriter } from '../modules/monitoring/ingestWriter';
import { liveHubs } from '../modules/live/liveRoutes';
import { healthRoutes } from './health';
import { createServerMetrics, type ServerMetrics } from './metrics';
import { scrapeCounts } from './opsQueries';
import type { BackupService } from './backup/backupService';
import { hasOpsSocket, listenOpsSocket } from './backup/opsSocket';

/** What an app's operations parts keep: the leader once elected, the metrics listener's port. */
interface OpsState {
  leader: Leader | null;
  metricsPort: number | null;
  backups: BackupService | null;
}
const states = new WeakMap<FastifyInstance, OpsState>();

/** Tells readiness and metrics about this replica's leader election (main.ts, once electLeader has answered). */
export function attachLeader(app: FastifyInstance, leader: Leader): void {
  const state = states.get(app);
  if (state) state.leader = leader;
}

/** The app's backups (the leader's nightly run: server/simulator/startDemo.ts). */
export function backupsOf(app: FastifyInstance): BackupService | null {
  return states.get(app)?.backups ?? null;
}

/** The port of the METRICS_PORT listener once the app is ready (METRICS_PORT=0 takes a free one); null without it. */
export function metricsPortOf(app: FastifyInstance): number | null {
  return states.get(app)?.metricsPort ?? null;
}

/** Metrics are on when the operator chose how they are protected: a token, a port of their own, or both. */
export const metricsEnabled = (config: ServerConfig) => config.metricsToken !== '' || config.metricsPort !== null;

/**
 * The metrics of an app whose settings turn them on (else undefined), with the HTTP hook that
 * counts every answer by its route template. Called before the routes are registered.
 */
export function installMetrics(app: FastifyInstance, config: ServerConfig, db: Db): ServerMetrics | undefined {
  if (!metricsEnabled(config)) return undefined;
  const metrics = createServerMetrics({ pool: !!db.poolStats, onScrapeError: (m) => app.log.warn(m) });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.method, request.routeOptions.url ?? 'none', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  return metrics;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
/** The bearer token asked, compared in constant time; no token set: anyone may read (METRICS_PORT alone). */
function tokenAccepted(config: ServerConfig, request: IncomingMessage): boolean {
  if (!config.metricsToken) return true;
  const header = request.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  return timingSafeEqual(digest(given), digest(config.metricsToken));
}

export interface OpsParts {
  db: Db;
  config: ServerConfig;
  ingest: IngestWriter;
  link: DeviceLink;
  metrics: ServerMetrics | undefined;
  backups: BackupService;
}

/**
 * GET /health, GET /ready and, when metrics are on, GET /metrics: on the app's own port with
 * METRICS_TOKEN alone, else only on a listener of its own at METRICS_HOST:METRICS_PORT (docs/api.md,
 * "Health and metrics").
 */
export async function installOps(app: FastifyInstance, { db, config, ingest, link, metrics, backups }: OpsParts): Promise<void> {
  const state: OpsState = { leader: null, metricsPort: null, backups };
  states.set(app, state);
  await healthRoutes(app, { db, config, ingest, link, leader: () => state.leader });
  if (hasOpsSocket(config)) {
    // npm run backup asks a running server for the backup of its embedded database (server/ops/backup/opsSocket.ts).
    const close = await listenOpsSocket(config, backups);
    app.addHook('onClose', close);
  }
  if (!metrics) return;
  Object.assign(metrics.sources, {
    ingestBacklog: () => ingest.backlog().queued,
    sseClients: () => liveHubs.get(db)?.connections ?? 0,
    mqttConnections: () => link.status?.().connections ?? 0,
    leader: () => state.leader?.isLeader ?? null,
    pool: () => db.poolStats?.() ?? null,
    database: () => scrapeCounts(db),
  } satisfies typeof metrics.sources);
  const { registry } = metrics;

  if (config.metricsPort === null) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!tokenAccepted(config, request.raw)) {
        return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').type('text/plain').send('unauthorized\n');
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
    return;
  }
  let server: Server | null = null;
  app.addHook('onReady', async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method !== 'GET' || path !== '/metrics') return void response.writeHead(404).end('not found\n');
      if (!tokenAccepted(config, request))
        return void response.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"' }).end('unauthorized\n');
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
        (error: Error) => response.writeHead(500).end(`${error.message}\n`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', (e: NodeJS.ErrnoException) =>
        reject(e.code === 'EADDRINUSE' ? new Error(`metrics port ${config.metricsPort} is in use (set METRICS_PORT)`) : e),
      );
      server!.listen(config.metricsPort!, config.metricsHost, () => resolve());
    });
    state.metricsPort = (server.address() as AddressInfo).port;
  });
  app.addHook('onClose', async () => {
    const open = server;
    server = null;
    if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
  });
}
