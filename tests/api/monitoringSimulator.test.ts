import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { issueDemoSecrets } from '../../server/simulator/demoDevices';
import { provisionOverHttp, simDeviceNum } from '../../server/simulator/provisionOverHttp';
import { startSimulator } from '../../server/simulator/simulator';
import { uploadData } from './monitoringFixtures';

describe.each(engines)('fleet simulator through the HTTP ingest on %s', (engine) => {
  let s: TestServer;
  let apiBase: string;
  beforeAll(async () => {
    s = await createTestServer(engine);
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    const address = s.app.server.address();
    apiBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${s.base}`;
  });
  afterAll(() => s.close());

  it('drives the activated demo vessels with freshly issued secrets', async () => {
    const devices = await issueDemoSecrets(s.db);
    expect(devices.length).toBeGreaterThan(30);
    const errors: string[] = [];
    const sim = startSimulator({ apiBase, devices, seed: 1, intervalMs: 3_600_000, onError: (m) => errors.push(m) });
    await sim.tickNow();
    await sim.stop();
    expect(errors).toEqual([]);
    expect(sim.stats.reports).toBe(devices.length);
    const admin = await s.login('admin');
    const reported = (await uploadData(s, admin, { deviceStatus: [1, 2] })).data;
    expect(reported).toHaveLength(devices.length);
  });

  it('provisions its own vessels over HTTP for the CLI, then reports as them', async () => {
    const devices = await provisionOverHttp({ apiBase, vessels: 3, seed: 4, user: 'admin', password: 'admin123', owner: 'polaris' });
    expect(devices.map((d) => d.deviceNum)).toEqual([0, 1, 2].map((i) => simDeviceNum(4, i)));
    const again = await provisionOverHttp({ apiBase, vessels: 3, seed: 4, user: 'admin', password: 'admin123', owner: 'polaris' });
    expect(again[0]!.secret).not.toBe(devices[0]!.secret);
    const sim = startSimulator({ apiBase, devices: again, seed: 4, intervalMs: 3_600_000 });
    await sim.tickNow();
    await sim.stop();
    expect(sim.stats).toMatchObject({ reports: 3, refused: 0, failed: 0 });
  });
});
