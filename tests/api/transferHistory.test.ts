import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/domain/errorCodes';
import { engines, startWithLogins, type TestServer } from './helpers';
import { ingest, report, reportingDevice, uploadData } from './monitoringFixtures';
import { dm, validDevice } from './deviceFixtures';

/**
 * A transferred vessel's history stays with the enterprise that owned it then (docs/requirements.md
 * §6, "A transferred vessel"): oceanic's reports, command and acknowledged alarm on a vessel, the
 * vessel moved to polaris by the admin, then reports, an alarm and a command of polaris's time.
 * Polaris and its sub-user see only those of their time, the admin sees all, oceanic no longer
 * sees the vessel.
 */
const MIN = 60_000;

describe.each(engines)('a transferred vessel keeps its past with its earlier owner (%s)', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  let vessel: { id: number; num: string };
  let now: number;
  let sinceMs: number;
  let oceanicCommand: number;
  let polarisCommand: number;
  const api = <T = any>(path: string, token: string, query: Record<string, unknown> = {}) =>
    s.call<T>({ url: `${dm(s, path)}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, token });
  const post = <T = any>(path: string, token: string, payload: object) => s.call<T>({ method: 'POST', url: dm(s, path), token, payload });

  /** Reports of the vessel every minute from `fromMin` to `toMin` minutes before `now`, faults in the last `faultyMin` minutes, 1000 bytes each. */
  const reportsBetween = async (fromMin: number, toMin: number, faultyMin: number) => {
    const batch = [];
    for (let m = fromMin; m >= toMin; m -= 1)
      batch.push(report({ faults: m < toMin + faultyMin ? ['E05'] : [], bytesUsed: 1000 }, new Date(now - m * MIN)));
    const res = await ingest(s, vessel.num, { reports: batch });
    expect(res.code).toBe(0);
  };

  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'polaris', 'polarisops']));
    now = Math.floor(Date.now() / MIN) * MIN;
    vessel = await reportingDevice(s.db, 'oceanic');
    // Polaris may read the charts (track history and statistics it has already).
    await s.db.query(`INSERT INTO device_auth_grants (enterprise_id, feature) VALUES ($1, 'iotData') ON CONFLICT DO NOTHING`, [
      ids.polaris,
    ]);

    // Oceanic's time: reports 300..130 minutes ago, a fault in the last ten (an alarm oceanic acknowledges), a command.
    await reportsBetween(300, 130, 10);
    const alarms = await api('alarm/getAll', tokens.oceanic!, { pageIndex: 1, pageSize: 50, deviceId: vessel.id });
    expect(alarms.data.list).toHaveLength(1);
    expect((await post('alarm/acknowledge', tokens.oceanic!, { ids: [alarms.data.list[0].id] })).code).toBe(0);
    const sent = await post('command/add', tokens.oceanic!, { deviceId: vessel.id, kind: 'diagnostics' });
    expect(sent.code).toBe(0);
    oceanicCommand = sent.data.id;

    // The admin moves the vessel to polaris (a device update with another owner).
    const device = (await api('device/getById', tokens.admin!, { id: vessel.id })).data;
    const moved = await post('device/update', tokens.admin!, {
      ...validDevice(ids.polaris!),
      id: vessel.id,
      name: device.name,
      deviceNum: device.deviceNum,
      deviceSn: device.deviceSn,
      mac: device.mac,
    });
    expect(moved.code).toBe(0);
    const [row] = await s.db.query<{ since: Date; alarmsOpen: number; state: string }>(
      `SELECT d.owner_since AS since, (SELECT count(*)::int FROM alarms WHERE device_id = d.id AND cleared_at IS NULL) AS "alarmsOpen",
              (SELECT state FROM device_commands WHERE id = $2) AS state FROM devices d WHERE d.id = $1`,
      [vessel.id, oceanicCommand],
    );
    expect(Math.abs(new Date(row!.since).getTime() - Date.now())).toBeLessThan(60_000);
    expect(row!.alarmsOpen).toBe(0); // the old owner's open alarm ended with the transfer
    expect(row!.state).toBe('cancelled'); // and its queued command with it
    // Device clocks may not run ahead of the server: the transfer is moved two hours back (and
    // oceanic's command before it) so that polaris's reports can follow it.
    sinceMs = now - 120 * MIN;
    await s.db.query('UPDATE devices SET owner_since = $2 WHERE id = $1', [vessel.id, new Date(sinceMs).toISOString()]);
    await s.db.query(`UPDATE device_commands SET created_at = created_at - interval '3 hours' WHERE id = $1`, [oceanicCommand]);
    await post('subUserGrant/set', tokens.polaris!, { subUserId: ids.polarisops, deviceIds: [vessel.id] });
  });
  afterAll(() => s?.close());

  it('shows the new owner no state from before the transfer, the admin the last one', async () => {
    const polaris = await uploadData(s, tokens.polaris!, { deviceId: vessel.id });
    expect(polaris.data).toHaveLength(1);
    expect(polaris.data[0]).toMatchObject({ reportedAt: null, status: 0 });
    const admin = await uploadData(s, tokens.admin!, { deviceId: vessel.id });
    expect(new Date(admin.data[0].reportedAt).getTime()).toBe(now - 130 * MIN);
    expect((await api('vessel/getDetail', tokens.polaris!, { id: vessel.id })).data.latest).toBeNull();
  });

  describe('after reports and a command of polaris', () => {
    beforeAll(async () => {
      // Polaris's time: reports 110..1 minutes ago, a fault in the last twenty, and a command.
      await reportsBetween(110, 1, 20);
      const sent = await post('command/add', tokens.polaris!, { deviceId: vessel.id, kind: 'reboot' });
      expect(sent.code).toBe(0);
      polarisCommand = sent.data.id;
    });

    it('oceanic no longer sees the vessel at all', async () => {
      expect((await api('device/getById', tokens.oceanic!, { id: vessel.id })).code).toBe(ErrorCode.NotFound);
      expect((await api('command/getAll', tokens.oceanic!, { pageIndex: 1, pageSize: 50, deviceId: vessel.id })).code).toBe(
        ErrorCode.NotFound,
      );
      expect((await api('command/getById', tokens.oceanic!, { id: oceanicCommand })).code).toBe(ErrorCode.NotFound);
      expect((await api('alarm/getAll', tokens.oceanic!, { pageIndex: 1, pageSize: 50, deviceId: vessel.id })).data.total).toBe(0);
    });

    it('commands: the new owner and its sub-user see only those of their time, the admin all', async () => {
      for (const who of ['polaris', 'polarisops']) {
        const list = await api('command/getAll', tokens[who]!, { pageIndex: 1, pageSize: 50, deviceId: vessel.id });
        expect(list.data.list.map((c: any) => c.id)).toEqual([polarisCommand]);
        expect(list.data.total).toBe(1);
        expect((await api('command/getAll', tokens[who]!, { pageIndex: 1, pageSize: 50 })).data.list.map((c: any) => c.id)).not.toContain(
          oceanicCommand,
        );
        expect((await api('command/getById', tokens[who]!, { id: oceanicCommand })).code).toBe(ErrorCode.NotFound);
      }
      const all = await api('command/getAll', tokens.admin!, { pageIndex: 1, pageSize: 50, deviceId: vessel.id });
      expect(all.data.list.map((c: any) => c.id)).toEqual([polarisCommand, oceanicCommand]);
    });

    it("alarms: the one oceanic acknowledged is not the new owner's to see, acknowledge or count", async () => {
      const all = await api('alarm/getAll', tokens.admin!, { pageIndex: 1, pageSize: 50, deviceId: vessel.id });
      expect(all.data.total).toBe(2);
      const old = all.data.list.find((a: any) => new Date(a.raisedAt).getTime() < sinceMs);
      expect(old).toMatchObject({ ackedByName: 'oceanic', active: false });
      for (const who of ['polaris', 'polarisops']) {
        const list = await api('alarm/getAll', tokens[who]!, { pageIndex: 1, pageSize: 50, deviceId: vessel.id });
        expect(list.data.total).toBe(1);
        expect(list.data.list[0]).toMatchObject({ code: 'E05', active: true, ackedBy: null });
        expect(new Date(list.data.list[0].raisedAt).getTime()).toBe(now - 20 * MIN);
        expect((await post('alarm/acknowledge', tokens[who]!, { ids: [old.id] })).code).toBe(ErrorCode.NotFound);
        const faults = await api('monitor/topFaults', tokens[who]!, { days: 1 });
        expect(faults.data.find((f: any) => f.code === 'E05')?.alarms ?? 0).toBeLessThanOrEqual(1);
      }
      const bell = await uploadData(s, tokens.polaris!, { deviceId: vessel.id, unacknowledgedOnly: true });
      expect(bell.data).toHaveLength(1);
      expect(new Date(bell.data[0].reportedAt).getTime()).toBe(now - MIN);
    });

    it("track, its export and the location: only the reports of the new owner's time", async () => {
      for (const who of ['polaris', 'polarisops']) {
        const track = await api('history/track', tokens[who]!, { deviceId: vessel.id, window: '3d' });
        expect(track.code).toBe(0);
        expect(track.data.total).toBe(110);
        expect(track.data.track.t0 * 1000).toBe(now - 110 * MIN);
        const location = await api('history/location', tokens[who]!, { deviceId: vessel.id, window: 'week' });
        expect(location.data.points.reduce((n: number, p: number[]) => n + p[4]!, 0)).toBe(110);
        expect(Math.min(...location.data.points.map((p: number[]) => p[2]!)) * 1000).toBeGreaterThanOrEqual(sinceMs);
      }
      const csv = await s.app.inject({
        url: `${dm(s, 'history/track/export')}?deviceId=${vessel.id}&window=3d&format=csv&token=${tokens.polaris}`,
      });
      expect(csv.body.trim().split('\r\n')).toHaveLength(1 + 110);
      expect((await api('history/track', tokens.admin!, { deviceId: vessel.id, window: '3d' })).data.total).toBe(171 + 110);
    });

    it('statistics, charts and data usage: from the transfer on for the new owner, everything for the admin', async () => {
      const daily = async (who: string) =>
        (await api('statistics/getDaily', tokens[who]!, { id: vessel.id, days: 5 })).data.onlineSeconds as number;
      for (const who of ['polaris', 'polarisops']) {
        const online = await daily(who);
        expect(online).toBeGreaterThan(100 * 60);
        expect(online).toBeLessThanOrEqual(120 * 60);
      }
      expect(await daily('admin')).toBeGreaterThan(270 * 60);
      const fleet = await api('statistics/getFleet', tokens.polaris!, { pageIndex: 1, pageSize: 500, days: 5 });
      const row = fleet.data.list.find((r: any) => r.deviceId === vessel.id);
      expect(row.onlineSeconds).toBeGreaterThan(100 * 60);
      expect(row.onlineSeconds).toBeLessThanOrEqual(120 * 60);
      // The window ends at the moment of each call, and the vessel is online now: a second call may count a second or two more.
      const byName = (
        await api('statistics/getFleet', tokens.polaris!, { pageIndex: 1, pageSize: 500, days: 5, sort: 'name' })
      ).data.list.find((r: any) => r.deviceId === vessel.id).onlineSeconds;
      expect(byName - row.onlineSeconds).toBeGreaterThanOrEqual(0);
      expect(byName - row.onlineSeconds).toBeLessThanOrEqual(5);
      const adminFleet = await api('statistics/getFleet', tokens.admin!, { pageIndex: 1, pageSize: 500, days: 5 });
      expect(adminFleet.data.list.find((r: any) => r.deviceId === vessel.id).onlineSeconds).toBeGreaterThan(270 * 60);

      const reports = async (who: string, window: string) => {
        const series = await api('vessel/getSeries', tokens[who]!, { id: vessel.id, window });
        expect(series.code).toBe(0);
        return { n: series.data.points.reduce((n: number, p: any) => n + p.n, 0) as number, faults: series.data.faults.length as number };
      };
      expect(await reports('polaris', '24h')).toMatchObject({ n: 110, faults: 1 });
      expect(await reports('admin', '24h')).toMatchObject({ n: 281, faults: 2 });
      const week = await api('vessel/getSeries', tokens.polaris!, { id: vessel.id, window: '7d' });
      expect(week.code).toBe(0);
      const covered = week.data.bands.filter((b: any) => b.state !== 'offline');
      expect(Math.min(...covered.map((b: any) => b.from))).toBe(now - 110 * MIN);
      const adminWeek = await api('vessel/getSeries', tokens.admin!, { id: vessel.id, window: '7d' });
      expect(Math.min(...adminWeek.data.bands.filter((b: any) => b.state !== 'offline').map((b: any) => b.from))).toBe(now - 300 * MIN);

      const usage = async (who: string) =>
        (await api('dataPlan/getUsage', tokens[who]!, { deviceId: vessel.id, days: 2 })).data.daily.reduce(
          (n: number, d: any) => n + d.bytes,
          0,
        ) as number;
      expect(await usage('polaris')).toBe(110 * 1000);
      expect(await usage('polarisops')).toBe(110 * 1000);
      expect(await usage('admin')).toBe(281 * 1000);
    });
  });
});
