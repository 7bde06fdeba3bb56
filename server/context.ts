import type { Db } from './db/connection';
import type { ServerConfig } from './config';

/** What every API module receives. */
export interface ServerContext {
  db: Db;
  config: ServerConfig;
}
