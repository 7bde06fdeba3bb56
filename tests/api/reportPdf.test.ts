import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText } from 'unpdf';
import { Level, type Principal } from '../../src/domain/levels';
import { previousPeriod, type ReportKind, type ReportRange } from '../../src/domain/reports';
import { buildReport, periodText } from '../../server/reports/buildReport';
import type { ReportFigures, VesselAvailability } from '../../server/reports/reportFigures';
import { reportPdf } from '../../server/reports/reportPdf';
import { createTestServer, engines, idOf, type TestServer } from './helpers';
import { every, ingestAt } from './vesselFixtures';

/**
 * A scheduled report's PDF (server/reports/reportPdf.ts): Chinese or English words, an enterprise's
 * vessels only, the per-vessel table over as many pages as it needs, and a small file (the fonts
 * cut to the characters used).
 */
describe.each(engines)('a report’s PDF (%s)', (engine) => {
  let s: TestServer;
  let caller: Principal;
  let oceanicName = '';
  let reporting = { id: 0, name: '' };
  const range: ReportRange = previousPeriod('week', 8);
  const kinds: ReportKind[] = ['availability', 'alarms', 'commands'];

  /** The text of each page, with the whitespace between pieces of text taken out. */
  async function pagesOf(pdf: Buffer): Promise<string[]> {
    const { text } = await extractText(new Uint8Array(pdf), { mergePages: false });
    return text.map((page) => page.replace(/\s+/g, ''));
  }
  const squeeze = (text: string) => text.replace(/\s+/g, '');
  const hours = (seconds: number | null) => (seconds === null ? '—' : (seconds / 3600).toFixed(1));

  beforeAll(async () => {
    s = await createTestServer(engine);
    const polaris = await idOf(s.db, 'polaris');
    caller = { id: polaris, permissionLevel: Level.Enterprise, parentId: null };
    const [vessel] = await s.db.query<{ id: number; name: string; num: string }>(
      `SELECT id, name, device_num AS num FROM devices WHERE owner_id = $1 ORDER BY id LIMIT 1`,
      [polaris],
    );
    // A name in Chinese and Latin letters, and six hours of reports on the week's third day.
    reporting = { id: vessel!.id, name: '北极星 Polaris 7' };
    await s.db.query(`UPDATE devices SET name = $2 WHERE id = $1`, [vessel!.id, reporting.name]);
    await ingestAt(s, vessel!.num, every(5, range.fromMs + 48 * 3_600_000, range.fromMs + 54 * 3_600_000));
    const [other] = await s.db.query<{ name: string }>(
      `SELECT d.name FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' ORDER BY d.id LIMIT 1`,
    );
    oceanicName = other!.name;
  });
  afterAll(() => s.close());

  const build = (lang: 'zh' | 'en', title: string, offsetHours = 8) =>
    buildReport(s.db, { caller, kinds, range, lang, offsetHours, title });

  /** The row of the reporting vessel as the table writes it: name, online h, offline h, availability %. */
  const rowOf = (figures: ReportFigures) => {
    const a = figures.availability!;
    const v = a.vessels.find((x) => x.id === reporting.id)!;
    expect(v.onlineSeconds).toBeGreaterThan(0);
    const offline = a.periodSeconds - v.onlineSeconds!;
    return squeeze(`${v.name}${hours(v.onlineSeconds)}${hours(offline)}${(v.availability! * 100).toFixed(1)}`);
  };

  it('writes the title, period, figures, chart and tables in Chinese, for the caller’s vessels only', async () => {
    const started = performance.now();
    const { pdf, figures } = await build('zh', '周报');
    const ms = performance.now() - started;
    const pages = await pagesOf(pdf);
    const all = pages.join('');
    for (const word of [
      '周报',
      '摘要',
      '船舶数',
      '船队可用率',
      '船队每日可用率',
      '各船可用率',
      '船名',
      '在线（小时）',
      '离线（小时）',
      '可用率（%）',
    ])
      expect(all).toContain(word);
    expect(all).toContain(squeeze(periodText(range, 8)));
    expect(all).toContain('(UTC+8)');
    for (const word of ['告警（按级别）', '严重', '远程指令（按类型）', '船队合计']) expect(all).toContain(word);
    expect(all).toContain(rowOf(figures));
    expect(all).not.toContain(squeeze(oceanicName));
    expect(pages[0]).toContain(`第1/${pages.length}页`);
    expect(figures.vessels).toBeGreaterThan(0);
    console.info(`zh PDF of ${figures.vessels} vessels: ${pdf.length} bytes, ${pages.length} pages, ${Math.round(ms)} ms`);
    expect(pdf.length).toBeLessThan(100_000);
  });

  it('writes the same in English at the recipient’s zone, without the kinds not asked for', async () => {
    const { pdf, figures } = await buildReport(s.db, {
      caller,
      kinds: ['availability'],
      range,
      lang: 'en',
      offsetHours: -5,
      title: 'Weekly report',
    });
    const all = (await pagesOf(pdf)).join('');
    for (const word of [
      'Weeklyreport',
      'Period',
      'Fleetavailabilityperday',
      'Availabilitypervessel',
      'Vessel',
      'Online(h)',
      'Offline(h)',
      'Availability(%)',
      'Fleettotal',
    ])
      expect(all).toContain(word);
    expect(all).toContain(squeeze(periodText(range, -5)));
    expect(all).toContain('(UTC-5)');
    expect(all).toContain(rowOf(figures));
    expect(all).not.toContain('船名');
    expect(all).not.toContain('Alarmsbyseverity');
    expect(all).not.toContain('Commandsbykind');
    expect(all).not.toContain(squeeze(oceanicName));
    expect(all).toMatch(/Page1of\d+/);
    expect(pdf.length).toBeLessThan(100_000);
  });

  it('spreads 50 and 1,000 vessels over A4 pages with the header on each, and stays small', async () => {
    const { figures } = await build('zh', '周报');
    const a = figures.availability!;
    const many = (n: number): ReportFigures => {
      const vessels: VesselAvailability[] = Array.from({ length: n }, (_, i) => ({
        id: 100_000 + i,
        name: i % 2 ? `远洋 ${i} 号` : `Vessel ${i}`,
        deviceNum: `D${i}`,
        locked: i % 97 === 3,
        onlineSeconds: (i * 3_607) % a.periodSeconds,
        warnSeconds: 0,
        availability: ((i * 3_607) % a.periodSeconds) / a.periodSeconds,
        longestOutageSeconds: 0,
      }));
      return { ...figures, vessels: n, availability: { ...a, vessels, counted: vessels.filter((v) => !v.locked).length } };
    };
    const sizes: string[] = [];
    for (const n of [50, 1000])
      for (const lang of ['zh', 'en'] as const) {
        const started = performance.now();
        const pdf = await reportPdf(many(n), { kinds, range, lang, offsetHours: 8, title: lang === 'zh' ? '周报' : 'Weekly report' });
        const ms = Math.round(performance.now() - started);
        const pages = await pagesOf(pdf);
        sizes.push(`${n} vessels ${lang}: ${pdf.length} bytes, ${pages.length} pages, ${ms} ms`);
        const header = lang === 'zh' ? '船名在线（小时）离线（小时）可用率（%）' : 'VesselOnline(h)Offline(h)Availability(%)';
        // The table's header on every page after the first (the table runs on to the last), the last vessel's row.
        expect(pages.length).toBeGreaterThan(1);
        for (const p of pages.slice(1)) expect(p).toContain(header);
        expect(pages.join('')).toContain(squeeze(`远洋 ${n - 1} 号`));
        expect(pages[pages.length - 1]).toContain(
          lang === 'zh' ? `第${pages.length}/${pages.length}页` : `Page${pages.length}of${pages.length}`,
        );
        if (n === 1000) {
          expect(pages.length).toBeGreaterThanOrEqual(15);
          expect(pdf.length).toBeLessThan(400_000);
        } else expect(pdf.length).toBeLessThan(100_000);
      }
    console.info(sizes.join('\n'));
  });
});
