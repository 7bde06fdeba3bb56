import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { issueDemoSecrets } from '../../server/simulator/demoDevices';
import { SimFleet } from '../../server/simulator/fleet';
import { connectVessels, type MqttVessels } from '../../server/simulator/mqttTransport';

/**
 * Commands end to end over the embedded broker: the server's delivery, the broker, a simulated
 * vessel that obeys and acks. Prints the figure of the issue's aim (a command to an offline device:
 * delivered within 5 s of its reconnection, acknowledged state shown); it asserts behaviour only.
 */
describe.each(engines)('commands over MQTT (embedded broker) on %s', (engine) => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await createTestServer(engine);
    token = await s.login('admin');
  });
  afterAll(() => s.close());

  it('delivers a command queued while the vessel was offline when it connects, and records its ack', async () => {
    const [device] = await issueDemoSecrets(s.db);
    const [{ id: deviceId }] = (await s.db.query<{ id: number }>('SELECT id FROM devices WHERE device_num = $1', [device!.deviceNum])) as [
      { id: number },
    ];
    const fleet = new SimFleet([device!], 3, Date.now());
    const send = (body: object) => s.call({ method: 'POST', url: `${s.base}/deviceModule/command/add`, token, payload: body });
    const stateOf = async (id: number) => (await s.call({ url: `${s.base}/deviceModule/command/getById?id=${id}`, token })).data;

    // The terminal has been online before (its persistent session holds its cmd subscription), then goes away.
    const before = await connectVessels({ url: s.link.deviceUrl!, fleet });
    await vi.waitFor(() => expect(s.link.isConnected(device!.deviceNum)).toBe(true));
    await before.stop();
    await vi.waitFor(() => expect(s.link.isConnected(device!.deviceNum)).toBe(false));
    const queued = (await send({ deviceId, kind: 'firmwareCheck' })).data;
    const repoint = (await send({ deviceId, kind: 'setInterval', params: { seconds: 30 } })).data;
    expect([queued.state, repoint.state]).toEqual(['queued', 'queued']);

    let vessels: MqttVessels | undefined;
    try {
      const connecting = Date.now();
      vessels = await connectVessels({ url: s.link.deviceUrl!, fleet });
      await vi.waitFor(async () => expect((await stateOf(repoint.id)).state).toBe('acknowledged'), { timeout: 10_000, interval: 20 });
      const shown = Date.now() - connecting;
      const first = await stateOf(queued.id);
      expect(first).toMatchObject({
        state: 'acknowledged',
        result: fleet.obey(device!.deviceNum, { id: 0, kind: 'firmwareCheck' }, Date.now()).data as object,
      });
      expect(Date.parse(first.sentAt)).toBeLessThanOrEqual(Date.parse((await stateOf(repoint.id)).sentAt));
      console.log(`commands over MQTT (${engine}): 2 queued commands acknowledged ${shown} ms after the vessel started connecting`);

      // Connected now: a command goes out at once.
      const now = (await send({ deviceId, kind: 'diagnostics' })).data;
      expect(now.state).toBe('sent');
      await vi.waitFor(async () => expect((await stateOf(now.id)).state).toBe('acknowledged'), { timeout: 10_000, interval: 20 });
      expect((await stateOf(now.id)).result).toMatchObject({ reportIntervalS: 30 });

      // A reboot: acknowledged, then the vessel drops off the broker while it is down; the vessel page
      // says it is rebooting, and the reboot is done only once the vessel is back.
      const detail = async () => (await s.call({ url: `${s.base}/deviceModule/vessel/getDetail?id=${deviceId}`, token })).data;
      const reboot = (await send({ deviceId, kind: 'reboot' })).data;
      await vi.waitFor(async () => expect((await stateOf(reboot.id)).state).toBe('acknowledged'), { timeout: 10_000, interval: 20 });
      const downForS = (await stateOf(reboot.id)).result.downForS as number;
      vessels.sync(Date.now());
      await vi.waitFor(() => expect(s.link.isConnected(device!.deviceNum)).toBe(false), { timeout: 10_000 });
      expect((await detail()).rebooting).toMatchObject({ commandId: reboot.id, downForS });
      await new Promise((r) => setTimeout(r, 300));
      expect(await stateOf(reboot.id)).toMatchObject({ state: 'acknowledged', doneAt: null });
      // Back: the simulator's clock past the vessel's downtime reconnects it.
      vessels.sync(Date.now() + (downForS + 1) * 1000);
      await vi.waitFor(async () => expect((await stateOf(reboot.id)).state).toBe('done'), { timeout: 10_000, interval: 20 });
      const done = await stateOf(reboot.id);
      expect(Date.parse(done.doneAt)).toBeGreaterThan(Date.parse(done.ackedAt));
      expect((await detail()).rebooting).toBeNull();
    } finally {
      await vessels?.stop();
    }
  });

  it('delivers a command queued before a terminal ever connected: it goes out once the terminal has subscribed', async () => {
    const devices = await issueDemoSecrets(s.db);
    const device = devices[1]!;
    const [{ id: deviceId }] = (await s.db.query<{ id: number }>('SELECT id FROM devices WHERE device_num = $1', [device.deviceNum])) as [
      { id: number },
    ];
    const added = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/command/add`,
      token,
      payload: { deviceId, kind: 'diagnostics' },
    });
    expect(added.data.state).toBe('queued');
    const vessels = await connectVessels({ url: s.link.deviceUrl!, fleet: new SimFleet([device], 4, Date.now()) });
    try {
      await vi.waitFor(
        async () =>
          expect((await s.call({ url: `${s.base}/deviceModule/command/getById?id=${added.data.id}`, token })).data.state).toBe(
            'acknowledged',
          ),
        { timeout: 10_000, interval: 20 },
      );
    } finally {
      await vessels.stop();
    }
  });
});
