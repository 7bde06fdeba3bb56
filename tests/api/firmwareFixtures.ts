import { randomBytes } from 'node:crypto';
import type { Db } from '../../server/db/connection';
import type { TestServer } from './helpers';
import { hashDeviceSecret } from '../../server/auth/deviceCredentials';

export const DEVICE_SECRET = 'firmware-test-secret-0123456789';
export const VSAT = { deviceType: 'VSAT terminal', model: 'VT-2000' };

/** A multipart body: the fields first, then the file (the order the API asks for). */
export function multipart(fields: Record<string, string>, file?: { name: string; content: Buffer }) {
  const boundary = `----firmware${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const packageFields = (overrides: Record<string, string> = {}) => ({
  ...VSAT,
  customer: 'Oceanic Shipping',
  version: 'V1.0.0',
  versionType: 'release',
  enabled: 'true',
  updateInfo: 'Fixes tracking drift',
  ...overrides,
});

export function upload(s: TestServer, token: string, fields: Record<string, string>, content?: Buffer, lang: 'zh' | 'en' = 'en') {
  const body = multipart(fields, content ? { name: 'vt2000.bin', content } : undefined);
  return s.call({ method: 'POST', url: `${s.base}/deviceModule/firmware/add`, token, lang, ...body });
}

/** Activated devices of a type and model, each given the test secret. */
export async function updatableDevices(db: Db, count: number, kind = VSAT): Promise<{ id: number; num: string }[]> {
  const rows = await db.query<{ id: number; num: string }>(
    `SELECT id, device_num AS num FROM devices WHERE device_type = $1 AND device_model = $2 AND activated AND device_num IS NOT NULL ORDER BY id LIMIT $3`,
    [kind.deviceType, kind.model, count],
  );
  for (const row of rows) await db.query('UPDATE devices SET secret_hash = $2 WHERE id = $1', [row.id, hashDeviceSecret(DEVICE_SECRET)]);
  return rows;
}

const deviceHeaders = (num: string, secret: string) => ({ 'x-device-num': num, 'x-device-secret': secret });

export function check(s: TestServer, num: string, secret = DEVICE_SECRET) {
  return s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/device/check`, lang: 'en', headers: deviceHeaders(num, secret) });
}

export function reportUpdate(s: TestServer, num: string, body: Record<string, unknown>, secret = DEVICE_SECRET) {
  return s.call({
    method: 'POST',
    url: `${s.base}/deviceModule/firmware/device/report`,
    lang: 'en',
    headers: { ...deviceHeaders(num, secret), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

export function download(s: TestServer, num: string, rolloutId: number, range?: string) {
  return s.app.inject({
    method: 'GET',
    url: `${s.base}/deviceModule/firmware/device/download?rolloutId=${rolloutId}`,
    headers: { ...deviceHeaders(num, DEVICE_SECRET), ...(range ? { range } : {}) },
  });
}
