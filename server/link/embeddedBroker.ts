import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { checkDeviceCredentials, type ReportingDevice } from '../auth/deviceCredentials';
import type { CommandAck, DeviceLink, LinkParts } from './deviceLink';
import { createDeviceMessages } from './deviceMessages';
import { guardPackets, screenConnection } from './packetGuard';
import { deviceMayAccess, parseTopic, topicOf } from './topics';

/** Connect refusals as MQTT 3.1.1 return codes (Aedes' AuthErrorCode is a const enum). */
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
const refusal = (returnCode: number, message: string) => Object.assign(new Error(message), { returnCode }) as AuthenticateError;
/** A PUBLISH holds its topic and packet id besides the report: room for them above mqttMaxReportBytes. */
const TOPIC_ALLOWANCE = 1024;

/**
 * The embedded broker (Aedes, in-process, on config.mqttHost:mqttPort): nothing to install, one
 * server. Devices authenticate with their number and activation secret; the hooks below apply the
 * device rule of topics.ts. The server itself does not connect as a client: it handles device
 * messages inside authorizePublish and publishes commands with broker.publish, so no device rule
 * applies to it.
 *
 * Why authorizePublish and not a subscription: Aedes 1.2 writes a QoS 1 PUBACK before it hands the
 * message to subscribers (lib/handlers/publish.js), while authorizePublish runs before the PUBACK.
 * Handling reports there means a device's report is acknowledged only after its commit; a report
 * that cannot be written now (server busy, database down) closes the connection unacknowledged,
 * and the device sends it again when it reconnects (persistent session, QoS 1).
 *
 * Sessions are kept in Aedes' in-memory persistence: a device that connects with clean: false and
 * subscribed to its cmd topic gets the QoS 1 commands published while it was away (lost if the
 * server restarts; the commands themselves are stored in the database and sent again on connect).
 *
 * Limits before anything is kept (docs/devices.md, "Limits"): a packet's size is read from its
 * fixed header before Aedes sees its bytes (packetGuard.ts), and a connection announcing a CONNECT
 * over mqttMaxConnectBytes or a PUBLISH over mqttMaxReportBytes (+1 KB of topic) is cut at once;
 * a CONNECT must come within mqttConnectTimeoutMs; at most mqttMaxPendingConnections connections
 * wait to authenticate, the next ones are closed as they come.
 */
