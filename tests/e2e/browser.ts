import { existsSync, mkdirSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer } from '../../server/start';
import { serveConsole } from '../../server/serveConsole';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
export const SCREENSHOTS = 'tests/e2e/screenshots';

/** Where the browser tests build the console (E2E_DIST lets parallel runs keep apart). */
export const DIST = process.env.E2E_DIST || 'dist';

/** Builds the console (E2E_SKIP_BUILD=1 reuses an existing build); the e2e globalSetup calls it once per run. */
export function buildConsole() {
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(`${DIST}/index.html`)) return;
  execSync(`npx vite build --logLevel error --outDir ${DIST} --emptyOutDir`, { stdio: 'inherit' });
}

/** Kept for the test files: the build itself happens once, in the globalSetup. */
export function ensureBuilt() {
  if (!existsSync(`${DIST}/index.html`)) throw new Error(`no built console in ${DIST}/`);
}

/** The real server with demo data in memory, serving the built console, on a free port. */
export async function startE2eServer() {
  const { app, db, config } = await startServer({ dataDir: 'memory://', logLevel: 'silent', consoleDir: DIST });
  if (!(await serveConsole(app, config))) throw new Error(`no built console in ${DIST}/`);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, db, config, url: `http://127.0.0.1:${port}`, api: `http://127.0.0.1:${port}/cz/${config.apiSegment}`, close: () => app.close() };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
  });
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: false });
}
