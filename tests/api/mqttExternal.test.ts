import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MqttClient } from 'mqtt';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { minutesAgo, report, reportingDevice } from './monitoringFixtures';
import { connectDevice, deviceClient, forgetSessions, mosquittoUrl, nextMessage } from './mqttFixtures';
import { openDeviceLink } from '../../server/link/openLink';
import type { AppOptions } from '../../server/app';
import type { ServerConfig } from '../../server/config';
import type { CommandAck } from '../../server/link/deviceLink';

/**
 * The same device link through an external broker (MQTT_URL): Mosquitto at 127.0.0.1:1883, which
 * runs in CI too; when it does not answer these tests are not registered. Mosquitto here allows
 * anonymous clients and has no ACL (the auth endpoints are tested in mqtt.test.ts), so each run
 * takes its own topic root, share group and client ids, and runs in parallel with others.
 */
const external = mosquittoUrl ? engines : [];

/** Settings of a server on Mosquitto, in a namespace of its own; the session ids to forget afterwards. */
function onMosquitto(sharedClients = 3): { overrides: Partial<ServerConfig>; sessions: string[]; root: string } {
  const tag = randomBytes(4).toString('hex');
  const clientId = `test-${tag}`;
  return {
    root: `t${tag}`,
    overrides: {
      mqttUrl: mosquittoUrl,
      mqttTopicRoot: `t${tag}`,
      mqttClientId: clientId,
      mqttShareGroup: `g${tag}`,
      mqttSharedClients: sharedClients,
    },
    sessions: Array.from({ length: sharedClients }, (_, i) => `${clientId}-${i}`),
  };
}

/** Counts the reports a server's link hands to its group-commit writer. */
function countingLink(counter: { reports: number }): AppOptions['openLink'] {
  return (parts) =>
    openDeviceLink({
      ...parts,
      ingest: { write: (device, batch) => parts.ingest.write(device, batch).then((r) => ((counter.reports += batch.length), r)) },
    });
}

describe.each(external)('devices over MQTT through Mosquitto (MQTT_URL), %s', (engine) => {
  let s: TestServer;
  let root: string;
  let device: { id: number; num: string };
  const sessions: string[] = [];
  const clients: MqttClient[] = [];
  const open = async (num: string, options = {}) => {
    const client = await connectDevice(mosquittoUrl, num, undefined, { clientId: `${root}-${num}`, ...options });
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    const setup = onMosquitto();
    root = setup.root;
    sessions.push(...setup.sessions);
    s = await createTestServer(engine, setup.overrides);
    device = await reportingDevice(s.db, 'oceanic', 0);
  });
  afterAll(async () => {
    // The retained status this run left on the shared broker is cleared (an empty retained message).
    await Promise.all(clients.map((c) => c.endAsync(true)));
    const sweeper = await connectDevice(mosquittoUrl, device.num, undefined, { clientId: `${root}-sweeper` });
    await sweeper.publishAsync(`${root}/${device.num}/status`, '', { qos: 1, retain: true });
    await sweeper.endAsync();
    await s?.close();
    await forgetSessions(mosquittoUrl, sessions);
  });
  const rows = async (id: number) =>
    (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1', [id]))[0]!.n;

  it('writes a report published on the broker', async () => {
    expect(s.link.kind).toBe('external');
    const client = await open(device.num);
    const before = await rows(device.id);
    const at = minutesAgo(1);
    await client.publishAsync(`${root}/${device.num}/report`, JSON.stringify(report({ speed: 9 }, at)), { qos: 1 });
    await vi.waitFor(async () => expect(await rows(device.id)).toBe(before + 1), { timeout: 10_000 });
    const [state] = await s.db.query<{ reported_at: Date }>('SELECT reported_at FROM device_state WHERE device_id = $1', [device.id]);
    expect(new Date(state!.reported_at).toISOString()).toBe(at.toISOString());
  });

  it('answers a bad report on report/error and writes nothing, an unknown device too', async () => {
    const client = await open(device.num);
    await client.subscribeAsync(`${root}/${device.num}/report/error`, { qos: 1 });
    const before = await rows(device.id);
    const answer = nextMessage(client, `${root}/${device.num}/report/error`);
    await client.publishAsync(`${root}/${device.num}/report`, JSON.stringify(report({ speed: 99 })), { qos: 1 });
    expect(await answer).toMatchObject({ code: ErrorCode.Validation, data: [{ field: 'speed' }] });
    const stranger = await open('NO-SUCH-DEVICE');
    await stranger.subscribeAsync(`${root}/NO-SUCH-DEVICE/report/error`, { qos: 1 });
    const refused = nextMessage(stranger, `${root}/NO-SUCH-DEVICE/report/error`);
    await stranger.publishAsync(`${root}/NO-SUCH-DEVICE/report`, JSON.stringify(report()), { qos: 1 });
    expect(await refused).toMatchObject({ code: ErrorCode.DeviceAuthFailed, msg: 'Wrong device number or device secret' });
    expect(await rows(device.id)).toBe(before);
  });

  it('follows statuses, delivers a command queued while the device was away, and hands its ack over', async () => {
    const connects: string[] = [];
    const acks: CommandAck[] = [];
    s.link.onConnect((num) => connects.push(num));
    s.link.onCommandAck(async (num, ack) => void (num === device.num && acks.push(ack)));
    const clientId = `${root}-${device.num}-persistent`;
    sessions.push(clientId);
    const will = { topic: `${root}/${device.num}/status`, payload: Buffer.from('offline'), qos: 1 as const, retain: true };
    const first = await connectDevice(mosquittoUrl, device.num, undefined, { clientId, clean: false, will });
    await first.subscribeAsync(`${root}/${device.num}/cmd`, { qos: 1 });
    await first.publishAsync(`${root}/${device.num}/status`, 'online', { qos: 1, retain: true });
    await vi.waitFor(() => expect(s.link.isConnected(device.num)).toBe(true), { timeout: 10_000 });
    expect(connects).toContain(device.num);
    first.stream.destroy(); // gone without a goodbye: the broker publishes its will
    await vi.waitFor(() => expect(s.link.isConnected(device.num)).toBe(false), { timeout: 10_000 });

    await s.link.sendCommand(device.num, { id: 12, kind: 'reboot', params: {} });
    const again = deviceClient(mosquittoUrl, device.num, undefined, { clientId, clean: false, manualConnect: true });
    clients.push(again);
    const command = nextMessage(again, `${root}/${device.num}/cmd`);
    again.connect();
    expect(await command).toMatchObject({ id: 12, kind: 'reboot' });
    await again.publishAsync(`${root}/${device.num}/cmd/ack`, JSON.stringify({ id: 12, ok: true }), { qos: 1 });
    await vi.waitFor(() => expect(acks).toEqual([{ id: 12, ok: true }]), { timeout: 10_000 });
  });
});

