import { Package, relId, relOfType, SheetLimitError, type SheetLimits } from './xlsxPackage';

/**
 * Reads the first sheet of an .xlsx under limits, streaming: the package is opened and its parts
 * inflated and parsed under limits by xlsxPackage.ts; this file follows the workbook to its first
 * sheet and reads it, stopping at the first row, column, cell or text limit crossed. Nothing here keeps
 * more than the imported columns' text and the shared strings. It runs in a worker thread
 * (importSheetWorker.ts) but needs none: tests may call it directly.
 */

export interface SheetData {
  /** The field of each kept column (a column whose header names a field), in column order. */
  fields: string[];
  /** Rows after the header with a value in a kept column: Excel row number, and cells[i] for fields[i]. */
  rows: { row: number; cells: string[] }[];
}

/** Header text as compared with the field names: a trailing * dropped, trimmed, lower case. */
export function normaliseHeader(text: string): string {
  return text.replace(/\*$/, '').trim().toLowerCase();
}

/** Built-in number formats that show a date or time (ECMA-376 18.8.30). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);
/** A custom format shows a date when, outside quotes and [..], it has date or time letters. */
const isDateFormatCode = (code: string) =>
  /[ymdhsb]/i.test(
    code
      .replace(/\[[^\]]*]/g, '')
      .replace(/"[^"]*"/g, '')
      .replace(/\\./g, ''),
  );

/** A1-style column letters -> 1-based column number (0 when absent). */
function columnOf(ref: string | undefined): number {
  if (!ref) return 0;
  let col = 0;
  for (let i = 0; i < ref.length; i += 1) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    col = col * 26 + (c - 0x60);
  }
  return col;
}

