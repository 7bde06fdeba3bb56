import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { MAX_BATCH_REPORTS, MAX_REPORT_BODY_BYTES } from '../../src/domain/reportSchema';
import { SECRET, minutesAgo, report, reportingDevice } from './monitoringFixtures';
import { closed, connectDevice, forgetSessions, mosquittoUrl, nextMessage } from './mqttFixtures';
import type { ServerConfig } from '../../server/config';
import { PacketScanner } from '../../server/link/packetGuard';

/**
 * The limits of the device link (docs/devices.md, "Limits"): packet sizes read from the fixed
 * header before anything is kept, the connect timeout and the cap on connections waiting to
 * authenticate (embedded broker); a report too large or too deeply nested answered on
 * report/error and acknowledged (both brokers).
 */

/** A CONNECT whose fixed header announces 256 MB (remaining length 268,435,455). */
const HUGE_CONNECT = Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]);

const portOf = (s: TestServer) => Number(new URL(s.link.deviceUrl!).port);

/** A raw TCP connection to the embedded broker. */
function rawSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes `first`, then streams 64 KB chunks (as fast as the socket takes them) until the server closes it or `max` bytes are written. */
async function stream(
  port: number,
  first: Buffer,
  max: number,
  giveUpMs = 10_000,
): Promise<{ written: number; ms: number; closedByServer: boolean }> {
  const socket = await rawSocket(port);
  socket.on('error', () => undefined);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const started = performance.now();
  let written = first.length;
  let closedByServer = true;
  const gone = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const timer = setTimeout(() => {
    closedByServer = false;
    socket.destroy();
  }, giveUpMs);
  socket.write(first);
  const pump = () => {
    while (!socket.destroyed && written < max) {
      written += chunk.length;
      if (!socket.write(chunk)) return void socket.once('drain', pump);
    }
  };
  pump();
  await gone;
  clearTimeout(timer);
  return { written, ms: performance.now() - started, closedByServer };
}

/** A JSON object padded with white space to `bytes`. */
function padded(value: object, bytes: number): string {
  const text = JSON.stringify(value);
  expect(text.length).toBeLessThan(bytes);
  return text.slice(0, -1) + ' '.repeat(bytes - text.length) + '}';
}

/** A batch of the most reports allowed, padded with white space to `bytes`. */
const paddedBatch = (bytes: number, minutesBack: number) =>
  padded({ reports: Array.from({ length: MAX_BATCH_REPORTS }, (_, i) => report({ speed: 7 }, minutesAgo(minutesBack + i / 100))) }, bytes);

describe('the packet scanner', () => {
  const limits = { maxConnectBytes: 4096, maxPublishBytes: 8192 };
  it('cuts at the length byte that makes a packet too large, whatever follows', () => {
    expect(new PacketScanner(limits).feed(HUGE_CONNECT)).toMatch(/announces/);
    expect(new PacketScanner(limits).feed(Buffer.from([0x10, 0x81, 0x20]))).toMatch(/announces 4097 bytes/); // 4097 > 4096
    expect(new PacketScanner(limits).feed(Buffer.from([0x30, 0x05]))).toMatch(/first packet/);
  });
  it('follows packets split anywhere, and takes a PUBLISH up to its own limit', () => {
    const scanner = new PacketScanner(limits);
    const connect = Buffer.concat([Buffer.from([0x10, 0x80, 0x20]), Buffer.alloc(4096)]); // exactly 4096
    const publish = Buffer.concat([Buffer.from([0x32, 0x80, 0x40]), Buffer.alloc(8192)]); // exactly 8192
    const all = Buffer.concat([connect, publish, Buffer.from([0xc0, 0x00])]); // and a PINGREQ
    for (let i = 0; i < all.length; i += 7) expect(scanner.feed(all.subarray(i, i + 7))).toBeNull();
    expect(scanner.feed(Buffer.from([0x32, 0x81, 0x40]))).toMatch(/announces 8193 bytes/);
  });
});

