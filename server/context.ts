import type { Db } from './db/connection';
import type { ServerConfig } from './config';
import type { IngestWriter } from './modules/monitoring/ingestWriter';
import type { DeviceLink, LinkParts } from './link/deviceLink';
import type { DeviceCache } from './auth/deviceCache';

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
}

/** The parts of the context the device link is opened with (server/link/deviceLink.ts); the link itself comes after. */
export const linkPartsOf = ({ config, ingest, devices }: Omit<ServerContext, 'link'>): LinkParts => ({ config, ingest, devices });
