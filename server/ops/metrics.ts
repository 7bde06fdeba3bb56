import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from '../http/envelope';

/** Every family's name starts so (Prometheus's naming conventions: one prefix, `_total` counters, base units). */
export const METRICS_PREFIX = 'fleet_';

export type Transport = 'http' | 'mqtt';

/** What the ingest paths count (HTTP route, MQTT device messages): per message, and the reports stored. */
export interface IngestMetrics {
  /** A report message arrived (an HTTP request or an MQTT PUBLISH on a report topic). */
  received(transport: Transport): void;
  /** A message's reports were committed (`reports`: how many were stored, duplicates left out). */
  stored(transport: Transport, reports: number): void;
  /** A message was refused (the device is told why, or, when busy or failing, sends it again). */
  refused(transport: Transport, error: unknown): void;
}

/** Read on each scrape; each part is optional (the sources are set once the server has them). */
export interface MetricSources {
  ingestBacklog?: () => number;
  sseClients?: () => number;
  /** Devices connected to the embedded broker, or online by their status through an external one. */
  mqttConnections?: () => number | null;
  /** true: this replica leads; false: it does not; null: no election yet. */
  leader?: () => boolean | null;
  /** The PostgreSQL pool (PGlite has none). */
  pool?: () => { total: number; idle: number; waiting: number } | null;
  /** One cheap query: open alarms by severity and the notification outbox's depth. */
  database?: () => Promise<{ openAlarms: Record<string, number>; outbox: number }>;
}

/** Why a message was refused, as a label of a few fixed values. */
export function refusalReason(error: unknown): string {
  if (!(error instanceof BizError)) return 'error';
  if (error.code === ErrorCode.DeviceAuthFailed) return 'auth';
  if (error.code === ErrorCode.Busy) return 'busy';
  if (error.code === ErrorCode.Validation || error.code === ErrorCode.BadRequest) return 'invalid';
  return 'other';
}

const SEVERITIES = ['critical', 'major', 'minor'] as const;

/**
 * The server's Prometheus metrics, one registry per app (tests build several in one process). No
 * family has a per-vessel or per-user label: labels are routes (Fastify's template, never the raw
 * URL), methods, status codes, transports, reasons and severities, each a short fixed set.
 */
