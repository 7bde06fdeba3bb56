import { afterEach, describe, expect, it } from 'vitest';
import { emptyDb, engines } from './helpers';
import { migrate } from '../../server/db/migrate';

/**
 * Migration 020 (docs/api.md, "POST /ingest/report"): what unactivated devices reported before it
 * leaves the monitor: their latest state becomes their report awaiting activation, their history
 * rows marked unactivated go and the hourly rollups of those hours are rebuilt. A device activated
 * since keeps everything.
 */
describe.each(engines)('migration of unactivated reports on %s', (engine) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => drop?.());

  it("moves an unactivated device's state to its pending report and drops its unactivated history", async () => {
    const made = await emptyDb(engine);
    drop = made.drop;
    const { db } = made;
    await migrate(db, { before: '020' });
    const [user] = await db.query<{ id: number }>(
      `INSERT INTO users (name, password_hash, permission_level) VALUES ('owner', 'x', '2') RETURNING id`,
    );
    const device = async (sn: string, activated: boolean) =>
      (
        await db.query<{ id: number }>(
          `INSERT INTO devices (name, device_sn, owner_id, manufacture_date, device_type, adu_version, bdu_version, manufacture_info, device_model,
         device_kind, activated, status)
       VALUES ($2, $2, $1, '2024-01-01', 't', 'V1.0.0', 'V1.0.0', 'm', 'm', 'antenna', $3, 2) RETURNING id`,
          [user!.id, sn, activated],
        )
      )[0]!.id;
    const posed = await device('SN1', false);
    const deactivated = await device('SN2', false);
    const since = await device('SN3', true);
    const hour = Date.UTC(2026, 0, 10, 8);
    const at = (minute: number) => new Date(hour + minute * 60_000).toISOString();
    const reports = (id: number, rows: [string, boolean][]) =>
      db.query(
        `INSERT INTO device_reports (device_id, device_time, received_at, unactivated, lat, lon, speed, heading, azimuth, elevation, skew,
              satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, faults)
       SELECT $1, t, t, u, 31.2, 121.5, 10, 90, 180, 30, 0, 'S', 100, 50, 10, false, true, '{E90}'
         FROM unnest($2::timestamptz[], $3::boolean[]) AS x(t, u)`,
        [id, rows.map((r) => r[0]), rows.map((r) => r[1])],
      );
    await reports(posed, [
      [at(1), true],
      [at(2), true],
    ]);
    await reports(deactivated, [
      [at(1), false],
      [at(2), true],
    ]);
    await reports(since, [
      [at(1), true],
      [at(2), false],
    ]);
    await db.query(
      `INSERT INTO device_state (device_id, reported_at, received_at, state, unactivated, lat, lon, speed, heading, azimuth, elevation, skew,
              satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, faults, adu_version, bdu_version)
       SELECT id, $2, $2, 2, id <> $3, 31.2, 121.5, 10, 90, 180, 30, 0, 'S', 100, 50, 10, false, true, '{E90}', 'V2.0.0', 'V1.0.1'
         FROM unnest($1::int[]) AS id`,
      [[posed, deactivated, since], at(2), since],
    );

    expect(await migrate(db)).toContain('020_device_pending_reports.sql');
    const pending = await db.query<{ device_id: number; report: Record<string, unknown> }>(
      'SELECT device_id, report FROM device_pending_reports ORDER BY device_id',
    );
    expect(pending.map((p) => p.device_id)).toEqual([posed, deactivated]);
    expect(pending[0]!.report).toMatchObject({
      deviceTime: at(2),
      lat: 31.2,
      lon: 121.5,
      faults: ['E90'],
      modemLock: false,
      satellite: { name: 'S', longitude: 100 },
      firmware: { adu: 'V2.0.0', bdu: 'V1.0.1' },
    });
    const count = async (sql: string, id: number) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [id]))[0]!.n;
    expect(await count('device_state WHERE device_id = $1', posed)).toBe(0);
    expect(await count('device_state WHERE device_id = $1', since)).toBe(1);
    expect(await count('device_reports WHERE device_id = $1', posed)).toBe(0);
    expect(await count('device_reports WHERE device_id = $1', deactivated)).toBe(1);
    expect(await count('device_reports WHERE device_id = $1', since)).toBe(2);
    const hourly = await db.query<{ device_id: number; reports: number }>(
      'SELECT device_id, reports FROM report_hourly ORDER BY device_id',
    );
    expect(hourly).toEqual([
      { device_id: deactivated, reports: 1 },
      { device_id: since, reports: 2 },
    ]);
    const status = await db.query<{ id: number; status: number }>('SELECT id, status FROM devices ORDER BY id');
    expect(status).toEqual([
      { id: posed, status: 0 },
      { id: deactivated, status: 0 },
      { id: since, status: 2 },
    ]);

    // Activating drops the pending report (whatever code activates it).
    await db.query('UPDATE devices SET activated = true WHERE id = $1', [posed]);
    expect(await count('device_pending_reports WHERE device_id = $1', posed)).toBe(0);
  });
});
