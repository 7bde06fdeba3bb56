import { DEGRADE_DEFAULTS } from '../src/domain/degradeAhead';
import { hostname } from 'node:os';
import { apiSegmentFor } from '../src/domain/constants';
import { FIRMWARE_DEFAULT_MAX_MB } from '../src/domain/firmware';
import { MAX_REPORT_BODY_BYTES } from '../src/domain/reportSchema';

/** Every setting of the reference server, read from the environment (README lists them). */
export interface ServerConfig {
  host: string;
  port: number;
  /** PostgreSQL connection string; empty means the embedded PGlite database in dataDir. */
  databaseUrl: string;
  /** Folder of the embedded database ('memory://' keeps it in memory, for tests). */
  dataDir: string;
  production: boolean;
  /** The path segment of the API: /cz/{apiSegment}/... */
  apiSegment: string;
  sessionIdleMinutes: number;
  /** Failed logins in a row for one name from one client address before it is locked for that address. */
  loginMaxFailures: number;
  /** Failed logins for one name from all addresses within loginLockMinutes before it is locked for everyone. */
  loginNameMaxFailures: number;
  loginLockMinutes: number;
  seedDemo: boolean;
  /** Folder of the built console served at /. */
  consoleDir: string;
  logLevel: string;
  /**
   * Who may show the console in a frame (FRAME_ANCESTORS, a CSP source list; `'none'` by default):
   * e.g. `https://portal.example.com` for a portal that embeds it (docs/architecture.md, "Security headers").
   */
  frameAncestors: string;
  /** Where the console may load camera streams from (CSP_CAMERA_SOURCES, a CSP source list; `https: http:` by default: any camera link). */
  cameraSources: string;
  /**
   * Notifications may go to this machine and private networks (NOTIFY_ALLOW_PRIVATE_TARGETS=1: a
   * robot or webhook inside the company network); by default such targets are refused.
   */
  notifyAllowPrivateTargets: boolean;
  /** Telegram's Bot API (TELEGRAM_API_BASE; https://api.telegram.org), or a proxy in front of it. */
  telegramApiBase: string;
  /** The console's address as people reach it (PUBLIC_URL; http://localhost:PORT by default): the links in notifications. */
  publicUrl: string;
  /** This replica delivers notifications (NOTIFY_WORKER=0 turns its worker off; another replica's still delivers). */
  notifyWorker: boolean;
  /** How often the worker looks for work, in ms (NOTIFY_TICK_MS, 500). */
  notifyTickMs: number;
  /** The first retry's delay in ms (NOTIFY_RETRY_BASE_MS, 5000); it doubles per attempt up to NOTIFY_RETRY_MAX_MS (300000), with jitter. */
  notifyRetryBaseMs: number;
  notifyRetryMaxMs: number;
  /** Attempts before a notification is marked failed (NOTIFY_MAX_ATTEMPTS, 10). */
  notifyMaxAttempts: number;
  /** Storm control: a recipient gets at most 2 messages per this many seconds, the rest in one digest (NOTIFY_DIGEST_SECONDS, 60). */
  notifyDigestSeconds: number;
  /** A worker that has not finished a claimed message within this many seconds leaves it to another (NOTIFY_LEASE_SECONDS, 60). */
  notifyLeaseSeconds: number;
  /** Folder of uploaded firmware files; empty: beside the embedded database (DATA_DIR/../firmware), or a temp folder for memory://. */
  firmwareDir: string;
  /** Folder of backups (BACKUP_DIR; empty: a `backups` folder beside the embedded database, ./data/backups by default). */
  backupDir: string;
  /** Largest firmware file accepted, in bytes (FIRMWARE_MAX_MB, 512 by default). */
  firmwareMaxBytes: number;
  /**
   * The device list counts the matches of a filter exactly up to this many (DEVICE_LIST_EXACT_COUNT_MAX,
   * 1000 by default); past it the total is an estimate, flagged totalEstimated.
   */
  deviceListExactCountMax: number;
  /**
   * Days of hourly report rollups kept (ROLLUP_RETENTION_DAYS, 400 by default; 0 keeps them for ever).
   * Never fewer than the reports' own retention (monitor_settings.retention_days, set by an admin).
   */
  rollupRetentionDays: number;
  /**
   * "Degradation ahead" (src/domain/degradeAhead.ts): a cell is poor for a satellite when its
   * locked share is under DEGRADE_LOCKED_BELOW percent (70) or its median SNR under
   * DEGRADE_SNR_BELOW dB (6).
   */
  degradeLockedBelowPct: number;
  degradeSnrBelowDb: number;
  /** Rows deleted per statement by the hourly pruning (RETENTION_BATCH, 5000 by default). */
  retentionBatchSize: number;
  /**
   * The embedded database: each statement or transaction that holds it this many milliseconds or
   * longer is logged as a warning, with its text but not its values (DB_SLOW_MS; 0, the default, logs none).
   */
  dbSlowMs: number;
  /** The devices' MQTT link (docs/devices.md); MQTT=0 turns it off (devices then report over HTTP only). */
  mqtt: boolean;
  /** External broker (MQTT_URL, e.g. mqtt://user:pass@broker:1883); empty: the embedded Aedes broker. */
  mqttUrl: string;
  /** Embedded broker's address (MQTT_HOST, 0.0.0.0) and port (MQTT_PORT, 1884; 0 picks a free port, as tests do). */
  mqttHost: string;
  mqttPort: number;
  /** First level of every device topic (MQTT_TOPIC_ROOT, "fleet"): fleet/{deviceNum}/report... */
  mqttTopicRoot: string;
  /**
   * Shared secret of the broker auth endpoints deviceModule/mqtt/auth and /acl (MQTT_AUTH_SECRET);
   * empty turns them off. It is also the password of the server's own account (mqttServerUser).
   */
  mqttAuthSecret: string;
  /** The server's own account name on an external broker, answered as superuser by mqtt/auth (MQTT_SERVER_USER). */
  mqttServerUser: string;
  /**
   * External broker: the stem of this replica's client ids (MQTT_CLIENT_ID; hostname-based by
   * default; keep it stable per replica so its persistent sessions survive restarts).
   */
  mqttClientId: string;
  /** External broker: connections of this replica in the shared subscription (MQTT_SHARED_CLIENTS, 32). */
  mqttSharedClients: number;
  /** External broker: the shared-subscription group all replicas join (MQTT_SHARE_GROUP, fleet-console). */
  mqttShareGroup: string;
  /**
   * Largest report payload over MQTT, in bytes (MQTT_MAX_REPORT_BYTES; HTTP ingest's body limit, 4 MB, by default).
   * The embedded broker cuts a connection whose PUBLISH announces more (plus 1 KB for its topic); through an
   * external broker a larger report is refused on report/error (docs/devices.md, "Limits").
   */
  mqttMaxReportBytes: number;
  /** Embedded broker: largest CONNECT, and largest packet other than PUBLISH, in bytes (MQTT_MAX_CONNECT_BYTES, 4096). */
  mqttMaxConnectBytes: number;
  /** Embedded broker: a connection whose CONNECT has not arrived after this long is closed (MQTT_CONNECT_TIMEOUT_MS, 10000). */
  mqttConnectTimeoutMs: number;
  /** Embedded broker: connections waiting to authenticate at once; more are closed at once (MQTT_MAX_PENDING_CONNECTIONS, 200). */
  mqttMaxPendingConnections: number;
  /**
   * GET /metrics (Prometheus) needs `Authorization: Bearer <this>` (METRICS_TOKEN; empty: no token asked).
   * With neither METRICS_TOKEN nor METRICS_PORT set, metrics are off: nothing is collected and /metrics answers 404.
   */
  metricsToken: string;
  /** /metrics is served on this port only, not on PORT (METRICS_PORT; null: unset; 0 picks a free port, as tests do). */
  metricsPort: number | null;
  /** Address of the METRICS_PORT listener (METRICS_HOST, 127.0.0.1: this machine only; 0.0.0.0 for a Prometheus elsewhere). */
  metricsHost: string;
}

