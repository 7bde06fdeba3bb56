import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { ingest, report, reportingDevice } from './monitoringFixtures';
import { ingestAt, vesselIds } from './vesselFixtures';

const MIN = 60_000;
const HOUR = 60 * MIN;

const geo = (state: string, active: boolean) => ({ id: 'vsat1', kind: 'geo', state, active, latencyMs: 600, signal: 70, snr: 11 });
const leo = (state: string, active: boolean, obstructionPct = 2) => ({
  id: 'leo1',
  kind: 'leo',
  state,
  active,
  latencyMs: 45,
  downMbps: 180,
  upMbps: 20,
  obstructionPct,
});
const cell = (state: string, active: boolean) => ({ id: 'lte1', kind: 'cellular', state, active, latencyMs: 60, signal: 55 });

/**
 * An hour of minutely reports of a vBox with three links, starting at `start`: GEO carries the
 * traffic; at +20 min GEO loses lock and LEO takes over; at +30 LEO is obstructed (40 %) and 4G
 * takes over; at +40 GEO is back and carries the traffic again; nothing from +50 to +62 (a silence
 * longer than 10 minutes, counted to no link), then GEO until +70.
 */
function linksAt(minute: number) {
  if (minute < 20) return [geo('up', true), leo('standby', false), cell('down', false)];
  if (minute < 30) return [geo('down', false), leo('up', true), cell('down', false)];
  if (minute < 40) return [geo('down', false), leo('down', false, 40), cell('up', true)];
  if (minute < 45) return [geo('up', true), leo('standby', false), cell('up', false)];
  // The router moves the traffic to LEO by hand, then back to GEO with LEO on standby again.
  if (minute < 47) return [geo('up', false), leo('up', true), cell('up', false)];
  return [geo('up', true), leo('standby', false), cell('up', false)];
}
const MINUTES = [...Array.from({ length: 50 }, (_, m) => m), ...Array.from({ length: 9 }, (_, m) => 62 + m)];

