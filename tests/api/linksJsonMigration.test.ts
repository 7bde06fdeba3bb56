import { afterEach, describe, expect, it } from 'vitest';
import { emptyDb, engines } from './helpers';
import { migrate } from '../../server/db/migrate';

/**
 * Migration 037 (docs/architecture.md, "Links"): a vessel's current links are kept as they were
 * written (json), and each latest state is marked on a backup link or not from the links it holds.
 */
describe.each(engines)('migration of the current links on %s', (engine) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => drop?.());

  it('keeps every link and marks the vessels whose traffic is on a backup link', async () => {
    const made = await emptyDb(engine);
    drop = made.drop;
    const { db } = made;
    await migrate(db, { before: '037' });
    const [user] = await db.query<{ id: number }>(
      `INSERT INTO users (name, password_hash, permission_level) VALUES ('owner', 'x', '2') RETURNING id`,
    );
    const link = (linkId: string, priority: number, active: boolean) => ({
      linkId,
      kind: priority ? 'leo' : 'geo',
      priority,
      state: 'up',
      active,
      acc: { hourStart: 1_700_000_000_000, samples: 3, latency: [3, 1800.5] },
    });
    const vessels: [string, unknown][] = [
      ['BACKUP', [link('vsat1', 0, false), link('leo1', 1, true)]],
      ['PRIMARY', [link('vsat1', 0, true), link('leo1', 1, false)]],
      ['NONE', [link('vsat1', 0, false), link('leo1', 1, false)]],
      ['EMPTY', []],
      ['NOLINKS', null],
    ];
    const ids: number[] = [];
    for (const [sn, links] of vessels) {
      const [device] = await db.query<{ id: number }>(
        `INSERT INTO devices (name, device_sn, owner_id, manufacture_date, device_type, adu_version, bdu_version, manufacture_info, device_model,
                device_kind, activated, status)
         VALUES ($2, $2, $1, '2024-01-01', 't', 'V1.0.0', 'V1.0.0', 'm', 'm', 'vbox', true, 1) RETURNING id`,
        [user!.id, sn],
      );
      ids.push(device!.id);
      await db.query(
        `INSERT INTO device_state (device_id, reported_at, received_at, state, lat, lon, speed, heading, signal_level, snr, modem_lock, tx_on, faults, links)
         VALUES ($1, now(), now(), 1, 31.2, 121.5, 10, 90, 50, 10, true, true, '{}', $2::jsonb)`,
        [device!.id, links === null ? null : JSON.stringify(links)],
      );
    }

    expect(await migrate(db)).toContain('037_links_json.sql');
    const rows = await db.query<{ device_id: number; links: unknown; on_backup: boolean | null }>(
      'SELECT device_id, links, on_backup FROM device_state ORDER BY device_id',
    );
    expect(rows.map((r) => r.on_backup)).toEqual([true, false, false, null, null]);
    expect(rows.map((r) => r.links)).toEqual(vessels.map(([, links]) => links));
    expect(rows.map((r) => r.device_id)).toEqual(ids);
  });
});
