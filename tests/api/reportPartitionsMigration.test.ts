import { afterEach, describe, expect, it } from 'vitest';
import { emptyDb, engines } from './helpers';
import { migrate } from '../../server/db/migrate';

describe.each(engines)('migration to partitioned reports on %s', (engine) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => drop?.());

  it('keeps every report of an existing install, and the rollup trigger keeps working', async () => {
    const made = await emptyDb(engine);
    drop = made.drop;
    const { db } = made;
    await migrate(db, { before: '017' });
    const [user] = await db.query<{ id: number }>(
      `INSERT INTO users (name, password_hash, permission_level) VALUES ('owner', 'x', '2') RETURNING id`,
    );
    const [device] = await db.query<{ id: number }>(
      `INSERT INTO devices (name, device_sn, owner_id, manufacture_date, device_type, adu_version, bdu_version, manufacture_info, device_model, device_kind)
       VALUES ('v', 'SN1', $1, '2024-01-01', 't', 'V1.0.0', 'V1.0.0', 'm', 'm', 'antenna') RETURNING id`,
      [user!.id],
    );
    const insert = (times: string) =>
      db.query(
        `INSERT INTO device_reports (device_id, device_time, received_at, lat, lon, speed, heading, azimuth, elevation, skew, satellite_name,
              satellite_longitude, signal_level, snr, modem_lock, tx_on)
       SELECT $1, t, now(), 1, 2, 10, 90, 180, 30, 0, 'S', 100, 50, 10, true, true FROM unnest($2::timestamptz[]) t`,
        [device!.id, times],
      );
    // Three hours of reports a minute apart, ending a minute ago, and one report a year ago.
    const recent = Array.from({ length: 180 }, (_, i) => new Date(Date.now() - (i + 1) * 60_000).toISOString());
    await insert(`{${[...recent, new Date(Date.now() - 365 * 86_400_000).toISOString()].join(',')}}`);
    const hourlyBefore = await db.query('SELECT hour_start, reports, covered_us FROM report_hourly ORDER BY hour_start');

    expect(await migrate(db)).toContain('017_report_partitions.sql');
    const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports')) as [{ n: number }];
    expect(n).toBe(181);
    // Months are made back to the oldest report kept, so none lands in the default partition.
    const yearAgo = new Date(Date.now() - 365 * 86_400_000);
    const oldMonth = `device_reports_${yearAgo.getUTCFullYear()}_${String(yearAgo.getUTCMonth() + 1).padStart(2, '0')}`;
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${oldMonth}`))[0]!.n).toBe(1);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports_default'))[0]!.n).toBe(0);
    expect(await db.query('SELECT hour_start, reports, covered_us FROM report_hourly ORDER BY hour_start')).toEqual(hourlyBefore);
    // The hourly trigger moved with the table; the old table is gone.
    await insert(`{${new Date().toISOString()}}`);
    const [hour] = await db.query<{ reports: number }>(
      `SELECT reports FROM report_hourly WHERE hour_start = date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00')`,
    );
    expect(hour?.reports).toBeGreaterThan(0);
    expect((await db.query<{ r: string | null }>(`SELECT to_regclass('device_reports_unpartitioned')::text AS r`))[0]!.r).toBeNull();
    // The foreign key still removes a deleted device's reports.
    await db.query('DELETE FROM devices WHERE id = $1', [device!.id]);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_reports'))[0]!.n).toBe(0);
  });
});
