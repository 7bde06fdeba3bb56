import type { FastifyInstance } from 'fastify';
import { loadConfig, type ServerConfig } from './config';
import { openDb, type Db } from './db/connection';
import type { SlowStatement } from './db/slowStatements';
import { migrate } from './db/migrate';
import { seedDemo } from './db/seed';
import { buildApp, type AppOptions } from './app';
import { openDeviceLink } from './link/openLink';
import type { DeviceLink } from './link/deviceLink';
import { ensureReportPartitions } from './modules/monitoring/retentionQueries';
import { ensureTables } from './db/generatedTables';
import { declaredResources } from './resources/declaredResources';

/**
 * Opens the database, applies migrations, loads demo data on first start, builds the app with the
 * device link the settings ask for (server/link/openLink.ts; `options.openLink` replaces it).
 * `options.loadDataDir`: an in-memory PGlite starts from this dump (server/db/connection.ts, openDb).
 */
export async function startServer(
  overrides: Partial<ServerConfig> = {},
  { loadDataDir, ...options }: AppOptions & { loadDataDir?: Blob } = {},
): Promise<{ app: FastifyInstance; db: Db; config: ServerConfig; seeded: boolean; link: DeviceLink }> {
  const config = loadConfig(process.env, overrides);
  // Statements that hold the embedded database DB_SLOW_MS or longer, logged as warnings (before the app's logger exists, to stderr).
  let app: FastifyInstance | undefined;
  const onSlow = (slow: SlowStatement) => (app ? app.log.warn(slow, 'slow statement') : console.warn('slow statement', slow));
  const db = await openDb({ ...config, slowMs: config.dbSlowMs, onSlow, ...(loadDataDir ? { loadDataDir } : {}) });
  await migrate(db);
  // The tables of resources declared as data, made or completed from their declarations (docs/extending.md).
  await ensureTables(
    db,
    (await declaredResources()).map((d) => d.resource),
  );
  await ensureReportPartitions(db);
  const seeded = config.seedDemo ? await seedDemo(db) : false;
  let link: DeviceLink | undefined;
  const openLink = options.openLink ?? openDeviceLink;
  app = await buildApp(config, db, { ...options, openLink: async (parts) => (link = await openLink(parts)) });
  app.addHook('onClose', () => db.close());
  return { app, db, config, seeded, link: link! };
}
