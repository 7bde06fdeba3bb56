import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import ExcelJS from 'exceljs';
import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import { languageOf } from './envelope';
import { attachment, safeCell, XLSX_TYPE } from './xlsx';
import { csvOf } from './csv';

/**
 * Every list's export reads as the list does (docs/api.md, "Exports"): headers and names in the
 * caller's language, times in the caller's time zone (`tz`, the console's UTC offset in hours; the
 * header of a time column names the zone), yes/no in words, and no internal columns. CSV is UTF-8
 * with a byte-order mark (Excel reads Chinese correctly); in XLSX times are real date cells.
 */
export type ExportValue = string | number | boolean | Date | null | undefined;

export interface ExportOptions {
  lang: Language;
  /** The reader's UTC offset in hours. */
  offsetHours: number;
  format: 'csv' | 'xlsx';
}

/** The query every export takes besides its list's filters. */
export const exportQuery = {
  format: { type: 'string', enum: ['csv', 'xlsx'], default: 'xlsx' },
  tz: {
    type: 'integer',
    minimum: -12,
    maximum: 12,
    description: "the reader's UTC offset in hours (-12..12): times are written in it; default 0 (UTC)",
  },
} as const;

export function exportOptionsOf(request: FastifyRequest): ExportOptions {
  const query = request.query as { format?: string; tz?: number };
  return { lang: languageOf(request), offsetHours: query.tz ?? 0, format: query.format === 'csv' ? 'csv' : 'xlsx' };
}

/** 'UTC', 'UTC+8', 'UTC-5': the zone a file's times are in. */
export const zoneLabel = (offsetHours: number): string => (offsetHours === 0 ? 'UTC' : `UTC${offsetHours > 0 ? '+' : ''}${offsetHours}`);

/** The wall-clock time at the offset, as a Date whose UTC fields read it (what a spreadsheet cell shows). */
const shifted = (at: Date, offsetHours: number) => new Date(at.getTime() + offsetHours * 3_600_000);

/** 2026-07-19 17:06:15 at the offset. */
export const localTime = (at: Date, offsetHours: number): string => shifted(at, offsetHours).toISOString().slice(0, 19).replace('T', ' ');

const yesNo = (lang: Language, value: boolean) => translateDomain(lang, value ? 'export.yes' : 'export.no');

/** The header, with the zone after each column that holds times. */
function headerOf(header: readonly string[], rows: readonly (readonly ExportValue[])[], offsetHours: number) {
  const timed = header.map((_, i) => rows.some((row) => row[i] instanceof Date));
  return header.map((text, i) => (timed[i] ? `${text} (${zoneLabel(offsetHours)})` : text));
}

function csvValue(value: ExportValue, options: ExportOptions): string | number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return localTime(value, options.offsetHours);
  if (typeof value === 'boolean') return yesNo(options.lang, value);
  return value;
}

async function xlsxFile(sheetName: string, header: readonly string[], rows: readonly (readonly ExportValue[])[], options: ExportOptions) {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    sink.on('end', resolve);
    sink.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow([...header]).commit();
  for (const values of rows) {
    const row = sheet.addRow(
      values.map((value) => {
        if (value === undefined || value === null) return null;
        if (value instanceof Date) return shifted(value, options.offsetHours);
        if (typeof value === 'boolean') return yesNo(options.lang, value);
        return safeCell(value);
      }),
    );
    values.forEach((value, i) => {
      if (value instanceof Date) row.getCell(i + 1).numFmt = 'yyyy-mm-dd hh:mm:ss';
    });
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
  await done;
  return Buffer.concat(chunks);
}

/** Sends the rows as `{base}-{stamp}.csv|xlsx`; a Date is a time, written in the reader's zone. */
export async function sendExport(
  reply: FastifyReply,
  base: string,
  options: ExportOptions,
  header: readonly string[],
  rows: readonly (readonly ExportValue[])[],
): Promise<FastifyReply> {
  const titles = headerOf(header, rows, options.offsetHours);
  if (options.format === 'csv')
    return attachment(reply, base, 'csv', 'text/csv; charset=utf-8').send(
      csvOf(
        titles,
        rows.map((row) => row.map((value) => csvValue(value, options))),
      ),
    );
  return attachment(reply, base, 'xlsx', XLSX_TYPE).send(await xlsxFile(base, titles, rows, options));
}
