import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { dm, validDevice } from './deviceFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';

const REQUIRED = [
  'name',
  'deviceSn',
  'ownerId',
  'manufactureDate',
  'deviceType',
  'aduVersion',
  'bduVersion',
  'manufactureInfo',
  'deviceModel',
  'deviceKind',
  'ownerSubId',
];

describe.each(engines)('deviceModule devices on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'oceanbridge', 'polaris', 'polarisops']));
  });
  afterAll(() => s.close());
  const add = (who: string, body: Record<string, unknown>, lang?: 'zh' | 'en') =>
    s.call({ method: 'POST', url: dm(s, 'device/add'), token: tokens[who], lang, payload: body });
  const update = (who: string, body: Record<string, unknown>, lang?: 'zh' | 'en') =>
    s.call({ method: 'POST', url: dm(s, 'device/update'), token: tokens[who], lang, payload: body });
  const getById = (who: string, id: number) => s.call({ url: dm(s, `device/getById?id=${id}`), token: tokens[who] });
  const list = (who: string, query = '') => s.call({ url: dm(s, `device/getAll?pageSize=500${query}`), token: tokens[who] });

  describe('create, read, update, delete', () => {
    it('lets an admin create a device for an enterprise and sub-user and read it back', async () => {
      const body = validDevice(ids.oceanic!, {
        ownerSubId: ids.oceanops,
        mmsi: '413123456',
        imo: '9321483',
        callsign: 'BOAB3',
        mac: '0a.1b.2c.3d.4e.5f',
      });
      const res = await add('admin', body);
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({
        name: body.name,
        deviceNum: body.deviceNum,
        ownerId: ids.oceanic,
        ownerName: 'oceanic',
        ownerSubId: ids.oceanops,
        ownerSubName: 'oceanops',
        manufactureDate: '2024-05-01',
        mac: '0A.1B.2C.3D.4E.5F',
        activated: false,
        status: 0,
        mmsi: '413123456',
      });
      const read = await getById('admin', res.data.id);
      expect(read.data).toEqual(res.data);
    });

    it('updates every field and deletes', async () => {
      const created = await add('oceanic', validDevice(ids.oceanic!));
      expect(created.code).toBe(0);
      const changed = validDevice(ids.oceanic!, { id: created.data.id, name: 'Renamed', deviceKind: '4g', ownerSubId: ids.oceanbridge });
      const res = await update('oceanic', changed);
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({ name: 'Renamed', deviceKind: '4g', deviceSn: changed.deviceSn, ownerSubId: ids.oceanbridge });
      expect((await s.call({ method: 'DELETE', url: dm(s, `device/deleteById?id=${created.data.id}`), token: tokens.oceanic })).code).toBe(
        0,
      );
      expect((await getById('oceanic', created.data.id)).code).toBe(ErrorCode.NotFound);
    });

    it('keeps MAC and deviceNum optional, and an update may keep its own unique values', async () => {
      const created = await add('admin', validDevice(ids.polaris!, { mac: '', deviceNum: undefined }));
      expect(created.code).toBe(0);
      expect(created.data).toMatchObject({ mac: null, deviceNum: null });
      expect(
        (await update('admin', { ...validDevice(ids.polaris!), id: created.data.id, deviceSn: created.data.deviceSn, mac: null })).code,
      ).toBe(0);
    });

    it('answers bad ids and unknown devices with clear codes, never a 500', async () => {
      expect((await s.call({ url: dm(s, 'device/getById?id=abc'), token: tokens.admin })).code).toBe(ErrorCode.Validation);
      const missing = await s.call({ url: dm(s, 'device/getById?id=999999'), token: tokens.admin, lang: 'en' });
      expect(missing).toMatchObject({ code: ErrorCode.NotFound, msg: 'No such device', status: 200 });
      expect(
        (
          await s.call({
            method: 'POST',
            url: dm(s, 'device/add'),
            token: tokens.admin,
            payload: 'not json',
            headers: { 'content-type': 'application/json' },
          })
        ).code,
      ).toBe(ErrorCode.BadRequest);
      expect((await s.call({ url: dm(s, 'device/getAll?pageSize=100000'), token: tokens.admin })).code).toBe(ErrorCode.Validation);
    });
  });

  describe('validation rules, in zh and en', () => {
    const cases: [string, Record<string, unknown>, string, string, string][] = [
      [
        'deviceNum too short',
        { deviceNum: '12345' },
        'deviceNum',
        '设备编号必须是8位数字或大写字母A-F',
        'The device number must be 8 characters of 0-9 or A-F',
      ],
      [
        'deviceNum lowercase',
        { deviceNum: 'abcdef12' },
        'deviceNum',
        '设备编号必须是8位数字或大写字母A-F',
        'The device number must be 8 characters of 0-9 or A-F',
      ],
      [
        'deviceNum not hex',
        { deviceNum: 'G1234567' },
        'deviceNum',
        '设备编号必须是8位数字或大写字母A-F',
        'The device number must be 8 characters of 0-9 or A-F',
      ],
      [
        'deviceNum 9 chars',
        { deviceNum: '123456789' },
        'deviceNum',
        '设备编号必须是8位数字或大写字母A-F',
        'The device number must be 8 characters of 0-9 or A-F',
      ],
      [
        'mac with colons',
        { mac: '00:11:22:33:44:55' },
        'mac',
        'MAC地址格式应为 xx.xx.xx.xx.xx.xx（12位十六进制数）',
        'The MAC address must look like xx.xx.xx.xx.xx.xx (12 hex digits)',
      ],
      [
        'mac not hex',
        { mac: '00.11.22.33.44.GG' },
        'mac',
        'MAC地址格式应为 xx.xx.xx.xx.xx.xx（12位十六进制数）',
        'The MAC address must look like xx.xx.xx.xx.xx.xx (12 hex digits)',
      ],
      [
        'mac bare',
        { mac: '001122334455' },
        'mac',
        'MAC地址格式应为 xx.xx.xx.xx.xx.xx（12位十六进制数）',
        'The MAC address must look like xx.xx.xx.xx.xx.xx (12 hex digits)',
      ],
      ['SN with a space', { deviceSn: 'SN 123' }, 'deviceSn', '设备SN不能包含空格', 'The device SN must not contain spaces'],
      ['SN with a leading space', { deviceSn: ' SN123' }, 'deviceSn', '设备SN不能包含空格', 'The device SN must not contain spaces'],
      [
        'unknown kind',
        { deviceKind: 'radar' },
        'deviceKind',
        '设备种类只能是天线、VSAT、4G、微波、vBox 或其他',
        'The kind must be antenna, VSAT, 4G, microwave, vBox or others',
      ],
      ['bad date', { manufactureDate: '2024-02-30' }, 'manufactureDate', '日期格式应为 YYYY-MM-DD', 'The date must look like YYYY-MM-DD'],
      ['bad MMSI', { mmsi: '12345' }, 'mmsi', 'MMSI必须是9位数字', 'The MMSI must be 9 digits'],
      [
        'manufacture date in the future',
        { manufactureDate: '2099-01-01' },
        'manufactureDate',
        '日期不能晚于今天',
        'The date cannot be later than today',
      ],
      ['bad IMO', { imo: 'IMO123' }, 'imo', 'IMO必须是7位数字', 'The IMO number must be 7 digits'],
    ];
    it.each(cases)('refuses %s', async (_label, override, field, zh, en) => {
      const body = validDevice(ids.oceanic!, override);
      const inZh = await add('admin', body, 'zh');
      expect(inZh.code).toBe(ErrorCode.Validation);
      expect(inZh.msg).toBe('输入有误');
      expect(inZh.data).toEqual([{ field, message: zh }]);
      const inEn = await add('admin', body, 'en');
      expect(inEn.data).toEqual([{ field, message: en }]);
    });

    it.each(REQUIRED)('requires %s with "必填项" / "required"', async (field) => {
      const body = validDevice(ids.oceanic!, { [field]: field === 'ownerId' || field === 'ownerSubId' ? null : '' });
      const inZh = await add('admin', body, 'zh');
      expect(inZh.code).toBe(ErrorCode.Validation);
      expect(inZh.data).toContainEqual({ field, message: '必填项' });
      expect((await add('admin', body, 'en')).data).toContainEqual({ field, message: 'required' });
    });

    it('reports every missing field at once', async () => {
      const res = await add('admin', {}, 'en');
      expect(res.data.map((e: { field: string }) => e.field).sort()).toEqual([...REQUIRED].sort());
    });
  });

  describe('unique deviceNum, SN and MAC', () => {
    it.each([
      ['deviceNum', '设备编号已存在', 'This device number already exists'],
      ['deviceSn', '设备SN已存在', 'This device SN already exists'],
      ['mac', 'MAC地址已存在', 'This MAC address already exists'],
    ])('refuses a duplicate %s with code 9 naming the field', async (field, zh, en) => {
      const first = await add('admin', validDevice(ids.oceanic!));
      expect(first.code).toBe(0);
      const clash = validDevice(ids.polaris!, { [field]: first.data[field] });
      const inZh = await add('admin', clash, 'zh');
      expect(inZh).toMatchObject({ code: ErrorCode.Duplicate, msg: zh, data: [{ field, message: zh }] });
      expect(await add('admin', clash, 'en')).toMatchObject({ code: ErrorCode.Duplicate, msg: en, data: [{ field, message: en }] });
      const other = await add('admin', validDevice(ids.oceanic!));
      const updated = await update('admin', { ...validDevice(ids.oceanic!, { [field]: first.data[field] }), id: other.data.id }, 'en');
      expect(updated).toMatchObject({ code: ErrorCode.Duplicate, data: [{ field, message: en }] });
    });

    it('names every duplicate at once: device number, SN and MAC in one answer', async () => {
      const first = await add('admin', validDevice(ids.oceanic!));
      const clash = validDevice(ids.oceanic!, { deviceNum: first.data.deviceNum, deviceSn: first.data.deviceSn, mac: first.data.mac });
      expect(await add('admin', clash, 'zh')).toMatchObject({
        code: ErrorCode.Duplicate,
        msg: '设备编号已存在',
        data: [
          { field: 'deviceNum', message: '设备编号已存在' },
          { field: 'deviceSn', message: '设备SN已存在' },
          { field: 'mac', message: 'MAC地址已存在' },
        ],
      });
    });

    it("warns of another vessel's MMSI without refusing it: the count, and the names the caller may see", async () => {
      const mmsi = String(200_000_000 + Math.floor(Math.random() * 99_999_999));
      const mine = await add('admin', validDevice(ids.oceanic!, { mmsi }));
      expect(mine.code).toBe(0);
      const inUse = (who: string, exceptId = 0) =>
        s.call({ url: dm(s, `device/mmsiInUse?mmsi=${mmsi}&exceptId=${exceptId}`), token: tokens[who] });
      expect((await inUse('oceanic')).data).toEqual({ count: 1, vessels: [{ id: mine.data.id, name: mine.data.name }] });
      // Another enterprise learns that the number is taken, not by which vessel.
      expect((await inUse('polaris')).data).toEqual({ count: 1, vessels: [] });
      // The vessel itself is no duplicate of itself.
      expect((await inUse('oceanic', mine.data.id)).data).toEqual({ count: 0, vessels: [] });
      const second = await add('polaris', validDevice(ids.polaris!, { mmsi }));
      expect(second.code).toBe(0);
      expect((await inUse('admin')).data.count).toBe(2);
      expect((await s.call({ url: dm(s, 'device/mmsiInUse?mmsi=12345'), token: tokens.oceanic })).code).toBe(ErrorCode.Validation);
    });

    it('treats a MAC in lower case as the same MAC', async () => {
      const first = await add('admin', validDevice(ids.oceanic!, { mac: 'AA.BB.CC.DD.EE.01' }));
      expect(first.code).toBe(0);
      expect((await add('admin', validDevice(ids.oceanic!, { mac: 'aa.bb.cc.dd.ee.01' }))).code).toBe(ErrorCode.Duplicate);
    });
  });

  describe('rights of each level', () => {
    it('shows an admin every device of both enterprises', async () => {
      const res = await list('admin');
      const owners = new Set(res.data.list.map((d: { ownerId: number }) => d.ownerId));
      expect(owners).toEqual(new Set([ids.oceanic, ids.polaris]));
      expect(res.data.total).toBe(res.data.list.length);
    });

    it('shows an enterprise its own devices only', async () => {
      const res = await list('polaris');
      expect(res.data.total).toBeGreaterThan(10);
      expect(res.data.list.every((d: { ownerId: number }) => d.ownerId === ids.polaris)).toBe(true);
    });

    it('lets an enterprise create only devices it owns, with its own sub-users', async () => {
      expect((await add('oceanic', validDevice(ids.oceanic!, { ownerSubId: ids.oceanbridge }))).code).toBe(0);
      expect((await add('oceanic', validDevice(ids.polaris!))).code).toBe(ErrorCode.Forbidden);
      const foreignSub = await add('oceanic', validDevice(ids.oceanic!, { ownerSubId: ids.polarisops }), 'en');
      expect(foreignSub).toMatchObject({
        code: ErrorCode.Validation,
        data: [{ field: 'ownerSubId', message: 'The sub-user must belong to the chosen enterprise' }],
      });
    });

    it('refuses an admin an owner that is not an enterprise', async () => {
      const res = await add('admin', validDevice(ids.oceanops!), 'en');
      expect(res).toMatchObject({
        code: ErrorCode.Validation,
        data: [{ field: 'ownerId', message: 'The owner must be an enterprise user' }],
      });
      expect((await add('admin', validDevice(ids.oceanic!, { ownerSubId: ids.polarisops }))).data).toEqual([
        { field: 'ownerSubId', message: '子用户必须属于所选企业' },
      ]);
    });

    it('shows a sub-user only its granted vessels (and those it is sub-owner of), read-only', async () => {
      const res = await list('oceanops');
      const granted = await s.db.query<{ id: number }>(
        `SELECT id FROM devices d WHERE owner_id = $1 AND (owner_sub_id = $2 OR EXISTS (SELECT 1 FROM sub_user_grants g WHERE g.sub_user_id = $2 AND g.device_id = d.id)) ORDER BY id`,
        [ids.oceanic, ids.oceanops],
      );
      expect(res.data.list.map((d: { id: number }) => d.id)).toEqual(granted.map((r) => r.id));
      const all = await list('oceanic');
      expect(res.data.total).toBeLessThan(all.data.total);
      const hidden = all.data.list.find((d: { id: number }) => !granted.some((g) => g.id === d.id));
      expect((await getById('oceanops', hidden.id)).code).toBe(ErrorCode.NotFound);
      expect((await getById('oceanops', granted[0]!.id)).code).toBe(0);
      expect((await add('oceanops', validDevice(ids.oceanic!))).code).toBe(ErrorCode.Forbidden);
      expect((await update('oceanops', { ...validDevice(ids.oceanic!), id: granted[0]!.id })).code).toBe(ErrorCode.Forbidden);
      expect((await s.call({ method: 'DELETE', url: dm(s, `device/deleteById?id=${granted[0]!.id}`), token: tokens.oceanops })).code).toBe(
        ErrorCode.Forbidden,
      );
    });

    it("answers another enterprise's device ids with not found, for every call", async () => {
      const [foreign] = await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 ORDER BY id LIMIT 1', [ids.oceanic]);
      const id = foreign!.id;
      for (const who of ['polaris', 'polarisops']) expect((await getById(who, id)).code).toBe(ErrorCode.NotFound);
      expect((await update('polaris', { ...validDevice(ids.polaris!), id })).code).toBe(ErrorCode.NotFound);
      expect((await s.call({ method: 'DELETE', url: dm(s, `device/deleteById?id=${id}`), token: tokens.polaris })).code).toBe(
        ErrorCode.NotFound,
      );
      expect((await list('polaris', `&ownerId=${ids.oceanic}`)).data).toEqual({ list: [], total: 0 });
      expect((await getById('admin', id)).code).toBe(0);
    });
  });

  describe('list filters, search, sort and pages', () => {
    it('filters by kind, type, status, activation, owner and search', async () => {
      const all = (await list('admin')).data.list as Record<string, unknown>[];
      const check = async (query: string, match: (d: Record<string, unknown>) => boolean) => {
        const res = await list('admin', query);
        expect(res.code).toBe(0);
        expect(res.data.list.map((d: { id: number }) => d.id)).toEqual(all.filter(match).map((d) => d.id));
        expect(res.data.total).toBe(all.filter(match).length);
      };
      await check('&deviceKind=vsat', (d) => d.deviceKind === 'vsat');
      await check('&deviceKind=vsat,4g', (d) => d.deviceKind === 'vsat' || d.deviceKind === '4g');
      await check('&deviceType=vBox', (d) => d.deviceType === 'vBox');
      await check('&status=2', (d) => d.status === 2);
      await check('&status=0,2', (d) => d.status === 0 || d.status === 2);
      await check('&activated=false', (d) => d.activated === false);
      await check(`&ownerId=${ids.polaris}`, (d) => d.ownerId === ids.polaris);
      await check(`&ownerSubId=${ids.oceanops}`, (d) => d.ownerSubId === ids.oceanops);
      await check('&search=polar', (d) => /polar/i.test(String(d.name)) || /polar/i.test(String(d.callsign)));
      await check('&search=50%25', () => false);
    });

    it('keeps the summary counts exact through inserts, updates (as live monitoring does) and deletes', async () => {
      const exact = async () =>
        (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices WHERE status = 2 AND owner_id = $1', [ids.polaris]))[0]!.n;
      const total = async () =>
        (await s.call({ url: dm(s, `device/getAll?status=2&ownerId=${ids.polaris}`), token: tokens.admin })).data.total;
      expect(await total()).toBe(await exact());
      await s.db.query('UPDATE devices SET status = 2 WHERE owner_id = $1 AND id % 2 = 0', [ids.polaris]);
      await s.db.query('UPDATE devices SET speed = 3 WHERE owner_id = $1', [ids.polaris]);
      expect(await total()).toBe(await exact());
      const created = await add('admin', validDevice(ids.polaris!));
      await s.db.query('UPDATE devices SET status = 2, owner_id = $2 WHERE id = $1', [created.data.id, ids.polaris]);
      expect(await total()).toBe(await exact());
      await s.call({ method: 'DELETE', url: dm(s, `device/deleteById?id=${created.data.id}`), token: tokens.admin });
      expect(await total()).toBe(await exact());
      const [summary] = await s.db.query<{ n: number }>('SELECT sum(n)::int AS n FROM device_counts');
      const [devices] = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices');
      expect(summary!.n).toBe(devices!.n);
    });

    it('sorts and pages without overlap', async () => {
      const total = (await list('admin')).data.total;
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(total / 7); page++) {
        const res = await s.call({ url: dm(s, `device/getAll?pageSize=7&pageIndex=${page}&sort=name&order=desc`), token: tokens.admin });
        seen.push(...res.data.list.map((d: { name: string }) => d.name));
      }
      expect(seen).toHaveLength(total);
      const names = (await s.db.query<{ name: string }>('SELECT name FROM devices ORDER BY name DESC, id DESC')).map((r) => r.name);
      expect(seen).toEqual(names);
      const beyond = await s.call({ url: dm(s, 'device/getAll?pageSize=20&pageIndex=999'), token: tokens.admin });
      expect(beyond.data).toEqual({ list: [], total });
    });
  });
});
