import type { Db } from './db/connection';
import type { ServerConfig } from './config';
import type { IngestWriter } from './modules/monitoring/ingestWriter';
import type { DeviceLink, LinkParts } from './link/deviceLink';
import type { DeviceCache } from './auth/deviceCache';
import type { ServerMetrics } from './ops/metrics';
import type { BackupService } from './ops/backup/backupService';

/** What every API module receives. */
export interface ServerContext {
  db: Db;
  config: ServerConfig;
  /** The one group-commit writer of this server: HTTP ingest and MQTT reports go through it. */
  ingest: IngestWriter;
  /** Devices' credential rows by number, kept fresh by NOTIFY: HTTP and MQTT reports check them without a query. */
  devices: DeviceCache;
  /** The devices' MQTT link (embedded broker or MQTT_URL); commands are published through it. */
  link: DeviceLink;
  /** Prometheus metrics (server/ops/metrics.ts); absent when they are off (neither METRICS_TOKEN nor METRICS_PORT). */
  metrics?: ServerMetrics;
  /** Backups of this server's database (server/ops/backup): asked for, or nightly on the leader. */
  backups: BackupService;
}

/** The parts of the context the device link is opened with (server/link/deviceLink.ts); the link itself comes after. */
export const linkPartsOf = ({ config, ingest, devices, metrics }: Omit<ServerContext, 'link' | 'backups'>): LinkParts => ({
  config,
  ingest,
  devices,
  ...(metrics ? { metrics: metrics.ingest } : {}),
});
