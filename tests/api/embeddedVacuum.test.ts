import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { vacuumEmbedded } from '../../server/ops/vacuum';
import { tableHealth } from '../../server/ops/opsQueries';
import { until } from './notifyFixtures';

/** The dead rows of one table as the statistics count them. */
async function deadRows(s: TestServer, table: string): Promise<number> {
  const rows = await tableHealth(s.db, 100);
  return Number(rows.find((r) => r.table === table)?.dead ?? 0);
}

describe.each(engines)('the embedded database upkeep on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer(engine);
  });
  afterAll(() => s.close());

  it('vacuums the tables updated in place once their dead rows pile up (PGlite only; PostgreSQL has autovacuum)', async () => {
    // Every vessel has a latest state, rewritten 60 times as 60 rounds of reports do (a new report time: the indexed column, so no in-page reuse).
    await s.db.query(
      `INSERT INTO device_state (device_id, reported_at, received_at, state, lat, lon, speed, heading, satellite_name,
                                 satellite_longitude, signal_level, snr, modem_lock, tx_on)
       SELECT id, now(), now(), 1, 10, 120, 12, 90, 'AsiaSat 7', 105.5, 70, 11, true, true FROM devices ON CONFLICT DO NOTHING`,
    );
    for (let i = 0; i < 60; i++) await s.db.query("UPDATE device_state SET reported_at = reported_at + interval '1 second'");
    const [{ n }] = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_state')) as [{ n: number }];
    expect(n * 60).toBeGreaterThan(1000);
    if (engine === 'postgres') {
      expect(await vacuumEmbedded(s.db)).toEqual([]);
      return;
    }
    await until(async () => (await deadRows(s, 'device_state')) >= 1000, 10_000);
    const vacuumed = await vacuumEmbedded(s.db);
    expect(vacuumed).toContain('device_state');
    await until(async () => (await deadRows(s, 'device_state')) < 100, 10_000);
    // Nothing left to do: the next minute's run vacuums nothing.
    expect(await vacuumEmbedded(s.db)).not.toContain('device_state');
    // The report history (appended, never updated) is never vacuumed by it.
    expect(vacuumed.some((t) => t.startsWith('device_reports'))).toBe(false);
  });
});
