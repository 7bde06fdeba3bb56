import mqtt, { type MqttClient } from 'mqtt';

/**
 * bench:mqtt's devices, in their own process (so they do not share the server's CPU): one mqtt.js
 * client per device, connected in waves, each publishing a report (QoS 1) every intervalMs with
 * its own phase, so the offered rate is devices / interval. argv: JSON options. Prints one JSON
 * line: when sending started and ended, what was sent and acknowledged, PUBACK latencies.
 */
interface LoadOptions {
  url: string;
  root: string;
  devices: number;
  numPrefix: string;
  secret: string;
  seconds: number;
  intervalMs: number;
  wave: number;
  /** The client id: the device number (the embedded broker requires it), or prefixed to keep runs apart on a shared broker. */
  clientIdPrefix: string;
}
const o = JSON.parse(process.argv[2]!) as LoadOptions;
const deviceNum = (i: number) =>
  `${o.numPrefix}${i
    .toString(16)
    .toUpperCase()
    .padStart(8 - o.numPrefix.length, '0')}`;
const template = {
  lat: 12.5,
  lon: 110.2,
  speed: 15.2,
  heading: 201.5,
  azimuth: 255.1,
  elevation: 61.2,
  skew: 12.3,
  satellite: { name: 'AsiaSat 7', longitude: 105.5 },
  signalLevel: 71,
  snr: 11.2,
  modemLock: true,
  txOn: true,
  lteSignal: null,
  faults: [] as string[],
  firmware: { adu: 'V2.1.3', bdu: 'V1.0.9' },
};

const clients: MqttClient[] = [];
const connectStart = Date.now();
let refused = 0;
let firstProblem = '';
for (let i = 0; i < o.devices; i += o.wave) {
  await Promise.all(
    Array.from({ length: Math.min(o.wave, o.devices - i) }, (_, k) => {
      const num = deviceNum(i + k);
      const client = mqtt.connect(o.url, {
        clientId: `${o.clientIdPrefix}${num}`,
        username: num,
        password: o.secret,
        protocolVersion: 4,
        clean: true,
        keepalive: 120,
        reconnectPeriod: 0,
        connectTimeout: 60_000,
      });
      clients[i + k] = client;
      client.on('message', (_t, payload) => {
        refused += 1; // report/error
        firstProblem ||= payload.toString().slice(0, 300);
      });
      client.on('error', () => undefined);
      return new Promise<void>((resolve) => {
        client.once('connect', () => {
          client.subscribe(`${o.root}/${num}/report/error`, { qos: 0 });
          resolve();
        });
        client.once('close', () => resolve());
      });
    }),
  );
}
const connected = clients.filter((c) => c.connected).length;
const connectMs = Date.now() - connectStart;

const ackMs: number[] = [];
let sent = 0;
let errors = 0;
const startAt = Date.now();
const endAt = startAt + o.seconds * 1000;
/** Device i reports at startAt + phase(i) + k * interval. */
const next = clients.map((_, i) => startAt + Math.floor((i * o.intervalMs) / o.devices));
let cursor = 0;
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const now = Date.now();
    if (now >= endAt) {
      clearInterval(timer);
      return resolve();
    }
    // Devices are due in index order within an interval; walk from where the last tick stopped.
    for (let n = 0; n < o.devices; n++) {
      const i = cursor;
      if (next[i]! > now) break;
      cursor = (cursor + 1) % o.devices;
      next[i] = next[i]! + o.intervalMs;
      const client = clients[i]!;
      if (!client.connected) {
        errors += 1;
        firstProblem ||= 'a device was disconnected';
        continue;
      }
      const at = Date.now();
      sent += 1;
      client
        .publishAsync(`${o.root}/${deviceNum(i)}/report`, JSON.stringify({ deviceTime: new Date(at).toISOString(), ...template }), {
          qos: 1,
        })
        .then(
          () => void ackMs.push(Date.now() - at),
          (e: Error) => {
            errors += 1;
            firstProblem ||= `publish failed: ${e.message}`;
          },
        );
    }
  }, 5);
});
// Let the last PUBACKs come in.
const settle = Date.now() + 5000;
while (ackMs.length + errors < sent && Date.now() < settle) await new Promise((r) => setTimeout(r, 50));
await Promise.all(clients.map((c) => c.endAsync(true)));

ackMs.sort((a, b) => a - b);
const pct = (p: number) => (ackMs.length ? ackMs[Math.min(ackMs.length - 1, Math.floor(ackMs.length * p))]! : NaN);
console.log(
  JSON.stringify({
    connected,
    connectMs,
    startAt,
    endAt,
    sent,
    acked: ackMs.length,
    errors,
    refused,
    firstProblem,
    ackP50: pct(0.5),
    ackP99: pct(0.99),
  }),
);
process.exit(0);
