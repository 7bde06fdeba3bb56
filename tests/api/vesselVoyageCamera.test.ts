import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { vesselIds } from './vesselFixtures';

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe.each(engines)('voyages and cameras on %s', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  let ids: Awaited<ReturnType<typeof vesselIds>>;
  beforeAll(async () => {
    s = await createTestServer(engine);
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await s.login(name);
    ids = await vesselIds(s);
  });
  afterAll(() => s.close());

  const api = <T = any>(path: string, token: string, payload?: object, lang: 'zh' | 'en' = 'en', method?: 'DELETE') =>
    s.call<T>({
      method: method ?? (payload ? 'POST' : 'GET'),
      url: `${s.base}/deviceModule/${path}`,
      token,
      lang,
      ...(payload ? { payload } : {}),
    });
  const voyage = (over: Record<string, unknown> = {}) => ({
    deviceId: ids.granted,
    voyageNo: 'V-001',
    destination: 'Singapore',
    etd: at(-2),
    eta: at(3),
    agent: 'Harbour Agency',
    email: 'ops@example.com',
    phone: '+65 6123 4567',
    remark: 'bunkering',
    ...over,
  });
  const count = async (table: string) => (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  it('requires voyageNo, destination, eta, etd and agent, in both languages, writing nothing', async () => {
    const before = await count('voyages');
    const res = await api('voyage/add', tokens.oceanic!, { deviceId: ids.granted, voyageNo: ' ', email: 'not-mail' });
    expect(res.code).toBe(ErrorCode.Validation);
    const fields = Object.fromEntries(res.data.map((f: any) => [f.field, f.message]));
    for (const f of ['voyageNo', 'destination', 'eta', 'etd', 'agent']) expect(fields[f]).toBe('required');
    expect(fields.email).toBe('Please enter a correct email address');
    const zh = await api('voyage/add', tokens.oceanic!, { deviceId: ids.granted }, 'zh');
    expect(zh.data.find((f: any) => f.field === 'agent').message).toBe('必填项');
    expect(await count('voyages')).toBe(before);
  });

  it('refuses an eta before the etd, with the message in zh and en', async () => {
    const en = await api('voyage/add', tokens.oceanic!, voyage({ etd: at(2), eta: at(1) }));
    expect(en.code).toBe(ErrorCode.Validation);
    expect(en.data).toEqual([{ field: 'eta', message: 'ETA cannot be earlier than ETD' }]);
    const zh = await api('voyage/add', tokens.oceanic!, voyage({ etd: at(2), eta: at(1) }), 'zh');
    expect(zh.data).toEqual([{ field: 'eta', message: '预计到达时间（ETA）不能早于预计离港时间（ETD）' }]);
    expect((await api('voyage/add', tokens.oceanic!, voyage({ etd: '2026-01-01 10:00' }))).data[0].field).toBe('etd');
    // eta equal to etd is allowed.
    const same = at(5);
    expect((await api('voyage/add', tokens.oceanic!, voyage({ voyageNo: 'V-EQ', etd: same, eta: same }))).code).toBe(0);
  });

  it('keeps the history and picks the current voyage: under way, else next planned, else last arrived', async () => {
    const vessel = ids.ungranted;
    const add = async (no: string, etd: number, eta: number) => {
      const res = await api('voyage/add', tokens.oceanic!, voyage({ deviceId: vessel, voyageNo: no, etd: at(etd), eta: at(eta) }));
      expect(res.code).toBe(0);
      return res.data;
    };
    const current = () => api(`voyage/getCurrent?deviceId=${vessel}`, tokens.oceanic!);
    expect((await current()).data).toBeNull();
    await add('OLD-1', -30, -20);
    await add('OLD-2', -15, -10);
    expect((await current()).data).toMatchObject({ voyageNo: 'OLD-2', status: 'arrived' });
    const planned = await add('NEXT', 5, 9);
    expect((await current()).data).toMatchObject({ voyageNo: 'NEXT', status: 'planned' });
    const now = await add('NOW', -1, 2);
    expect((await current()).data).toMatchObject({ voyageNo: 'NOW', status: 'underway' });
    const history = await api(`voyage/getAll?deviceId=${vessel}&pageSize=2`, tokens.oceanic!);
    expect(history.data.total).toBe(4);
    expect(history.data.list.map((v: any) => v.voyageNo)).toEqual(['NEXT', 'NOW']);
    const older = await api(`voyage/getAll?deviceId=${vessel}&pageSize=2&pageIndex=2`, tokens.oceanic!);
    expect(older.data.list.map((v: any) => v.voyageNo)).toEqual(['OLD-2', 'OLD-1']);
    // Update and delete keep the rules.
    const upd = await api('voyage/update', tokens.oceanic!, {
      ...voyage({ deviceId: vessel }),
      id: now.id,
      voyageNo: 'NOW-B',
      etd: at(-1),
      eta: at(-3),
    });
    expect(upd.code).toBe(ErrorCode.Validation);
    expect(
      (
        await api('voyage/update', tokens.oceanic!, {
          ...voyage({ deviceId: vessel }),
          id: now.id,
          voyageNo: 'NOW-B',
          etd: at(-1),
          eta: at(1),
        })
      ).data.voyageNo,
    ).toBe('NOW-B');
    expect((await api(`voyage/deleteById?id=${planned.id}`, tokens.oceanic!, undefined, 'en', 'DELETE')).code).toBe(0);
    expect((await api(`voyage/getById?id=${planned.id}`, tokens.oceanic!)).code).toBe(ErrorCode.NotFound);
    const detail = await api(`vessel/getDetail?id=${vessel}`, tokens.oceanic!);
    expect(detail.data.currentVoyage).toMatchObject({ voyageNo: 'NOW-B' });
  });

  it('lets a sub-user read voyages of granted vessels only, and never write', async () => {
    const res = await api('voyage/add', tokens.oceanic!, voyage({ voyageNo: 'SUB-READ' }));
    expect(res.code).toBe(0);
    expect((await api(`voyage/getById?id=${res.data.id}`, tokens.oceanops!)).data.voyageNo).toBe('SUB-READ');
    expect((await api(`voyage/getCurrent?deviceId=${ids.granted}`, tokens.oceanops!)).code).toBe(0);
    expect((await api(`voyage/getAll?deviceId=${ids.ungranted}`, tokens.oceanops!)).code).toBe(ErrorCode.NotFound);
    const all = await api('voyage/getAll?pageSize=500', tokens.oceanops!);
    expect(all.data.list.some((v: any) => v.voyageNo === 'SUB-READ')).toBe(true);
    expect(all.data.list.some((v: any) => v.deviceId === ids.ungranted)).toBe(false);
    expect((await api('voyage/add', tokens.oceanops!, voyage({ voyageNo: 'SUB-W' }))).code).toBe(ErrorCode.Forbidden);
    expect((await api(`voyage/deleteById?id=${res.data.id}`, tokens.oceanops!, undefined, 'en', 'DELETE')).code).toBe(ErrorCode.Forbidden);
  });

  it("answers another enterprise's voyage or vessel as not found", async () => {
    const res = await api('voyage/add', tokens.oceanic!, voyage({ voyageNo: 'PRIVATE' }));
    expect((await api(`voyage/getById?id=${res.data.id}`, tokens.polaris!)).code).toBe(ErrorCode.NotFound);
    expect((await api(`voyage/getCurrent?deviceId=${ids.granted}`, tokens.polaris!)).code).toBe(ErrorCode.NotFound);
    expect((await api('voyage/add', tokens.polaris!, voyage({ voyageNo: 'X' }))).code).toBe(ErrorCode.NotFound);
    expect((await api('voyage/update', tokens.polaris!, { ...voyage({ deviceId: ids.polaris }), id: res.data.id })).code).toBe(
      ErrorCode.NotFound,
    );
    expect((await api(`voyage/deleteById?id=${res.data.id}`, tokens.polaris!, undefined, 'en', 'DELETE')).code).toBe(ErrorCode.NotFound);
    expect((await api('voyage/getAll?pageSize=500', tokens.polaris!)).data.list.some((v: any) => v.voyageNo === 'PRIVATE')).toBe(false);
    expect((await api(`voyage/getById?id=${res.data.id}`, tokens.oceanic!)).code).toBe(0);
  });

  it('accepts only http(s) camera links, in both languages', async () => {
    const before = await count('cameras');
    for (const link of ['rtsp://10.0.0.5/stream', 'javascript:alert(1)', 'ftp://x/y', 'www.example.com/cam', 'http://']) {
      const res = await api('camera/add', tokens.oceanic!, { deviceId: ids.granted, name: 'Bridge', link });
      expect(res.code).toBe(ErrorCode.Validation);
      expect(res.data).toEqual([{ field: 'link', message: 'The stream link must start with http:// or https://' }]);
    }
    const zh = await api('camera/add', tokens.oceanic!, { deviceId: ids.granted, name: 'Bridge', link: 'rtsp://x' }, 'zh');
    expect(zh.data[0].message).toBe('视频链接只能是 http:// 或 https:// 开头的地址');
    expect(await count('cameras')).toBe(before);
    const hls = await api('camera/add', tokens.oceanic!, {
      deviceId: ids.granted,
      name: 'Bridge',
      link: 'https://cams.example.com/live/bridge.m3u8',
    });
    expect(hls.data).toMatchObject({ kind: 'hls', deviceId: ids.granted });
    const mjpeg = await api('camera/add', tokens.oceanic!, {
      deviceId: ids.granted,
      name: 'Deck',
      link: 'HTTP://10.0.0.8/video.mjpg',
      description: 'aft',
    });
    expect(mjpeg.data.kind).toBe('mjpeg');
    const page = await api('camera/add', tokens.oceanic!, {
      deviceId: ids.granted,
      name: 'Engine',
      link: 'https://nvr.example.com/view?cam=3',
    });
    expect(page.data.kind).toBe('external');
    const list = await api(`camera/getAll?deviceId=${ids.granted}`, tokens.oceanops!);
    expect(list.data.list.map((c: any) => c.name)).toEqual(['Bridge', 'Deck', 'Engine']);
    const upd = await api('camera/update', tokens.oceanic!, {
      id: page.data.id,
      deviceId: ids.granted,
      name: 'Engine',
      link: 'rtsp://nvr',
    });
    expect(upd.code).toBe(ErrorCode.Validation);
    expect((await api(`camera/getById?id=${page.data.id}`, tokens.oceanic!)).data.link).toBe('https://nvr.example.com/view?cam=3');
    expect((await api('camera/add', tokens.oceanops!, { deviceId: ids.granted, name: 'S', link: 'https://a.b/c' })).code).toBe(
      ErrorCode.Forbidden,
    );
    expect((await api(`camera/getById?id=${page.data.id}`, tokens.polaris!)).code).toBe(ErrorCode.NotFound);
    expect((await api(`camera/deleteById?id=${page.data.id}`, tokens.polaris!, undefined, 'en', 'DELETE')).code).toBe(ErrorCode.NotFound);
    expect((await api(`camera/deleteById?id=${page.data.id}`, tokens.oceanic!, undefined, 'en', 'DELETE')).code).toBe(0);
  });

  it('refuses the cameras of a vessel whose camera feature is locked, with the message', async () => {
    // Polaris holds the camera feature on its first vessel only.
    const [first] = await s.db.query<{ id: number }>(
      `SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'polaris' ORDER BY d.id LIMIT 1`,
    );
    expect(first!.id).not.toBe(ids.polaris);
    for (const lang of ['en', 'zh'] as const) {
      const res = await api(`camera/getAll?deviceId=${ids.polaris}`, tokens.polaris!, undefined, lang);
      expect(res.code).toBe(ErrorCode.Forbidden);
      expect(res.msg).toBe(lang === 'en' ? 'Please contact your service provider to unlock it' : '请联系您的服务商解锁此功能');
    }
    const add = await api('camera/add', tokens.polaris!, { deviceId: ids.polaris, name: 'Bridge', link: 'https://a.example/x.m3u8' });
    expect(add.code).toBe(ErrorCode.Forbidden);
    expect((await api(`camera/getAll?deviceId=${first!.id}`, tokens.polaris!)).code).toBe(0);
    expect((await api(`camera/getAll?deviceId=${ids.polaris}`, tokens.admin!)).code).toBe(0);
  });
});
