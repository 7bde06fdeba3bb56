import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { dm, multipart, xlsxOf } from './deviceFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';
import { insertDevices } from '../../server/modules/devices/importQueries';
import type { DeviceInput } from '../../src/domain/deviceSchemas';

const EN = [
  'Name',
  'Device number',
  'MAC',
  'SN',
  'Owner',
  'Sub-user',
  'Manufacture date',
  'Type',
  'ADU version',
  'BDU version',
  'Manufacture info',
  'Model',
  'Kind',
];
const ZH = [
  '设备名称*',
  '设备编号',
  'MAC地址',
  '设备SN*',
  '所属企业*',
  '子用户*',
  '生产日期*',
  '设备类型*',
  'ADU版本*',
  'BDU版本*',
  '生产信息*',
  '设备型号*',
  '设备种类*',
];
let serial = 0;
/** Unique per run: a random block of 65,536 numbers, the serial within it. */
const BASE = 0x30000000 + Math.floor(Math.random() * 0x1000) * 0x10000;
/** A good row in the column order above; owner and sub-user by name. */
function row(
  overrides: Partial<Record<number, string | number | Date | null>> = {},
  owner = 'oceanic',
  sub: string | number = 0,
): (string | number | Date | null)[] {
  serial += 1;
  const n = BASE + serial;
  const hex = n.toString(16).toUpperCase();
  const cells: (string | number | Date | null)[] = [
    `Imported ${serial}`,
    hex,
    `0E${hex}22`,
    `IMP${hex}`,
    owner,
    sub,
    new Date(Date.UTC(2023, 4, 17)),
    'VSAT terminal',
    'V1.2.0',
    'V1.0.3',
    'Factory 7',
    'VT-3',
    'VSAT',
  ];
  for (const [i, v] of Object.entries(overrides)) cells[Number(i)] = v ?? null;
  return cells;
}

