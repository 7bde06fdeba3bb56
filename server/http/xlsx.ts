import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import ExcelJS from 'exceljs';

export type CellValue = string | number | null;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Text a spreadsheet would run as a formula (=, +, -, @) is written as text. */
export const safeCell = <T extends CellValue>(value: T): T | string =>
  typeof value === 'string' && /^[=+\-@]/.test(value) ? `'${value}` : value;

/** One sheet, a header row then the rows, written as a stream (no shared strings, no styles). */
export async function xlsxOf(sheetName: string, header: readonly CellValue[], rows: Iterable<readonly CellValue[]>): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    sink.on('end', resolve);
    sink.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow([...header]).commit();
  for (const row of rows) sheet.addRow([...row]).commit();
  sheet.commit();
  await workbook.commit();
  await done;
  return Buffer.concat(chunks);
}

/** A file download named `{base}-{UTC stamp}.{ext}`. */
export function attachment(reply: FastifyReply, base: string, ext: string, type: string) {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
  return reply.header('content-disposition', `attachment; filename="${base}-${stamp}.${ext}"`).type(type);
}
