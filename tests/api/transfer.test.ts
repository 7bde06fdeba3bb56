import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { serveConsole, IMMUTABLE } from '../../server/serveConsole';
import { loadConfig } from '../../server/config';
import { createTestServer, engines, type TestServer } from './helpers';

/**
 * Bytes at sea: what goes over the wire. A console build as Vite writes it (hashed assets with
 * their .br and .gz copies, the manifest), the API's compression, and the 304s of what polls.
 */
function fakeBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'fleet-build-'));
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, '.vite'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  writeFileSync(join(root, 'assets/index-abc.js'), js);
  writeFileSync(join(root, 'assets/index-abc.js.br'), brotliCompressSync(js));
  writeFileSync(join(root, 'assets/index-abc.js.gz'), gzipSync(js));
  writeFileSync(join(root, 'config.json'), JSON.stringify({ baseURL: '', warnRefreshSeconds: 30 }));
  writeFileSync(
    join(root, '.vite/manifest.json'),
    JSON.stringify({ 'src/i18n/zh.ts': { file: 'assets/zh-111.js' }, 'src/i18n/en.ts': { file: 'assets/en-222.js' } }),
  );
  return root;
}

describe.each(engines)('what goes over the wire (%s)', (engine) => {
  let s: TestServer;
  let root: string;
  let token: string;
  beforeAll(async () => {
    root = fakeBuild();
    s = await createTestServer(engine, { consoleDir: root });
    await serveConsole(s.app, loadConfig({}, { consoleDir: root }));
    token = await s.login('admin');
  });
  afterAll(async () => {
    await s.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends a hashed asset precompressed by what the browser accepts, cached for a year', async () => {
    const br = await s.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('console.log');
    const gz = await s.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('console.log');
    const plain = await s.app.inject({ url: '/assets/index-abc.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('console.log');
  });

  it('answers a chunk that is not in the build with 404, not with index.html', async () => {
    expect((await s.app.inject({ url: '/assets/index-old.js' })).statusCode).toBe(404);
  });

  it('sends index.html revalidated, with the runtime config written in and the language catalogue preloaded', async () => {
    const zh = await s.app.inject({ url: '/dashboard' });
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['cache-control']).toBe('no-cache');
    expect(zh.body).toContain('<script type="application/json" id="fleet-config">{');
    expect(zh.body).not.toContain('window.__FLEET_CONFIG__');
    expect(zh.body).toContain('"apiSegment":"test"');
    expect(zh.body).toContain('<link rel="modulepreload" crossorigin href="/assets/zh-111.js">');
    expect(zh.body).not.toContain('en-222');
    const en = await s.app.inject({ url: '/login', headers: { cookie: 'sidebarStatus=1; language=en' } });
    expect(en.body).toContain('href="/assets/en-222.js"');
    const again = await s.app.inject({ url: '/login', headers: { cookie: 'language=en', 'if-none-match': en.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const config = await s.app.inject({ url: '/config.json' });
    expect(config.headers['cache-control']).toBe('no-cache');
    expect(config.json()).toMatchObject({ apiSegment: 'test', warnRefreshSeconds: 30 });
  });

  it('compresses a JSON answer over 1 KB by Accept-Encoding and leaves a small one alone', async () => {
    const url = `/cz/test/users/getAll?pageIndex=1&pageSize=50&token=${token}`;
    const plain = await s.app.inject({ url });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await s.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await s.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const small = await s.app.inject({ url: '/cz/test/ping', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('answers a poll whose answer has not changed with a bodiless 304, and a changed one with 200', async () => {
    const url = `/cz/test/deviceModule/monitor/statusCounts?token=${token}`;
    const first = await s.app.inject({ url });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const same = await s.app.inject({ url, headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);
    // A vessel's terminal is re-declared as another kind: the counts per kind change, so the old ETag gets the new answer.
    await s.db.query(
      `UPDATE devices SET device_kind = CASE WHEN device_kind = 'vbox' THEN 'microwave' ELSE 'vbox' END WHERE id = (SELECT min(id) FROM devices)`,
    );
    const changed = await s.app.inject({ url, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('answers the polling POSTs (bell, status monitor, fleet map) with a 304 while nothing changed', async () => {
    const url = `/cz/test/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition?token=${token}`;
    const payload = { deviceStatus: [0, 1, 2], pageIndex: 1, pageSize: 10, withTotal: true };
    const first = await s.app.inject({ method: 'POST', url, payload });
    expect(first.statusCode).toBe(200);
    expect(first.json().code).toBe(0);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const same = await s.app.inject({ method: 'POST', url, payload, headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);
    // Another question gets its own answer, not a 304 against the first one's ETag.
    const other = await s.app.inject({ method: 'POST', url, payload: { ...payload, pageSize: 5 }, headers: { 'if-none-match': etag } });
    expect(other.statusCode).toBe(200);
    // The vessels are renamed: the same question now has a new answer.
    await s.db.query(`UPDATE devices SET name = name || ' II'`);
    const changed = await s.app.inject({ method: 'POST', url, payload, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('sends an Excel export as it is (xlsx is compressed already)', async () => {
    const res = await s.app.inject({
      url: `/cz/test/deviceModule/device/export?format=xlsx&token=${token}`,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
