import mqtt, { type MqttClient } from 'mqtt';
import type { CommandAck, DeviceLink, LinkParts } from './deviceLink';
import { createDeviceMessages } from './deviceMessages';
import { parseTopic, topicOf } from './topics';

const CONNECT_TIMEOUT_MS = 15_000;

/**
 * The link through an external broker (MQTT_URL: Mosquitto, EMQX, HiveMQ...). The broker
 * authenticates devices and applies the topic rule, by calling this server's
 * deviceModule/mqtt/auth and /acl (mqttAuthRoutes.ts); this server only listens and publishes.
 *
 * Reports and acks come through a shared subscription ($share/{group}/fleet/+/report): every
 * replica joins the same group, so the broker hands each message to one of them and it is
 * written once. A message is acknowledged to the broker (PUBACK) only after it is committed.
 * mqtt.js handles one message per connection at a time until it is acknowledged, and a broker
 * keeps a few messages in flight per connection (Mosquitto: 20), so each replica opens
 * mqttSharedClients connections: that many reports wait for the group-commit writer together.
 * Each connection has a persistent session (clean: false, a stable client id): what arrives while
 * a replica restarts waits for it.
 *
 * Statuses are not shared: every replica subscribes to all of them on its first connection and
 * knows which devices are connected; onConnect therefore fires on every replica, and its
 * listeners must claim work in the database.
 */
export async function openExternalLink({ config, ingest, devices, metrics }: LinkParts): Promise<DeviceLink> {
  const root = config.mqttTopicRoot;
  const online = new Set<string>();
  const connectListeners: ((deviceNum: string) => void)[] = [];
  const ackListeners: ((deviceNum: string, ack: CommandAck) => Promise<void>)[] = [];
  const clients: MqttClient[] = [];

  const messages = createDeviceMessages({
    devices,
    ingest,
    root,
    ackListeners,
    maxReportBytes: config.mqttMaxReportBytes,
    metrics,
    publish: async (topic, payload) => void (await clients[0]!.publishAsync(topic, payload, { qos: 0 })),
    onStatus(deviceNum, isOnline) {
      if (!isOnline) return void online.delete(deviceNum);
      online.add(deviceNum);
      for (const listener of connectListeners) listener(deviceNum);
    },
  });

  // The server's own account: the one in MQTT_URL, else mqttServerUser with the auth secret (which
  // deviceModule/mqtt/auth answers as superuser), else anonymous.
  const ownAccount =
    new URL(config.mqttUrl).username || !config.mqttAuthSecret ? {} : { username: config.mqttServerUser, password: config.mqttAuthSecret };
  const shared = (kind: string) => `$share/${config.mqttShareGroup}/${root}/+/${kind}`;
  try {
    for (let i = 0; i < config.mqttSharedClients; i++) {
      const client = mqtt.connect(config.mqttUrl, {
        clientId: `${config.mqttClientId}-${i}`,
        clean: false,
        protocolVersion: 4,
        reconnectPeriod: 1000,
        connectTimeout: CONNECT_TIMEOUT_MS,
        ...ownAccount,
      });
      clients.push(client);
      // A message that could not be written now is left unacknowledged and the connection dropped,
      // so the broker sends it again on reconnect.
      const retry = () => client.stream?.destroy();
      client.handleMessage = (packet, callback) => {
        const parsed = parseTopic(root, packet.topic);
        if (!parsed) return callback();
        const handled = messages.handle(parsed.deviceNum, parsed.kind, packet.payload as Buffer);
        const sendPacket = (client as unknown as { _sendPacket?: (p: object, cb: () => void) => void })._sendPacket;
        if (packet.qos !== 1 || typeof sendPacket !== 'function') return void handled.then(() => callback(), retry);
        // mqtt.js sends the PUBACK when the callback runs, and reads the connection's next message
        // only then: one report per connection at a time. Pipelined instead: the callback gets an
        // error (mqtt.js then skips its PUBACK and goes on with the next message) and the PUBACK is
        // sent here after the commit, on the same connection only. The broker's in-flight window
        // (Mosquitto: 20 per connection) bounds what waits; _sendPacket is mqtt.js 5's own (pinned).
        const stream = client.stream;
        callback(new Error('acknowledged after the commit'));
        handled.then(() => {
          if (client.stream === stream && client.connected)
            sendPacket.call(client, { cmd: 'puback', messageId: packet.messageId }, () => undefined);
        }, retry);
      };
      client.on('error', () => undefined); // reconnects by itself; a refused login shows in 'connect' never coming
    }
    await Promise.all(
      clients.map(async (client, i) => {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`the MQTT broker at ${redact(config.mqttUrl)} did not answer`)),
            CONNECT_TIMEOUT_MS,
          );
          client.once('connect', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        const topics: Record<string, { qos: 1 }> = { [shared('report')]: { qos: 1 }, [shared('cmd/ack')]: { qos: 1 } };
        if (i === 0) topics[`${root}/+/status`] = { qos: 1 };
        const granted = await client.subscribeAsync(topics);
        if (granted.some((g) => g.qos === 128)) throw new Error(`the MQTT broker at ${redact(config.mqttUrl)} refused the subscriptions`);
      }),
    );
  } catch (error) {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    throw error;
  }

  return {
    kind: 'external',
    deviceUrl: redact(config.mqttUrl),
    async sendCommand(deviceNum, payload) {
      await clients[0]!.publishAsync(topicOf(root, deviceNum, 'cmd'), JSON.stringify(payload), { qos: 1 });
    },
    isConnected: (deviceNum) => online.has(deviceNum),
    onConnect: (listener) => void connectListeners.push(listener),
    onCommandAck: (listener) => void ackListeners.push(listener),
    status: () => ({ listening: clients.some((c) => c.connected), connections: online.size }),
    async close() {
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}

/** The broker URL without its password (logs, deviceUrl). */
function redact(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
