import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createTestServer, type TestServer } from './helpers';
import { issueDemoSecrets } from '../../server/simulator/demoDevices';

/** The demo tells a story on first start (server/db/seedStory.ts). */
describe('demo story seed', () => {
  let server: TestServer;
  beforeAll(async () => {
    const before = process.env.SEED_STORY;
    process.env.SEED_STORY = '1';
    try {
      server = await createTestServer('pglite');
    } finally {
      if (before === undefined) delete process.env.SEED_STORY;
      else process.env.SEED_STORY = before;
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('gives every activated demo vessel a month of reports, the newest 2 days every 10 minutes', async () => {
    const rows = await server.db.query<{ id: number; n: number; days: number; recent: number }>(
      `SELECT d.id, count(r.*)::int AS n, (extract(epoch FROM max(r.device_time) - min(r.device_time)) / 86400)::float8 AS days,
              (count(*) FILTER (WHERE r.device_time > max_t.t - interval '2 days'))::int AS recent
         FROM devices d JOIN device_reports r ON r.device_id = d.id
         JOIN LATERAL (SELECT max(device_time) AS t FROM device_reports WHERE device_id = d.id) max_t ON true
        WHERE d.activated GROUP BY d.id`,
    );
    const [{ activated }] = await server.db.query<{ activated: number }>('SELECT count(*)::int AS activated FROM devices WHERE activated');
    expect(rows.length).toBe(activated);
    for (const r of rows) {
      expect(r.days).toBeGreaterThan(29);
      expect(r.recent).toBeGreaterThan(130); // 288 slots, less the silent spells
    }
  });

  it('raises and clears faults, keeps the latest state, rolls up hours and lists voyages', async () => {
    const [c] = await server.db.query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM alarms WHERE cleared_at IS NOT NULL)::int AS cleared, (SELECT count(*) FROM device_state)::int AS states,
              (SELECT count(*) FROM report_hourly)::int AS hourly, (SELECT count(*) FROM voyages WHERE eta > now() AND etd < now())::int AS underway,
              (SELECT count(DISTINCT round(lon::numeric)) FROM device_state)::int AS places`,
    );
    expect(c!.cleared).toBeGreaterThan(100);
    expect(c!.states).toBeGreaterThan(30);
    expect(c!.hourly).toBeGreaterThan(10_000);
    expect(c!.underway).toBeGreaterThan(30);
    expect(c!.places).toBeGreaterThan(10);
  });

  it('has firmware with a finished and a running rollout, after-sales reports, a camera and extra links', async () => {
    const [c] = await server.db.query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM firmware_packages)::int AS fw,
              (SELECT count(*) FROM firmware_rollouts r WHERE NOT EXISTS (SELECT 1 FROM firmware_rollout_targets t WHERE t.rollout_id = r.id AND t.state NOT IN ('updated', 'failed')))::int AS finished,
              (SELECT count(*) FROM firmware_rollouts r WHERE EXISTS (SELECT 1 FROM firmware_rollout_targets t WHERE t.rollout_id = r.id AND t.state IN ('queued', 'downloading', 'updating')))::int AS running,
              (SELECT count(*) FROM after_sales_reports)::int AS aftersales, (SELECT count(*) FROM cameras)::int AS cameras,
              (SELECT count(*) FROM extra_links)::int AS links`,
    );
    expect(c).toMatchObject({ fw: 4, finished: 1, running: 1 });
    expect(c!.aftersales).toBeGreaterThan(0);
    expect(c!.cameras).toBeGreaterThan(0);
    expect(c!.links).toBe(2);
  });

  it('gives the demo firmware packages real files: a vessel of the running rollout downloads the listed bytes', async () => {
    const packages = await server.db.query<{ key: string }>('SELECT storage_key AS key FROM firmware_packages');
    expect(packages.length).toBe(4);
    for (const p of packages) expect(p.key).toMatch(/^[0-9a-f-]{36}\.bin$/);
    const [target] = await server.db.query<{ num: string; rolloutId: number; size: string; sha256: string }>(
      `SELECT d.device_num AS num, t.rollout_id AS "rolloutId", p.file_size::text AS size, p.sha256
         FROM firmware_rollout_targets t JOIN devices d ON d.id = t.device_id JOIN firmware_rollouts r ON r.id = t.rollout_id
         JOIN firmware_packages p ON p.id = r.firmware_id WHERE t.state = 'downloading' LIMIT 1`,
    );
    const secret = (await issueDemoSecrets(server.db)).find((d) => d.deviceNum === target!.num)!.secret;
    const res = await server.app.inject({
      method: 'GET',
      url: `${server.base}/deviceModule/firmware/device/download?rolloutId=${target!.rolloutId}`,
      headers: { 'x-device-num': target!.num, 'x-device-secret': secret },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(Number(target!.size));
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(target!.sha256);
  });
});
