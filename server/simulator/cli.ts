import { parseArgs } from 'node:util';
import { provisionOverHttp } from './provisionOverHttp';
import { startSimulator } from './simulator';

/**
 * npm run simulate -- --vessels 50 --seed 1 --url http://localhost:8080 [--segment test]
 *   [--interval 10] [--user admin --password admin123] [--owner oceanic]
 *   [--transport http|mqtt] [--mqtt-url mqtt://localhost:1884] [--topic-root fleet]
 * Creates and activates the simulator's own vessels on that server, then reports every interval,
 * over HTTP or over MQTT (one client per vessel, which then also obeys commands).
 */
const { values } = parseArgs({
  options: {
    vessels: { type: 'string', default: '50' },
    seed: { type: 'string', default: '1' },
    url: { type: 'string', default: 'http://localhost:8080' },
    segment: { type: 'string', default: process.env.API_SEGMENT ?? 'test' },
    interval: { type: 'string', default: '10' },
    user: { type: 'string', default: 'admin' },
    password: { type: 'string', default: 'admin123' },
    owner: { type: 'string' },
    transport: { type: 'string', default: 'http' },
    'mqtt-url': { type: 'string' },
    'topic-root': { type: 'string', default: process.env.MQTT_TOPIC_ROOT ?? 'fleet' },
  },
});
const vessels = Number.parseInt(values.vessels, 10);
const seed = Number.parseInt(values.seed, 10);
const intervalS = Number(values.interval);
const transport = values.transport;
if (!(vessels > 0) || !Number.isFinite(seed) || !(intervalS > 0) || (transport !== 'http' && transport !== 'mqtt')) {
  console.error(
    'usage: npm run simulate -- --vessels 50 --seed 1 --url http://localhost:8080 [--interval 10] [--transport http|mqtt] [--mqtt-url mqtt://localhost:1884]',
  );
  process.exit(2);
}
const apiBase = `${values.url.replace(/\/$/, '')}/cz/${values.segment}`;
console.log(`Provisioning ${vessels} simulated vessels on ${apiBase} ...`);
const devices = await provisionOverHttp({ apiBase, vessels, seed, user: values.user, password: values.password, owner: values.owner });
// The server's embedded broker listens on 1884 of the same host unless told otherwise.
const mqttUrl = values['mqtt-url'] ?? `mqtt://${new URL(values.url).hostname}:1884`;
const sim = startSimulator({
  apiBase,
  devices,
  seed,
  intervalMs: intervalS * 1000,
  concurrency: Math.min(64, Math.max(4, vessels / 50)),
  onError: (m) => console.error(m),
  transport,
  mqttUrl,
  mqttTopicRoot: values['topic-root'],
});
await sim.tickNow();
console.log(
  `Simulating ${vessels} vessels (seed ${seed}) over ${transport === 'mqtt' ? `MQTT (${mqttUrl})` : 'HTTP'}, a report each every ${intervalS} s. Ctrl-C stops.`,
);
const report = setInterval(
  () =>
    console.log(
      `rounds ${sim.stats.ticks}, requests ${sim.stats.requests}, reports ${sim.stats.reports}, refused ${sim.stats.refused}, failed ${sim.stats.failed}`,
    ),
  30_000,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    clearInterval(report);
    void sim.stop().then(() => process.exit(0));
  });
}
