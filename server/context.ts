import type { Db } from './db/connection';
import type { ServerConfig } from './config';
import type { IngestWriter } from './modules/monitoring/ingestWriter';
import type { DeviceLink } from './link/deviceLink';

/** What every API module receives. */
export interface ServerContext {
  db: Db;
  config: ServerConfig;
  /** The one group-commit writer of this server: HTTP ingest and MQTT reports go through it. */
  ingest: IngestWriter;
  /** The devices' MQTT link (embedded broker or MQTT_URL); commands are published through it. */
  link: DeviceLink;
}