export function createServerMetrics({
  pool = false,
  onScrapeError = () => undefined,
}: { pool?: boolean; onScrapeError?: (message: string) => void } = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });
  const sources: MetricSources = {};
  const p = METRICS_PREFIX;
  const registers = [registry];

  const httpRequests = new Counter({
    name: `${p}http_requests_total`,
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: `${p}http_request_duration_seconds`,
    help: 'Time from request to response, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const received = new Counter({
    name: `${p}ingest_messages_received_total`,
    help: 'Report messages received (HTTP requests, MQTT publishes on report topics), by transport',
    labelNames: ['transport'] as const,
    registers,
  });
  const refused = new Counter({
    name: `${p}ingest_messages_refused_total`,
    help: 'Report messages refused, by transport and reason (auth, invalid, busy, error, other)',
    labelNames: ['transport', 'reason'] as const,
    registers,
  });
  const stored = new Counter({
    name: `${p}ingest_reports_stored_total`,
    help: 'Reports committed, by transport (duplicates not counted)',
    labelNames: ['transport'] as const,
    registers,
  });
  for (const transport of ['http', 'mqtt'] as const) {
    received.inc({ transport }, 0);
    stored.inc({ transport }, 0);
  }
  const groupReports = new Histogram({
    name: `${p}ingest_group_reports`,
    help: 'Reports written per group-commit transaction',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000],
    registers,
  });
  const groupDuration = new Histogram({
    name: `${p}ingest_group_duration_seconds`,
    help: 'Time of one group-commit transaction',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  new Gauge({
    name: `${p}ingest_backlog_reports`,
    help: 'Reports waiting for the group-commit writer',
    registers,
    collect() {
      this.set(sources.ingestBacklog?.() ?? 0);
    },
  });
  new Gauge({
    name: `${p}sse_clients`,
    help: 'Consoles connected to the live push stream (Server-Sent Events) of this server',
    registers,
    collect() {
      this.set(sources.sseClients?.() ?? 0);
    },
  });
  new Gauge({
    name: `${p}mqtt_connections`,
    help: 'Devices connected to the embedded MQTT broker, or online by their status through an external broker',
    registers,
    collect() {
      this.set(sources.mqttConnections?.() ?? 0);
    },
  });
  new Gauge({
    name: `${p}leader`,
    help: '1 when this replica leads the background work, else 0',
    registers,
    collect() {
      this.set(sources.leader?.() ? 1 : 0);
    },
  });
  // Only where the engine has a pool (PostgreSQL): PGlite is one in-process connection.
  if (pool)
    new Gauge({
      name: `${p}db_pool_connections`,
      help: 'PostgreSQL pool connections by state (idle, busy); absent on PGlite, which has no pool',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const pool = sources.pool?.();
        if (!pool) return;
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'busy' }, pool.total - pool.idle);
      },
    });
  if (pool)
    new Gauge({
      name: `${p}db_pool_waiting_queries`,
      help: 'Queries waiting for a PostgreSQL pool connection; absent on PGlite, which has no pool',
      registers,
      collect() {
        const pool = sources.pool?.();
        if (pool) this.set(pool.waiting);
      },
    });
  const deliveryLatency = new Histogram({
    name: `${p}notification_delivery_latency_seconds`,
    help: 'From an alarm notification row being written to the channel accepting it (rows marked sent)',
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
    registers,
  });

  // The database's part: one query per scrape fills the three gauges below (collect() of the first).
  let scraped: Promise<{ openAlarms: Record<string, number>; outbox: number } | null> | null = null;
  const fromDatabase = () =>
    (scraped ??= (sources.database?.() ?? Promise.resolve(null))
      .catch((error: Error) => {
        onScrapeError(`metrics: ${error.message}`);
        return null;
      })
      .finally(() => setImmediate(() => (scraped = null))));
  new Gauge({
    name: `${p}database_up`,
    help: "1 when the database answered this scrape's metrics query, else 0",
    registers,
    async collect() {
      this.set((await fromDatabase()) ? 1 : 0);
    },
  });
  new Gauge({
    name: `${p}alarms_open`,
    help: 'Alarms not cleared, by severity',
    labelNames: ['severity'] as const,
    registers,
    async collect() {
      const row = await fromDatabase();
      if (row) for (const severity of SEVERITIES) this.set({ severity }, row.openAlarms[severity] ?? 0);
    },
  });
  new Gauge({
    name: `${p}notification_outbox_depth`,
    help: 'Alarm transitions in the notification outbox, not yet turned into notifications',
    registers,
    async collect() {
      const row = await fromDatabase();
      if (row) this.set(row.outbox);
    },
  });

  const ingest: IngestMetrics = {
    received: (transport) => received.inc({ transport }),
    stored: (transport, reports) => stored.inc({ transport }, reports),
    refused: (transport, error) => refused.inc({ transport, reason: refusalReason(error) }),
  };
  return {
    registry,
    sources,
    ingest,
    /** One answered HTTP request (`route`: the route's template, or `none` when no route matched). */
    request(method: string, route: string, statusCode: number, seconds: number) {
      httpRequests.inc({ method, route, status_code: statusCode });
      httpDuration.observe({ method, route }, seconds);
    },
    /** One group-commit transaction of the ingest writer. */
    group(reports: number, seconds: number) {
      groupReports.observe(reports);
      groupDuration.observe(seconds);
    },
    /** A notification accepted by its channel, `seconds` after its row was written. */
    delivered(seconds: number) {
      deliveryLatency.observe(seconds);
    },
  };
}

export type ServerMetrics = ReturnType<typeof createServerMetrics>;
