import autocannon from 'autocannon';
import { BELL_QUERY } from '../src/api/bellQuery';
import { consoleCalls } from './consoleCalls';

/**
 * One load run in its own process (so the load does not share the server's CPU), started by
 * bench/ingest.ts. argv: JSON options. Prints one JSON line with the figures.
 */
interface LoadOptions {
  /** console: the tokens' users poll the bell, the status monitor, the device list and the counts in turn. */
  mode: 'single' | 'batch' | 'alarm' | 'console';
  apiBase: string;
  seconds: number;
  connections: number;
  devices: number;
  numPrefix: string;
  secret: string;
  batchSize?: number;
  token?: string;
  /** Requests per second across connections (alarm mode under load). */
  rate?: number;
  /** Device time of the first round (ms); 20 days ago by default. Runs that follow each other pass later times. */
  from?: number;
  /** console mode: one token per console user. */
  tokens?: string[];
  /** alarm mode: the console's bell poll (one device asked for), or the bare body of docs/requirements.md §7 (every device in alarm). */
  alarmBody?: 'bell' | 'spec';
  /** Reports carry three links (GEO, LEO, 4G); the traffic moves from GEO to LEO and back every 30 rounds. */
  links?: boolean;
}
const o = JSON.parse(process.argv[2]!) as LoadOptions;
const start = o.from ?? Date.now() - 20 * 86_400_000;
let counter = 0;
let refused = 0;
const reportAt = (t: number) => ({
  deviceTime: new Date(t).toISOString(),
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
  faults: counter % 50 === 0 ? ['E05'] : [],
  firmware: { adu: 'V2.1.3', bdu: 'V1.0.9' },
  ...(o.links ? { links: linksAt(t) } : {}),
});
function linksAt(t: number) {
  const geoUp = Math.floor((t - start) / 30_000) % 2 === 0;
  return [
    {
      id: 'vsat1',
      kind: 'geo',
      state: geoUp ? 'up' : 'down',
      active: geoUp,
      latencyMs: 610,
      downMbps: 6.5,
      upMbps: 1.2,
      signal: 71,
      snr: 11.2,
    },
    {
      id: 'leo1',
      kind: 'leo',
      state: geoUp ? 'standby' : 'up',
      active: !geoUp,
      latencyMs: 38,
      downMbps: 190,
      upMbps: 22,
      obstructionPct: 3,
    },
    { id: 'lte1', kind: 'cellular', state: 'down', active: false },
  ];
}
const deviceNum = (i: number) =>
  `${o.numPrefix}${i
    .toString(16)
    .toUpperCase()
    .padStart(8 - o.numPrefix.length, '0')}`;

function setupIngest(request: Record<string, unknown>) {
  const n = counter++;
  const device = n % o.devices;
  const round = Math.floor(n / o.devices);
  const size = o.mode === 'batch' ? (o.batchSize ?? 100) : 1;
  const t0 = start + round * size * 1000;
  const body = size === 1 ? reportAt(t0) : { reports: Array.from({ length: size }, (_, i) => reportAt(t0 + i * 1000)) };
  return {
    ...request,
    method: 'POST',
    path: new URL(`${o.apiBase}/deviceModule/ingest/report`).pathname,
    headers: { 'content-type': 'application/json', 'x-device-num': deviceNum(device), 'x-device-secret': o.secret },
    body: JSON.stringify(body),
  };
}

const onResponse = (_status: number, body: string) => {
  if (!body.startsWith('{"code":0')) refused += 1;
};

const base = new URL(o.apiBase).pathname;
const alarmPath = `${base}/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition?token=${o.token}`;
const json = { 'content-type': 'application/json' };
const CONSOLE_CALLS = consoleCalls(base);
function setupConsole(request: Record<string, unknown>) {
  const n = counter++;
  const tokens = o.tokens ?? [];
  return { ...request, ...CONSOLE_CALLS[n % CONSOLE_CALLS.length]!.call(tokens[Math.floor(n / CONSOLE_CALLS.length) % tokens.length]!) };
}
/** Every call's time, counted in 10 ms steps: a run's percentiles over several loads (bench:soak's minutes) are read from their sum. */
const steps: Record<number, number> = {};
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon(
    {
      url: new URL(o.apiBase).origin,
      connections: o.connections,
      duration: o.seconds,
      ...(o.rate ? { overallRate: o.rate } : {}),
      requests: [
        o.mode === 'alarm'
          ? {
              method: 'POST',
              path: alarmPath,
              headers: json,
              onResponse,
              body: JSON.stringify(
                o.alarmBody === 'spec' ? { deviceStatus: [2], deviceType: [], ownerSubId: [], ownerId: [] } : BELL_QUERY,
              ),
            }
          : { setupRequest: (o.mode === 'console' ? setupConsole : setupIngest) as never, onResponse },
      ],
    },
    (error, result) => (error ? reject(error) : resolve(result)),
  );
  instance.on('response', (_client, _status, _bytes, ms) => {
    const step = Math.floor(ms / 10);
    steps[step] = (steps[step] ?? 0) + 1;
  });
});
console.log(
  JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    refused,
    steps,
  }),
);