describe.each(engines)('vessel links on %s', (engine) => {
  let s: TestServer;
  let vessel: { id: number; num: string };
  let start: number;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    s = await createTestServer(engine);
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await s.login(name);
    vessel = await reportingDevice(s.db, 'oceanic', 0);
    start = Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR + 30 * MIN;
  });
  afterAll(() => s.close());

  const getLinks = (token: string, id: number, window = '24h', lang: 'zh' | 'en' = 'en') =>
    s.call<any>({ url: `${s.base}/deviceModule/vessel/getLinks?id=${id}&window=${window}`, token, lang });

  it('refuses a bad link entry with the field named, in the caller’s language, and stores nothing', async () => {
    const bad = [
      [{ ...geo('up', true), kind: 'satellite' }, 'links[0].kind', '未知的链路类型（geo、leo、cellular、microwave 或 wifi）'],
      [{ ...geo('up', true), state: 'broken' }, 'links[0].state', '未知的链路状态（up、standby 或 down）'],
      [{ ...geo('up', true), id: 'bad id!' }, 'links[0].id', '链路 ID 为 1 到 32 个字母、数字或 . _ : -'],
      [{ ...geo('up', true), obstructionPct: 5 }, 'links[0].obstructionPct', '只有低轨（LEO）链路上报遮挡率'],
      [{ ...leo('up', true), obstructionPct: 140 }, 'links[0].obstructionPct', '遮挡率必须在 0 到 100% 之间'],
      [{ ...geo('up', true), latencyMs: -1 }, 'links[0].latencyMs', '时延必须在 0 到 60000 毫秒之间'],
      [{ ...geo('up', true), active: 'yes' }, 'links[0].active', '必须是 true 或 false'],
      [null, 'links[0]', '每条链路须是至少含 id、kind、state 和 active 的对象'],
    ] as const;
    for (const [link, field, message] of bad) {
      const res = await ingest(s, vessel.num, report({ links: [link, cell('down', false)] }, new Date(start - HOUR)), undefined, 'zh');
      expect(res.code).toBe(ErrorCode.Validation);
      expect(res.data).toEqual([{ field, message }]);
    }
    const whole = [
      [[geo('up', true), { ...geo('down', false) }], 'validation.linkDuplicate', 'Each link id may appear once'],
      [[geo('up', true), leo('up', true)], 'validation.linkActive', 'At most one link carries the traffic, and it must be up'],
      [[geo('down', true)], 'validation.linkActive', 'At most one link carries the traffic, and it must be up'],
      [
        Array.from({ length: 7 }, (_, i) => ({ ...cell('up', false), id: `lte${i}` })),
        'validation.linksTooMany',
        'At most 6 links per report',
      ],
      // A hostile list is refused whole, its entries not looked at one by one.
      [Array.from({ length: 10_000 }, () => 'x'), 'validation.linksTooMany', 'At most 6 links per report'],
      ['vsat1', 'validation.links', 'Links must be a list of the vessel links'],
    ] as const;
    for (const [links, , message] of whole) {
      const res = await ingest(s, vessel.num, { reports: [report({ links }, new Date(start - HOUR))] });
      expect(res.code).toBe(ErrorCode.Validation);
      expect(res.data).toEqual([{ field: 'reports[0].links', message }]);
    }
    for (const table of ['link_changes', 'link_failovers', 'link_hourly'])
      expect((await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n).toBe(0);
    expect((await s.db.query('SELECT 1 FROM device_state WHERE links IS NOT NULL')).length).toBe(0);
  });

  it('keeps the current links, a lane per link, each failover with its reason and the time per link', async () => {
    // Sent out of order in two batches: the second half first would make the first half out of order,
    // so the minutes go in order, as a router sends them.
    await ingestAt(
      s,
      vessel.num,
      MINUTES.map((m) => start + m * MIN),
      (t) => ({ links: linksAt((t - start) / MIN) }),
    );
    const res = await getLinks(tokens.oceanic!, vessel.id);
    expect(res.code).toBe(0);
    const { links, lanes, failovers, availability } = res.data;
    expect(links.map((l: any) => [l.linkId, l.kind, l.priority, l.state, l.active])).toEqual([
      ['vsat1', 'geo', 0, 'up', true],
      ['leo1', 'leo', 1, 'standby', false],
      ['lte1', 'cellular', 2, 'up', false],
    ]);
    expect(Date.parse(links[0].since)).toBe(start + 47 * MIN);
    expect(links[1].obstructionPct).toBe(2);

    const at = (m: number) => new Date(start + m * MIN).toISOString();
    expect(failovers.map((f: any) => [f.at, f.fromLink, f.toLink, f.reason])).toEqual([
      [at(20), 'vsat1', 'leo1', 'lockLost'],
      [at(30), 'leo1', 'lte1', 'obstruction'],
      [at(40), 'lte1', 'vsat1', 'restored'],
      [at(45), 'vsat1', 'leo1', 'manual'],
      // Back to the primary with the backup on standby again: nothing was lost.
      [at(47), 'leo1', 'vsat1', 'restored'],
    ]);

    const lane = (id: string) => lanes.find((l: any) => l.linkId === id);
    expect(lanes.map((l: any) => l.linkId)).toEqual(['vsat1', 'leo1', 'lte1']);
    expect(lane('vsat1').segments.map((x: any) => [x.from, x.state, x.active])).toEqual([
      [at(0), 'up', true],
      [at(20), 'down', false],
      [at(40), 'up', true],
      [at(45), 'up', false],
      [at(47), 'up', true],
    ]);
    expect(lane('lte1').segments.map((x: any) => [x.from, x.state, x.active])).toEqual([
      [at(0), 'down', false],
      [at(30), 'up', true],
      [at(40), 'up', false],
    ]);
    expect(lane('vsat1').segments[0].to).toBe(at(20));

    // Seconds per link: minutes 0-49 counted to the earlier report's states, the 13-minute silence to none, then 62-70.
    const time = (id: string) => availability.find((a: any) => a.linkId === id);
    expect(time('vsat1')).toMatchObject({
      upSeconds: (20 + 9 + 8) * 60,
      downSeconds: 20 * 60,
      activeSeconds: (20 + 5 + 2 + 8) * 60,
      samples: 59,
    });
    expect(time('leo1')).toMatchObject({
      upSeconds: 12 * 60,
      standbySeconds: (20 + 5 + 2 + 8) * 60,
      downSeconds: 10 * 60,
      activeSeconds: 720,
    });
    expect(time('lte1')).toMatchObject({ upSeconds: (10 + 9 + 8) * 60, downSeconds: 30 * 60, activeSeconds: 600 });
    expect(time('vsat1').latencyMs).toBe(600);
    // The LEO dish's average obstruction over its 59 reports: 10 at 40 %, 49 at 2 %.
    expect(time('leo1').obstructionPct).toBeCloseTo((10 * 40 + 49 * 2) / 59, 6);

    // A report older than the latest is kept in the history but changes no link.
    const old = await ingest(s, vessel.num, report({ links: [geo('down', false)] }, new Date(start + 55 * MIN)));
    expect(old.data.outOfOrder).toBe(1);
    expect((await getLinks(tokens.oceanic!, vessel.id)).data.links).toEqual(links);
    // A report without links changes none either.
    expect((await ingest(s, vessel.num, report({}, new Date(start + 71 * MIN)))).code).toBe(0);
    expect((await getLinks(tokens.oceanic!, vessel.id)).data.failovers).toEqual(failovers);
  });

  it('shows a vessel’s links to those who see the vessel only', async () => {
    const ids = await vesselIds(s);
    expect((await getLinks(tokens.admin!, vessel.id)).data.lanes).toHaveLength(3);
    expect((await getLinks(tokens.polaris!, vessel.id)).code).toBe(ErrorCode.NotFound);
    expect((await getLinks(tokens.oceanops!, ids.ungranted)).code).toBe(ErrorCode.NotFound);
    const bad = await getLinks(tokens.oceanic!, vessel.id, '3y', 'zh');
    expect(bad.code).toBe(ErrorCode.Validation);
  });

  it('counts on the dashboard the vessels on a backup link now and the failovers since local midnight, for those who see them', async () => {
    const other = await reportingDevice(s.db, 'oceanic', 1);
    const now = Date.now();
    await ingestAt(s, other.num, [now - 3 * MIN, now - 2 * MIN], (t) => ({
      links: t < now - 2 * MIN ? [geo('up', true), leo('standby', false)] : [geo('down', false), leo('up', true)],
    }));
    const summary = async (token: string, utcOffset: number) =>
      (await s.call<any>({ url: `${s.base}/deviceModule/monitor/linkSummary?utcOffset=${utcOffset}`, token })).data;
    for (const utcOffset of [0, 8, -5]) {
      const res = await summary(tokens.oceanic!, utcOffset);
      const since = Date.parse(res.since);
      expect(since).toBeLessThanOrEqual(now);
      expect(now - since).toBeLessThan(24 * HOUR);
      expect((since + utcOffset * HOUR) % (24 * HOUR)).toBe(0);
      expect(res.onBackup.map((v: any) => [v.deviceId, v.linkId, v.kind])).toEqual([[other.id, 'leo1', 'leo']]);
      expect(res).toMatchObject({ onBackupCount: 1, withLinks: 2 });
      const failoverTimes = [20, 30, 40, 45, 47].map((m) => start + m * MIN).concat(now - 2 * MIN);
      expect(res.failovers).toBe(failoverTimes.filter((t) => t >= since).length);
    }
    expect((await summary(tokens.admin!, 0)).onBackupCount).toBe(1);
    expect(await summary(tokens.polaris!, 0)).toMatchObject({ onBackup: [], onBackupCount: 0, withLinks: 0, failovers: 0 });

    // The status monitor: each row's link carrying the traffic, and a filter for the vessels on a backup link.
    const monitor = (token: string, body: object) =>
      s.call<any>({
        method: 'POST',
        url: `${s.base}/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition`,
        token,
        payload: { withTotal: true, pageSize: 50, ...body },
      });
    const all = (await monitor(tokens.oceanic!, {})).data;
    const rowOf = (id: number) => all.list.find((r: any) => r.id === id);
    expect(rowOf(other.id).activeLink).toEqual({ linkId: 'leo1', kind: 'leo', priority: 1 });
    expect(rowOf(vessel.id).activeLink).toEqual({ linkId: 'vsat1', kind: 'geo', priority: 0 });
    expect(all.list.filter((r: any) => r.activeLink).length).toBe(2);
    const backup = (await monitor(tokens.oceanic!, { onBackup: true })).data;
    expect(backup.list.map((r: any) => r.id)).toEqual([other.id]);
    expect(backup.total).toBe(1);
    expect(backup.counts.total).toBe(1);
    expect((await monitor(tokens.admin!, { onBackup: true })).data.list.map((r: any) => r.id)).toEqual([other.id]);
    expect((await monitor(tokens.polaris!, { onBackup: true })).data).toMatchObject({ list: [], total: 0 });
    const bad = await monitor(tokens.oceanic!, { onBackup: 'often' });
    expect(bad.code).toBe(ErrorCode.Validation);

    // A report without links leaves the vessel on its backup link; one back on its primary ends that.
    await ingestAt(s, other.num, [now - MIN]);
    expect(await summary(tokens.oceanic!, 0)).toMatchObject({ onBackupCount: 1, withLinks: 2 });
    expect((await monitor(tokens.oceanic!, { onBackup: true })).data.total).toBe(1);
    await ingestAt(s, other.num, [now], () => ({ links: [geo('up', true), leo('standby', false)] }));
    expect(await summary(tokens.oceanic!, 0)).toMatchObject({ onBackup: [], onBackupCount: 0, withLinks: 2 });
    expect((await monitor(tokens.oceanic!, { onBackup: true })).data).toMatchObject({ list: [], total: 0 });
  });

  it('forgets link history with the reports and link hours with the rollups', async () => {
    await s.db.query('UPDATE monitor_settings SET retention_days = 1 WHERE id = 1');
    await s.db.query("UPDATE link_changes SET at = at - interval '2 days' WHERE device_id = $1", [vessel.id]);
    await s.db.query("UPDATE link_failovers SET at = at - interval '2 days' WHERE device_id = $1", [vessel.id]);
    const { pruneHistory } = await import('../../server/modules/monitoring/retentionQueries');
    await pruneHistory(s.db, { rollupRetentionDays: 400 });
    const count = async (table: string) =>
      (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE device_id = $1`, [vessel.id]))[0]!.n;
    expect(await count('link_changes')).toBe(0);
    expect(await count('link_failovers')).toBe(0);
    expect(await count('link_hourly')).toBeGreaterThan(0);
    // With its changes gone, a link that has not changed since shows its current state from then on.
    const { lanes } = (await getLinks(tokens.oceanic!, vessel.id)).data;
    expect(lanes.find((l: any) => l.linkId === 'vsat1').segments.map((x: any) => [x.from, x.state])).toEqual([
      [new Date(start + 47 * MIN).toISOString(), 'up'],
    ]);
    await s.db.query('UPDATE monitor_settings SET retention_days = 90 WHERE id = 1');
  });
});
