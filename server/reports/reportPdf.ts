import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import type { ReportKind, ReportRange } from '../../src/domain/reports';
import { zoneLabel } from '../http/exportFile';
import { DAY_MS } from '../modules/vessel/statisticsWindow';
import type { AvailabilityFigures, ReportFigures } from './reportFigures';
import { headlines } from './reportHeadlines';
import { periodText } from './reportWorkbook';
import { atZone } from './reportSheetRows';
import { PdfText } from './reportPdfFonts';

/**
 * A report's PDF: the title, the period in the recipient's zone, the headline figures (the Summary
 * sheet's), a bar chart of the fleet's availability per local day, the per-vessel availability
 * table over as many A4 pages as it needs (its header repeated on each page), then small tables of
 * the alarms by severity and the commands per kind when those kinds are asked for. Every page has
 * the title and period on top and its number below. Fonts: server/reports/reportPdfFonts.ts.
 */

/** What the PDF needs of a report's request (server/reports/buildReport.ts's ReportRequest has it). */
export interface ReportPdfRequest {
  kinds: readonly ReportKind[];
  range: ReportRange;
  lang: Language;
  /** The recipient's UTC offset in whole hours. */
  offsetHours: number;
  title: string;
}

const [PAGE_W, PAGE_H] = [595.28, 841.89];
const MARGIN = 40;
const CONTENT_W = PAGE_W - 2 * MARGIN;
const TOP = PAGE_H - MARGIN - 28;
const BOTTOM = MARGIN + 24;
const ROW_H = 14;
const SIZE = 9;
const INK = rgb(0.13, 0.13, 0.13);
const MUTED = rgb(0.4, 0.4, 0.4);
const RULE = rgb(0.82, 0.82, 0.82);
const HEADER_BG = rgb(0.92, 0.94, 0.97);
const BAR = rgb(0.16, 0.44, 0.75);

const hours = (seconds: number | null) => (seconds === null ? '—' : (seconds / 3600).toFixed(1));
const percent = (fraction: number | null) => (fraction === null ? '—' : (fraction * 100).toFixed(1));
const offline = (online: number | null, period: number) => (online === null ? null : Math.max(0, period - online));

interface Column {
  label: string;
  /** A share of the content width; the first column takes what the others leave. */
  width: number;
  align: 'left' | 'right';
}

interface Table {
  heading: string;
  columns: Column[];
  rows: string[][];
  /** Rows drawn in bold-ish ink at the end (totals). */
  totals?: number;
}

