import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { issueDemoSecrets } from '../../server/simulator/demoDevices';
import { startSimulator } from '../../server/simulator/simulator';
import type { CommandAck } from '../../server/link/deviceLink';

describe.each(engines)('fleet simulator over MQTT (embedded broker) on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer(engine);
  });
  afterAll(() => s.close());

  it('connects one client per vessel, reports through the broker and answers commands with acks', async () => {
    const devices = await issueDemoSecrets(s.db);
    const errors: string[] = [];
    const acks: [string, CommandAck][] = [];
    s.link.onCommandAck(async (num, ack) => void acks.push([num, ack]));
    const sim = startSimulator({
      apiBase: 'http://127.0.0.1:1/unused',
      devices,
      seed: 1,
      intervalMs: 3_600_000,
      firmware: false,
      transport: 'mqtt',
      mqttUrl: s.link.deviceUrl,
      onError: (m) => errors.push(m),
    });
    try {
      await sim.tickNow();
      expect(errors).toEqual([]);
      expect(sim.stats).toMatchObject({ reports: devices.length, refused: 0, failed: 0 });
      const [row] = await s.db.query<{ n: number }>(
        'SELECT count(DISTINCT device_id)::int AS n FROM device_reports WHERE device_id IN (SELECT id FROM devices WHERE device_num = ANY($1::text[]))',
        [devices.map((d) => d.deviceNum)],
      );
      expect(row!.n).toBe(devices.length);
      await vi.waitFor(() => expect(devices.every((d) => s.link.isConnected(d.deviceNum))).toBe(true));

      const target = devices[3]!.deviceNum;
      await s.link.sendCommand(target, { id: 501, kind: 'diagnostics', params: {} });
      await vi.waitFor(() => expect(acks.map(([num, ack]) => [num, ack.id])).toEqual([[target, 501]]));
    } finally {
      await sim.stop();
    }
    // Stopped vessels said goodbye.
    await vi.waitFor(() => expect(devices.some((d) => s.link.isConnected(d.deviceNum))).toBe(false));
  });
});
