import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MqttClient } from 'mqtt';
import { createTestServer, engines, idOf, type Engine, type TestServer } from './helpers';
import { ingest, minutesAgo, report, uploadData } from './monitoringFixtures';
import { connectDevice, forgetSessions, mosquittoUrl } from './mqttFixtures';

/**
 * Reports of a device that is not activated (anyone may send them: it has no secret yet) are
 * accepted but only kept as awaiting activation (docs/api.md, "POST /ingest/report"; docs/devices.md,
 * "Connecting"): no history, state, status monitor, map, alarm, rollup, data usage or live event;
 * the newest is on the device's page (vessel/getDetail, pendingReport). Once the device is activated,
 * its next report reaches the monitor. Over HTTP, the embedded broker and (when it answers) Mosquitto.
 */
type Send = (s: TestServer, num: string, body: unknown, secret?: string) => Promise<void>;

const overHttp: Send = async (s, num, body, secret = '') => {
  const res = await ingest(s, num, body, secret);
  expect(res.code).toBe(0);
  expect(res.data.unactivated).toBe(secret === '');
};

/** Each server's MQTT clients, ended when it closes. */
const clients = new Map<TestServer, MqttClient[]>();
const remember = (s: TestServer, client: MqttClient) => clients.set(s, [...(clients.get(s) ?? []), client]);

const overEmbedded: Send = async (s, num, body, secret) => {
  const client = await connectDevice(s.link.deviceUrl!, num, secret || undefined);
  remember(s, client);
  // The PUBACK comes after the commit.
  await client.publishAsync(`fleet/${num}/report`, JSON.stringify(body), { qos: 1 });
  await client.endAsync();
};

/** Through Mosquitto: the device's PUBACK is the broker's, so the test waits for the write (the `settled` check). */
const overMosquitto =
  (root: string): Send =>
  async (s, num, body) => {
    const client = await connectDevice(mosquittoUrl, num, undefined, { clientId: `${root}-${num}-${randomBytes(3).toString('hex')}` });
    remember(s, client);
    await client.publishAsync(`${root}/${num}/report`, JSON.stringify(body), { qos: 1 });
  };

const paths: { name: string; engines: Engine[]; send: (root: string) => Send; external?: boolean }[] = [
  { name: 'HTTP ingest', engines, send: () => overHttp },
  { name: 'MQTT, embedded broker', engines, send: () => overEmbedded },
  { name: 'MQTT through Mosquitto', engines: mosquittoUrl ? engines : [], send: overMosquitto, external: true },
];

