import { SimFleet, type FleetReports, type SimDevice } from './fleet';
import { startFirmwareAgent, type FirmwareAgentOptions, type RunningFirmwareAgent } from './firmwareAgent';
import { connectVessels } from './mqttTransport';

export interface SimulatorOptions {
  /** The API base, e.g. http://localhost:8080/cz/test */
  apiBase: string;
  devices: readonly SimDevice[];
  seed?: number;
  /** How often every vessel reports (ms); 10 s by default. */
  intervalMs?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  onError?: (message: string) => void;
  /**
   * How reports travel: 'http' (the ingest endpoint, default) or 'mqtt' (one client per vessel on
   * mqttUrl, which also lets vessels take commands; server/simulator/mqttTransport.ts).
   */
  transport?: 'http' | 'mqtt';
  /** The broker for transport 'mqtt', e.g. mqtt://127.0.0.1:1884. */
  mqttUrl?: string;
  /** The server's MQTT_TOPIC_ROOT ('fleet'). */
  mqttTopicRoot?: string;
  /** The vessels also take firmware updates through the device API (false: they do not). */
  firmware?: false | Pick<FirmwareAgentOptions, 'pollMs' | 'stepMs' | 'failureRate'>;
}

export interface SimulatorStats {
  ticks: number;
  requests: number;
  reports: number;
  refused: number;
  failed: number;
  /** The last refusal or failure, as onError was told it. */
  lastError?: string;
}

export interface RunningSimulator {
  stats: SimulatorStats;
  firmware?: RunningFirmwareAgent;
  /** Runs one round now (tests and the CLI's first round). */
  tickNow(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Drives a fleet like real devices, through the real ingest endpoint over HTTP or over MQTT (one
 * client per vessel): each round every vessel that is not offline sends its report (or its
 * buffered batch after an outage).
 */
export function startSimulator(options: SimulatorOptions): RunningSimulator {
  const intervalMs = options.intervalMs ?? 10_000;
  const concurrency = options.concurrency ?? 16;
  const fleet = new SimFleet(options.devices, options.seed ?? 1, Date.now());
  const stats: SimulatorStats = { ticks: 0, requests: 0, reports: 0, refused: 0, failed: 0 };
  const url = `${options.apiBase}/deviceModule/ingest/report`;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const refused = (deviceNum: string, code: number, msg: string) => {
    stats.refused += 1;
    stats.lastError = `${deviceNum}: code ${code} ${msg}`;
    options.onError?.(stats.lastError);
  };
  // Over MQTT a refusal comes later, on the vessel's report/error topic (its reports were counted on the PUBACK).
  const mqttVessels =
    options.transport === 'mqtt'
      ? connectVessels({
          url: options.mqttUrl ?? 'mqtt://127.0.0.1:1884',
          fleet,
          topicRoot: options.mqttTopicRoot,
          onError: options.onError,
          onRefused: (num, error) => refused(num, error.code, error.msg),
        })
      : undefined;
  void mqttVessels?.catch((e: Error) => options.onError?.(`MQTT: ${e.message}`));

  const send = async ({ device, reports }: FleetReports) => {
    stats.requests += 1;
    try {
      if (mqttVessels) {
        await (await mqttVessels).send({ device, reports });
        stats.reports += reports.length;
        return;
      }
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-num': device.deviceNum, 'x-device-secret': device.secret },
        body: JSON.stringify(reports.length === 1 ? reports[0] : { reports }),
        // A request that hangs would hold up every round after it (rounds run one after another).
        signal: AbortSignal.timeout(Math.max(10_000, 3 * intervalMs)),
      });
      const body = (await res.json()) as { code: number; msg: string };
      if (body.code === 0) stats.reports += reports.length;
      else refused(device.deviceNum, body.code, body.msg);
    } catch (error) {
      stats.failed += 1;
      stats.lastError = `${device.deviceNum}: ${(error as Error).message}`;
      options.onError?.(stats.lastError);
    }
  };

  const round = async () => {
    const now = Date.now();
    (await mqttVessels)?.sync(now);
    const batch = fleet.tick(now);
    stats.ticks += 1;
    let next = 0;
    // Over MQTT every vessel has its own connection: all publish at once.
    const lanes = mqttVessels ? batch.length : Math.min(concurrency, batch.length);
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (!stopped && next < batch.length) await send(batch[next++]!);
      }),
    );
  };

  const timer = setInterval(() => {
    running = running.then(round);
  }, intervalMs);
  timer.unref?.();
  const firmware =
    options.firmware === false
      ? undefined
      : startFirmwareAgent({
          apiBase: options.apiBase,
          devices: options.devices,
          seed: options.seed,
          concurrency,
          onError: options.onError,
          ...options.firmware,
        });

  return {
    stats,
    firmware,
    tickNow: () => (running = running.then(round)),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all([running, firmware?.stop()]);
      await (await mqttVessels?.catch(() => undefined))?.stop();
    },
  };
}
