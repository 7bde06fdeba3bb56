import ExcelJS from 'exceljs';
import type { TestServer } from './helpers';

let counter = 0;
/** Unique per run: a random block of numbers, the counter within it. */
const BASE = Math.floor(Math.random() * 0x8000) * 0x10000;

/** A valid device body with unique deviceNum, SN and MAC. */
export function validDevice(ownerId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  const n = BASE + counter;
  const hex = n.toString(16).toUpperCase().padStart(8, '0').slice(-8);
  return {
    name: `Test Vessel ${n}`,
    deviceNum: hex,
    mac: `02.${hex.match(/../g)!.join('.')}.00`,
    deviceSn: `TSN${n}`,
    ownerId,
    ownerSubId: 0,
    manufactureDate: '2024-05-01',
    deviceType: 'VSAT terminal',
    aduVersion: 'V1.0.0',
    bduVersion: 'V1.0.0',
    manufactureInfo: 'Test factory',
    deviceModel: 'VT-1',
    deviceKind: 'vsat',
    ...overrides,
  };
}

/** An .xlsx file with a header row and data rows. */
export async function xlsxOf(headers: string[], rows: (string | number | Date | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A multipart body with one file part named "file". */
export function multipart(content: Buffer, filename = 'devices.xlsx'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Calls a deviceModule path. */
export const dm = (s: TestServer, path: string) => `${s.base}/deviceModule/${path}`;
