import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/connection';
import { issueDemoSecrets } from './demoDevices';
import { startSimulator, type RunningSimulator } from './simulator';
import { markOfflineDevices, pruneReportHistory } from '../modules/monitoring';

const HOUR_MS = 3_600_000;

/**
 * `npm start` runs the demo fleet (SIMULATOR=0 turns it off; SIMULATOR_SEED, SIMULATOR_INTERVAL_S
 * tune it) over HTTP against the server itself, prunes the report history hourly and marks
 * devices offline in the device list every minute.
 */
export async function startDemoSimulator(app: FastifyInstance, db: Db, config: ServerConfig, env: NodeJS.ProcessEnv = process.env): Promise<RunningSimulator | undefined> {
  const prune = setInterval(() => void pruneReportHistory(db).catch((e: Error) => app.log.warn(e.message)), HOUR_MS);
  prune.unref();
  const offline = setInterval(() => void markOfflineDevices(db).catch((e: Error) => app.log.warn(e.message)), 60_000);
  offline.unref();
  void markOfflineDevices(db).catch(() => undefined);
  if (env.SIMULATOR === '0') return undefined;
  const devices = await issueDemoSecrets(db);
  if (!devices.length) return undefined;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const sim = startSimulator({
    apiBase: `http://127.0.0.1:${port}/cz/${config.apiSegment}`, devices,
    seed: Number(env.SIMULATOR_SEED ?? 1), intervalMs: Number(env.SIMULATOR_INTERVAL_S ?? 10) * 1000,
    onError: (m) => app.log.warn(`simulator: ${m}`),
  });
  void sim.tickNow();
  console.log(`Simulator:     ${devices.length} demo vessels report every ${env.SIMULATOR_INTERVAL_S ?? 10} s (SIMULATOR=0 turns it off)`);
  return sim;
}

