import type { FastifyInstance } from 'fastify';
import { loadConfig, type ServerConfig } from './config';
import { openDb, type Db } from './db/connection';
import { migrate } from './db/migrate';
import { seedDemo } from './db/seed';
import { buildApp } from './app';
import { ensureReportPartitions } from './modules/monitoring/retention';

/** Opens the database, applies migrations, loads demo data on first start, builds the app. */
export async function startServer(overrides: Partial<ServerConfig> = {}): Promise<{ app: FastifyInstance; db: Db; config: ServerConfig; seeded: boolean }> {
  const config = loadConfig(process.env, overrides);
  const db = await openDb(config);
  await migrate(db);
  await ensureReportPartitions(db);
  const seeded = config.seedDemo ? await seedDemo(db) : false;
  const app = await buildApp(config, db);
  app.addHook('onClose', () => db.close());
  return { app, db, config, seeded };
}