function columnLetters(col: number): string {
  let out = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

/** An Excel serial day number as YYYY-MM-DD (as the form expects a manufacture date). */
function excelDate(serial: number, date1904: boolean): string {
  const date = new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

/** Resolves a relationship target against the folder of the part that names it. */
/**
 * The first sheet's rows. `headerToField` maps a normalised header (normaliseHeader) to the field it
 * names; columns whose header names no field are read (for the limits) but not kept.
 */
export async function readFirstSheet(bytes: Buffer, headerToField: Record<string, string>, limits: SheetLimits): Promise<SheetData> {
  const pkg = await Package.open(bytes, limits);
  try {
    const workbookPart = relOfType(await pkg.relationships(''), 'officeDocument') ?? 'xl/workbook.xml';

    let firstSheetRel: string | undefined;
    let date1904 = false;
    await pkg.parse(workbookPart, {
      open: (name, a) => {
        if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
        if (name === 'sheet' && firstSheetRel === undefined) firstSheetRel = relId(a) ?? '';
      },
    });
    const workbookRels = await pkg.relationships(workbookPart);
    const sheetPart = firstSheetRel ? workbookRels.get(firstSheetRel)?.target : undefined;
    if (!sheetPart) return { fields: [], rows: [] };

    const dateStyles = await readDateStyles(pkg, relOfType(workbookRels, 'styles'));
    const shared = await readSharedStrings(pkg, relOfType(workbookRels, 'sharedStrings'), limits.maxCellChars);
    return await readSheet(pkg, sheetPart, { headerToField, limits, dateStyles, shared, date1904 });
  } finally {
    pkg.close();
  }
}

/** Which cell styles (cellXfs indexes) show numbers as dates. */
async function readDateStyles(pkg: Package, part: string | undefined): Promise<boolean[]> {
  const styles: boolean[] = [];
  if (!part || !pkg.has(part)) return styles;
  const customDates = new Map<number, boolean>();
  let inCellXfs = false;
  await pkg.parse(part, {
    open: (name, a) => {
      if (name === 'numFmt') customDates.set(Number(a.numFmtId), isDateFormatCode(a.formatCode ?? ''));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(a.numFmtId ?? 0);
        styles.push(customDates.get(id) ?? DATE_FORMAT_IDS.has(id));
      }
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return styles;
}

/**
 * The shared strings (rich text runs joined, phonetic runs left out). A string longer than a cell
 * may be is kept cut at maxCellChars + 1, so that a cell using it is refused with its address.
 */
async function readSharedStrings(pkg: Package, part: string | undefined, maxCellChars: number): Promise<string[]> {
  const strings: string[] = [];
  if (!part || !pkg.has(part)) return strings;
  let current: string | null = null;
  let inText = false;
  let inPhonetic = false;
  await pkg.parse(part, {
    open: (name) => {
      if (name === 'si') current = '';
      else if (name === 'rPh') inPhonetic = true;
      else if (name === 't' && !inPhonetic) inText = true;
    },
    close: (name) => {
      if (name === 'si') {
        strings.push(current ?? '');
        current = null;
      } else if (name === 'rPh') inPhonetic = false;
      else if (name === 't') inText = false;
    },
    text: (text) => {
      if (inText && current !== null && current.length <= maxCellChars) current = (current + text).slice(0, maxCellChars + 1);
    },
  });
  return strings;
}

interface SheetContext {
  headerToField: Record<string, string>;
  limits: SheetLimits;
  dateStyles: boolean[];
  shared: string[];
  date1904: boolean;
}

async function readSheet(
  pkg: Package,
  part: string,
  { headerToField, limits, dateStyles, shared, date1904 }: SheetContext,
): Promise<SheetData> {
  /** Kept columns: sheet column -> index in fields. */
  const kept = new Map<number, number>();
  const fields: string[] = [];
  const rows: SheetData['rows'] = [];
  let textChars = 0;
  let dataRows = 0;

  let inSheetData = false;
  let rowNumber = 0;
  let rowHasValue = false;
  let cells: string[] | null = null;
  let cellsHaveValue = false;
  let col = 0;
  let cell: { ref: string; type: string; style: number } | null = null;
  let collecting = false;
  let inInline = false;
  let inPhonetic = false;
  let text = '';

  const address = () => cell?.ref || `${columnLetters(col)}${rowNumber}`;
  const cellTooLong = () => new SheetLimitError('cellChars', { max: limits.maxCellChars, cell: address() });

  const valueOf = (): string => {
    const { type, style } = cell!;
    switch (type) {
      case 's': {
        const value = shared[Number.parseInt(text, 10)] ?? '';
        if (value.length > limits.maxCellChars) throw cellTooLong();
        return value;
      }
      case 'inlineStr':
      case 'str':
        return text;
      case 'b':
        return text === '' ? '' : String(text === '1' || text === 'true');
      case 'e':
        return '';
      case 'd':
        return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text;
      default: {
        if (text.trim() === '') return '';
        const number = Number.parseFloat(text);
        if (Number.isNaN(number)) return '';
        return dateStyles[style] ? excelDate(number, date1904) : String(number);
      }
    }
  };

  await pkg.parse(part, {
    open: (name, a) => {
      if (name === 'sheetData') {
        inSheetData = true;
        return;
      }
      if (!inSheetData) return;
      switch (name) {
        case 'row': {
          const r = Number.parseInt(a.r ?? '', 10);
          rowNumber = Number.isFinite(r) && r > rowNumber ? r : rowNumber + 1;
          col = 0;
          rowHasValue = false;
          cells = rowNumber > 1 && fields.length ? new Array<string>(fields.length).fill('') : null;
          cellsHaveValue = false;
          break;
        }
        case 'c': {
          const byRef = columnOf(a.r);
          col = byRef > 0 ? byRef : col + 1;
          cell = { ref: a.r ?? '', type: a.t ?? 'n', style: Number.parseInt(a.s ?? '0', 10) || 0 };
          text = '';
          break;
        }
        case 'v':
          if (cell) collecting = true;
          break;
        case 'is':
          inInline = true;
          break;
        case 'rPh':
          inPhonetic = true;
          break;
        case 't':
          if (cell && inInline && !inPhonetic) collecting = true;
          break;
      }
    },
    text: (chunk) => {
      if (!collecting) return;
      text += chunk;
      if (text.length > limits.maxCellChars) throw cellTooLong();
    },
    close: (name) => {
      switch (name) {
        case 'sheetData':
          inSheetData = false;
          break;
        case 'v':
        case 't':
          collecting = false;
          break;
        case 'is':
          inInline = false;
          break;
        case 'rPh':
          inPhonetic = false;
          break;
        case 'c': {
          if (!cell) break;
          const value = valueOf();
          if (value !== '') {
            if (col > limits.maxColumns) throw new SheetLimitError('columns', { max: limits.maxColumns, cell: address() });
            rowHasValue = true;
            if (rowNumber === 1) {
              const header = normaliseHeader(value);
              const field = Object.hasOwn(headerToField, header) ? headerToField[header] : undefined;
              if (field) {
                kept.set(col, fields.length);
                fields.push(field);
              }
            } else if (cells) {
              const index = kept.get(col);
              if (index !== undefined) {
                textChars += value.length;
                if (textChars > limits.maxTextChars) throw new SheetLimitError('textChars', { max: limits.maxTextChars });
                cells[index] = value;
                cellsHaveValue = true;
              }
            }
          }
          cell = null;
          text = '';
          break;
        }
        case 'row':
          if (rowNumber > 1 && rowHasValue) {
            dataRows += 1;
            if (dataRows > limits.maxRows) throw new SheetLimitError('rows', { max: limits.maxRows });
          }
          if (cells && cellsHaveValue) rows.push({ row: rowNumber, cells });
          cells = null;
          break;
      }
    },
  });
  return { fields, rows };
}