for (const path of paths) {
  describe.each(path.engines)(`reports of an unactivated device over ${path.name}, %s`, (engine) => {
    let s: TestServer;
    let admin: string;
    let oceanic: string;
    let device: { id: number; num: string };
    const root = `t${randomBytes(4).toString('hex')}`;
    const clientId = `test-${root}`;
    const send = path.send(root);
    beforeAll(async () => {
      s = await createTestServer(
        engine,
        path.external
          ? { mqttUrl: mosquittoUrl, mqttTopicRoot: root, mqttClientId: clientId, mqttShareGroup: `g${root}`, mqttSharedClients: 1 }
          : {},
      );
      admin = await s.login('admin');
      oceanic = await s.login('oceanic');
      // One of oceanic's unactivated demo vessels, as the outside attack used (A1000003).
      [device] = await s.db.query<{ id: number; num: string }>(
        `SELECT d.id, d.device_num AS num FROM devices d JOIN users u ON u.id = d.owner_id
          WHERE u.name = 'oceanic' AND NOT d.activated ORDER BY d.id LIMIT 1`,
      );
    });
    afterAll(async () => {
      await Promise.all((clients.get(s) ?? []).map((c) => c.endAsync(true)));
      await s?.close();
      if (path.external) await forgetSessions(mosquittoUrl, [`${clientId}-0`]);
    });

    const count = async (sql: string) => (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [device.id]))[0]!.n;
    const detail = async () =>
      (await s.call({ method: 'GET', url: `${s.base}/deviceModule/vessel/getDetail?id=${device.id}`, token: oceanic })).data;
    const monitorRow = async () => (await uploadData(s, oceanic, { deviceId: device.id })).data[0];
    /** Waits until the device's pending report has the device time `at` (through Mosquitto the write follows the PUBACK). */
    const pendingAt = (at: Date) =>
      vi.waitFor(async () => expect((await detail()).pendingReport?.report.deviceTime).toBe(at.toISOString()), { timeout: 10_000 });

    it('accepts them, keeps only the newest as awaiting activation, and lets nothing reach a monitor', async () => {
      const liveBefore = await count('live_events WHERE device_id = $1');
      const at = minutesAgo(2);
      const hostile = report({ lat: 31.2, lon: 121.5, modemLock: false, faults: ['E90'], bytesUsed: 123_456 }, at);
      await send(s, device.num, hostile);
      await pendingAt(at);

      const seen = await detail();
      expect(seen.pendingReport).toEqual({
        receivedAt: expect.any(String),
        report: expect.objectContaining({ lat: 31.2, lon: 121.5, faults: ['E90'] }),
      });
      expect(seen.latest).toBeNull();
      expect(seen.status).toBe(0);
      expect(seen.faults).toEqual([]);

      // No history, state, alarm, rollup, data usage or live event.
      for (const table of ['device_reports', 'device_state', 'alarms', 'report_hourly', 'data_usage']) {
        expect(await count(`${table} WHERE device_id = $1`), table).toBe(0);
      }
      expect(await count('live_events WHERE device_id = $1')).toBe(liveBefore);
      // The status monitor and the map (getAllDeviceUploadDataWithCondition), the warn list, the status counts, the alarms.
      expect(await monitorRow()).toMatchObject({ id: device.id, status: 0, reportedAt: null, lat: null, lon: null, faults: [] });
      expect((await uploadData(s, oceanic, { deviceStatus: [2] })).data.map((d: { id: number }) => d.id)).not.toContain(device.id);
      const monitor = await uploadData(s, oceanic, { withTotal: true, search: device.num, deviceStatus: [1, 2] });
      expect(monitor.data).toMatchObject({ total: 0, counts: { total: 1, offline: 1, online: 0, warn: 0 } });
      const alarms = await s.call({ method: 'GET', url: `${s.base}/deviceModule/alarm/getAll?deviceId=${device.id}`, token: oceanic });
      expect(alarms.code).toBe(0);
      expect(JSON.stringify(alarms.data)).not.toContain('E90');
      expect((await s.call({ method: 'GET', url: `${s.base}/deviceModule/monitor/topFaults`, token: oceanic })).data).not.toContainEqual(
        expect.objectContaining({ code: 'E90' }),
      );

      // An older report replaces nothing; a newer one replaces it.
      await send(s, device.num, report({ lat: 1 }, minutesAgo(5)));
      const newer = minutesAgo(1);
      await send(s, device.num, report({ lat: 2 }, newer));
      await pendingAt(newer);
      expect((await detail()).pendingReport.report.lat).toBe(2);
      expect(await count('device_pending_reports WHERE device_id = $1')).toBe(1);
      expect(await count('device_reports WHERE device_id = $1')).toBe(0);
    });

    it('after activation drops the pending report, and the next report reaches the monitor', async () => {
      const activated = await s.call({
        method: 'POST',
        url: `${s.base}/deviceModule/activation/activate`,
        token: admin,
        payload: { id: device.id, ownerId: await idOf(s.db, 'oceanic') },
      });
      expect(activated.code).toBe(0);
      expect((await detail()).pendingReport).toBeNull();
      expect(await count('device_pending_reports WHERE device_id = $1')).toBe(0);

      const at = minutesAgo(0.5);
      // Through Mosquitto the broker authenticates the device itself; elsewhere the new secret proves it.
      await send(s, device.num, report({ faults: ['E90'] }, at), activated.data.secret);
      await vi.waitFor(async () => expect((await monitorRow()).reportedAt).toBe(at.toISOString()), { timeout: 10_000 });
      expect(await monitorRow()).toMatchObject({ status: 2, faults: ['E90'] });
      expect(await count(`alarms WHERE device_id = $1 AND code = 'E90' AND cleared_at IS NULL`)).toBe(1);
      expect((await detail()).pendingReport).toBeNull();
    });
  });
}

describe.each(engines)('a device activated while its connection is open, %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let device: { id: number; num: string };
  beforeAll(async () => {
    s = await createTestServer(engine);
    admin = await s.login('admin');
    [device] = await s.db.query<{ id: number; num: string }>(
      `SELECT d.id, d.device_num AS num FROM devices d JOIN users u ON u.id = d.owner_id
        WHERE u.name = 'oceanic' AND NOT d.activated ORDER BY d.id LIMIT 1`,
    );
  });
  afterAll(async () => {
    await Promise.all((clients.get(s) ?? []).map((c) => c.endAsync(true)));
    await s?.close();
  });
  const count = async (table: string) =>
    (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE device_id = $1`, [device.id]))[0]!.n;
  const deactivate = () => s.call({ method: 'POST', url: `${s.base}/deviceModule/activation/deactivate?id=${device.id}`, token: admin });

  it('stores the reports it sends after the activation on the connection it opened before (nothing is lost)', async () => {
    // Connected with no secret while unactivated: its first report is held as awaiting activation.
    const client = await connectDevice(s.link.deviceUrl!, device.num);
    remember(s, client);
    await client.publishAsync(`fleet/${device.num}/report`, JSON.stringify(report({}, minutesAgo(2))), { qos: 1 });
    expect(await count('device_pending_reports')).toBe(1);
    const ownerId = await idOf(s.db, 'oceanic');
    const activated = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/activation/activate`,
      token: admin,
      payload: { id: device.id, ownerId },
    });
    expect(activated.code).toBe(0);
    // The same connection, opened before the activation, reports again: the report is stored, not held.
    await client.publishAsync(`fleet/${device.num}/report`, JSON.stringify(report({}, minutesAgo(1))), { qos: 1 });
    expect(await count('device_reports')).toBe(1);
    expect(await count('device_pending_reports')).toBe(0);
  });

  // Runs after the test above activated the device.
  it('drops a report awaiting activation when the device is deactivated, so a stale one never comes back', async () => {
    await s.db.query(
      `INSERT INTO device_pending_reports (device_id, device_time, received_at, report) VALUES ($1, now(), now(), '{}'::jsonb)
        ON CONFLICT (device_id) DO NOTHING`,
      [device.id],
    );
    expect((await deactivate()).code).toBe(0);
    expect(await count('device_pending_reports')).toBe(0);
  });
});
