import { resolve } from 'node:path';
import { startServer } from './start';
import { serveConsole } from './serveConsole';
import { DEMO_ACCOUNTS } from './db/demoAccounts';
import { startBackgroundWork } from './simulator/startDemo';
import { electLeader } from './leader';
import { attachLeader, metricsPortOf } from './ops';

/** A start that cannot go on (data folder not writable, port taken...) ends with one line, not a stack. */
function fail(error: unknown): never {
  const e = error as NodeJS.ErrnoException;
  console.error(
    `Fleet console could not start: ${e.code === 'EADDRINUSE' ? `port ${process.env.PORT ?? 8080} is in use (set PORT)` : e.message}`,
  );
  process.exit(1);
}

/** Starts the reference server: the API under /cz, the built console at /. */
const { app, db, config, seeded, link } = await startServer().catch(fail);
if (!(await serveConsole(app, config))) {
  app.log.warn(`No built console in ${resolve(config.consoleDir)}: run npm run build. The API still answers under /cz.`);
}

await app.listen({ host: config.host, port: config.port }).catch(fail);
const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
const lines = [
  '',
  `Fleet console: http://${shown}:${config.port}/`,
  `API:           http://${shown}:${config.port}/cz/${config.apiSegment}/  (OpenAPI: /cz/${config.apiSegment}/openapi.json)`,
  `Devices:       ${link.deviceUrl ? `MQTT ${link.deviceUrl} (${link.kind === 'embedded' ? 'embedded broker' : 'MQTT_URL'}), and HTTP ingest` : 'HTTP ingest only (MQTT=0)'}`,
  `Database:      ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${resolve(config.dataDir)}`}${seeded ? ' - demo data loaded' : ''}`,
  '',
  'Demo accounts (name / password / level):',
  ...DEMO_ACCOUNTS.map(
    (a) => `  ${a.name.padEnd(12)} ${a.password.padEnd(14)} level ${a.permissionLevel}${a.parent ? ` (sub-user of ${a.parent})` : ''}`,
  ),
  '',
];
console.log(lines.join('\n'));
const metricsPort = metricsPortOf(app);
if (metricsPort !== null) console.log(`Metrics:       http://${config.metricsHost}:${metricsPort}/metrics (METRICS_PORT)\n`);
const leader = await electLeader(config.databaseUrl, { onError: (m) => app.log.warn(m) });
attachLeader(app, leader);
const background = await startBackgroundWork(app, db, config, leader, process.env, link);

/** Requests in flight get this long to finish after SIGTERM/SIGINT before their connections are cut. */
const GRACE_MS = 3000;
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  setTimeout(() => app.server.closeAllConnections(), GRACE_MS).unref();
  setTimeout(() => process.exit(1), GRACE_MS + 1500).unref();
  await background.stop();
  await leader.stop();
  await app.close(); // closes idle keep-alive connections, then the database
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown());