describe.each(engines)('deviceModule import and export on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'polaris']));
  });
  afterAll(() => s.close());
  const upload = (who: string, file: Buffer, lang?: 'zh' | 'en') =>
    s.call({ method: 'POST', url: dm(s, 'device/import'), token: tokens[who], lang, ...multipart(file) });
  const deviceCount = async () => (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices'))[0]!.n;

  it('serves the template with the headers in the asked language', async () => {
    for (const [lang, first, kind] of [
      ['zh', '设备名称*', '设备种类*'],
      ['en', 'Name*', 'Kind*'],
    ]) {
      const res = await s.app.inject({ url: `${dm(s, 'device/importTemplate')}?token=${tokens.oceanic}&lang=${lang}` });
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const headers = (workbook.worksheets[0]!.getRow(1).values as string[]).slice(1);
      expect(headers[0]).toBe(first);
      expect(headers).toContain(kind);
      expect(headers).toHaveLength(19);
    }
  });

  it("speaks the template's language: the notes list the kinds in it, and the import takes either language's kind names", async () => {
    for (const [lang, kinds, owner] of [
      ['zh', '天线, VSAT, 4G, 微波, vBox, 其他', '企业用户的 ID 或用户名'],
      ['en', 'Antenna, VSAT, 4G, Microwave, vBox, Others', "The enterprise user's id or name"],
    ]) {
      const res = await s.app.inject({ url: `${dm(s, 'device/importTemplate')}?token=${tokens.oceanic}&lang=${lang}` });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const notes = workbook.worksheets[1]!.getSheetValues().map((r) => (r as string[] | undefined)?.slice(1) ?? []);
      expect(notes[1]).toEqual([lang === 'zh' ? '设备种类' : 'Kind', kinds]);
      expect(notes.map((n) => n[1]).find((text) => String(text).startsWith(owner!))).toBeTruthy();
    }
    const rows = [row({ 12: '天线' }), row({ 12: '微波' }), row({ 12: '其他' }), row({ 12: 'Antenna' }), row({ 12: 'microwave' })];
    const zh = await upload('admin', await xlsxOf(ZH, rows), 'zh');
    expect(zh).toMatchObject({ code: 0, data: { imported: 5 } });
    const kindOf = async (num: unknown) =>
      (await s.call({ url: dm(s, `device/getAll?search=${String(num)}`), token: tokens.admin })).data.list[0].deviceKind;
    expect(await Promise.all(rows.map((r) => kindOf(r[1])))).toEqual(['antenna', 'microwave', 'others', 'antenna', 'microwave']);
    expect((await upload('admin', await xlsxOf(EN, [row({ 12: '天线' })]), 'en')).code).toBe(0);
    const bad = await upload('admin', await xlsxOf(ZH, [row({ 12: '雷达' })]), 'zh');
    expect(bad.data).toEqual([{ row: 2, column: '设备种类', message: '设备种类只能是天线、VSAT、4G、微波、vBox 或其他' }]);
  });

  it('imports good rows with headers in either language, owners by name, dates as dates, bare MACs', async () => {
    const before = await deviceCount();
    const rows = [row({}, 'oceanic', 'oceanops'), row({}, 'polaris')];
    const res = await upload('admin', await xlsxOf(ZH, rows));
    expect(res).toMatchObject({ code: 0, data: { imported: 2 } });
    expect(await deviceCount()).toBe(before + 2);
    const found = await s.call({ url: dm(s, `device/getAll?search=${rows[0]![1]}`), token: tokens.admin });
    expect(found.data.list[0]).toMatchObject({
      ownerId: ids.oceanic,
      ownerSubId: ids.oceanops,
      manufactureDate: '2023-05-17',
      deviceKind: 'vsat',
      mac: String(rows[0]![2]).match(/../g)!.join('.'),
    });
    expect((await upload('admin', await xlsxOf(EN, [row()]))).code).toBe(0);
  });

  it('reports every bad row with row number, column and message in the caller language, and writes nothing', async () => {
    const before = await deviceCount();
    const [existing] = await s.db.query<{ device_sn: string }>('SELECT device_sn FROM devices ORDER BY id LIMIT 1');
    const good = row();
    const rows = [
      good,
      row({ 1: 'xyz' }),
      row({ 0: '', 3: 'HAS SPACE' }),
      row({ 3: existing!.device_sn }),
      row({ 3: good[3] as string }),
      row({}, 'nobody'),
    ];
    const en = await upload('admin', await xlsxOf(EN, rows), 'en');
    expect(en.code).toBe(ErrorCode.Validation);
    expect(en.msg).toBe('6 errors found; nothing was imported');
    expect(en.data).toEqual([
      { row: 3, column: 'Device number', message: 'The device number must be 8 characters of 0-9 or A-F' },
      { row: 4, column: 'Name', message: 'required' },
      { row: 4, column: 'SN', message: 'The device SN must not contain spaces' },
      { row: 5, column: 'SN', message: 'This device SN already exists' },
      { row: 6, column: 'SN', message: 'Same as row 2 of the file' },
      { row: 7, column: 'Owner', message: 'No such user' },
    ]);
    const zh = await upload('admin', await xlsxOf(ZH, rows.slice(0, 3)), 'zh');
    expect(zh.msg).toBe('有 3 处错误，未导入任何数据');
    expect(zh.data).toEqual([
      { row: 3, column: '设备编号', message: '设备编号必须是8位数字或大写字母A-F' },
      { row: 4, column: '设备名称', message: '必填项' },
      { row: 4, column: '设备SN', message: '设备SN不能包含空格' },
    ]);
    expect(await deviceCount()).toBe(before);
  });

  it('writes all rows or none: a failing batch rolls back the batches before it', async () => {
    const before = await deviceCount();
    const [existing] = await s.db.query<{ device_sn: string }>('SELECT device_sn FROM devices ORDER BY id LIMIT 1');
    const devices: DeviceInput[] = Array.from({ length: 1500 }, (_, i) => ({
      name: `Atomic ${i}`,
      deviceSn: i === 1400 ? existing!.device_sn : `ATOM${i}-${engine}`,
      ownerId: ids.oceanic!,
      ownerSubId: 0,
      manufactureDate: '2024-01-01',
      deviceType: 't',
      aduVersion: 'a',
      bduVersion: 'b',
      manufactureInfo: 'm',
      deviceModel: 'x',
      deviceKind: 'vbox',
    }));
    await expect(s.db.transaction((tx) => insertDevices(tx, devices))).rejects.toThrow();
    expect(await deviceCount()).toBe(before);
  });

  it('keeps an enterprise import to its own devices, and a sub-user out', async () => {
    const mine = row({ 4: null });
    expect((await upload('polaris', await xlsxOf(EN, [mine]))).code).toBe(0);
    expect((await s.db.query<{ owner_id: number }>('SELECT owner_id FROM devices WHERE device_sn = $1', [mine[3]]))[0]!.owner_id).toBe(
      ids.polaris,
    );
    const foreign = await upload('polaris', await xlsxOf(EN, [row({}, 'oceanic')]), 'en');
    expect(foreign).toMatchObject({
      code: ErrorCode.Validation,
      data: [{ row: 2, column: 'Owner', message: 'You are not allowed to do this' }],
    });
    expect((await upload('oceanops', await xlsxOf(EN, [row()]))).code).toBe(ErrorCode.Forbidden);
  });

  it('checks the file by its content', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect(await upload('admin', png, 'en')).toMatchObject({
      code: ErrorCode.UploadRejected,
      msg: 'Only Excel files (xlsx or xls) can be uploaded',
    });
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    expect(await upload('admin', xls, 'en')).toMatchObject({ code: ErrorCode.UploadRejected, msg: expect.stringContaining('.xlsx') });
    const brokenZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 7)]);
    expect(await upload('admin', brokenZip, 'en')).toMatchObject({ code: ErrorCode.UploadRejected, msg: 'This Excel file cannot be read' });
    expect(await upload('admin', await xlsxOf(EN, []), 'en')).toMatchObject({
      code: ErrorCode.Validation,
      msg: 'The file holds no data rows',
    });
    expect((await s.call({ method: 'POST', url: dm(s, 'device/import'), token: tokens.admin, payload: {} })).code).toBe(
      ErrorCode.UploadRejected,
    );
  });

  it('imports 10,000 rows, and pages through them from both ends', async () => {
    const before = await deviceCount();
    const rows = Array.from({ length: 10_000 }, (_, i) => row({ 0: `Bulk ${String(i).padStart(5, '0')}` }, i % 2 ? 'oceanic' : 'polaris'));
    const file = await xlsxOf(EN, rows);
    const started = Date.now();
    const res = await upload('admin', file);
    expect(res).toMatchObject({ code: 0, data: { imported: 10_000 } });
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(await deviceCount()).toBe(before + 10_000);
    const ordered = (await s.db.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).map((r) => r.id);
    for (const pageIndex of [1, 60, 400, Math.ceil(ordered.length / 20)]) {
      const page = await s.call({ url: dm(s, `device/getAll?pageSize=20&pageIndex=${pageIndex}`), token: tokens.admin });
      expect(page.data.total).toBe(ordered.length);
      expect(page.data.list.map((d: { id: number }) => d.id)).toEqual(ordered.slice((pageIndex - 1) * 20, pageIndex * 20));
    }
    const polarisDesc = (
      await s.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 ORDER BY name DESC, id DESC', [ids.polaris])
    ).map((r) => r.id);
    const last = Math.ceil(polarisDesc.length / 50);
    const page = await s.call({ url: dm(s, `device/getAll?pageSize=50&pageIndex=${last}&sort=name&order=desc`), token: tokens.polaris });
    expect(page.data.list.map((d: { id: number }) => d.id)).toEqual(polarisDesc.slice((last - 1) * 50));
  }, 120_000);

  describe('export', () => {
    it('exports the filtered list as CSV with translated headers, then answers -101 within 10 s', async () => {
      const res = await s.app.inject({ url: `${dm(s, 'device/export')}?token=${tokens.polaris}&format=csv&lang=en&deviceKind=vsat` });
      expect(res.headers['content-type']).toContain('text/csv');
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]!.startsWith('ID,Name,Device number,MAC,SN,Owner')).toBe(true);
      const total = (await s.call({ url: dm(s, 'device/getAll?deviceKind=vsat'), token: tokens.polaris })).data.total;
      expect(lines).toHaveLength(total + 1);
      expect(lines.slice(1).every((l) => l.includes(',polaris,'))).toBe(true);
      const again = await s.call({ url: dm(s, 'device/export?format=csv'), token: tokens.polaris, lang: 'en' });
      expect(again).toMatchObject({
        code: ErrorCode.ExportTooFrequent,
        msg: 'Do not export data frequently. Wait 10 seconds and try again',
      });
      const zh = await s.call({ url: dm(s, 'device/export?format=xlsx'), token: tokens.polaris, lang: 'zh' });
      expect(zh).toMatchObject({ code: -101, msg: '请勿频繁导出数据，请等待 10 秒后再试' });
      await s.db.query(`UPDATE export_throttle SET last_export_at = now() - interval '11 seconds' WHERE user_id = $1`, [ids.polaris]);
      expect((await s.app.inject({ url: `${dm(s, 'device/export')}?token=${tokens.polaris}&format=csv` })).statusCode).toBe(200);
    });

    it('exports Excel for a sub-user with only its granted vessels', async () => {
      const res = await s.app.inject({ url: `${dm(s, 'device/export')}?token=${tokens.oceanops}&format=xlsx&lang=zh` });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      expect((sheet.getRow(1).values as string[])[2]).toBe('设备名称');
      const visible = (await s.call({ url: dm(s, 'device/getAll'), token: tokens.oceanops })).data.total;
      expect(sheet.rowCount).toBe(visible + 1);
    });
  });
});
