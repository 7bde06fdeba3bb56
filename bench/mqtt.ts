import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';
import { addBenchVessels, startBenchServer } from './benchServer';
import { openDeviceLink } from '../server/link/openLink';
import type { AppOptions } from '../server/app';
import type { ServerConfig } from '../server/config';
import { sized } from './smoke';

/**
 * bench:mqtt — N simulated devices (10,000 by default) report over MQTT, each on its own
 * connection, on the embedded broker and on Mosquitto (MQTT_URL mode, shared subscription), into
 * PGlite or PostgreSQL (--pg URL). Prints the sustained reports/s committed, and report-to-row
 * latency: from the device's time stamp to the commit of its row, taken in the server process
 * when the group-commit writer resolves (same clock as the devices: one machine). Next to it the
 * reference: the HTTP ingest at the same offered rate (request latency, which also ends at the commit).
 *
 *   npm run bench:mqtt -- [--devices 10000] [--seconds 30] [--interval 3] [--broker embedded|mosquitto|both]
 *                         [--pg postgres://postgres@127.0.0.1:5432/test] [--mosquitto mqtt://127.0.0.1:1883]
 *                         [--shared-clients 32] [--wave 500] [--skip-http]
 * The load's own delays (10,000 clients in one process) count in the latency, as they would for
 * real devices' clocks. Asserts nothing. BENCH_SMOKE=1: 200 devices, 4 s, a report a second, the
 * embedded broker only (bench/smoke.ts).
 */
const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: sized('10000', '200') },
    seconds: { type: 'string', default: sized('30', '4') },
    interval: { type: 'string', default: sized('3', '1') },
    broker: { type: 'string', default: sized('both', 'embedded') },
    pg: { type: 'string' },
    mosquitto: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
    wave: { type: 'string', default: '500' },
    'shared-clients': { type: 'string' },
    'skip-http': { type: 'boolean', default: false },
  },
});
const DEVICES = Number(values.devices);
const SECONDS = Number(values.seconds);
const INTERVAL_MS = Number(values.interval) * 1000;
const SECRET = 'bench-device-secret';
const PREFIX = 'M';
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const MQTT_LOAD = fileURLToPath(new URL('./mqttLoad.ts', import.meta.url));
const HTTP_LOAD = fileURLToPath(new URL('./ingestLoad.ts', import.meta.url));
if (values.pg) process.env.DATABASE_URL = values.pg; // benchServer's PG_URL
const engine = values.pg ? 'postgres' : 'pglite';

function child<T>(script: string, options: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(TSX, [script, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`${script} exited ${code}`)),
    );
  });
}

/** Every report the server's link hands to the writer: when it was committed, and how long after its device time. */
const commits: { at: number; latency: number }[] = [];
const measuringLink: AppOptions['openLink'] = (parts) =>
  openDeviceLink({
    ...parts,
    ingest: {
      write: (device, batch) =>
        parts.ingest.write(device, batch).then((result) => {
          const at = Date.now();
          for (const r of batch) commits.push({ at, latency: at - Date.parse(r.deviceTime) });
          return result;
        }),
    },
  });

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN);

async function forgetSessions(url: string, ids: string[]) {
  await Promise.all(
    ids.map(async (clientId) => {
      const c = mqtt.connect(url, { clientId, clean: true, reconnectPeriod: 0 });
      await new Promise<void>((r) => {
        c.once('connect', () => r());
        c.once('error', () => r());
      });
      await c.endAsync(true);
    }),
  );
}

