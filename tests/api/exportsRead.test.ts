import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ErrorCode } from '../../src/domain/errorCodes';
import { createTestServer, engines, type TestServer } from './helpers';

/**
 * Every export reads as its list does (docs/api.md, "Exports"): times in the reader's zone (`tz`,
 * which the console sends with every download) with the zone in the header, real date cells in
 * Excel, names and yes/no in the reader's language, and a byte-order mark on CSV.
 */
describe.each(engines)('exports read as the lists do (%s)', (engine) => {
  let s: TestServer;
  let token = '';
  let vesselId = 0;
  let vesselName = '';
  const at = '2026-07-19T09:06:15.000Z';

  const file = (path: string, query: string) => s.app.inject({ url: `${s.base}${path}?token=${token}&${query}` });
  const csvLines = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
  async function sheetOf(payload: Buffer) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(payload as unknown as ArrayBuffer);
    return book.worksheets[0]!;
  }

  beforeAll(async () => {
    s = await createTestServer(engine);
    token = await s.login('polaris');
    const [vessel] = await s.db.query<{ id: number; name: string }>(
      `SELECT d.id, d.name FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'polaris' ORDER BY d.id LIMIT 1`,
    );
    vesselId = vessel!.id;
    vesselName = vessel!.name;
    await s.db.query(`UPDATE devices SET activated = true, activated_at = $2 WHERE id = $1`, [vesselId, at]);
    await s.db.query(
      `INSERT INTO geofence_events (device_id, geofence_id, geofence_name, geofence_kind, event, at, lat, lon)
       VALUES ($1, 1, 'Singapore', 'port', 'arrival', $2, 1.26, 103.8)`,
      [vesselId, at],
    );
  });
  afterAll(() => s.close());
  // Exports share a 10 s throttle per user; each case starts with a free slot.
  beforeEach(() => s.db.query(`DELETE FROM export_throttle`));

  it('writes the device list CSV with a BOM, times in the reader zone named in the header, and words for states (zh)', async () => {
    const res = await file('/deviceModule/device/export', 'format=csv&lang=zh&tz=8');
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = csvLines(res.body);
    const columns = header!.split(',');
    const activatedAt = columns.findIndex((c) => c.endsWith('(UTC+8)'));
    expect(activatedAt).toBeGreaterThan(0);
    const row = rows.find((r) => r.split(',')[1] === vesselName)!.split(',');
    expect(row[activatedAt]).toBe('2026-07-19 17:06:15');
    expect(row).toContain('已激活');
    expect(res.body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });

  it('writes real date cells in Excel, at the reader zone (en, UTC-5)', async () => {
    const res = await file('/deviceModule/device/export', 'format=xlsx&lang=en&tz=-5');
    const sheet = await sheetOf(res.rawPayload);
    const header = sheet.getRow(1).values as string[];
    const column = header.findIndex((c) => typeof c === 'string' && c.endsWith('(UTC-5)'));
    expect(column).toBeGreaterThan(0);
    let cell: ExcelJS.Cell | undefined;
    sheet.eachRow((row) => {
      if (row.getCell(2).value === vesselName) cell = row.getCell(column);
    });
    expect(cell!.value).toBeInstanceOf(Date);
    // Excel has no zones: the cell holds the wall-clock time at UTC-5.
    expect((cell!.value as Date).toISOString()).toBe('2026-07-19T04:06:15.000Z');
    expect(cell!.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('writes a declared list (port calls) with translated events and the zone, in both formats', async () => {
    const csv = await file('/supportModule/geofenceEvent/export', 'format=csv&lang=zh&tz=8');
    const [header, ...rows] = csvLines(csv.body);
    expect(header).toContain('时间 (UTC+8)');
    expect(rows.some((r) => r.includes('2026-07-19 17:06:15') && r.includes('到达') && r.includes('港口'))).toBe(true);
    await s.db.query(`DELETE FROM export_throttle`);
    const xlsx = await file('/supportModule/geofenceEvent/export', 'format=xlsx&lang=en');
    const sheet = await sheetOf(xlsx.rawPayload);
    const titles = sheet.getRow(1).values as string[];
    expect(titles).toContain('Time (UTC)');
    const values = sheet.getRow(2).values as unknown[];
    expect(values).toContain('Arrival');
    expect(values.find((v) => v instanceof Date)).toEqual(new Date(at));
  });

  it('writes commands as the list reads them: kind, state and result in words (en and zh)', async () => {
    await s.db.query(
      `INSERT INTO device_commands (device_id, kind, params, state, created_at, sent_at, acked_at, done_at, deadline, result)
       VALUES ($1, 'reboot', '{}', 'done', $2, $2, $2, $2::timestamptz + interval '40 seconds', $2::timestamptz + interval '10 minutes', '{"downForS": 40}')`,
      [vesselId, at],
    );
    const en = await file('/deviceModule/command/export', `format=csv&lang=en&tz=8&deviceId=${vesselId}&state=done`);
    expect(en.statusCode).toBe(200);
    const [header, row] = csvLines(en.body);
    expect(header).toBe(
      'ID,Vessel,Command,Parameters,State,Sent by,Created (UTC+8),Sent (UTC+8),Acknowledged (UTC+8),Deadline (UTC+8),Result',
    );
    expect(row).toContain(`${vesselName},Reboot,,Done,,2026-07-19 17:06:15`);
    expect(row).toContain('Rebooted: back online after 40 s');
    await s.db.query(`DELETE FROM export_throttle`);
    const zh = await file('/deviceModule/command/export', `format=xlsx&lang=zh&deviceId=${vesselId}&state=done`);
    const sheet = await sheetOf(zh.rawPayload);
    expect((sheet.getRow(1).values as string[]).slice(1, 4)).toEqual(['编号', '船舶', '指令']);
    const values = sheet.getRow(2).values as unknown[];
    expect(values).toEqual(expect.arrayContaining(['重启', '已完成', '重启完成：40 秒后恢复在线']));
  });

  it('refuses a time zone out of range with the field named in the reader language, and keeps the export slot', async () => {
    const refused = await s.call({ url: `${s.base}/deviceModule/device/export?format=csv&tz=13`, token, lang: 'zh' });
    expect(refused.code).toBe(ErrorCode.Validation);
    expect(JSON.stringify(refused.data)).toContain('tz');
    expect(refused.msg).toMatch(/[\u4e00-\u9fff]/);
    const english = await s.call({ url: `${s.base}/deviceModule/device/export?format=csv&tz=abc`, token, lang: 'en' });
    expect(english.code).toBe(ErrorCode.Validation);
    expect((await file('/deviceModule/device/export', 'format=csv&tz=12')).statusCode).toBe(200);
  });
});
