import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { Level, type Principal } from '../../src/domain/levels';
import { previousPeriod, type ReportRange } from '../../src/domain/reports';
import { buildReport } from '../../server/reports/buildReport';
import { createTestServer, engines, idOf, type TestServer } from './helpers';
import { every, ingestAt } from './vesselFixtures';
import { sealDailyRollups } from '../../server/modules/monitoring';

/**
 * A scheduled report's content (server/reports/buildReport.ts): the workbook and the mail over a
 * past week, for an enterprise's vessels only, in the recipient's language and zone.
 */
describe.each(engines)('a report is built from its period and its caller (%s)', (engine) => {
  let s: TestServer;
  let caller: Principal;
  let vesselId = 0;
  let oceanicName = '';
  let reporting = { id: 0, name: '' };
  const vesselName = 'Polaris <b>Bold</b>';
  const range: ReportRange = previousPeriod('week', 8);
  const at = (minutes: number) => new Date(range.fromMs + minutes * 60_000).toISOString();

  async function load(xlsx: Buffer) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx as unknown as ArrayBuffer);
    return book;
  }
  /** The sheet's rows as arrays of cell values (index 0 = column A; an empty cell null, none after the last value). */
  const rowsOf = (sheet: ExcelJS.Worksheet) => {
    const rows: unknown[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row, n) => {
      const values = Array.from((row.values as unknown[]).slice(1), (v) => v ?? null);
      while (values.length && values[values.length - 1] === null) values.pop();
      rows[n - 1] = values;
    });
    return Array.from(rows, (r) => r ?? []);
  };
  /** The rows after the section title `title` up to the next empty row (its header first). */
  const section = (rows: unknown[][], title: string) => {
    const start = rows.findIndex((r) => r[0] === title);
    expect(start).toBeGreaterThanOrEqual(0);
    const end = rows.findIndex((r, i) => i > start && r.length === 0);
    return rows.slice(start + 1, end < 0 ? undefined : end);
  };

  beforeAll(async () => {
    s = await createTestServer(engine);
    const polaris = await idOf(s.db, 'polaris');
    caller = { id: polaris, permissionLevel: Level.Enterprise, parentId: null };
    const [vessel] = await s.db.query<{ id: number }>(`SELECT id FROM devices WHERE owner_id = $1 ORDER BY id LIMIT 1`, [polaris]);
    vesselId = vessel!.id;
    await s.db.query(`UPDATE devices SET name = $2 WHERE id = $1`, [vesselId, vesselName]);
    const [other] = await s.db.query<{ id: number; name: string }>(
      `SELECT d.id, d.name FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' ORDER BY d.id LIMIT 1`,
    );
    oceanicName = other!.name;
    // Another Polaris vessel reports every 5 minutes for 6 hours on the week's third day (the offline threshold is 10 minutes).
    const [second] = await s.db.query<{ id: number; name: string; num: string }>(
      `SELECT id, name, device_num AS num FROM devices WHERE owner_id = $1 AND id <> $2 ORDER BY id LIMIT 1`,
      [polaris, vesselId],
    );
    reporting = second!;
    await ingestAt(s, second!.num, every(5, range.fromMs + 48 * 3_600_000, range.fromMs + 54 * 3_600_000));
    // Four alarms of the range (acknowledged after 10, 20 and 30 minutes; cleared after 60, 120 and 5), one before it.
    await s.db.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, acked_at, cleared_at) VALUES
         ($1, 'E101', 'critical', $2, $2, $3, $4),
         ($1, 'E101', 'critical', $5, $5, $6, $7),
         ($1, 'E202', 'major', $8, $8, $9, NULL),
         ($1, 'E303', 'minor', $10, $10, NULL, $11),
         ($1, 'E101', 'critical', $12, $12, $12, $12),
         ($13, 'E999', 'critical', $2, $2, NULL, NULL)`,
      [vesselId, at(60), at(70), at(120), at(120), at(140), at(240), at(180), at(210), at(240), at(245), at(-60), other!.id],
    );
    await s.db.query(
      `INSERT INTO device_commands (device_id, kind, state, created_at, deadline) VALUES
         ($1, 'reboot', 'done', $2, $2), ($1, 'reboot', 'acknowledged', $2, $2), ($1, 'reboot', 'failed', $2, $2),
         ($1, 'repoint', 'expired', $2, $2), ($1, 'repoint', 'cancelled', $2, $2), ($1, 'diagnostics', 'queued', $2, $2),
         ($1, 'reboot', 'failed', $3, $3), ($4, 'reboot', 'failed', $2, $2)`,
      [vesselId, at(300), at(-10), other!.id],
    );
  });
  afterAll(() => s.close());

  const build = (lang: 'zh' | 'en', offsetHours: number, title: string) =>
    buildReport(s.db, { caller, kinds: ['availability', 'alarms', 'commands'], range, lang, offsetHours, title });

  it('writes the sheets and headers in Chinese, the period as date cells at the zone, and only the caller’s vessels', async () => {
    const report = await build('zh', 8, '周报');
    const book = await load(report.xlsx);
    expect(book.worksheets.map((w) => w.name)).toEqual(['摘要', '可用率', '告警', '远程指令']);

    const summary = rowsOf(book.worksheets[0]!);
    expect(summary[0]![0]).toBe('周报');
    expect(summary[1]![0]).toBe('开始');
    expect(summary[1]![1]).toBeInstanceOf(Date);
    // Excel has no zones: the cell holds the wall-clock time at UTC+8, the week's Monday 00:00 there.
    expect((summary[1]![1] as Date).toISOString()).toBe(new Date(range.fromMs + 8 * 3_600_000).toISOString());
    expect((summary[1]![1] as Date).toISOString()).toMatch(/T00:00:00\.000Z$/);
    expect((summary[2]![1] as Date).getTime() - (summary[1]![1] as Date).getTime()).toBe(7 * 86_400_000);
    expect(book.worksheets[0]!.getCell('B2').numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(summary[3]).toEqual(['时区', 'UTC+8']);
    const vessels = summary.find((r) => r[0] === '船舶数')![1] as number;
    expect(vessels).toBe(report.vessels);

    const availability = rowsOf(book.worksheets[1]!);
    expect(availability[0]).toEqual([
      '船名',
      '设备编号',
      '在线（小时）',
      '其中异常（小时）',
      '离线（小时）',
      '可用率',
      '最长离线（小时）',
      '备注',
    ]);
    expect(availability.some((r) => r[0] === vesselName)).toBe(true);
    // One row per visible vessel, then the fleet's.
    expect(availability.findIndex((r) => r[0] === '船队合计')).toBe(1 + vessels);
    // No reports in the week: no online time, the whole week offline and one outage as long as the week.
    const row = availability.find((r) => r[0] === vesselName)!;
    expect(row[2]).toBe(0);
    expect(row[4]).toBe(168);
    expect(row[6]).toBe(168);
    const days = section(availability, '船队每日');
    expect(days[0]![0]).toBe('日期');
    expect(days.length).toBe(1 + 7);
    expect((days[1]![0] as Date).toISOString()).toBe(new Date(range.fromMs + 8 * 3_600_000).toISOString());

    const alarms = rowsOf(book.worksheets[2]!);
    expect(section(alarms, '按级别')[0]).toEqual([
      '级别',
      '告警数',
      '已确认',
      '确认用时中位数（分钟）',
      '确认用时 P90（分钟）',
      '已清除',
      '清除用时中位数（分钟）',
      '清除用时 P90（分钟）',
    ]);
    expect(rowsOf(book.worksheets[3]!)[0]).toEqual(['指令', '已发送', '已确认或完成', '失败', '过期']);

    for (const sheet of book.worksheets)
      sheet.eachRow((r) => (r.values as unknown[]).forEach((v) => expect(String(v)).not.toContain(oceanicName)));
    expect(report.subject).toMatch(/^周报 · \d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}$/);
  });

  it('counts the alarms by severity, code and vessel, with the times to acknowledge and clear (en)', async () => {
    const report = await build('en', -5, 'Weekly report');
    const book = await load(report.xlsx);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Availability', 'Alarms', 'Commands']);
    expect(rowsOf(book.worksheets[1]!)[0]).toEqual([
      'Vessel',
      'Device number',
      'Online (h)',
      'Of which warning (h)',
      'Offline (h)',
      'Availability',
      'Longest outage (h)',
      'Note',
    ]);
    const alarms = rowsOf(book.worksheets[2]!);
    const severity = section(alarms, 'By severity');
    expect(severity[0]!.slice(0, 4)).toEqual(['Severity', 'Alarms', 'Acknowledged', 'Median time to acknowledge (min)']);
    expect(severity.slice(1)).toEqual([
      ['Critical', 2, 2, 15, 19, 2, 90, 114],
      ['Major', 1, 1, 30, 30, 0],
      ['Minor', 1, 0, null, null, 1, 5, 5],
      ['Total', 4, 3, 20, 28, 3, 60, 108],
    ]);
    expect(section(alarms, 'By alarm code')).toEqual([
      ['Alarm code', 'Alarms', 'Critical', 'Major', 'Minor'],
      ['E101', 2, 2, 0, 0],
      ['E202', 1, 0, 1, 0],
      ['E303', 1, 0, 0, 1],
    ]);
    expect(section(alarms, 'Top 10 vessels by alarms')).toEqual([
      ['Vessel', 'Alarms', 'Critical'],
      [vesselName, 4, 2],
    ]);
    expect(section(alarms, 'By vessel').slice(1)).toEqual([[vesselName, 4, 2]]);

    const commands = rowsOf(book.worksheets[3]!);
    expect(commands).toEqual([
      ['Command', 'Sent', 'Acknowledged or done', 'Failed', 'Expired'],
      ['Request diagnostics', 1, 0, 0, 0],
      ['Reboot', 3, 2, 1, 0],
      ['Re-point', 2, 0, 0, 1],
      ['Total', 6, 2, 1, 1],
    ]);

    const summary = rowsOf(book.worksheets[0]!);
    expect(summary[3]).toEqual(['Time zone', 'UTC-5']);
    expect((summary[1]![1] as Date).toISOString()).toBe(new Date(range.fromMs - 5 * 3_600_000).toISOString());
    const figure = (label: string) => summary.find((r) => r[0] === label)?.[1];
    expect(figure('Alarms raised')).toBe(4);
    expect(figure('Critical alarms')).toBe(2);
    expect(figure('Median time to acknowledge (min)')).toBe(20);
    expect(figure('Commands sent')).toBe(6);
    expect(figure('Commands failed')).toBe(1);
    // The fleet's: online time over the period of every vessel with figures (those whose statistics are not locked).
    const availability = rowsOf(book.worksheets[1]!);
    const counted = availability.slice(1, 1 + report.vessels).filter((r) => r[7] !== 'Statistics not enabled').length;
    expect(counted).toBeGreaterThan(0);
    expect(figure('Fleet availability')).toBeCloseTo(22_200 / (168 * 3600 * counted), 6);
    expect(availability.find((r) => r[0] === 'Fleet total')![5]).toBe(figure('Fleet availability'));
  });

  it('counts online time per vessel and per local day, and the longest outage, from the rollups', async () => {
    const report = await buildReport(s.db, { caller, kinds: ['availability'], range, lang: 'en', offsetHours: 8, title: 'Weekly report' });
    const book = await load(report.xlsx);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Availability']);
    const rows = rowsOf(book.worksheets[1]!);
    // 6 hours between the reports and the last one's 10 minutes; offline before (48 h) and after (113 h 50 min).
    const row = rows.find((r) => r[0] === reporting.name)!;
    expect(row.slice(2, 7)).toEqual([6.2, 0, 161.8, 6.1667 / 168, 113.8].map((v, i) => (i === 3 ? expect.closeTo(v, 4) : v)));
    const fleet = rows.find((r) => r[0] === 'Fleet total')!;
    expect(fleet[2]).toBe(6.2);
    const days = section(rows, 'Fleet per day').slice(1);
    expect(days.map((d) => d[2])).toEqual([0, 0, 6.2, 0, 0, 0, 0]);
    expect((days[2]![0] as Date).toISOString()).toBe(new Date(range.fromMs + 8 * 3_600_000 + 2 * 86_400_000).toISOString());
    expect(book.worksheets[1]!.getCell(`F${rows.indexOf(row) + 1}`).numFmt).toBe('0.0%');
  });

  it('writes each vessel’s links under its availability: time up, carrying the traffic, down, failovers away (en)', async () => {
    const polaris = await idOf(s.db, 'polaris');
    const [router] = await s.db.query<{ id: number; name: string; num: string }>(
      `SELECT id, name, device_num AS num FROM devices WHERE owner_id = $1 AND id NOT IN ($2, $3) ORDER BY id DESC LIMIT 1`,
      [polaris, vesselId, reporting.id],
    );
    const [foreign] = await s.db.query<{ num: string }>(
      `SELECT d.device_num AS num FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' ORDER BY d.id LIMIT 1`,
    );
    // On the week's fifth day, an hour of reports every 5 minutes: GEO carries the traffic for 30 minutes, then loses lock and LEO takes over.
    const from = range.fromMs + 96 * 3_600_000;
    const links = (t: number) => ({
      links:
        t < from + 30 * 60_000
          ? [
              { id: 'vsat1', kind: 'geo', state: 'up', active: true },
              { id: 'leo1', kind: 'leo', state: 'standby', active: false },
            ]
          : [
              { id: 'vsat1', kind: 'geo', state: 'down', active: false },
              { id: 'leo1', kind: 'leo', state: 'up', active: true },
            ],
    });
    for (const num of [router!.num, foreign!.num]) await ingestAt(s, num, every(5, from, from + 60 * 60_000), links);
    const report = await buildReport(s.db, { caller, kinds: ['availability'], range, lang: 'en', offsetHours: 8, title: 'Weekly report' });
    const rows = rowsOf((await load(report.xlsx)).worksheets[1]!);
    expect(section(rows, 'Per link')).toEqual([
      ['Vessel', 'Link', 'Kind', 'Up (h)', 'Carrying traffic (h)', 'Up share', 'Down (h)', 'Failovers away'],
      [router!.name, 'leo1', 'LEO', 0.5, 0.5, 0.5, 0, 0],
      [router!.name, 'vsat1', 'GEO VSAT', 0.5, 0.5, 0.5, 0.5, 1],
    ]);
  });

  it('writes data usage per vessel against its monthly quota, the same before and after the days are sealed', async () => {
    const polaris = await idOf(s.db, 'polaris');
    const vessels = await s.db.query<{ id: number; name: string; num: string }>(
      `SELECT id, name, device_num AS num FROM devices WHERE owner_id = $1 AND id NOT IN ($2, $3) ORDER BY id LIMIT 2`,
      [polaris, vesselId, reporting.id],
    );
    const [user, idle] = vessels as [{ id: number; name: string; num: string }, { id: number; name: string; num: string }];
    // 10 reports of 0.5 GB on the week's fourth day against a 4 GB plan; another vessel with a 20 GB plan uses nothing.
    await ingestAt(s, user.num, every(30, range.fromMs + 72 * 3_600_000, range.fromMs + 76.5 * 3_600_000), () => ({ bytesUsed: 5e8 }));
    await s.db.query('INSERT INTO data_plans (device_id, quota_bytes, reset_day) VALUES ($1, 4e9, 1), ($2, 2e10, 1)', [user.id, idle.id]);
    const usageRows = async () => {
      const report = await buildReport(s.db, { caller, kinds: ['dataUsage'], range, lang: 'zh', offsetHours: 8, title: '周报' });
      const book = await load(report.xlsx);
      expect(book.worksheets.map((w) => w.name)).toEqual(['摘要', '流量用量']);
      expect(report.text).toContain('超出月度套餐的船舶: 1');
      return rowsOf(book.worksheets[1]!);
    };
    const rows = await usageRows();
    expect(rows[0]).toEqual(['船舶', '设备编号', '月度套餐（GB）', '本期已用（GB）', '占月度套餐', '超出（GB）']);
    expect(rows.find((r) => r[0] === user.name)!.slice(2)).toEqual([4, 5, 1.25, 1]);
    expect(rows.find((r) => r[0] === idle.name)!.slice(2)).toEqual([20, 0, 0, 0]);
    expect(rows.find((r) => r[0] === oceanicName)).toBeUndefined();
    expect(rows[rows.length - 1]).toEqual(['船队合计', null, 24, 5, null, 1]);
    await sealDailyRollups(s.db);
    expect(await usageRows()).toEqual(rows);
  });

  it('lists the calls at its ports that overlap the period, with arrival and departure at the zone', async () => {
    const hour = (h: number) => new Date(range.fromMs + h * 3_600_000);
    // In the period: a call at Qingdao (day 2, 10 hours), one at Busan still going; before it: a call at Ningbo;
    // one leaving Shanghai in the period after arriving before it; an anchorage and another enterprise's vessel left out.
    await s.db.query(
      `INSERT INTO geofence_events (device_id, geofence_id, geofence_name, geofence_kind, event, at, lat, lon) VALUES
         ($1, 1, 'Qingdao', 'port', 'arrival', $2, 36, 120), ($1, 1, 'Qingdao', 'port', 'departure', $3, 36, 120),
         ($1, 2, 'Busan', 'port', 'arrival', $4, 35, 129),
         ($1, 3, 'Ningbo', 'port', 'arrival', $5, 29, 121), ($1, 3, 'Ningbo', 'port', 'departure', $6, 29, 121),
         ($7, 4, 'Shanghai', 'port', 'arrival', $6, 31, 121), ($7, 4, 'Shanghai', 'port', 'departure', $8, 31, 121),
         ($1, 5, 'Outer anchorage', 'anchorage', 'arrival', $2, 36, 120),
         ($9, 6, 'Oceanic port', 'port', 'arrival', $2, 1, 1)`,
      [
        vesselId,
        hour(34),
        hour(44),
        hour(120),
        hour(-40),
        hour(-30),
        reporting.id,
        hour(5),
        (
          await s.db.query<{ id: number }>(`SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' LIMIT 1`)
        )[0]!.id,
      ],
    );
    const report = await buildReport(s.db, { caller, kinds: ['portCalls'], range, lang: 'en', offsetHours: 8, title: 'Weekly report' });
    const book = await load(report.xlsx);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Port calls']);
    const rows = rowsOf(book.worksheets[1]!);
    const local = (h: number) => new Date(hour(h).getTime() + 8 * 3_600_000);
    expect(rows).toEqual([
      ['Vessel', 'Port', 'Arrived', 'Departed', 'In port (h)'],
      [reporting.name, 'Shanghai', local(-30), local(5), 35],
      [vesselName, 'Qingdao', local(34), local(44), 10],
      [vesselName, 'Busan', local(120), 'Still in port', 48],
    ]);
    expect(report.text).toContain('Port calls: 3');
  });

  it('writes the headline figures in the mail, every text escaped', async () => {
    const report = await build('en', 8, 'Weekly report');
    const summary = rowsOf((await load(report.xlsx)).worksheets[0]!);
    const fleet = summary.find((r) => r[0] === 'Fleet availability')![1] as number;
    expect(report.subject).toMatch(/^Weekly report · \d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}$/);
    for (const [label, value] of [
      ['Vessels', String(report.vessels)],
      ['Fleet availability', `${(fleet * 100).toFixed(1)}%`],
      ['Alarms raised', '4'],
      ['Critical alarms', '2'],
      ['Median time to acknowledge (min)', '20'],
      ['Commands sent', '6'],
      ['Commands failed', '1'],
    ]) {
      expect(report.text).toContain(`${label}: ${value}`);
      expect(report.html).toMatch(new RegExp(`${label.replace(/[()]/g, '\\$&')}</th><td[^>]*>${value.replace('.', '\\.')}</td>`));
    }
    expect(report.html).toContain('Polaris &lt;b&gt;Bold&lt;/b&gt; (4)');
    expect(report.html).not.toContain('<b>Bold');
    expect(report.text).toContain(`${vesselName} (4)`);
    expect(report.html).not.toContain(oceanicName);
  });
});