const int = (value: string | undefined, fallback: number): number => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : fallback;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const production = env.NODE_ENV === 'production';
  return {
    host: env.HOST ?? '0.0.0.0',
    port: int(env.PORT, 8080),
    databaseUrl: env.DATABASE_URL ?? '',
    dataDir: env.DATA_DIR ?? './data/pglite',
    production,
    apiSegment: env.API_SEGMENT ?? apiSegmentFor(production),
    sessionIdleMinutes: int(env.SESSION_IDLE_MINUTES, 120),
    loginMaxFailures: int(env.LOGIN_MAX_FAILURES, 5),
    loginNameMaxFailures: int(env.LOGIN_NAME_MAX_FAILURES, 50),
    loginLockMinutes: int(env.LOGIN_LOCK_MINUTES, 5),
    seedDemo: env.SEED_DEMO !== '0',
    consoleDir: env.CONSOLE_DIR ?? './dist',
    logLevel: env.LOG_LEVEL ?? 'warn',
    frameAncestors: env.FRAME_ANCESTORS?.trim() || "'none'",
    cameraSources: env.CSP_CAMERA_SOURCES?.trim() || 'https: http:',
    firmwareDir: env.FIRMWARE_DIR ?? '',
    backupDir: env.BACKUP_DIR ?? '',
    notifyAllowPrivateTargets: env.NOTIFY_ALLOW_PRIVATE_TARGETS === '1',
    telegramApiBase: env.TELEGRAM_API_BASE?.trim() || 'https://api.telegram.org',
    publicUrl: (env.PUBLIC_URL?.trim() || `http://localhost:${int(env.PORT, 8080)}`).replace(/\/+$/, ''),
    notifyWorker: env.NOTIFY_WORKER !== '0',
    notifyTickMs: Math.max(50, int(env.NOTIFY_TICK_MS, 500)),
    notifyRetryBaseMs: Math.max(10, int(env.NOTIFY_RETRY_BASE_MS, 5000)),
    notifyRetryMaxMs: Math.max(10, int(env.NOTIFY_RETRY_MAX_MS, 300_000)),
    notifyMaxAttempts: Math.max(1, int(env.NOTIFY_MAX_ATTEMPTS, 10)),
    notifyDigestSeconds: Math.max(0, int(env.NOTIFY_DIGEST_SECONDS, 60)),
    notifyLeaseSeconds: Math.max(5, int(env.NOTIFY_LEASE_SECONDS, 60)),
    firmwareMaxBytes: Math.round(
      (Number.parseFloat(env.FIRMWARE_MAX_MB ?? '') > 0 ? Number.parseFloat(env.FIRMWARE_MAX_MB!) : FIRMWARE_DEFAULT_MAX_MB) * 1024 * 1024,
    ),
    deviceListExactCountMax: Math.max(0, int(env.DEVICE_LIST_EXACT_COUNT_MAX, 1000)),
    rollupRetentionDays: Math.max(0, int(env.ROLLUP_RETENTION_DAYS, 400)),
    retentionBatchSize: Math.max(100, int(env.RETENTION_BATCH, 5000)),
    dbSlowMs: Math.max(0, int(env.DB_SLOW_MS, 0)),
    degradeLockedBelowPct: Math.min(100, Math.max(0, int(env.DEGRADE_LOCKED_BELOW, DEGRADE_DEFAULTS.lockedBelowPct))),
    degradeSnrBelowDb: Math.min(30, Math.max(-5, int(env.DEGRADE_SNR_BELOW, DEGRADE_DEFAULTS.snrBelowDb))),
    mqtt: env.MQTT !== '0',
    mqttUrl: env.MQTT_URL ?? '',
    mqttHost: env.MQTT_HOST ?? '0.0.0.0',
    // 1884, not 1883: a Mosquitto on the same machine usually owns 1883.
    mqttPort: int(env.MQTT_PORT, 1884),
    mqttTopicRoot: env.MQTT_TOPIC_ROOT || 'fleet',
    mqttAuthSecret: env.MQTT_AUTH_SECRET ?? '',
    mqttServerUser: env.MQTT_SERVER_USER || 'fleet-console-server',
    mqttClientId: env.MQTT_CLIENT_ID || `fleet-console-${hostname()}-${int(env.PORT, 8080)}`,
    mqttSharedClients: Math.min(256, Math.max(1, int(env.MQTT_SHARED_CLIENTS, 32))),
    mqttShareGroup: env.MQTT_SHARE_GROUP || 'fleet-console',
    mqttMaxReportBytes: Math.max(1024, int(env.MQTT_MAX_REPORT_BYTES, MAX_REPORT_BODY_BYTES)),
    mqttMaxConnectBytes: Math.max(256, int(env.MQTT_MAX_CONNECT_BYTES, 4096)),
    mqttConnectTimeoutMs: Math.max(100, int(env.MQTT_CONNECT_TIMEOUT_MS, 10_000)),
    mqttMaxPendingConnections: Math.max(1, int(env.MQTT_MAX_PENDING_CONNECTIONS, 200)),
    metricsToken: env.METRICS_TOKEN?.trim() ?? '',
    metricsPort: env.METRICS_PORT?.trim() ? int(env.METRICS_PORT, 0) : null,
    metricsHost: env.METRICS_HOST?.trim() || '127.0.0.1',
    ...overrides,
  };
}
