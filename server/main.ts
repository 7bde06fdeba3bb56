import { resolve } from 'node:path';
import { startServer } from './start';
import { serveConsole } from './serveConsole';
import { DEMO_ACCOUNTS } from './db/demoAccounts';
import { startDemoSimulator } from './simulator/startDemo';

/** Starts the reference server: the API under /cz, the built console at /. */
const { app, db, config, seeded } = await startServer();
if (!(await serveConsole(app, config))) {
  app.log.warn(`No built console in ${resolve(config.consoleDir)}: run npm run build. The API still answers under /cz.`);
}

await app.listen({ host: config.host, port: config.port });
const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
const lines = [
  '',
  `Fleet console: http://${shown}:${config.port}/`,
  `API:           http://${shown}:${config.port}/cz/${config.apiSegment}/  (OpenAPI: /cz/${config.apiSegment}/openapi.json)`,
  `Database:      ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${resolve(config.dataDir)}`}${seeded ? ' - demo data loaded' : ''}`,
  '',
  'Demo accounts (name / password / level):',
  ...DEMO_ACCOUNTS.map((a) => `  ${a.name.padEnd(12)} ${a.password.padEnd(14)} level ${a.permissionLevel}${a.parent ? ` (sub-user of ${a.parent})` : ''}`),
  '',
];
console.log(lines.join('\n'));
const simulator = await startDemoSimulator(app, db, config);

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void (simulator?.stop() ?? Promise.resolve()).then(() => app.close()).then(() => process.exit(0)));
