import type { CellValue } from './xlsx';

/** A CSV cell; text that a spreadsheet would run as a formula is prefixed with a quote. */
function csvCell(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** UTF-8 CSV with a byte-order mark, so that Excel reads Chinese text correctly. */
export function csvOf(header: readonly CellValue[], rows: Iterable<readonly CellValue[]>): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
