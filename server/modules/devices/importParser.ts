import ExcelJS from 'exceljs';
import { LANGUAGES } from '../../../src/domain/constants';
import { DEVICE_KIND_LABELS, DEVICE_KINDS } from '../../../src/domain/deviceKinds';
import { BARE_MAC_PATTERN, DEVICE_FIELDS, deviceFieldKey, type DeviceField } from '../../../src/domain/deviceSchemas';
import { translateDomain } from '../../../src/domain/messages';

/** What the first bytes say a file is: xlsx (a zip), the old xls (OLE2), or neither. */
export function sniffExcel(bytes: Uint8Array): 'xlsx' | 'xls' | null {
  const starts = (magic: number[]) => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
  if (starts([0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'xls';
  return null;
}

/** One data row: its Excel row number and the raw text of each recognised column. */
export interface SheetRow {
  row: number;
  values: Partial<Record<DeviceField, string>>;
}

/** Header text (either language, or the field's own name; a trailing * ignored) -> field. */
const HEADER_TO_FIELD = new Map<string, DeviceField>(
  DEVICE_FIELDS.flatMap((field) => [field, ...LANGUAGES.map((lang) => translateDomain(lang, deviceFieldKey(field)))].map((h) => [normaliseHeader(h), field] as [string, DeviceField])),
);

function normaliseHeader(text: string): string {
  return text.replace(/\*$/, '').trim().toLowerCase();
}

const KIND_BY_TEXT = new Map<string, string>(DEVICE_KINDS.flatMap((k) => [[k, k], [DEVICE_KIND_LABELS[k].toLowerCase(), k]] as [string, string][]));

/** The text of a cell as a user typed it; dates as YYYY-MM-DD. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return '';
    return '';
  }
  return String(value);
}

/** Field-specific clean-ups that keep the rules intact: kind names, the bare MAC form. */
function normaliseValue(field: DeviceField, text: string): string {
  const trimmed = field === 'deviceSn' ? text : text.trim();
  if (field === 'deviceKind') return KIND_BY_TEXT.get(trimmed.toLowerCase()) ?? trimmed;
  if (field === 'mac' && BARE_MAC_PATTERN.test(trimmed)) return trimmed.match(/../g)!.join('.');
  return trimmed;
}

/** Reads the first sheet: row 1 is the header row, every non-empty row after it a device. */
export async function readDeviceSheet(content: Buffer): Promise<SheetRow[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const columns = new Map<number, DeviceField>();
  sheet.getRow(1).eachCell((cell, col) => {
    const field = HEADER_TO_FIELD.get(normaliseHeader(cellText(cell.value)));
    if (field) columns.set(col, field);
  });
  const rows: SheetRow[] = [];
  sheet.eachRow((row, rowNumber) => {
    if (rowNumber === 1) return;
    const values: SheetRow['values'] = {};
    let empty = true;
    for (const [col, field] of columns) {
      const text = normaliseValue(field, cellText(row.getCell(col).value));
      if (text !== '') { values[field] = text; empty = false; }
    }
    if (!empty) rows.push({ row: rowNumber, values });
  });
  return rows;
}
