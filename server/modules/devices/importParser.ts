import { LANGUAGES } from '../../../src/domain/constants';
import { DEVICE_KIND_KEYS, DEVICE_KIND_LABELS, DEVICE_KINDS } from '../../../src/domain/deviceKinds';
import { BARE_MAC_PATTERN, DEVICE_FIELDS, deviceFieldKey, type DeviceField } from '../../../src/domain/deviceSchemas';
import { translateDomain } from '../../../src/domain/messages';
import { normaliseHeader } from './importSheetReader';
import { readSheetOffThread, type ReaderOptions } from './importSheetThread';

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
const HEADER_TO_FIELD: Record<string, DeviceField> = Object.fromEntries(
  DEVICE_FIELDS.flatMap((field) =>
    [field, ...LANGUAGES.map((lang) => translateDomain(lang, deviceFieldKey(field)))].map((h) => [normaliseHeader(h), field]),
  ),
);

/** A kind cell: the kind's id, its file name, or its name in either language (天线 as well as Antenna). */
const KIND_BY_TEXT = new Map<string, string>(
  DEVICE_KINDS.flatMap((k) =>
    [k, DEVICE_KIND_LABELS[k], ...LANGUAGES.map((lang) => translateDomain(lang, DEVICE_KIND_KEYS[k]))].map(
      (text) => [text.toLowerCase(), k] as [string, string],
    ),
  ),
);

/** Field-specific clean-ups that keep the rules intact: kind names, the bare MAC form. */
function normaliseValue(field: DeviceField, text: string): string {
  const trimmed = field === 'deviceSn' ? text : text.trim();
  if (field === 'deviceKind') return KIND_BY_TEXT.get(trimmed.toLowerCase()) ?? trimmed;
  if (field === 'mac' && BARE_MAC_PATTERN.test(trimmed)) return trimmed.match(/../g)!.join('.');
  return trimmed;
}

/**
 * Reads the first sheet: row 1 is the header row, every non-empty row after it a device. Cells
 * are read as a user typed them (dates as YYYY-MM-DD). The workbook is read in a worker thread
 * under the upload limits (importSheetThread.ts); a file that crosses one, or cannot be read,
 * throws a BizError with code 8.
 */
export async function readDeviceSheet(content: Uint8Array, options?: ReaderOptions): Promise<SheetRow[]> {
  const { fields, rows } = await readSheetOffThread(content, HEADER_TO_FIELD, options);
  const out: SheetRow[] = [];
  for (const { row, cells } of rows) {
    const values: SheetRow['values'] = {};
    let empty = true;
    cells.forEach((cell, i) => {
      const field = fields[i] as DeviceField;
      const text = normaliseValue(field, cell);
      if (text !== '') {
        values[field] = text;
        empty = false;
      }
    });
    if (!empty) out.push({ row, values });
  }
  return out;
}
