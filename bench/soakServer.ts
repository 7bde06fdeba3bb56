import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { addSoakFleet, startBenchServer } from './benchServer';
import { startBackgroundWork } from '../server/simulator/startDemo';
import { alwaysLeader } from '../server/leader';
import { tableHealth } from '../server/ops/opsQueries';

/**
 * The server of bench:soak, in a process of its own so that the memory it reports is the
 * server's alone. argv: JSON { engine, vessels, users, prefix, secret, password }. It adds the vessels
 * (owned by enterprises, a share of each granted to its sub-users) and the console users, starts
 * the background work (offline sweep, retention; no simulator), prints one JSON line
 * { url, users: [names] }, then answers each "mem" line on stdin with a JSON line of its memory, and
 * each "db" line with the hot tables' live and dead rows and sizes (why an engine slows down).
 */
const o = JSON.parse(process.argv[2]!) as {
  engine: 'pglite' | 'postgres';
  vessels: number;
  users: number;
  prefix: string;
  secret: string;
  password: string;
};
process.env.SIMULATOR = '0';
// PGlite keeps its data in a folder, as the product does: in memory, the stored reports would be counted as the server's memory.
const dataDir = o.engine === 'pglite' ? await mkdtemp(join(tmpdir(), 'soak-pglite-')) : undefined;
const server = await startBenchServer(o.engine, dataDir ? { dataDir } : {});
const users = await addSoakFleet(server.db, o);
const background = await startBackgroundWork(server.app, server.db, server.config, alwaysLeader());
console.log(JSON.stringify({ url: server.url, users }));
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'mem') {
    const m = process.memoryUsage();
    console.log(JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, external: m.external }));
  }
  if (line.trim() === 'db') console.log(JSON.stringify({ tables: await tableHealth(server.db) }));
  if (line.trim() === 'stop') break;
}
await background.stop();
await server.stop();
if (dataDir) await rm(dataDir, { recursive: true, force: true });
process.exit(0);
