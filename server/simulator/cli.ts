import { parseArgs } from 'node:util';
import { provisionOverHttp } from './provisionOverHttp';
import { startSimulator } from './simulator';

/**
 * npm run simulate -- --vessels 50 --seed 1 --url http://localhost:8080 [--segment test]
 *   [--interval 10] [--user admin --password admin123] [--owner oceanic]
 * Creates and activates the simulator's own vessels on that server, then reports every interval.
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
  },
});
const vessels = Number.parseInt(values.vessels, 10);
const seed = Number.parseInt(values.seed, 10);
const intervalS = Number(values.interval);
if (!(vessels > 0) || !Number.isFinite(seed) || !(intervalS > 0)) {
  console.error('usage: npm run simulate -- --vessels 50 --seed 1 --url http://localhost:8080 [--interval 10]');
  process.exit(2);
}
const apiBase = `${values.url.replace(/\/$/, '')}/cz/${values.segment}`;
console.log(`Provisioning ${vessels} simulated vessels on ${apiBase} ...`);
const devices = await provisionOverHttp({ apiBase, vessels, seed, user: values.user, password: values.password, owner: values.owner });
const sim = startSimulator({ apiBase, devices, seed, intervalMs: intervalS * 1000, concurrency: Math.min(64, Math.max(4, vessels / 50)), onError: (m) => console.error(m) });
await sim.tickNow();
console.log(`Simulating ${vessels} vessels (seed ${seed}), a report each every ${intervalS} s. Ctrl-C stops.`);
const report = setInterval(() => console.log(`rounds ${sim.stats.ticks}, requests ${sim.stats.requests}, reports ${sim.stats.reports}, refused ${sim.stats.refused}, failed ${sim.stats.failed}`), 30_000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    clearInterval(report);
    void sim.stop().then(() => process.exit(0));
  });
}