async function run(broker: 'embedded' | 'mosquitto') {
  const tag = randomBytes(3).toString('hex');
  const root = broker === 'embedded' ? 'fleet' : `bench${tag}`;
  const sharedClients = Number(values['shared-clients'] ?? 32);
  const overrides: Partial<ServerConfig> =
    broker === 'embedded'
      ? { mqttPort: 0, mqttHost: '127.0.0.1' }
      : {
          mqttUrl: values.mosquitto,
          mqttTopicRoot: root,
          mqttClientId: `bench-${tag}`,
          mqttShareGroup: `bench-${tag}`,
          mqttSharedClients: sharedClients,
        };
  commits.length = 0;
  const server = await startBenchServer(engine, overrides, undefined, { openLink: measuringLink });
  try {
    const [{ id: owner }] = (await server.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`)) as [{ id: number }];
    await addBenchVessels(server.db, { prefix: PREFIX, secret: SECRET, count: DEVICES, ownerIds: [owner] });
    const load = await child<{
      connected: number;
      connectMs: number;
      startAt: number;
      endAt: number;
      sent: number;
      acked: number;
      errors: number;
      refused: number;
      firstProblem: string;
      ackP50: number;
      ackP99: number;
    }>(MQTT_LOAD, {
      url: server.link.deviceUrl,
      root,
      devices: DEVICES,
      numPrefix: PREFIX,
      secret: SECRET,
      seconds: SECONDS,
      intervalMs: INTERVAL_MS,
      wave: Number(values.wave),
      clientIdPrefix: broker === 'embedded' ? '' : `${root}-`,
    });
    if (load.firstProblem) console.log(`${broker}: first problem seen by the devices: ${load.firstProblem}`);
    // Let the last reports reach the database.
    const settle = Date.now() + 10_000;
    while (commits.length < load.acked && Date.now() < settle) await new Promise((r) => setTimeout(r, 100));
    // Sustained: after a warm-up of two intervals (every device's first report: its lookup, its first
    // state row) until sending stopped. Latencies of that window; the warm-up's worst is shown apart.
    const from = load.startAt + 2 * INTERVAL_MS;
    const window = commits.filter((c) => c.at >= from && c.at <= load.endAt);
    const latencies = window.map((c) => c.latency).sort((a, b) => a - b);
    const warmupMax = Math.max(0, ...commits.filter((c) => c.at < from).map((c) => c.latency));
    // The second half alone: whether a tail comes from the warm-up's backlog draining or stays.
    const half = window
      .filter((c) => c.at >= (from + load.endAt) / 2)
      .map((c) => c.latency)
      .sort((a, b) => a - b);
    const mqttRow = {
      broker: broker === 'embedded' ? 'embedded (Aedes)' : `Mosquitto, ${sharedClients} shared-subscription connections`,
      path: 'MQTT',
      engine,
      devices: `${load.connected}/${DEVICES}`,
      'connect s': +(load.connectMs / 1000).toFixed(1),
      'offered/s': Math.round(DEVICES / (INTERVAL_MS / 1000)),
      'reports/s': Math.round(window.length / ((load.endAt - from) / 1000)),
      'p50 ms': pct(latencies, 0.5),
      'p99 ms': pct(latencies, 0.99),
      'max ms': latencies[latencies.length - 1] ?? NaN,
      'p99 2nd half ms': pct(half, 0.99),
      'warm-up max ms': warmupMax,
      'sent/written': `${load.sent}/${commits.length}`,
      'refused/failed': load.refused + load.errors,
      'PUBACK p99 ms': load.ackP99,
    };
    const rows: Record<string, unknown>[] = [mqttRow];
    if (!values['skip-http']) {
      // The reference: the HTTP ingest, one report per request, at the same offered rate (request latency ends at the commit too).
      const rate = Math.round(DEVICES / (INTERVAL_MS / 1000));
      const http = await child<{ rps: number; total: number; p50: number; p99: number; errors: number; refused: number }>(HTTP_LOAD, {
        mode: 'single',
        apiBase: server.url,
        seconds: Math.min(SECONDS, 15),
        connections: Math.max(32, Math.ceil(rate / 50)),
        devices: DEVICES,
        numPrefix: PREFIX,
        secret: SECRET,
        rate,
        from: Date.now() + 60_000,
      });
      rows.push({
        broker: '(reference)',
        path: 'HTTP ingest',
        engine,
        devices: DEVICES,
        'offered/s': rate,
        'reports/s': Math.round(http.rps),
        'p50 ms': http.p50,
        'p99 ms': http.p99,
        'refused/failed': http.refused + http.errors,
      });
    }
    return rows;
  } finally {
    await server.stop();
    if (broker === 'mosquitto')
      await forgetSessions(
        values.mosquitto,
        Array.from({ length: sharedClients }, (_, i) => `bench-${tag}-${i}`),
      );
  }
}

const brokers = values.broker === 'both' ? (['embedded', 'mosquitto'] as const) : [values.broker as 'embedded' | 'mosquitto'];
const all: Record<string, unknown>[] = [];
for (const broker of brokers) all.push(...(await run(broker)));
console.log(`\nbench:mqtt — ${DEVICES.toLocaleString('en')} devices, a report each every ${INTERVAL_MS / 1000} s, ${SECONDS} s, ${engine}`);
console.log('p50/p99/max ms: device time stamp to committed row (MQTT; after a warm-up of two intervals), request latency (HTTP)');
console.log(
  "PUBACK p99: the device's own wait (embedded: the commit; Mosquitto: the broker); aim on Mosquitto + PostgreSQL: >= 3,000 reports/s, p99 <= 500 ms",
);
console.table(all);
process.exit(0);
