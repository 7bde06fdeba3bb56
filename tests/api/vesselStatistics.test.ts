import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { reportingDevice } from './monitoringFixtures';
import { every, ingestAt, vesselIds } from './vesselFixtures';

const DAY = 86_400_000;
const utcMidnight = (daysAgo: number) => Math.floor(Date.now() / DAY) * DAY - daysAgo * DAY;
const mmdd = (ms: number) => new Date(ms).toISOString().slice(5, 10);

describe.each(engines)('time statistics on %s', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  let evening: { id: number; num: string };
  let acrossMidnight: { id: number; num: string };
  let ids: Awaited<ReturnType<typeof vesselIds>>;
  /** Midnight UTC three days ago. */
  const m = utcMidnight(3);
  beforeAll(async () => {
    s = await createTestServer(engine);
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await s.login(name);
    ids = await vesselIds(s);
    evening = await reportingDevice(s.db, 'oceanic', 2);
    acrossMidnight = await reportingDevice(s.db, 'oceanic', 3);
    // 22:00 to 23:50 UTC every 5 minutes: the last report covers its 10-minute threshold, so the
    // vessel is online from 22:00 to 24:00 UTC: 7,200 s.
    await ingestAt(s, evening.num, every(5, m - 2 * 3_600_000, m - 10 * 60_000));
    // 23:00 to 00:50 UTC: online 23:00 to 01:00 UTC, one hour each side of midnight UTC.
    await ingestAt(s, acrossMidnight.num, every(5, m - 3_600_000, m + 50 * 60_000));
  });
  afterAll(() => s.close());

  const daily = (id: number, utcOffset: number, days = 5, token = tokens.oceanic!, lang: 'zh' | 'en' = 'en') =>
    s.call<any>({ url: `${s.base}/deviceModule/statistics/getDaily?id=${id}&days=${days}&utcOffset=${utcOffset}`, token, lang });
  const online = (res: { data: { list: { date: string; onlineSeconds: number }[] } }) =>
    Object.fromEntries(res.data.list.filter((d) => d.onlineSeconds > 0).map((d) => [d.date, d.onlineSeconds]));
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  it('counts a report run in the evening UTC into the next day at UTC+8 and the same day at UTC-5', async () => {
    const utc = await daily(evening.id, 0);
    expect(utc.code).toBe(0);
    expect(online(utc)).toEqual({ [date(m - DAY)]: 7200 });
    // 06:00-08:00 local on the next day at UTC+8; 17:00-19:00 local on the same day at UTC-5.
    expect(online(await daily(evening.id, 8))).toEqual({ [date(m)]: 7200 });
    expect(online(await daily(evening.id, -5))).toEqual({ [date(m - DAY)]: 7200 });
  });

  it('splits a run across midnight at the selected zone', async () => {
    expect(online(await daily(acrossMidnight.id, 0))).toEqual({ [date(m - DAY)]: 3600, [date(m)]: 3600 });
    // 07:00-09:00 at UTC+8 and 18:00-20:00 at UTC-5: whole in one day each.
    expect(online(await daily(acrossMidnight.id, 8))).toEqual({ [date(m)]: 7200 });
    expect(online(await daily(acrossMidnight.id, -5))).toEqual({ [date(m - DAY)]: 7200 });
  });

  it('lists 5, 10 or 15 local days, oldest first, labelled month-day, today up to now', async () => {
    for (const days of [5, 10, 15]) {
      const res = await daily(evening.id, 8, days);
      expect(res.data.list).toHaveLength(days);
      const today = res.data.list[days - 1];
      expect(today.date).toBe(new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10));
      expect(today.periodSeconds).toBeLessThanOrEqual(86_400);
      for (const d of res.data.list) expect(d.label).toMatch(/^\d{2}-\d{2}$/);
      expect(res.data.list[0].label).toBe(mmdd(Date.parse(`${res.data.list[0].date}T00:00:00Z`)));
      expect(res.data.list.slice(0, -1).every((d: any) => d.periodSeconds === 86_400)).toBe(true);
    }
    expect((await daily(evening.id, 0, 7)).code).not.toBe(0);
    expect((await daily(evening.id, 13)).code).not.toBe(0);
  });

  it('gives the fleet availability of every visible vessel, sorted and paged', async () => {
    const fleet = (token: string, query = '') =>
      s.call<any>({ url: `${s.base}/deviceModule/statistics/getFleet?days=5&utcOffset=0${query}`, token });
    const all = await fleet(tokens.oceanic!, '&pageSize=500');
    expect(all.code).toBe(0);
    const visible = (
      await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic'`)
    )[0]!.n;
    expect(all.data.total).toBe(visible);
    const first = all.data.list[0];
    expect([evening.id, acrossMidnight.id]).toContain(first.deviceId);
    expect(first.availability).toBeCloseTo(7200 / all.data.periodSeconds, 6);
    const values = all.data.list.map((r: any) => r.availability);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    // Sorted by name only the page's vessels are computed: the same figures as with every vessel
    // (each call's window ends at its own "now": a vessel reporting now may gain a second or two).
    const same = (a: any, b: any) => {
      expect({ ...a, onlineSeconds: 0, warnSeconds: 0, availability: 0, periodSeconds: 0 }).toEqual({
        ...b,
        onlineSeconds: 0,
        warnSeconds: 0,
        availability: 0,
        periodSeconds: 0,
      });
      expect(Math.abs(a.onlineSeconds - b.onlineSeconds)).toBeLessThanOrEqual(5);
      expect(Math.abs(a.warnSeconds - b.warnSeconds)).toBeLessThanOrEqual(5);
    };
    const byId = new Map(all.data.list.map((r: any) => [r.deviceId, r]));
    for (const order of ['asc', 'desc']) {
      const byName = await fleet(tokens.oceanic!, `&pageSize=500&sort=name&order=${order}`);
      const page2 = await fleet(tokens.oceanic!, `&pageSize=3&pageIndex=2&sort=name&order=${order}`);
      expect(page2.data.total).toBe(visible);
      expect(page2.data.list).toHaveLength(3);
      page2.data.list.forEach((row: any, i: number) => same(row, byName.data.list[3 + i]));
      for (const row of byName.data.list) same(row, byId.get(row.deviceId));
    }
    // A sub-user sees only its granted vessels; another enterprise sees none of these.
    const sub = await fleet(tokens.oceanops!, '&pageSize=500');
    expect(sub.data.list.map((r: any) => r.deviceId)).toContain(ids.granted);
    expect(sub.data.list.map((r: any) => r.deviceId)).not.toContain(ids.ungranted);
    const polaris = await fleet(tokens.polaris!, '&pageSize=500');
    expect(polaris.data.list.map((r: any) => r.deviceId)).not.toContain(evening.id);
  });

  it('refuses a vessel whose statistics are locked, and another enterprise or an ungranted vessel', async () => {
    await s.db.query(
      `DELETE FROM device_auth_grants WHERE feature = 'statistics' AND enterprise_id = (SELECT id FROM users WHERE name = 'polaris')`,
    );
    const locked = await daily(ids.polaris, 0, 5, tokens.polaris!, 'en');
    expect(locked).toMatchObject({ code: ErrorCode.Forbidden, msg: 'Please contact your service provider to unlock it', data: null });
    const fleet = await s.call<any>({ url: `${s.base}/deviceModule/statistics/getFleet?pageSize=500`, token: tokens.polaris! });
    expect(fleet.data.list.length).toBeGreaterThan(0);
    expect(fleet.data.list.every((r: any) => r.locked && r.availability === null)).toBe(true);
    expect((await daily(evening.id, 0, 5, tokens.polaris!)).code).toBe(ErrorCode.NotFound);
    expect((await daily(ids.ungranted, 0, 5, tokens.oceanops!)).code).toBe(ErrorCode.NotFound);
    expect((await daily(ids.granted, 0, 5, tokens.oceanops!)).code).toBe(0);
  });
});
