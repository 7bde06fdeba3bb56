import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { translateDomain } from '../../src/domain/messages';
import type { ReportKind, ReportRange } from '../../src/domain/reports';
import { safeCell } from '../http/xlsx';
import { zoneLabel } from '../http/exportFile';
import { DAY_MS } from '../modules/vessel/statisticsWindow';
import type { AlarmFigures, AvailabilityFigures, ReportFigures } from './reportFigures';
import { headlines, type Headline } from './reportHeadlines';
import type { CommandCounts } from './reportQueries';
import {
  atZone,
  dataUsageRows,
  hours,
  linkRows,
  portCallRows,
  DATE,
  DATE_TIME,
  GB,
  HOURS,
  PERCENT,
  type Context,
  type Row,
} from './reportSheetRows';

/**
 * A report's workbook (exceljs's streaming writer, as server/http/exportFile.ts): a Summary sheet
 * (the title, the period as date cells in the recipient's zone, the zone, the headline figures),
 * then one sheet per requested kind. Every word in the report's language.
 */

/** Excel's rule for sheet names: at most 31 characters, none of []:*?/\. */
export const sheetName = (name: string): string => name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet';

const minutes = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

function writeSheet(book: ExcelJS.stream.xlsx.WorkbookWriter, name: string, rows: Row[], formats: Record<number, string> = {}) {
  const sheet = book.addWorksheet(sheetName(name));
  for (const values of rows) {
    const row = sheet.addRow(
      values.map((v) => (typeof v === 'string' ? safeCell(v) : v && typeof v === 'object' && !(v instanceof Date) ? v.value : v)),
    );
    values.forEach((v, i) => {
      if (v instanceof Date) row.getCell(i + 1).numFmt = formats[i] ?? DATE_TIME;
      else if (typeof v === 'number' && formats[i]) row.getCell(i + 1).numFmt = formats[i];
      else if (v && typeof v === 'object' && !(v instanceof Date)) row.getCell(i + 1).numFmt = v.numFmt;
    });
    row.commit();
  }
  sheet.commit();
}

const dateAt = (ms: number, offsetHours: number) => atZone(ms, offsetHours).toISOString().slice(0, 10);

/** The range's first and last local day: "2026-11-16 – 2026-11-22", or the one day. */
export function periodText(range: ReportRange, offsetHours: number): string {
  const from = dateAt(range.fromMs, offsetHours);
  const last = dateAt(Math.max(range.fromMs, range.toMs - 1), offsetHours);
  return from === last ? from : `${from} – ${last}`;
}

function summaryRows(c: Context, title: string, range: ReportRange, figures: ReportFigures): Row[] {
  const t = (key: string) => translateDomain(c.lang, key);
  const figureRow = (h: Headline): Row => [
    h.label,
    typeof h.value === 'number' && h.numFmt ? { value: h.value, numFmt: h.numFmt } : h.value,
  ];
  return [
    [title],
    [t('report.summary.from'), atZone(range.fromMs, c.offsetHours)],
    [t('report.summary.to'), atZone(range.toMs, c.offsetHours)],
    [t('report.summary.zone'), zoneLabel(c.offsetHours)],
    [],
    ...headlines(c.lang, figures)
      .filter((h) => h.sheet)
      .map(figureRow),
  ];
}

function availabilityRows(c: Context, f: AvailabilityFigures): Row[] {
  const t = (key: string) => translateDomain(c.lang, key);
  const offline = (online: number | null, period: number) => (online === null ? null : Math.max(0, period - online));
  const rows: Row[] = [
    [
      t('report.availability.vessel'),
      t('report.availability.deviceNum'),
      t('report.availability.online'),
      t('report.availability.warn'),
      t('report.availability.offline'),
      t('report.availability.rate'),
      t('report.availability.longestOutage'),
      t('report.availability.note'),
    ],
  ];
  for (const v of f.vessels)
    rows.push([
      v.name,
      v.deviceNum,
      hours(v.onlineSeconds),
      hours(v.warnSeconds),
      hours(offline(v.onlineSeconds, f.periodSeconds)),
      v.availability,
      hours(v.longestOutageSeconds),
      v.locked ? t('report.availability.locked') : null,
    ]);
  const fleetPeriod = f.periodSeconds * f.counted;
  rows.push([
    t('report.availability.fleet'),
    null,
    hours(f.onlineSeconds),
    hours(f.warnSeconds),
    hours(offline(f.onlineSeconds, fleetPeriod)),
    f.availability,
    hours(f.vessels.reduce((max, v) => Math.max(max, v.longestOutageSeconds ?? 0), 0)),
    null,
  ]);
  rows.push([], [t('report.availability.byDay')]);
  rows.push([
    t('report.availability.date'),
    null,
    t('report.availability.online'),
    t('report.availability.warn'),
    t('report.availability.offline'),
    t('report.availability.rate'),
  ]);
  for (const d of f.days)
    rows.push([
      new Date(d.day * DAY_MS),
      null,
      hours(d.onlineSeconds),
      hours(d.warnSeconds),
      hours(offline(d.onlineSeconds, d.periodSeconds)),
      d.periodSeconds > 0 ? Math.min(1, d.onlineSeconds / d.periodSeconds) : null,
    ]);
  if (f.links.length) rows.push([], [t('report.links.title')], ...linkRows(c, f.links));
  return rows;
}

