import { once } from 'node:events';
import zlib from 'node:zlib';

/**
 * Hostile and honest upload files made on the spot (tests/api/hostileUploads.test.ts and
 * bench/hostileImport.ts): a small zip writer that can lie about sizes, minimal .xlsx packages,
 * decompression bombs, and real PNG and JPEG images.
 */

export interface ZipInput {
  name: string;
  /** The content, or chunks of it (for entries too large to hold at once). */
  data: Buffer | (() => Iterable<Buffer>);
  /** The uncompressed size written in the headers; the true size when absent. */
  declaredSize?: number;
}

async function deflate(data: ZipInput['data']): Promise<{ bytes: Buffer; crc: number; size: number }> {
  const chunks = Buffer.isBuffer(data) ? [data] : data();
  const stream = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  stream.on('data', (c: Buffer) => out.push(c));
  let crc = 0;
  let size = 0;
  for (const chunk of chunks) {
    crc = zlib.crc32(chunk, crc);
    size += chunk.length;
    if (!stream.write(chunk)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'end');
  return { bytes: Buffer.concat(out), crc, size };
}

/** A zip of deflated entries (no zip64), sizes as declared. */
export async function zipOf(entries: ZipInput[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const { bytes, crc, size } = await deflate(entry.data);
    const name = Buffer.from(entry.name, 'utf8');
    const declared = entry.declaredSize ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(bytes.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(bytes.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, bytes);
    centrals.push(central, name);
    offset += local.length + name.length + bytes.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The parts of a one-sheet workbook around a given sheet XML (inline strings, no styles). */
function packageParts(sheet: ZipInput['data'], declaredSize?: number, extra: ZipInput[] = []): ZipInput[] {
  return [
    {
      name: '[Content_Types].xml',
      data: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: xml(
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="devices" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize },
    ...extra,
  ];
}

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** An inline-string cell. */
export const cellXml = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${escape(text)}</t></is></c>`;

/** A one-sheet .xlsx whose rows are given as XML (see cellXml). */
export function sheetXlsx(rowsXml: string[] | (() => Iterable<string>)): Promise<Buffer> {
  const rows = Array.isArray(rowsXml) ? () => rowsXml : rowsXml;
  return zipOf(
    packageParts(function* () {
      yield Buffer.from(SHEET_HEAD);
      let batch = '';
      for (const row of rows()) {
        batch += row;
        if (batch.length > 1 << 20) {
          yield Buffer.from(batch);
          batch = '';
        }
      }
      yield Buffer.from(batch + SHEET_TAIL);
    }),
  );
}

/**
 * The hostile upload (docs/api.md, "Uploads"): a ~400 KB .xlsx whose sheet holds one cell of `mb` MB of the same letter.
 * `declare`: 'honest' writes the true size in the zip headers; 'lying' writes 1 MB there (what a
 * careful attacker does to pass a check of declared sizes).
 */
export function bombXlsx(mb = 400, declare: 'honest' | 'lying' = 'honest'): Promise<Buffer> {
  const megabyte = Buffer.alloc(1 << 20, 0x41);
  const head = Buffer.from(`${SHEET_HEAD}<row r="1"><c r="A1" t="inlineStr"><is><t>`);
  const tail = Buffer.from(`</t></is></c></row>${SHEET_TAIL}`);
  const chunks = function* () {
    yield head;
    for (let i = 0; i < mb; i += 1) yield megabyte;
    yield tail;
  };
  return zipOf(packageParts(chunks, declare === 'lying' ? 1 << 20 : undefined));
}

/** A sheet of `rows` rows of one short cell each after a header (no r attributes: the smallest XML). */
export function manyRowsXlsx(rows: number): Promise<Buffer> {
  return sheetXlsx(function* () {
    yield `<row>${cellXml('A1', 'Name')}</row>`;
    for (let i = 0; i < rows; i += 1) yield '<row><c t="inlineStr"><is><t>x</t></is></c></row>';
  });
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
  return Buffer.concat([head, data, crc]);
}

/** A real RGB PNG of the console's theme colour. */
export function pngOf(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [0x06, 0x5a, 0xa1]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A real baseline JPEG (grey, every 8x8 block flat): JFIF, one quantisation table, one-symbol
 * Huffman tables, a scan of 2 bits a block, EOI.
 */
export function jpegOf(width: number, height: number): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const oneCodeTable = (classAndId: number) => segment(0xc4, [classAndId, 1, ...new Array(15).fill(0), 0x00]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = blocks * 2;
  const scan = new Array(Math.ceil(bits / 8)).fill(0);
  if (bits % 8) scan[scan.length - 1] = (1 << (8 - (bits % 8))) - 1;
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...oneCodeTable(0x00),
    ...oneCodeTable(0x10),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff,
    0xd9,
  ]);
}

/** A multipart body with optional text fields first and one file part (its declared type given). */
export function multipartOf(file: Buffer, options: { filename?: string; type?: string; fields?: Record<string, string> } = {}) {
  const boundary = '----hostile-upload-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(options.fields ?? {})) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? 'file.bin'}"\r\nContent-Type: ${options.type ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The same body cut off inside the file part (no closing boundary). */
export function truncatedMultipartOf(file: Buffer, options: Parameters<typeof multipartOf>[1] = {}) {
  const whole = multipartOf(file, options);
  return { ...whole, payload: whole.payload.subarray(0, whole.payload.length - Math.floor(file.length / 2) - 40) };
}
