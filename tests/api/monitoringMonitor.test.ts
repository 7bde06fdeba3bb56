import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { ingest, minutesAgo, report, reportingDevice, uploadData } from './monitoringFixtures';
import { markOfflineDevices } from '../../server/modules/monitoring';

type Paged = { list: any[]; total: number; counts: { total: number; online: number; offline: number; warn: number } };

describe.each(engines)('status monitor query and device columns on %s', (engine) => {
  let s: TestServer;
  let tokens: Record<string, string>;
  let a: { id: number; num: string };
  let b: { id: number; num: string };
  let c: { id: number; num: string };
  beforeAll(async () => {
    ({ s, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops']));
    [a, b, c] = [
      await reportingDevice(s.db, 'oceanic', 0),
      await reportingDevice(s.db, 'oceanic', 1),
      await reportingDevice(s.db, 'oceanic', 2),
    ];
    await ingest(s, a.num, report({ speed: 3, heading: 10 }, minutesAgo(2)));
    await ingest(s, b.num, report({ speed: 20, heading: 200, modemLock: false }, minutesAgo(1)));
    await ingest(s, c.num, report({ speed: 12, heading: 300, faults: ['E06'] }, minutesAgo(30)));
  });
  afterAll(() => s.close());
  const paged = (token: string, body: Record<string, unknown>) =>
    uploadData(s, token, { withTotal: true, ...body }) as unknown as Promise<{ code: number; data: Paged }>;

  it('keeps the bare list (docs/requirements.md §7) without withTotal, and pages with { list, total, counts } with it', async () => {
    const bare = await uploadData(s, tokens.oceanic!, {});
    expect(Array.isArray(bare.data)).toBe(true);
    const all = bare.data.length;
    const page1 = await paged(tokens.oceanic!, { pageIndex: 1, pageSize: 2 });
    expect(page1.code).toBe(0);
    expect(page1.data.list).toHaveLength(2);
    expect(page1.data.total).toBe(all);
    const { counts } = page1.data;
    expect(counts.total).toBe(all);
    expect(counts.online + counts.offline + counts.warn).toBe(all);
    const last = await paged(tokens.oceanic!, { pageIndex: Math.ceil(all / 2), pageSize: 2 });
    expect(last.data.list.length).toBe(all % 2 || 2);
    expect(new Set([...page1.data.list, ...last.data.list].map((d) => d.id)).size).toBe(page1.data.list.length + last.data.list.length);
  });

  it('counts per state ignore the state filter; total follows it', async () => {
    const warn = await paged(tokens.oceanic!, { deviceStatus: [2] });
    const everything = await paged(tokens.oceanic!, {});
    expect(warn.data.counts).toEqual(everything.data.counts);
    expect(warn.data.total).toBe(everything.data.counts.warn);
    expect(warn.data.list.every((d) => d.status === 2)).toBe(true);
    expect(warn.data.list.map((d) => d.id)).toEqual(expect.arrayContaining([b.id]));
  });

  it('a lost modem lock without a fault code is warn, raises no alarm record, and stays out of the bell query', async () => {
    const row = (await uploadData(s, tokens.oceanic!, { deviceId: b.id })).data[0];
    expect(row).toMatchObject({ status: 2, modemLock: false, faults: [] });
    const alarms = await s.db.query('SELECT 1 FROM alarms WHERE device_id = $1', [b.id]);
    expect(alarms).toHaveLength(0);
    const bell = await uploadData(s, tokens.oceanic!, { deviceStatus: [2], unacknowledgedOnly: true });
    expect(bell.data.map((d) => d.id)).not.toContain(b.id);
  });

  it('sorts by a whitelisted key both ways, nulls last, and refuses an unknown key', async () => {
    const asc = (await paged(tokens.oceanic!, { sort: 'speed', order: 'asc' })).data.list
      .filter((d) => d.speed !== null)
      .map((d) => d.speed);
    expect(asc).toEqual([...asc].sort((x, y) => x - y));
    const descList = (await paged(tokens.oceanic!, { sort: 'speed', order: 'desc' })).data.list;
    const desc = descList.filter((d) => d.speed !== null).map((d) => d.speed);
    expect(desc).toEqual([...desc].sort((x, y) => y - x));
    expect(descList[descList.length - 1].speed === null || desc.length === descList.length).toBe(true);
    const byTime = (await paged(tokens.oceanic!, { sort: 'reportedAt', order: 'desc', pageSize: 1, pageIndex: 1 })).data.list[0];
    expect(byTime.id).toBe(b.id);
    const bad = await paged(tokens.oceanic!, { sort: 'secret_hash' });
    expect(bad.code).toBe(ErrorCode.Validation);
    expect((bad as any).data).toEqual([expect.objectContaining({ field: 'sort' })]);
  });

  it('searches name or device number and keeps visibility for a sub-user', async () => {
    const hit = await paged(tokens.oceanic!, { search: a.num });
    expect(hit.data.list.map((d) => d.id)).toEqual([a.id]);
    expect(hit.data.total).toBe(1);
    const sub = await paged(tokens.oceanops!, {});
    const visible = (await uploadData(s, tokens.oceanops!, {})).data.map((d) => d.id).sort();
    expect(sub.data.list.map((d) => d.id).sort()).toEqual(visible);
    expect(sub.data.counts.total).toBe(visible.length);
  });

  it('answers the speed, heading and status of a device as of the latest report, and marks stale devices offline', async () => {
    // As the device API answers them (speed and heading from the latest report, status from the devices row).
    const cols = async (id: number) => {
      const { data } = await s.call<{ speed: number; heading: number; status: number }>({
        url: `${s.base}/deviceModule/device/getById?id=${id}`,
        token: tokens.oceanic!,
      });
      return { speed: data.speed, heading: data.heading, status: data.status };
    };
    expect(await cols(a.id)).toEqual({ speed: 3, heading: 10, status: 1 });
    expect(await cols(b.id)).toEqual({ speed: 20, heading: 200, status: 2 });
    // An older report changes nothing.
    await ingest(s, a.num, report({ speed: 9, heading: 90 }, minutesAgo(5)));
    expect(await cols(a.id)).toEqual({ speed: 3, heading: 10, status: 1 });
    // c reported 30 minutes ago (threshold 10): warn until the sweep.
    expect((await cols(c.id)).status).toBe(2);
    // Two devices a statement: every stale device is swept, whichever statement it falls in.
    const [all] = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices');
    expect(all!.n).toBeGreaterThan(4);
    expect(await markOfflineDevices(s.db, 2)).toBeGreaterThanOrEqual(1);
    const [left] = await s.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM devices d LEFT JOIN device_state ds ON ds.device_id = d.id
        WHERE d.status <> 0 AND (ds.device_id IS NULL OR ds.reported_at < now() - interval '1 day')`,
    );
    expect(left!.n).toBe(0);
    expect((await cols(c.id)).status).toBe(0);
    expect((await cols(a.id)).status).toBe(1);
    const list = await s.call<{ list: any[] }>({
      url: `${s.base}/deviceModule/device/getAll?pageSize=100&status=0`,
      token: tokens.oceanic!,
    });
    expect(list.data.list.map((d) => d.id)).toContain(c.id);
  });
});
