import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { DIST, launchBrowser, startE2eServer } from '../tests/e2e/browser';
import './smoke';

/**
 * The JS and CSS the login page and the dashboard download, gzipped, measured by loading each
 * route in headless Chromium against the built console (run after `npm run build`; E2E_DIST picks
 * the build). BENCH_SMOKE=1 changes nothing here but the demo's history, left out (bench/smoke.ts).
 */
const server = await startE2eServer();
const browser = await launchBrowser();

async function assetsOf(path: string, login: boolean) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const seen = new Set<string>();
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (/\.(js|css)$/.test(url.pathname)) seen.add(url.pathname);
  });
  if (login) {
    await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
    await page.getByTestId('login-name').fill('admin');
    await page.getByTestId('login-password').fill('admin123');
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 30_000 });
    seen.clear();
    await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
  } else {
    await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
  }
  await context.close();
  const files = [...seen].map((p) => {
    const bytes = readFileSync(`${DIST}${p}`);
    return { path: p, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const sum = (ext: string, key: 'raw' | 'gzip') => files.filter((f) => f.path.endsWith(ext)).reduce((n, f) => n + f[key], 0);
  return {
    route: path,
    files: files.length,
    'js gzip KB': +(sum('.js', 'gzip') / 1024).toFixed(1),
    'js raw KB': +(sum('.js', 'raw') / 1024).toFixed(1),
    'css gzip KB': +(sum('.css', 'gzip') / 1024).toFixed(1),
  };
}

const rows = [await assetsOf('/login', false), await assetsOf('/', true)];
console.log('\nbench:bundle — assets each route downloads (a fresh page load; the dashboard row after logging in)');
console.table(rows);
await browser.close();
await server.close();