describe.each(engines)('limits of the embedded broker, %s', (engine) => {
  let s: TestServer;
  let device: { id: number; num: string };
  const clients: MqttClient[] = [];
  beforeAll(async () => {
    s = await createTestServer(engine);
    device = await reportingDevice(s.db, 'oceanic', 0);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await s.close();
  });
  const rows = async (id: number) =>
    (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1', [id]))[0]!.n;

  it('cuts a connection whose CONNECT announces 256 MB as soon as its header is read, and keeps none of what follows', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const results = await Promise.all([0, 1, 2].map(() => stream(portOf(s), HUGE_CONNECT, 48 * 1024 * 1024)));
    const grown = process.memoryUsage().arrayBuffers - before;
    for (const { closedByServer, ms, written } of results) {
      expect(closedByServer).toBe(true);
      expect(ms).toBeLessThan(3000);
      // What the sender got written before the close sits in the two kernels' socket buffers at most.
      expect(written).toBeLessThan(16 * 1024 * 1024);
    }
    // Unfixed, the broker held every byte until its connect timeout (3 x 48 MB here).
    expect(grown).toBeLessThan(16 * 1024 * 1024);
  });

  it('closes the connection of a device whose PUBLISH is over the limit, and writes nothing of it', async () => {
    const client = await connectDevice(s.link.deviceUrl!, device.num, SECRET);
    clients.push(client);
    const before = await rows(device.id);
    const gone = closed(client);
    client.publish(`fleet/${device.num}/report`, paddedBatch(10 * 1024 * 1024, 300), { qos: 1 });
    await gone;
    expect(await rows(device.id)).toBe(before);
  });

  it('takes the largest legal report (1000 reports in 4 MB, as HTTP takes), and refuses one a little larger on report/error', async () => {
    const client = await connectDevice(s.link.deviceUrl!, device.num, SECRET);
    clients.push(client);
    await client.subscribeAsync(`fleet/${device.num}/report/error`, { qos: 1 });
    const before = await rows(device.id);
    await client.publishAsync(`fleet/${device.num}/report`, paddedBatch(MAX_REPORT_BODY_BYTES, 100), { qos: 1 });
    expect(await rows(device.id)).toBe(before + MAX_BATCH_REPORTS);
    // Over the payload limit but within the packet's room for its topic: refused, acknowledged, the connection kept.
    const answer = nextMessage(client, `fleet/${device.num}/report/error`);
    await client.publishAsync(`fleet/${device.num}/report`, paddedBatch(MAX_REPORT_BODY_BYTES + 100, 200), { qos: 1 });
    expect(await answer).toMatchObject({
      code: ErrorCode.Validation,
      msg: `A report message must not be larger than ${MAX_REPORT_BODY_BYTES} bytes`,
    });
    expect(client.connected).toBe(true);
    expect(await rows(device.id)).toBe(before + MAX_BATCH_REPORTS);
  });

  it('answers a report nested 5,000 deep with code 1 on report/error and acknowledges it', async () => {
    const client = await connectDevice(s.link.deviceUrl!, device.num, SECRET);
    clients.push(client);
    await client.subscribeAsync(`fleet/${device.num}/report/error`, { qos: 1 });
    for (const payload of ['['.repeat(5000) + ']'.repeat(5000), `{"reports":${'['.repeat(20_000)}${']'.repeat(20_000)}}`]) {
      const answer = nextMessage(client, `fleet/${device.num}/report/error`);
      await client.publishAsync(`fleet/${device.num}/report`, payload, { qos: 1 }); // the PUBACK came
      expect(await answer).toMatchObject({ code: ErrorCode.Validation, data: [{ message: 'Invalid value' }] });
      expect(client.connected).toBe(true);
    }
    // And the link goes on: a good report after it is written.
    const before = await rows(device.id);
    await client.publishAsync(`fleet/${device.num}/report`, JSON.stringify(report({}, minutesAgo(1))), { qos: 1 });
    expect(await rows(device.id)).toBe(before + 1);
  });
});

