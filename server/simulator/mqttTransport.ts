import mqtt, { type MqttClient } from 'mqtt';
import type { FleetReports, SimDevice, SimFleet } from './fleet';

export interface MqttVesselsOptions {
  /** The broker, e.g. mqtt://127.0.0.1:1884 (the embedded one) or MQTT_URL. */
  url: string;
  fleet: SimFleet;
  /** The topics' first level (the server's MQTT_TOPIC_ROOT). */
  topicRoot?: string;
  /** Clients connecting at once; the next wave starts when these are connected (10,000 vessels do not storm the broker). */
  wave?: number;
  /** Persistent sessions (clean: false), as real terminals: commands sent while away wait for them. True by default. */
  persistent?: boolean;
  /** A report the server refused (its report/error message). */
  onRefused?: (deviceNum: string, error: { code: number; msg: string }) => void;
  onError?: (message: string) => void;
}

export interface MqttVessels {
  /** Publishes a vessel's reports (QoS 1); resolves on the PUBACK. Rejects when the vessel is not connected. */
  send(item: FleetReports): Promise<void>;
  /** Drops the connections of vessels that went silent (outage, reboot) and brings back the others. */
  sync(now: number): void;
  connectedCount(): number;
  stop(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 30_000;

/**
 * The simulator's vessels over MQTT, as terminals speak it: one mqtt.js client per vessel (client
 * id and username its device number, password its activation secret), a last will "offline" on
 * its status topic, "online" (retained) once connected, its cmd topic subscribed: a command makes
 * the vessel obey (SimFleet.obey) and publish the ack on cmd/ack. Clients connect in waves.
 */
export async function connectVessels(o: MqttVesselsOptions): Promise<MqttVessels> {
  const root = o.topicRoot ?? 'fleet';
  const wave = Math.max(1, o.wave ?? 250);
  const clients = new Map<string, MqttClient>();
  let stopped = false;

  const connect = (device: SimDevice): Promise<void> => {
    const num = device.deviceNum;
    const client = mqtt.connect(o.url, {
      clientId: num,
      username: num,
      password: device.secret || undefined,
      protocolVersion: 4,
      clean: o.persistent === false,
      keepalive: 60,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Spread reconnections after a broker restart instead of 10,000 at the same second.
      reconnectPeriod: 2000 + Math.floor(Math.random() * 3000),
      will: { topic: `${root}/${num}/status`, payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    clients.set(num, client);
    // Subscribed first, then "online": a server that sends queued commands when it reads "online"
    // (an external broker) must find the cmd subscription in place (docs/devices.md).
    client.on('connect', () => {
      client.subscribe({ [`${root}/${num}/cmd`]: { qos: 1 }, [`${root}/${num}/report/error`]: { qos: 0 } }, () => {
        client.publish(`${root}/${num}/status`, 'online', { qos: 1, retain: true });
      });
    });
    client.on('message', (topic, payload) => {
      let body: unknown;
      try {
        body = JSON.parse(payload.toString());
      } catch {
        return;
      }
      if (topic.endsWith('/report/error')) return o.onRefused?.(num, body as { code: number; msg: string });
      const command = body as { id: number; kind: string; params?: unknown };
      const ack = o.fleet.obey(num, command, Date.now());
      client.publish(`${root}/${num}/cmd/ack`, JSON.stringify(ack), { qos: 1 });
    });
    client.on('error', (e) => o.onError?.(`${num}: ${e.message}`));
    return new Promise<void>((resolve) => {
      client.once('connect', () => resolve());
      client.once('error', () => resolve());
      client.once('close', () => resolve());
    });
  };

  const devices = o.fleet.devices;
  for (let i = 0; i < devices.length && !stopped; i += wave) {
    await Promise.all(
      devices
        .slice(i, i + wave)
        .filter((d) => !o.fleet.isSilent(d.deviceNum, Date.now()))
        .map(connect),
    );
  }

  return {
    send({ device, reports }) {
      const client = clients.get(device.deviceNum);
      if (!client?.connected) return Promise.reject(new Error('not connected'));
      const body = JSON.stringify(reports.length === 1 ? reports[0] : { reports });
      return client.publishAsync(`${root}/${device.deviceNum}/report`, body, { qos: 1 }).then(() => undefined);
    },
    sync(now) {
      for (const device of devices) {
        const client = clients.get(device.deviceNum);
        const silent = o.fleet.isSilent(device.deviceNum, now);
        if (silent && client) {
          // Power lost: no goodbye, so the broker publishes the will.
          clients.delete(device.deviceNum);
          client.stream?.destroy();
          void client.endAsync(true);
        } else if (!silent && !client && !stopped) {
          void connect(device);
        }
      }
    },
    connectedCount: () => [...clients.values()].filter((c) => c.connected).length,
    async stop() {
      stopped = true;
      // A clean goodbye sends no will: say "offline" first (retained, over the earlier "online").
      await Promise.all(
        [...clients.entries()].map(async ([num, c]) => {
          if (c.connected) await c.publishAsync(`${root}/${num}/status`, 'offline', { qos: 1, retain: true }).catch(() => undefined);
          await c.endAsync();
        }),
      );
      clients.clear();
    },
  };
}