describe.each(mosquittoUrl && engines.includes('postgres') ? ['postgres' as const] : [])(
  'two replicas on one %s and one Mosquitto',
  (engine) => {
    const counts = [{ reports: 0 }, { reports: 0 }];
    let a: TestServer;
    let b: TestServer;
    const setup = onMosquitto(2);
    const clients: MqttClient[] = [];
    beforeAll(async () => {
      a = await createTestServer(engine, setup.overrides, { openLink: countingLink(counts[0]!) });
      // The second replica: same schema, same topics and share group, its own client ids.
      b = await createTestServer(
        engine,
        { ...setup.overrides, mqttClientId: `${setup.overrides.mqttClientId}-b` },
        { shareSchemaOf: a, openLink: countingLink(counts[1]!) },
      );
    });
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.endAsync(true)));
      await b?.close();
      await a?.close();
      await forgetSessions(mosquittoUrl, [...setup.sessions, ...setup.sessions.map((id) => id.replace(/-(\d+)$/, '-b-$1'))]);
    });

    it('writes each report once: the shared subscription hands it to one replica', async () => {
      const devices = await Promise.all([0, 1, 2, 3].map((n) => reportingDevice(a.db, 'oceanic', n)));
      const ids = devices.map((d) => d.id);
      const count = async () =>
        (await a.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports WHERE device_id = ANY($1::int[])', [ids]))[0]!.n;
      const before = await count();
      const perDevice = 15;
      await Promise.all(
        devices.map(async (d) => {
          const client = await connectDevice(mosquittoUrl, d.num, undefined, { clientId: `${setup.root}-${d.num}` });
          clients.push(client);
          for (let i = 0; i < perDevice; i++) {
            await client.publishAsync(`${setup.root}/${d.num}/report`, JSON.stringify(report({}, minutesAgo(30 - i))), { qos: 1 });
          }
        }),
      );
      const sent = devices.length * perDevice;
      await vi.waitFor(async () => expect(await count()).toBe(before + sent), { timeout: 20_000 });
      await vi.waitFor(() => expect(counts[0]!.reports + counts[1]!.reports).toBe(sent), { timeout: 5_000 });
      expect(counts[0]!.reports).toBeGreaterThan(0);
      expect(counts[1]!.reports).toBeGreaterThan(0);
    });
  },
);
