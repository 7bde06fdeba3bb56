import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ErrorCode } from '../../src/domain/errorCodes';
import { createTestServer, engines, type TestServer } from './helpers';

/**
 * The lists that export as they read (docs/api.md, "Exports"): fleet statistics, data plans, alarms
 * and fault-clearing records. Each file has its list's filters, headers and words in the reader's
 * language, times at the reader's zone, and only the caller's vessels.
 */
describe.each(engines)('list exports (%s)', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  let vesselId = 0;
  let vesselName = '';
  let oceanicId = 0;
  let oceanicNames = new Set<string>();
  const at = '2026-07-19T09:06:15.000Z';

  const file = (user: string, path: string, query: string) => s.app.inject({ url: `${s.base}${path}?token=${tokens[user]}&${query}` });
  const csvLines = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
  async function sheetRows(payload: Buffer): Promise<unknown[][]> {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(payload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }
  /** A level-2 user's export holds none of the other enterprise's vessels (the vessel column is `column`). */
  async function onlyOwn(path: string, column: number) {
    await s.db.query(`DELETE FROM export_throttle`);
    const res = await file('polaris', path, 'format=csv&lang=en');
    expect(res.statusCode).toBe(200);
    const [, ...rows] = csvLines(res.body);
    for (const row of rows) expect(oceanicNames.has(row[column]!)).toBe(false);
    return rows;
  }

  beforeAll(async () => {
    s = await createTestServer(engine);
    for (const name of ['oceanic', 'polaris']) tokens[name] = await s.login(name);
    const [vessel] = await s.db.query<{ id: number; name: string; owner: number }>(
      `SELECT d.id, d.name, u.id AS owner FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' ORDER BY d.id LIMIT 1`,
    );
    vesselId = vessel!.id;
    vesselName = vessel!.name;
    oceanicId = vessel!.owner;
    const names = await s.db.query<{ name: string }>(`SELECT name FROM devices WHERE owner_id = $1`, [oceanicId]);
    oceanicNames = new Set(names.map((n) => n.name));
  });
  afterAll(() => s.close());
  beforeEach(() => s.db.query(`DELETE FROM export_throttle`));

  it('exports fleet statistics as getFleet reads them: hours and availability as numbers, a locked vessel noted', async () => {
    const fleet = await s.call({
      url: `${s.base}/deviceModule/statistics/getFleet?days=5&utcOffset=8&pageSize=500&search=${encodeURIComponent(vesselName)}`,
      token: tokens.oceanic,
    });
    const listed = (fleet.data.list as { name: string; onlineSeconds: number; warnSeconds: number; availability: number }[]).find(
      (r) => r.name === vesselName,
    )!;
    const en = await file('oceanic', '/deviceModule/statistics/exportFleet', 'format=xlsx&lang=en&tz=8&days=5&utcOffset=8');
    expect(en.statusCode).toBe(200);
    const [header, ...rows] = await sheetRows(en.rawPayload);
    expect(header).toEqual(['Vessel', 'Device number', 'Online (h)', 'Of which warning (h)', 'Availability (%)', 'Note']);
    const row = rows.find((r) => r[0] === vesselName)!;
    expect(row[2]).toBe(Math.round(listed.onlineSeconds / 36) / 100);
    expect(row[3]).toBe(Math.round(listed.warnSeconds / 36) / 100);
    expect(row[4]).toBe(Math.round(listed.availability * 1000) / 10);
    expect(typeof row[4]).toBe('number');
    expect(rows.length).toBe(oceanicNames.size);

    // Polaris without the statistics feature: every vessel noted, no figures, and none of Oceanic's.
    await s.db.query(
      `DELETE FROM device_auth_grants WHERE feature = 'statistics' AND enterprise_id = (SELECT id FROM users WHERE name = 'polaris')`,
    );
    await s.db.query(`DELETE FROM export_throttle`);
    const zh = await file('polaris', '/deviceModule/statistics/exportFleet', 'format=csv&lang=zh&sort=name&order=asc');
    const [zhHeader, ...zhRows] = csvLines(zh.body);
    expect(zhHeader).toEqual(['船名', '设备编号', '在线（小时）', '其中异常（小时）', '可用率（%）', '备注']);
    expect(zhRows.length).toBeGreaterThan(0);
    for (const r of zhRows) expect(r.slice(2)).toEqual(['', '', '', '未开通统计功能']);
    await onlyOwn('/deviceModule/statistics/exportFleet', 0);
  });

  it('exports data plans with the plan, period, usage and state in words, the period at the zone', async () => {
    const set = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/dataPlan/set`,
      token: tokens.oceanic,
      payload: { deviceId: vesselId, quotaBytes: 10e9, resetDay: 1 },
    });
    expect(set.code).toBe(0);
    await s.db.query(
      `INSERT INTO data_usage (device_id, period_start, bytes) VALUES ($1, data_period_start(1, now()), 9e9)
       ON CONFLICT (device_id) DO UPDATE SET period_start = EXCLUDED.period_start, bytes = EXCLUDED.bytes`,
      [vesselId],
    );
    const start = new Date(set.data.periodStart as string);
    const local = (d: Date, h: number) => new Date(d.getTime() + h * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const zh = await file('oceanic', '/deviceModule/dataPlan/export', 'format=csv&lang=zh&tz=8&planned=true');
    expect(zh.statusCode).toBe(200);
    const [header, ...rows] = csvLines(zh.body);
    expect(header).toEqual([
      '船舶',
      '设备编号',
      '所属企业',
      '套餐',
      '本期开始 (UTC+8)',
      '本期结束 (UTC+8)',
      '本期已用（GB）',
      '额度（GB）',
      '已用（%）',
      '状态',
    ]);
    const row = rows.find((r) => r[0] === vesselName)!;
    expect(row[3]).toBe('每月 1 日重置');
    expect(row[4]).toBe(local(start, 8));
    expect(row.slice(6)).toEqual(['9', '10', '90', '超过 80%']);

    await s.db.query(`DELETE FROM export_throttle`);
    const en = await file('oceanic', '/deviceModule/dataPlan/export', 'format=xlsx&lang=en&tz=-5');
    const [enHeader, ...enRows] = await sheetRows(en.rawPayload);
    expect(enHeader).toContain('Period from (UTC-5)');
    const enRow = enRows.find((r) => r[0] === vesselName)!;
    expect(enRow[3]).toBe('Resets on day 1 each month');
    expect((enRow[4] as Date).toISOString()).toBe(new Date(start.getTime() - 5 * 3_600_000).toISOString());
    expect(enRow.slice(6)).toEqual([9, 10, 90, 'Over 80 %']);
    expect(enRows.some((r) => r[3] === 'No plan' && r[9] === 'No plan')).toBe(true);
    await onlyOwn('/deviceModule/dataPlan/export', 0);
  });

  it('exports alarms with the meaning and severity in the reader language, times at the zone and who acknowledged', async () => {
    await s.db.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, acked_at, acked_by, cleared_at)
       VALUES ($1, 'E01', 'critical', $2, $2, $2::timestamptz + interval '5 minutes', $3, $2::timestamptz + interval '1 hour')`,
      [vesselId, at, oceanicId],
    );
    const query = `deviceId=${vesselId}&code=E01&active=false`;
    const zh = await file('oceanic', '/deviceModule/alarm/export', `format=csv&lang=zh&tz=8&${query}`);
    expect(zh.statusCode).toBe(200);
    const [header, ...rows] = csvLines(zh.body);
    expect(header).toEqual(['船舶', '故障码', '含义', '严重程度', '发生时间 (UTC+8)', '确认时间 (UTC+8)', '确认人', '清除时间 (UTC+8)']);
    expect(rows.find((r) => r[4] === '2026-07-19 17:06:15')).toEqual([
      vesselName,
      'E01',
      '天线主板初始化失败',
      '严重',
      '2026-07-19 17:06:15',
      '2026-07-19 17:11:15',
      'oceanic',
      '2026-07-19 18:06:15',
    ]);

    await s.db.query(`DELETE FROM export_throttle`);
    const en = await file('oceanic', '/deviceModule/alarm/export', `format=xlsx&lang=en&tz=-5&${query}`);
    const [enHeader, ...enRows] = await sheetRows(en.rawPayload);
    expect(enHeader).toEqual([
      'Vessel',
      'Code',
      'Meaning',
      'Severity',
      'Raised (UTC-5)',
      'Acknowledged (UTC-5)',
      'Acknowledged by',
      'Cleared (UTC-5)',
    ]);
    const enRow = enRows.find((r) => (r[4] as Date).toISOString() === '2026-07-19T04:06:15.000Z')!;
    expect(enRow.slice(0, 4)).toEqual([vesselName, 'E01', 'Antenna mainboard initialisation failed', 'Critical']);
    expect((enRow[7] as Date).toISOString()).toBe('2026-07-19T05:06:15.000Z');

    // Another enterprise's vessel answers not found, and takes no slot; polaris's file holds only its own.
    await s.db.query(`DELETE FROM export_throttle`);
    const foreign = await s.call({ url: `${s.base}/deviceModule/alarm/export?deviceId=${vesselId}`, token: tokens.polaris });
    expect(foreign.code).toBe(ErrorCode.NotFound);
    await onlyOwn('/deviceModule/alarm/export', 0);
  });

  it('exports fault-clearing records with the steps, result and meaning in words and the time at the zone', async () => {
    await s.db.query(
      `INSERT INTO fault_clearing_records (device_id, code, steps_done, action, cleared, recorded_by, created_at)
       VALUES ($1, 'E01', '{0,2}', 'Power-cycled the ADU', true, $2, $3)`,
      [vesselId, oceanicId, at],
    );
    const en = await file('oceanic', '/supportModule/faultClearing/exportRecords', `format=csv&lang=en&tz=8&deviceId=${vesselId}`);
    expect(en.statusCode).toBe(200);
    const lines = en.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Time (UTC+8),Vessel,Fault code,Meaning,What was done,Steps done,Result,Recorded by');
    expect(lines).toContain(
      `2026-07-19 17:06:15,${vesselName},E01,Antenna mainboard initialisation failed,Power-cycled the ADU,"1, 3",Fault cleared,oceanic`,
    );

    await s.db.query(`DELETE FROM export_throttle`);
    const zh = await file(
      'oceanic',
      '/supportModule/faultClearing/exportRecords',
      `format=xlsx&lang=zh&tz=8&deviceId=${vesselId}&cleared=true`,
    );
    const [header, ...rows] = await sheetRows(zh.rawPayload);
    expect(header).toEqual(['时间 (UTC+8)', '船舶', '故障代码', '含义', '处理说明', '完成步骤', '结果', '记录人']);
    const row = rows.find((r) => r[4] === 'Power-cycled the ADU')!;
    expect((row[0] as Date).toISOString()).toBe('2026-07-19T17:06:15.000Z');
    expect(row.slice(1)).toEqual([vesselName, 'E01', '天线主板初始化失败', 'Power-cycled the ADU', '1, 3', '故障已排除', 'oceanic']);

    await s.db.query(`DELETE FROM export_throttle`);
    const foreign = await s.call({
      url: `${s.base}/supportModule/faultClearing/exportRecords?deviceId=${vesselId}`,
      token: tokens.polaris,
    });
    expect(foreign.code).toBe(ErrorCode.NotFound);
    await onlyOwn('/supportModule/faultClearing/exportRecords', 1);
  });

  it('refuses a second export within 10 s, whichever list', async () => {
    expect((await file('oceanic', '/deviceModule/alarm/export', 'format=csv')).statusCode).toBe(200);
    const again = await s.call({ url: `${s.base}/deviceModule/dataPlan/export?format=csv`, token: tokens.oceanic });
    expect(again.code).toBe(ErrorCode.ExportTooFrequent);
  });
});
