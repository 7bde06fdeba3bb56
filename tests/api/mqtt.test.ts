import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MqttClient } from 'mqtt';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { SECRET, minutesAgo, report, reportingDevice } from './monitoringFixtures';
import { closed, connectDevice, deviceClient, nextMessage } from './mqttFixtures';
import type { CommandAck } from '../../server/link/deviceLink';

describe.each(engines)('devices over MQTT on the embedded broker, %s', (engine) => {
  let s: TestServer;
  let url: string;
  let device: { id: number; num: string };
  let other: { id: number; num: string };
  let unactivated: { id: number; num: string };
  const clients: MqttClient[] = [];
  const open = async (...args: Parameters<typeof connectDevice>) => {
    const client = await connectDevice(...args);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    s = await createTestServer(engine);
    url = s.link.deviceUrl!;
    device = await reportingDevice(s.db, 'oceanic', 0);
    other = await reportingDevice(s.db, 'oceanic', 1);
    unactivated = await reportingDevice(s.db, 'oceanic', 0, false);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await s.close();
  });
  const rows = async (id: number) =>
    s.db.query<{ device_time: Date; unactivated: boolean; speed: number }>(
      'SELECT device_time, unactivated, speed FROM device_reports WHERE device_id = $1 ORDER BY device_time',
      [id],
    );
  const state = async (id: number) =>
    (await s.db.query<{ reported_at: Date; speed: number }>('SELECT reported_at, speed FROM device_state WHERE device_id = $1', [id]))[0];

  it('listens on a free port in tests and says where devices connect', () => {
    expect(s.link.kind).toBe('embedded');
    expect(url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toBe('mqtt://127.0.0.1:1884');
  });

  it('writes a report like HTTP ingest does, and acknowledges it only once it is committed', async () => {
    const client = await open(url, device.num, SECRET);
    const at = minutesAgo(2);
    await client.publishAsync(`fleet/${device.num}/report`, JSON.stringify(report({ speed: 21.5 }, at)), { qos: 1 });
    // No waiting: the PUBACK came after the commit.
    expect((await rows(device.id)).map((r) => new Date(r.device_time).toISOString())).toContain(at.toISOString());
    const latest = await state(device.id);
    expect(new Date(latest!.reported_at).toISOString()).toBe(at.toISOString());
    expect(latest!.speed).toBeCloseTo(21.5);
    // A batch, as over HTTP.
    const batch = [minutesAgo(1.5), minutesAgo(1)].map((t) => report({ speed: 3 }, t));
    await client.publishAsync(`fleet/${device.num}/report`, JSON.stringify({ reports: batch }), { qos: 1 });
    expect((await rows(device.id)).filter((r) => r.speed === 3)).toHaveLength(2);
  });

  it('refuses a wrong password, a missing one, an unknown device and a client id that is not the device number', async () => {
    await expect(connectDevice(url, device.num, 'wrong-secret')).rejects.toMatchObject({ code: 4 });
    await expect(connectDevice(url, device.num)).rejects.toMatchObject({ code: 4 });
    await expect(connectDevice(url, 'NO-SUCH-DEVICE', 'x')).rejects.toMatchObject({ code: 4 });
    await expect(connectDevice(url, device.num, SECRET, { clientId: `${other.num}` })).rejects.toMatchObject({ code: 2 });
  });

  it("closes the connection of a device publishing on another device's topics, every time, and writes nothing", async () => {
    const before = (await rows(other.id)).length;
    for (const topic of [
      `fleet/${other.num}/report`,
      `fleet/${other.num}/status`,
      `fleet/${other.num}/cmd/ack`,
      `fleet/${other.num}/cmd`,
      `fleet/${device.num}/cmd`,
      `fleet/${device.num}/report/error`,
      'fleet/x',
      '$SYS/x',
    ]) {
      for (let i = 0; i < 3; i++) {
        const client = await open(url, device.num, SECRET);
        const gone = closed(client);
        client.publish(topic, JSON.stringify(report({}, minutesAgo(3 + i))), { qos: 1 });
        await gone;
      }
    }
    expect((await rows(other.id)).length).toBe(before);
  });

  it("refuses subscriptions to another device's topics and to wildcards, and grants its own", async () => {
    const client = await open(url, device.num, SECRET);
    for (const topic of [
      `fleet/${other.num}/cmd`,
      `fleet/${other.num}/report`,
      `fleet/${other.num}/report/error`,
      'fleet/+/cmd',
      'fleet/#',
      '#',
      `fleet/${device.num}/report`,
      `$share/g/fleet/${device.num}/cmd`,
    ]) {
      // SUBACK 0x80, which mqtt.js turns into an error; the connection stays.
      for (let i = 0; i < 3; i++) await expect(client.subscribeAsync(topic, { qos: 1 })).rejects.toThrow('Subscribe error');
    }
    expect((await client.subscribeAsync(`fleet/${device.num}/cmd`, { qos: 1 }))[0]!.qos).toBe(1);
    expect((await client.subscribeAsync(`fleet/${device.num}/report/error`, { qos: 1 }))[0]!.qos).toBe(1);
  });

  it('accepts a device that is not activated without a password and keeps its report only as awaiting activation', async () => {
    const client = await open(url, unactivated.num);
    const at = minutesAgo(1);
    await client.publishAsync(`fleet/${unactivated.num}/report`, JSON.stringify(report({}, at)), { qos: 1 });
    expect(await rows(unactivated.id)).toEqual([]);
    const [pending] = await s.db.query<{ device_time: Date }>('SELECT device_time FROM device_pending_reports WHERE device_id = $1', [
      unactivated.id,
    ]);
    expect(new Date(pending!.device_time).toISOString()).toBe(at.toISOString());
  });

  it('answers a bad report on report/error in English and writes nothing', async () => {
    const client = await open(url, device.num, SECRET);
    await client.subscribeAsync(`fleet/${device.num}/report/error`, { qos: 1 });
    const before = (await rows(device.id)).length;
    const cases: [string, number, string][] = [
      ['not json', ErrorCode.BadRequest, 'Malformed request'],
      [JSON.stringify(report({ lat: 100 }, minutesAgo(0.5))), ErrorCode.Validation, 'Latitude must be between -90 and 90'],
      [JSON.stringify({ reports: [] }), ErrorCode.Validation, ''],
    ];
    for (const [payload, code, text] of cases) {
      const answer = nextMessage(client, `fleet/${device.num}/report/error`);
      await client.publishAsync(`fleet/${device.num}/report`, payload, { qos: 1 });
      const error = await answer;
      expect(error.code).toBe(code);
      expect(typeof error.msg).toBe('string');
      expect(JSON.stringify(error)).toContain(text);
    }
    expect((await rows(device.id)).length).toBe(before);
  });

  it('knows which devices can take a command now (connected, cmd subscribed) and tells its onConnect listeners', async () => {
    const seen: string[] = [];
    s.link.onConnect((num) => seen.push(num));
    expect(s.link.isConnected(other.num)).toBe(false);
    const client = await open(url, other.num, SECRET);
    // Connected but not subscribed yet: a command published now would reach nobody.
    expect(s.link.isConnected(other.num)).toBe(false);
    expect(seen).not.toContain(other.num);
    await client.subscribeAsync(`fleet/${other.num}/cmd`, { qos: 1 });
    await vi.waitFor(() => expect(s.link.isConnected(other.num)).toBe(true));
    expect(seen).toContain(other.num);
    await client.endAsync();
    await vi.waitFor(() => expect(s.link.isConnected(other.num)).toBe(false));
  });

  it('queues a command for a device with a persistent session until it reconnects', async () => {
    const options = { clean: false };
    const first = await connectDevice(url, other.num, SECRET, options);
    await first.subscribeAsync(`fleet/${other.num}/cmd`, { qos: 1 });
    await first.endAsync();
    await vi.waitFor(() => expect(s.link.isConnected(other.num)).toBe(false));
    await s.link.sendCommand(other.num, { id: 41, kind: 'reboot', params: {} });
    // Listening before the connection: the queued command comes right after CONNACK.
    const again = deviceClient(url, other.num, SECRET, { ...options, manualConnect: true });
    clients.push(again);
    const command = nextMessage(again, `fleet/${other.num}/cmd`);
    again.connect();
    expect(await command).toMatchObject({ id: 41, kind: 'reboot' });
  });

  it('hands a command ack to the onCommandAck listeners before acknowledging it, and ignores malformed ones', async () => {
    const acks: [string, CommandAck][] = [];
    s.link.onCommandAck(async (num, ack) => {
      await new Promise((r) => setTimeout(r, 20));
      acks.push([num, ack]);
    });
    const client = await open(url, device.num, SECRET);
    await client.publishAsync(`fleet/${device.num}/cmd/ack`, 'garbage', { qos: 1 });
    await client.publishAsync(`fleet/${device.num}/cmd/ack`, JSON.stringify({ id: 'x', ok: true }), { qos: 1 });
    await client.publishAsync(`fleet/${device.num}/cmd/ack`, JSON.stringify({ id: 7, ok: true, message: 'rebooting', data: { at: 1 } }), {
      qos: 1,
    });
    expect(acks).toEqual([[device.num, { id: 7, ok: true, message: 'rebooting', data: { at: 1 } }]]);
  });
});