function alarmRows(c: Context, f: AlarmFigures): Row[] {
  const t = (key: string) => translateDomain(c.lang, key);
  const severities = ['critical', 'major', 'minor'];
  const rows: Row[] = [
    [t('report.alarms.bySeverity')],
    [
      t('report.alarms.severity'),
      t('report.alarms.count'),
      t('report.alarms.acked'),
      t('report.figure.ackMedian'),
      t('report.figure.ackP90'),
      t('report.alarms.cleared'),
      t('report.figure.clearMedian'),
      t('report.figure.clearP90'),
    ],
  ];
  for (const severity of [...severities, null]) {
    const x = f.times.find((r) => r.severity === severity);
    rows.push([
      severity ? t(`report.severity.${severity}`) : t('report.alarms.total'),
      x?.count ?? 0,
      x?.acked ?? 0,
      minutes(x?.ackMedian ?? null),
      minutes(x?.ackP90 ?? null),
      x?.cleared ?? 0,
      minutes(x?.clearMedian ?? null),
      minutes(x?.clearP90 ?? null),
    ]);
  }
  rows.push([], [t('report.alarms.byCode')]);
  rows.push([t('report.alarms.code'), t('report.alarms.count'), ...severities.map((s) => t(`report.severity.${s}`))]);
  const codes = [...new Set(f.counts.map((r) => r.code))];
  const countOf = (code: string, severity?: string) =>
    f.counts.filter((r) => r.code === code && (!severity || r.severity === severity)).reduce((sum, r) => sum + r.count, 0);
  codes
    .map((code) => [code, countOf(code), ...severities.map((s) => countOf(code, s))] as Row)
    .sort((a, b) => (b[1] as number) - (a[1] as number) || String(a[0]).localeCompare(String(b[0])))
    .forEach((row) => rows.push(row));
  const vesselHeader = [t('report.alarms.vessel'), t('report.alarms.count'), t('report.severity.critical')];
  rows.push([], [t('report.alarms.top')], vesselHeader);
  for (const v of f.byVessel.slice(0, 10)) rows.push([v.name, v.count, v.critical]);
  rows.push([], [t('report.alarms.byVessel')], vesselHeader);
  for (const v of f.byVessel) rows.push([v.name, v.count, v.critical]);
  return rows;
}

function commandRows(c: Context, counts: CommandCounts[]): Row[] {
  const t = (key: string) => translateDomain(c.lang, key);
  const sum = (k: keyof Omit<CommandCounts, 'kind'>) => counts.reduce((s, r) => s + r[k], 0);
  return [
    [
      t('report.commands.kind'),
      t('report.commands.sent'),
      t('report.commands.succeeded'),
      t('report.commands.failed'),
      t('report.commands.expired'),
    ],
    ...counts.map((r): Row => [t(`commands.kind.${r.kind}`), r.sent, r.succeeded, r.failed, r.expired]),
    [t('report.commands.total'), sum('sent'), sum('succeeded'), sum('failed'), sum('expired')],
  ];
}

/** The workbook of a report, as a Buffer. */
export async function reportWorkbook(
  c: Context,
  title: string,
  kinds: readonly ReportKind[],
  range: ReportRange,
  figures: ReportFigures,
): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    sink.on('end', resolve);
    sink.on('error', reject);
  });
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false, useStyles: true });
  writeSheet(book, translateDomain(c.lang, 'report.summary.sheet'), summaryRows(c, title, range, figures));
  const name = (kind: ReportKind) => translateDomain(c.lang, `report.kind.${kind}`);
  for (const kind of kinds) {
    if (kind === 'availability' && figures.availability)
      writeSheet(book, name(kind), availabilityRows(c, figures.availability), {
        0: DATE,
        5: PERCENT,
        2: HOURS,
        3: HOURS,
        4: HOURS,
        6: HOURS,
      });
    if (kind === 'alarms' && figures.alarms) writeSheet(book, name(kind), alarmRows(c, figures.alarms));
    if (kind === 'dataUsage' && figures.dataUsage)
      writeSheet(book, name(kind), dataUsageRows(c, figures.dataUsage), { 2: GB, 3: GB, 4: PERCENT, 5: GB });
    if (kind === 'portCalls' && figures.portCalls)
      writeSheet(book, name(kind), portCallRows(c, figures.portCalls, range), { 2: DATE_TIME, 3: DATE_TIME, 4: HOURS });
    if (kind === 'commands' && figures.commands) writeSheet(book, name(kind), commandRows(c, figures.commands));
  }
  await book.commit();
  await done;
  return Buffer.concat(chunks);
}
