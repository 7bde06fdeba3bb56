import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { openStream } from './liveStream';
import { serveConsole } from '../../server/serveConsole';
import { loadConfig } from '../../server/config';
import { consolePolicy } from '../../server/http/securityHeaders';

/** A build of the console small enough to write here: index.html, an asset, config.json. */
function fakeBuild(config: object): string {
  const root = mkdtempSync(join(tmpdir(), 'fleet-headers-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>');
  writeFileSync(join(root, 'assets/index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'config.json'), JSON.stringify(config));
  return root;
}

/** The directives of a Content-Security-Policy header, by name. */
const directives = (header: unknown) =>
  Object.fromEntries(
    String(header ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );

/** What every answer carries, whatever its kind (docs/architecture.md, "Security headers"). */
function expectBaseHeaders(headers: IncomingHttpHeaders | Record<string, unknown>, framing: 'none' | string = 'none') {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  const csp = directives(headers['content-security-policy']);
  if (framing === 'none') {
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(headers['x-frame-options']).toBe('DENY');
  } else {
    expect(csp['frame-ancestors']).toEqual([framing]);
    expect(headers['x-frame-options']).toBeUndefined();
  }
}

describe.each(engines)('security headers on %s', (engine) => {
  let s: TestServer;
  let root: string;
  let token: string;
  beforeAll(async () => {
    root = fakeBuild({ baseURL: 'https://api.fleet.example:8443/', mapTileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png' });
    s = await createTestServer(engine, { consoleDir: root });
    await serveConsole(s.app, loadConfig({}, { consoleDir: root }));
    token = await s.login('admin');
  });
  afterAll(async () => {
    await s.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the console page: a policy of exactly what the console needs, no inline script, not framed', async () => {
    const res = await s.app.inject({ url: '/dashboard' });
    expect(res.statusCode).toBe(200);
    expectBaseHeaders(res.headers);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['connect-src']).toEqual(["'self'", 'https://api.fleet.example:8443', 'https:', 'http:']);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tiles.example.org', 'https:', 'http:']);
    expect(csp['media-src']).toEqual(["'self'", 'blob:', 'https:', 'http:']);
    expect(csp['worker-src']).toEqual(["'self'", 'blob:']);
    // The runtime config is a JSON data block (which no policy runs), not an inline script.
    expect(res.body).toContain('<script type="application/json" id="fleet-config">');
    expect(res.body).not.toMatch(/<script>|<script type="module">[^<]/);
  });

  it('an asset and a file of the build', async () => {
    for (const url of ['/assets/index-abc.js', '/logo.svg', '/config.json']) {
      const res = await s.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expectBaseHeaders(res.headers);
      // Not the console page: a policy that allows nothing (an SVG opened by itself runs no script).
      expect(directives(res.headers['content-security-policy'])['default-src']).toEqual(["'none'"]);
    }
  });

  it('an API answer, a refusal and the OpenAPI document', async () => {
    for (const url of [
      `${s.base}/users/getSelf?token=${token}`,
      `${s.base}/users/getSelf?token=nope`,
      `${s.base}/ping`,
      `${s.base}/openapi.json`,
    ]) {
      const res = await s.app.inject({ url });
      expect(res.headers['content-type'], url).toMatch(/json/);
      expectBaseHeaders(res.headers);
      expect(directives(res.headers['content-security-policy'])['default-src']).toEqual(["'none'"]);
    }
  });

  it('an export (xlsx)', async () => {
    const res = await s.app.inject({ url: `${s.base}/deviceModule/device/export?format=xlsx&token=${token}` });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expectBaseHeaders(res.headers);
  });

  it('404s: an unknown API route, a missing chunk', async () => {
    for (const url of [`${s.base}/nothing/here`, '/assets/index-old.js']) {
      const res = await s.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expectBaseHeaders(res.headers);
    }
  });

  it('the live stream (SSE)', async () => {
    const stream = await openStream(s, token);
    try {
      expect(stream.status).toBe(200);
      expectBaseHeaders(stream.headers);
    } finally {
      stream.close();
    }
  });
});

describe('security header settings', () => {
  it('allows every tile subdomain of a template with {s} in its host (Leaflet spreads tiles over a, b, c)', () => {
    const img = (mapTileUrl: string) =>
      consolePolicy(loadConfig({}), { mapTileUrl })
        .split('; ')
        .find((d) => d.startsWith('img-src'));
    expect(img('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toContain(' https://*.tile.openstreetmap.org');
    expect(img('https://{s}.basemaps.example.com:8443/{z}/{x}/{y}.png')).toContain(' https://*.basemaps.example.com:8443');
    expect(img('https://tiles.example.org/{z}/{x}/{y}.png')).toContain(' https://tiles.example.org');
    expect(img('not a url')).toBe("img-src 'self' data: blob: https: http:");
  });

  it('FRAME_ANCESTORS lets a named portal frame the console (and drops X-Frame-Options, which cannot name it)', async () => {
    const root = fakeBuild({ baseURL: '' });
    const s = await createTestServer('pglite', { consoleDir: root, frameAncestors: 'https://portal.example.com' });
    try {
      await serveConsole(s.app, loadConfig({ FRAME_ANCESTORS: 'https://portal.example.com' }, { consoleDir: root }));
      for (const url of ['/', `${s.base}/ping`]) expectBaseHeaders((await s.app.inject({ url })).headers, 'https://portal.example.com');
    } finally {
      await s.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('CSP_CAMERA_SOURCES narrows where camera streams may come from; a relative baseURL adds no origin', () => {
    const config = loadConfig({ CSP_CAMERA_SOURCES: 'https://cams.example.com' });
    const csp = directives(consolePolicy(config, { baseURL: '/fleet', mapTileUrl: '' }));
    expect(csp['connect-src']).toEqual(["'self'", 'https://cams.example.com']);
    expect(csp['media-src']).toEqual(["'self'", 'blob:', 'https://cams.example.com']);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://cams.example.com']);
    expect(loadConfig({}).frameAncestors).toBe("'none'");
  });
});