/** The tables of the requested kinds, as text. */
function tablesOf(t: (key: string) => string, kinds: readonly ReportKind[], figures: ReportFigures, offsetHours: number): Table[] {
  const tables: Table[] = [];
  const num = (label: string, width = 80): Column => ({ label, width, align: 'right' });
  const a = figures.availability;
  if (kinds.includes('availability') && a) {
    const rows = a.vessels.map((v) => [
      v.name,
      hours(v.onlineSeconds),
      hours(offline(v.onlineSeconds, a.periodSeconds)),
      v.locked ? t('report.pdf.locked') : percent(v.availability),
    ]);
    if (!rows.length) rows.push([t('report.pdf.noVessels'), '', '', '']);
    rows.push([
      t('report.pdf.fleet'),
      hours(a.onlineSeconds),
      hours(offline(a.onlineSeconds, a.periodSeconds * a.counted)),
      percent(a.availability),
    ]);
    const columns = [
      { label: t('report.pdf.vessel'), width: 0, align: 'left' as const },
      num(t('report.pdf.online')),
      num(t('report.pdf.offline')),
      num(t('report.pdf.rate'), 90),
    ];
    tables.push({ heading: t('report.pdf.vessels'), columns, rows, totals: 1 });
  }
  const alarms = figures.alarms;
  if (kinds.includes('alarms') && alarms) {
    const rows = (['critical', 'major', 'minor', null] as const).map((severity) => {
      const x = alarms.times.find((r) => r.severity === severity);
      return [
        severity ? t(`report.severity.${severity}`) : t('report.alarms.total'),
        String(x?.count ?? 0),
        String(x?.acked ?? 0),
        String(x?.cleared ?? 0),
      ];
    });
    const columns = [
      { label: t('report.pdf.severity'), width: 0, align: 'left' as const },
      num(t('report.pdf.count')),
      num(t('report.pdf.acked')),
      num(t('report.pdf.cleared')),
    ];
    tables.push({ heading: t('report.pdf.alarms'), columns, rows, totals: 1 });
  }
  const usage = figures.dataUsage;
  if (kinds.includes('dataUsage') && usage) {
    const gb = (bytes: number) => (bytes / 1e9).toFixed(2);
    const rows = usage.map((v) => [
      v.name,
      v.quotaBytes === null ? t('report.dataUsage.noPlan') : gb(v.quotaBytes),
      gb(v.usedBytes),
      v.quotaBytes ? `${((v.usedBytes / v.quotaBytes) * 100).toFixed(1)}%` : '',
    ]);
    rows.push([t('report.dataUsage.total'), '', gb(usage.reduce((s, v) => s + v.usedBytes, 0)), '']);
    const columns = [
      { label: t('report.dataUsage.vessel'), width: 0, align: 'left' as const },
      num(t('report.dataUsage.quota'), 110),
      num(t('report.dataUsage.used'), 120),
      num(t('report.dataUsage.share'), 110),
    ];
    tables.push({ heading: t('report.pdf.dataUsage'), columns, rows, totals: 1 });
  }
  const calls = figures.portCalls;
  if (kinds.includes('portCalls') && calls) {
    const time = (at: Date) => atZone(at.getTime(), offsetHours).toISOString().slice(0, 16).replace('T', ' ');
    const rows = calls.map((p) => [p.name, p.port, time(p.arrivedAt), p.departedAt ? time(p.departedAt) : t('report.portCalls.inPort')]);
    const columns = [
      { label: t('report.portCalls.vessel'), width: 0, align: 'left' as const },
      { label: t('report.portCalls.port'), width: 110, align: 'left' as const },
      { label: t('report.portCalls.arrived'), width: 100, align: 'left' as const },
      { label: t('report.portCalls.departed'), width: 100, align: 'left' as const },
    ];
    tables.push({ heading: t('report.kind.portCalls'), columns, rows });
  }
  const commands = figures.commands;
  if (kinds.includes('commands') && commands) {
    const sum = (k: 'sent' | 'succeeded' | 'failed' | 'expired') => String(commands.reduce((s, r) => s + r[k], 0));
    const rows = commands.map((r) => [
      t(`commands.kind.${r.kind}`),
      String(r.sent),
      String(r.succeeded),
      String(r.failed),
      String(r.expired),
    ]);
    rows.push([t('report.commands.total'), sum('sent'), sum('succeeded'), sum('failed'), sum('expired')]);
    const columns = [
      { label: t('report.commands.kind'), width: 0, align: 'left' as const },
      ...(['sent', 'succeeded', 'failed', 'expired'] as const).map((k) => num(t(`report.commands.${k}`), k === 'succeeded' ? 130 : 75)),
    ];
    tables.push({ heading: t('report.pdf.commands'), columns, rows, totals: 1 });
  }
  return tables;
}

/** The day bars: label (MM-DD) and availability (null when no vessel is counted that day). */
function dayBars(a: AvailabilityFigures) {
  return a.days.map((d) => ({
    label: new Date(d.day * DAY_MS).toISOString().slice(5, 10),
    value: d.periodSeconds > 0 ? Math.min(1, d.onlineSeconds / d.periodSeconds) : null,
  }));
}