describe.each(engines)('the auth endpoints an external broker calls, %s', (engine) => {
  let s: TestServer;
  let device: { id: number; num: string };
  let unactivated: { id: number; num: string };
  const BROKER_SECRET = 'broker-shared-secret';
  beforeAll(async () => {
    s = await createTestServer(engine, { mqttAuthSecret: BROKER_SECRET, mqtt: false });
    device = await reportingDevice(s.db, 'oceanic', 0);
    unactivated = await reportingDevice(s.db, 'oceanic', 0, false);
  });
  afterAll(() => s.close());
  const ask = (path: 'auth' | 'acl' | 'superuser', payload: Record<string, unknown>, secret: string | null = BROKER_SECRET) =>
    s.app.inject({
      method: 'POST',
      url: `${s.base}/deviceModule/mqtt/${path}`,
      payload,
      headers: secret === null ? {} : { 'x-mqtt-auth-secret': secret },
    });

  it("answers nobody without the broker's shared secret", async () => {
    for (const secret of [null, '', 'guess']) {
      const res = await ask('auth', { username: device.num, password: SECRET }, secret);
      expect(res.statusCode).toBe(401);
      expect(res.json().result).toBeUndefined();
    }
    const bearer = await s.app.inject({
      method: 'POST',
      url: `${s.base}/deviceModule/mqtt/auth`,
      payload: { username: device.num, password: SECRET },
      headers: { authorization: `Bearer ${BROKER_SECRET}` },
    });
    expect(bearer.json()).toMatchObject({ result: 'allow', ok: true });
  });

  it('lets a device connect with its activation secret, and an unactivated one without', async () => {
    expect((await ask('auth', { username: device.num, password: SECRET, clientid: device.num })).json()).toMatchObject({
      code: 0,
      result: 'allow',
      is_superuser: false,
    });
    expect((await ask('auth', { username: unactivated.num, password: '' })).statusCode).toBe(200);
    for (const body of [
      { username: device.num, password: 'wrong' },
      { username: device.num },
      { username: 'NOPE', password: 'x' },
      { username: device.num, password: SECRET, clientid: 'someone-else' },
    ]) {
      const res = await ask('auth', body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: ErrorCode.DeviceAuthFailed, result: 'deny', ok: false });
    }
  });

  it("applies the device topic rule to publish and subscribe, in each plugin's words", async () => {
    const allowed: [string, unknown][] = [
      [`fleet/${device.num}/report`, 'publish'],
      [`fleet/${device.num}/cmd/ack`, 2],
      [`fleet/${device.num}/status`, '2'],
      [`fleet/${device.num}/cmd`, 'subscribe'],
      [`fleet/${device.num}/cmd`, 4],
      [`fleet/${device.num}/report/error`, 1],
    ];
    for (const [topic, access] of allowed) expect((await ask('acl', { username: device.num, topic, access })).statusCode).toBe(200);
    const refused: [string, unknown][] = [
      ['fleet/OTHER/report', 'publish'],
      ['fleet/OTHER/cmd', 'subscribe'],
      ['fleet/+/cmd', 'subscribe'],
      ['#', 4],
      [`fleet/${device.num}/cmd`, 'publish'],
      [`fleet/${device.num}/report`, 'subscribe'],
      [`fleet/${device.num}/report`, 'delete'],
    ];
    for (const [topic, access] of refused) expect((await ask('acl', { username: device.num, topic, access })).statusCode).toBe(403);
    expect((await ask('acl', { username: device.num, topic: `fleet/${device.num}/report`, action: 'publish' })).statusCode).toBe(200);
  });

  it("knows the server's own account by the shared secret", async () => {
    expect((await ask('auth', { username: 'fleet-console-server', password: BROKER_SECRET })).json()).toMatchObject({
      result: 'allow',
      is_superuser: true,
    });
    expect((await ask('auth', { username: 'fleet-console-server', password: 'nope' })).statusCode).toBe(403);
    expect(
      (await ask('acl', { username: 'fleet-console-server', topic: '$share/fleet-console/fleet/+/report', access: 'subscribe' }))
        .statusCode,
    ).toBe(200);
    expect((await ask('superuser', { username: 'fleet-console-server' })).statusCode).toBe(200);
    expect((await ask('superuser', { username: device.num })).statusCode).toBe(403);
  });
});
