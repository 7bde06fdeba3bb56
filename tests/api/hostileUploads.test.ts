import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startWithLogins, type TestServer } from './helpers';
import { dm, validDevice, xlsxOf } from './deviceFixtures';
import { packageFields } from './firmwareFixtures';
import { bombXlsx, cellXml, jpegOf, manyRowsXlsx, multipartOf, pngOf, sheetXlsx, truncatedMultipartOf } from './uploadFixtures';
import { ErrorCode } from '../../src/domain/errorCodes';
import { DEVICE_FIELDS } from '../../src/domain/deviceSchemas';
import { IMPORT_MAX_ROWS } from '../../src/domain/constants';
import { readDeviceSheet } from '../../server/modules/devices/importParser';
import { BizError } from '../../server/http/envelope';

/**
 * Uploads that cannot hurt the server (docs/api.md, "Uploads"). Hostile Excel files are refused early, by the
 * limit they cross, with code 8 and a message in the caller's language; the event loop keeps
 * serving others meanwhile (bench/hostileImport.ts measures that). Images are checked by their
 * decoded content; malformed multipart bodies are refusals, never -100.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MALFORMED = { code: ErrorCode.UploadRejected, msg: 'The upload is incomplete or malformed (multipart/form-data)' };

let bomb: Buffer;
let lyingBomb: Buffer;
let millionRows: Buffer;
beforeAll(async () => {
  [bomb, lyingBomb, millionRows] = await Promise.all([bombXlsx(400), bombXlsx(400, 'lying'), manyRowsXlsx(1_000_000)]);
}, 60_000);

describe('the import reader (off the event loop)', () => {
  it('gives up on a file past its time limit, and on a thread past its heap limit', async () => {
    const file = await xlsxOf(['Name'], [['a']]);
    const slow = await readDeviceSheet(file, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(BizError);
    expect(slow).toMatchObject({ code: ErrorCode.UploadRejected, msgKey: 'error.uploadLimitTime', data: { limit: 'time' } });
    const starved = await readDeviceSheet(file, { heapMb: 2 }).catch((e: unknown) => e);
    expect(starved).toMatchObject({ code: ErrorCode.UploadRejected, msgKey: 'error.uploadLimitMemory', data: { limit: 'memory' } });
    expect(await readDeviceSheet(file)).toEqual([{ row: 2, values: { name: 'a' } }]);
  });
});

describe.each(engines)('hostile uploads on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops']));
  });
  afterAll(() => s.close());

  const importFile = (file: Buffer, lang?: 'zh' | 'en', who = 'oceanic') =>
    s.call({ method: 'POST', url: dm(s, 'device/import'), token: tokens[who], lang, ...multipartOf(file, { filename: 'devices.xlsx' }) });
  const ping = () => s.call({ url: `${s.base}/ping` });

  describe('Excel import', () => {
    it('refuses a 400 KB file that unpacks to 400 MB at once, in zh and en, and /ping keeps answering', async () => {
      expect(bomb.length).toBeLessThan(500 * 1024);
      const started = Date.now();
      const pending = importFile(bomb, 'en');
      expect((await ping()).code).toBe(0);
      const en = await pending;
      expect(en).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'The Excel file is too large once unpacked: xl/worksheets/sheet1.xml is more than 24MB; it was refused',
        data: { limit: 'entryBytes', part: 'xl/worksheets/sheet1.xml' },
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      const zh = await importFile(bomb, 'zh');
      expect(zh).toMatchObject({ code: ErrorCode.UploadRejected, msg: 'Excel 文件解压后过大：xl/worksheets/sheet1.xml 超过 24MB，已拒绝' });
      expect((await ping()).code).toBe(0);
    });

    it('refuses a bomb that lies about its unpacked size as soon as it passes the declared size', async () => {
      const [en, zh] = await Promise.all([importFile(lyingBomb, 'en'), importFile(lyingBomb, 'zh')]);
      expect(en).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'The Excel file is damaged: xl/worksheets/sheet1.xml unpacks to another size than it declares; it was refused',
        data: { limit: 'declaredSize' },
      });
      expect(zh).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'Excel 文件已损坏：xl/worksheets/sheet1.xml 解压后的大小与声明的不符，已拒绝',
      });
      expect((await ping()).code).toBe(0);
    });

    it('refuses a 1M-row sheet and a sheet one row over the limit, naming the limit', async () => {
      expect(millionRows.length).toBeLessThan(200 * 1024);
      expect(await importFile(millionRows, 'en')).toMatchObject({ code: ErrorCode.UploadRejected, data: { limit: 'entryBytes' } });
      const over = await manyRowsXlsx(IMPORT_MAX_ROWS + 1);
      expect(await importFile(over, 'en')).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'The sheet has more than 10,000 rows: at most 10,000 devices can be imported at once',
        data: { limit: 'rows', max: 10_000 },
      });
      expect(await importFile(over, 'zh')).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: '表格超过 10,000 行：一次最多导入 10,000 台设备',
      });
    });

    it('refuses an over-long cell (shared or inline string) and a column past the limit, naming the cell', async () => {
      const shared = await xlsxOf(
        ['Name', 'SN'],
        [
          ['ok', 'SN1'],
          ['x'.repeat(1001), 'SN2'],
        ],
      );
      expect(await importFile(shared, 'en')).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'Cell A3 holds more than 1,000 characters',
        data: { limit: 'cellChars', cell: 'A3' },
      });
      expect(await importFile(shared, 'zh')).toMatchObject({ code: ErrorCode.UploadRejected, msg: '单元格 A3 超过 1,000 个字符' });
      const inline = await sheetXlsx([`<row r="1">${cellXml('A1', 'Name')}</row>`, `<row r="2">${cellXml('B2', 'y'.repeat(5000))}</row>`]);
      expect(await importFile(inline, 'en')).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'Cell B2 holds more than 1,000 characters',
      });
      const wide = await sheetXlsx([`<row r="1">${cellXml('A1', 'Name')}${cellXml('BM1', 'notes')}</row>`]);
      expect(await importFile(wide, 'en')).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'The sheet has more than 64 columns (cell BM1)',
        data: { limit: 'columns' },
      });
    });

    it('still imports a valid file, and a sheet written without styles or shared strings', async () => {
      const device = validDevice(ids.oceanic!);
      const res = await importFile(
        await xlsxOf([...DEVICE_FIELDS], [DEVICE_FIELDS.map((f) => (device[f] ?? null) as string | number | null)]),
        'en',
      );
      expect(res).toMatchObject({ code: 0, data: { imported: 1 } });
      const found = await s.db.query<{ name: string }>('SELECT name FROM devices WHERE device_sn = $1', [device.deviceSn]);
      expect(found).toEqual([{ name: device.name }]);
      const plain = validDevice(ids.oceanic!);
      const header = DEVICE_FIELDS.map((f, i) => cellXml(`${String.fromCharCode(65 + i)}1`, f)).join('');
      const values = DEVICE_FIELDS.map((f, i) =>
        plain[f] === undefined ? '' : cellXml(`${String.fromCharCode(65 + i)}2`, String(plain[f])),
      ).join('');
      // Columns named like Object's own properties are other columns, ignored like any other.
      const odd = `${cellXml('T1', 'constructor')}${cellXml('U1', '__proto__')}`;
      const minimal = await sheetXlsx([
        `<row r="1">${header}${odd}</row>`,
        `<row r="2">${values}${cellXml('T2', 'x')}${cellXml('U2', 'y')}</row>`,
      ]);
      expect(await importFile(minimal, 'en')).toMatchObject({ code: 0, data: { imported: 1 } });
    });

    it('answers a truncated multipart body with code 8', async () => {
      const body = truncatedMultipartOf(await xlsxOf(['Name'], [['a']]), { filename: 'devices.xlsx' });
      expect(await s.call({ method: 'POST', url: dm(s, 'device/import'), token: tokens.oceanic, lang: 'en', ...body })).toMatchObject(
        MALFORMED,
      );
    });
  });

  describe('images', () => {
    const uploadImage = (file: Buffer, options: { type?: string; fileType?: string; lang?: 'zh' | 'en' } = {}) =>
      s.call({
        method: 'POST',
        url: `${s.base}/users/uploadFile`,
        token: tokens.oceanops,
        lang: options.lang ?? 'en',
        ...multipartOf(file, { filename: 'icon', type: options.type, fields: { fileType: options.fileType ?? '2' } }),
      });

    it('accepts real PNG and JPEG images and stores them by their decoded type', async () => {
      expect(await uploadImage(pngOf(200, 200), { type: 'image/png' })).toMatchObject({ code: 0, data: { fileType: 2 } });
      expect(await uploadImage(jpegOf(160, 35), { type: 'image/jpeg', fileType: '1' })).toMatchObject({ code: 0, data: { fileType: 1 } });
      const list = await s.call({ url: `${s.base}/users/getPictureListByUid`, token: tokens.oceanic });
      expect(list.data.map((p: { fileType: number; content: string }) => [p.fileType, p.content.slice(0, 16)])).toEqual([
        [1, 'data:image/jpeg;'],
        [2, 'data:image/png;b'],
      ]);
    });

    it('refuses a PNG signature followed by HTML, and a real image with HTML after its end', async () => {
      const html = Buffer.concat([PNG_SIGNATURE, Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]);
      expect(await uploadImage(html, { type: 'image/png' })).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'This image cannot be read: only complete JPG or PNG images can be uploaded',
      });
      expect(await uploadImage(html, { lang: 'zh' })).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: '无法读取该图片：只能上传完整的 JPG 或 PNG 图片',
      });
      const appended = Buffer.concat([pngOf(8, 8), Buffer.from('<script>alert(1)</script>')]);
      expect(await uploadImage(appended)).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'The image has extra data after its end; it was refused',
      });
      const jpegAppended = Buffer.concat([jpegOf(8, 8), Buffer.from('<html></html>')]);
      expect(await uploadImage(jpegAppended)).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'The image has extra data after its end; it was refused',
      });
    });

    it('refuses a declared type that is not the image, a cut image and absurd dimensions', async () => {
      expect(await uploadImage(pngOf(8, 8), { type: 'image/svg+xml' })).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'The declared file type (image/svg+xml) does not match the image',
      });
      expect(await uploadImage(pngOf(8, 8), { type: 'text/html' })).toMatchObject({ code: ErrorCode.UploadRejected });
      // A PNG saved with a .jpg name (declared image/jpeg) is still a PNG the user may upload.
      expect(await uploadImage(pngOf(8, 8), { type: 'image/jpeg' })).toMatchObject({ code: ErrorCode.Ok });
      expect(await uploadImage(pngOf(40, 40).subarray(0, 60))).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'This image cannot be read: only complete JPG or PNG images can be uploaded',
      });
      expect(await uploadImage(pngOf(8001, 1))).toMatchObject({
        code: ErrorCode.UploadRejected,
        msg: 'The image must be between 1×1 and 8000×8000 pixels',
      });
    });

    it('answers malformed multipart bodies (no boundary, truncated part) with code 8, not -100', async () => {
      const noBoundary = await s.call({
        method: 'POST',
        url: `${s.base}/users/uploadFile?fileType=2`,
        token: tokens.oceanops,
        lang: 'en',
        headers: { 'content-type': 'multipart/form-data' },
        payload: multipartOf(pngOf(4, 4)).payload,
      });
      expect(noBoundary).toMatchObject(MALFORMED);
      const truncated = await s.call({
        method: 'POST',
        url: `${s.base}/users/uploadFile?fileType=2`,
        token: tokens.oceanops,
        lang: 'en',
        ...truncatedMultipartOf(pngOf(64, 64)),
      });
      expect(truncated).toMatchObject(MALFORMED);
      expect((await ping()).code).toBe(0);
    });
  });

  describe('firmware', () => {
    const add = (body: { payload: Buffer; headers: Record<string, string> }) =>
      s.call({ method: 'POST', url: `${s.base}/deviceModule/firmware/add`, token: tokens.admin, lang: 'en', ...body });

    it('answers malformed multipart bodies (no boundary, truncated part) with code 8, not -100, and keeps nothing', async () => {
      const fields = packageFields({ version: 'V9.9.1' });
      const whole = multipartOf(Buffer.alloc(64 * 1024, 7), { filename: 'fw.bin', fields });
      expect(await add({ payload: whole.payload, headers: { 'content-type': 'multipart/form-data' } })).toMatchObject(MALFORMED);
      expect(await add(truncatedMultipartOf(Buffer.alloc(64 * 1024, 7), { filename: 'fw.bin', fields }))).toMatchObject(MALFORMED);
      const kept = await s.db.query('SELECT id FROM firmware_packages WHERE version = $1', ['V9.9.1']);
      expect(kept).toEqual([]);
      expect((await add(whole)).code).toBe(0);
    });
  });
});