/** The PDF of a report, as a Buffer. */
export async function reportPdf(figures: ReportFigures, request: ReportPdfRequest): Promise<Buffer> {
  const { lang, offsetHours, title, range, kinds } = request;
  const t = (key: string) => translateDomain(lang, key);
  const period = `${t('report.pdf.period')}: ${periodText(range, offsetHours)} (${zoneLabel(offsetHours)})`;
  const lines = headlines(lang, figures).filter((h) => h.sheet);
  const tables = tablesOf(t, kinds, figures, offsetHours);
  const bars = figures.availability && kinds.includes('availability') ? dayBars(figures.availability) : [];
  const pageWord = (page: number, pages: number) => translateDomain(lang, 'report.pdf.page', { page, pages });

  const doc = await PDFDocument.create();
  doc.setTitle(`${title} · ${periodText(range, offsetHours)}`);
  doc.setCreator('Fleet console');
  doc.setProducer('Fleet console');
  const texts = [title, period, '0123456789.%—…?', pageWord(0, 0), t('report.pdf.summary'), t('report.pdf.chart')];
  texts.push(...lines.flatMap((h) => [h.label, h.text]), ...bars.map((b) => b.label));
  for (const table of tables) texts.push(table.heading, ...table.columns.map((c) => c.label), ...table.rows.flat());
  const pen = await PdfText.create(doc, texts);

  let page: PDFPage = doc.addPage([PAGE_W, PAGE_H]);
  let y = TOP;
  const newPage = () => {
    page = doc.addPage([PAGE_W, PAGE_H]);
    y = TOP;
  };
  const room = (height: number) => {
    if (y - height < BOTTOM) newPage();
  };
  const heading = (text: string) => {
    room(22 + ROW_H * 2);
    y -= 18;
    pen.draw(page, text, MARGIN, y, 12, INK);
    y -= 8;
  };

  // Title, period and the headline figures.
  pen.draw(page, title, MARGIN, y - 14, 18, INK);
  y -= 34;
  pen.draw(page, period, MARGIN, y, 10, MUTED);
  y -= 10;
  heading(t('report.pdf.summary'));
  for (const h of lines) {
    room(ROW_H);
    y -= ROW_H;
    pen.draw(page, pen.fit(h.label, SIZE, 260), MARGIN, y + 4, SIZE, MUTED);
    pen.draw(page, pen.fit(h.text, SIZE, CONTENT_W - 270), MARGIN + 270, y + 4, SIZE, INK);
    page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + CONTENT_W, y }, thickness: 0.4, color: RULE });
  }

  // The fleet's availability per local day.
  if (bars.length) {
    const chartH = 150;
    heading(t('report.pdf.chart'));
    room(chartH + 30);
    const left = MARGIN + 30;
    const width = CONTENT_W - 30;
    const base = y - chartH - 6;
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      const ty = base + tick * chartH;
      page.drawLine({ start: { x: left, y: ty }, end: { x: left + width, y: ty }, thickness: tick ? 0.4 : 0.8, color: tick ? RULE : INK });
      pen.draw(page, `${tick * 100}%`, left - 4, ty - 3, 7, MUTED, 'right');
    }
    page.drawLine({ start: { x: left, y: base }, end: { x: left, y: base + chartH }, thickness: 0.8, color: INK });
    const slot = width / bars.length;
    const every = Math.ceil(bars.length / 12);
    bars.forEach((b, i) => {
      const x = left + i * slot;
      if (b.value !== null && b.value > 0)
        page.drawRectangle({ x: x + slot * 0.15, y: base, width: slot * 0.7, height: b.value * chartH, color: BAR });
      if (b.value !== null && bars.length <= 16)
        pen.draw(page, percent(b.value), x + slot / 2, base + (b.value ?? 0) * chartH + 3, 6.5, INK, 'center');
      if (i % every === 0) pen.draw(page, b.label, x + slot / 2, base - 11, 7, MUTED, 'center');
    });
    y = base - 18;
  }

  // The tables, their header row repeated on each page.
  for (const table of tables) {
    heading(table.heading);
    const fixed = table.columns.slice(1).reduce((s, c) => s + c.width, 0);
    const widths = table.columns.map((c, i) => (i === 0 ? CONTENT_W - fixed : c.width));
    const cellX = (i: number) => MARGIN + widths.slice(0, i).reduce((s, w) => s + w, 0);
    const drawRow = (cells: string[], header: boolean, bold: boolean) => {
      y -= ROW_H;
      if (header) page.drawRectangle({ x: MARGIN, y, width: CONTENT_W, height: ROW_H, color: HEADER_BG });
      cells.forEach((cell, i) => {
        const c = table.columns[i]!;
        const text = pen.fit(cell, SIZE, widths[i]! - 8);
        const x = c.align === 'right' ? cellX(i) + widths[i]! - 4 : cellX(i) + 4;
        pen.draw(page, text, x, y + 4, SIZE, header ? MUTED : INK, c.align);
      });
      page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + CONTENT_W, y }, thickness: bold ? 0.9 : 0.4, color: bold ? INK : RULE });
    };
    const header = () =>
      drawRow(
        table.columns.map((c) => c.label),
        true,
        false,
      );
    header();
    table.rows.forEach((row, i) => {
      if (y - ROW_H < BOTTOM) {
        newPage();
        header();
      }
      drawRow(row, false, i === table.rows.length - 1 - (table.totals ?? 0));
    });
  }

  // On every page: the title and period on top, the page's number below.
  const pages = doc.getPages();
  const top = `${title} · ${periodText(range, offsetHours)}`;
  pages.forEach((p, i) => {
    pen.draw(p, pen.fit(top, 8, CONTENT_W), MARGIN, PAGE_H - MARGIN + 6, 8, MUTED);
    p.drawLine({ start: { x: MARGIN, y: PAGE_H - MARGIN }, end: { x: PAGE_W - MARGIN, y: PAGE_H - MARGIN }, thickness: 0.5, color: RULE });
    pen.draw(p, pageWord(i + 1, pages.length), PAGE_W / 2, MARGIN - 10, 8, MUTED, 'center');
  });
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}