describe('the connect timeout and the cap on connections waiting to authenticate (embedded broker)', () => {
  let s: TestServer;
  let device: { id: number; num: string };
  const sockets: Socket[] = [];
  beforeAll(async () => {
    s = await createTestServer('pglite', { mqttConnectTimeoutMs: 700, mqttMaxPendingConnections: 3 });
    device = await reportingDevice(s.db, 'oceanic', 0);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await s.close();
  });
  const open = async () => {
    const socket = await rawSocket(portOf(s));
    socket.on('error', () => undefined);
    sockets.push(socket);
    return socket;
  };
  const closeTime = (socket: Socket) => {
    const started = performance.now();
    return new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
  };

  it('closes a connection whose CONNECT does not come in time', async () => {
    const silent = await open();
    const ms = await closeTime(silent);
    expect(ms).toBeGreaterThan(500);
    expect(ms).toBeLessThan(3000);
    // A CONNECT begun and never finished: its header passes, the broker's own connect timeout ends it.
    const stalled = await open();
    stalled.write(Buffer.from([0x10, 0x20, 0x00]));
    expect(await closeTime(stalled)).toBeLessThan(4000);
  });

  it('closes at once a connection beyond the cap, and counts a device no longer once it is authenticated', async () => {
    const device1 = await connectDevice(s.link.deviceUrl!, device.num, SECRET); // authenticated: not waiting
    const waiting = [await open(), await open(), await open()];
    const waitingClosed = waiting.map(closeTime);
    const extra = await open();
    expect(await closeTime(extra)).toBeLessThan(300); // closed at once, not at the connect timeout
    expect(device1.connected).toBe(true);
    // The waiting ones go at their connect timeout; then there is room again.
    await Promise.all(waitingClosed);
    const device2 = await connectDevice(s.link.deviceUrl!, device.num, SECRET, { clientId: device.num });
    expect(device2.connected).toBe(true);
    await device2.endAsync(true);
    await device1.endAsync(true);
  });
});

describe.each(mosquittoUrl ? engines : [])('limits through Mosquitto (MQTT_URL), %s', (engine) => {
  let s: TestServer;
  let device: { id: number; num: string };
  const tag = randomBytes(4).toString('hex');
  const root = `t${tag}`;
  const overrides: Partial<ServerConfig> = {
    mqttUrl: mosquittoUrl,
    mqttTopicRoot: root,
    mqttClientId: `test-${tag}`,
    mqttShareGroup: `g${tag}`,
    mqttSharedClients: 2,
    mqttMaxReportBytes: 256 * 1024,
  };
  const clients: MqttClient[] = [];
  beforeAll(async () => {
    s = await createTestServer(engine, overrides);
    device = await reportingDevice(s.db, 'oceanic', 0);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await s?.close();
    await forgetSessions(mosquittoUrl, [`test-${tag}-0`, `test-${tag}-1`]);
  });
  const rows = async (id: number) =>
    (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1', [id]))[0]!.n;
  const open = async () => {
    const client = await connectDevice(mosquittoUrl, device.num, undefined, { clientId: `${root}-${device.num}-${clients.length}` });
    clients.push(client);
    await client.subscribeAsync(`${root}/${device.num}/report/error`, { qos: 1 });
    return client;
  };

  it('refuses a report over MQTT_MAX_REPORT_BYTES on report/error, writes nothing and goes on with the next', async () => {
    const client = await open();
    const before = await rows(device.id);
    const answer = nextMessage(client, `${root}/${device.num}/report/error`);
    await client.publishAsync(`${root}/${device.num}/report`, padded(report({}, minutesAgo(1)), 256 * 1024 + 1), { qos: 1 });
    expect(await answer).toMatchObject({ code: ErrorCode.Validation, msg: `A report message must not be larger than ${256 * 1024} bytes` });
    const next = nextMessage(client, `${root}/${device.num}/report/error`);
    await client.publishAsync(`${root}/${device.num}/report`, JSON.stringify(report({ speed: 99 })), { qos: 1 });
    expect(await next).toMatchObject({ code: ErrorCode.Validation, data: [{ field: 'speed' }] }); // the server still answers
    expect(await rows(device.id)).toBe(before);
  });

  it('answers a report nested 5,000 deep with code 1 on report/error', async () => {
    const client = await open();
    for (const payload of ['['.repeat(5000) + ']'.repeat(5000), `{"reports":${'['.repeat(20_000)}${']'.repeat(20_000)}}`]) {
      const answer = nextMessage(client, `${root}/${device.num}/report/error`);
      await client.publishAsync(`${root}/${device.num}/report`, payload, { qos: 1 });
      expect(await answer).toMatchObject({ code: ErrorCode.Validation, data: [{ message: 'Invalid value' }] });
    }
  });
});
