import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { startFirmwareAgent } from '../../server/simulator/firmwareAgent';
import { DEVICE_SECRET, packageFields, updatableDevices, upload } from './firmwareFixtures';

describe.each(engines)('simulated vessels take a rollout through the device API on %s', (engine) => {
  let s: TestServer;
  let apiBase: string;
  let admin: string;
  beforeAll(async () => {
    s = await createTestServer(engine);
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    const address = s.app.server.address();
    apiBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${s.base}`;
    admin = await s.login('admin');
  });
  afterAll(async () => {
    // The fetch client may leave a connection opened but unused (no request yet): Node counts it
    // as busy, so close every connection before closing the server.
    s.app.server.closeAllConnections();
    await s.close();
  });

  const states = async (rolloutId: number) => {
    const res = await s.call({
      method: 'GET',
      url: `${s.base}/deviceModule/firmware/rollout/targets?rolloutId=${rolloutId}&pageSize=100`,
      token: admin,
    });
    return res.data.list.map((t: { state: string }) => t.state).sort();
  };
  const rollOut = async (version: string, deviceIds: number[], maxConcurrent: number) => {
    const firmwareId = (await upload(s, admin, packageFields({ version }), randomBytes(200_000))).data.id;
    const res = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/firmware/rollout/add`,
      token: admin,
      payload: { firmwareId, deviceIds, maxConcurrent },
    });
    return res.data.id as number;
  };

  it('updates every vessel, a slot at a time, until all are updated', async () => {
    const vessels = await updatableDevices(s.db, 3);
    const id = await rollOut(
      'V6.0.0',
      vessels.map((v) => v.id),
      1,
    );
    const errors: string[] = [];
    const agent = startFirmwareAgent({
      apiBase,
      devices: vessels.map((v) => ({ deviceNum: v.num, secret: DEVICE_SECRET })),
      pollMs: 3_600_000,
      stepMs: 0,
      failureRate: 0,
      onError: (m) => errors.push(m),
    });
    for (let round = 1; round <= 3; round += 1) {
      await agent.pollNow();
      await agent.idle();
      expect(await states(id)).toEqual([...Array(round).fill('updated'), ...Array(3 - round).fill('queued')].sort());
    }
    await agent.stop();
    expect(errors).toEqual([]);
    expect(agent.stats).toMatchObject({ updated: 3, failed: 0, bytes: 600_000 });
  });

  it('fails the updates the seed picks, the same way every run', async () => {
    const vessels = await updatableDevices(s.db, 3);
    const id = await rollOut(
      'V6.1.0',
      vessels.map((v) => v.id),
      3,
    );
    const agent = startFirmwareAgent({
      apiBase,
      devices: vessels.map((v) => ({ deviceNum: v.num, secret: DEVICE_SECRET })),
      pollMs: 3_600_000,
      stepMs: 0,
      failureRate: 1,
    });
    await agent.pollNow();
    await agent.stop();
    expect(await states(id)).toEqual(['failed', 'failed', 'failed']);
    const messages = await s.db.query<{ message: string }>(
      'SELECT message FROM firmware_rollout_targets WHERE rollout_id = $1 ORDER BY device_id',
      [id],
    );
    expect(messages.every((m) => /simulated/.test(m.message))).toBe(true);
  });
});