export async function openEmbeddedLink({ config, ingest, devices, metrics }: LinkParts): Promise<DeviceLink> {
  const root = config.mqttTopicRoot;
  const identities = new WeakMap<Client, { deviceNum: string; device: ReportingDevice }>();
  /** The client of each connected device (a reconnect replaces it before the old one is gone). */
  const connected = new Map<string, Client>();
  const connectListeners: ((deviceNum: string) => void)[] = [];
  const ackListeners: ((deviceNum: string, ack: CommandAck) => Promise<void>)[] = [];
  let broker: Aedes | undefined;
  /** Connections not yet authenticated (the cap of mqttMaxPendingConnections). */
  const pending = new Set<Socket>();

  const publish = (topic: string, payload: string, qos: 0 | 1 = 0) =>
    new Promise<void>((resolve, reject) => {
      if (!broker || broker.closed) return reject(new Error('the MQTT broker is closed'));
      broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  const messages = createDeviceMessages({
    devices,
    ingest,
    root,
    publish,
    ackListeners,
    maxReportBytes: config.mqttMaxReportBytes,
    metrics,
  });

  broker = await Aedes.createBroker({
    connectTimeout: config.mqttConnectTimeoutMs,
    // The username is the device number, the password its activation secret (none before activation).
    // The client id must be the device number: a session (and the commands queued in it) is the device's own.
    authenticate(client, username, password, done) {
      const deviceNum = username ?? '';
      if (!deviceNum || client.id !== deviceNum)
        return done(refusal(IDENTIFIER_REJECTED, 'the client id must be the device number'), false);
      checkDeviceCredentials(devices, deviceNum, password ? password.toString('utf8') : '').then(
        (device) => {
          if (!device) return done(refusal(BAD_USERNAME_OR_PASSWORD, 'wrong device number or secret'), false);
          identities.set(client, { deviceNum, device });
          pending.delete(client.conn as Socket);
          done(null, true);
        },
        () => done(refusal(SERVER_UNAVAILABLE, 'server unavailable'), false),
      );
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null); // the server's own messages
      const identity = identities.get(client);
      if (!identity || !deviceMayAccess(root, identity.deviceNum, packet.topic, 'publish')) {
        return done(new Error(`not authorized to publish on ${packet.topic}`)); // Aedes closes the connection
      }
      const { kind } = parseTopic(root, packet.topic)!;
      // Only a device's status is kept for later subscribers; a retained report would just take memory.
      if (kind !== 'status') packet.retain = false;
      messages.handle(identity.deviceNum, kind, packet.payload, identity.device).then(
        () => done(null),
        (error: Error) => done(error),
      );
    },
    authorizeSubscribe(client, subscription, done) {
      const identity = identities.get(client);
      if (!identity || !deviceMayAccess(root, identity.deviceNum, subscription.topic, 'subscribe')) return done(null, null); // SUBACK 0x80
      done(null, subscription);
    },
  });

  // A device is ready for commands once it is connected and its session holds its cmd
  // subscription: restored from a persistent session (clean: false) or subscribed in this one. A
  // command published before that would find no subscriber and be lost (a first connection
  // subscribes after CONNACK), so onConnect waits for it.
  const cmdSubscribed = new Set<string>();
  const ready = (client: Client, deviceNum: string) => {
    if (connected.get(deviceNum) !== client || !cmdSubscribed.has(deviceNum)) return;
    for (const listener of connectListeners) listener(deviceNum);
  };
  broker.on('clientReady', (client) => {
    const identity = identities.get(client);
    if (!identity) return;
    connected.set(identity.deviceNum, client);
    if (client.clean) cmdSubscribed.delete(identity.deviceNum); // a clean session starts with no subscription
    ready(client, identity.deviceNum);
  });
  broker.on('subscribe', (subscriptions, client) => {
    const identity = client && identities.get(client);
    if (!identity || !subscriptions.some((sub) => sub.topic === topicOf(root, identity.deviceNum, 'cmd'))) return;
    const wasReady = cmdSubscribed.has(identity.deviceNum);
    cmdSubscribed.add(identity.deviceNum);
    if (!wasReady) ready(client, identity.deviceNum);
  });
  broker.on('unsubscribe', (topics, client) => {
    const identity = client && identities.get(client);
    if (identity && topics.includes(topicOf(root, identity.deviceNum, 'cmd'))) cmdSubscribed.delete(identity.deviceNum);
  });
  broker.on('clientDisconnect', (client) => {
    const identity = identities.get(client);
    if (!identity || connected.get(identity.deviceNum) !== client) return;
    connected.delete(identity.deviceNum);
    if (client.clean) cmdSubscribed.delete(identity.deviceNum); // a clean session ends with its connection
  });

  const limits = { maxConnectBytes: config.mqttMaxConnectBytes, maxPublishBytes: config.mqttMaxReportBytes + TOPIC_ALLOWANCE };
  const server = createServer((socket) => {
    socket.on('error', () => undefined); // a reset before Aedes listens must not reach the process
    if (pending.size >= config.mqttMaxPendingConnections) return void socket.destroy();
    pending.add(socket);
    socket.once('close', () => pending.delete(socket));
    // The first bytes are checked before Aedes builds a client for them: a flood of oversized CONNECTs costs little.
    screenConnection(socket, limits, config.mqttConnectTimeoutMs, () => {
      guardPackets(socket, limits);
      broker!.handle(socket);
    });
  });
  const closeBroker = () => new Promise<void>((resolve) => broker!.close(() => resolve()));
  await new Promise<void>((resolve, reject) => {
    // Said in the settings' words (main.ts prints the message; EADDRINUSE alone would name PORT).
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new Error(`MQTT port ${config.mqttPort} is in use (set MQTT_PORT, or MQTT=0 to turn the device link off)`)
          : e,
      ),
    );
    server.listen(config.mqttPort, config.mqttHost, () => resolve());
  }).catch(async (error) => {
    await closeBroker();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.mqttHost === '0.0.0.0' || config.mqttHost === '::' ? '127.0.0.1' : config.mqttHost;

  return {
    kind: 'embedded',
    deviceUrl: `mqtt://${host}:${port}`,
    sendCommand: (deviceNum, payload) => publish(topicOf(root, deviceNum, 'cmd'), JSON.stringify(payload), 1),
    isConnected: (deviceNum) => connected.has(deviceNum) && cmdSubscribed.has(deviceNum),
    onConnect: (listener) => void connectListeners.push(listener),
    onCommandAck: (listener) => void ackListeners.push(listener),
    status: () => ({ listening: server.listening && !broker!.closed, connections: connected.size }),
    async close() {
      await closeBroker();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
