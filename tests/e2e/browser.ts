import { existsSync, mkdirSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer } from '../../server/start';
import { serveConsole } from '../../server/serveConsole';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
/** Outside CI a machine without chromium skips the browser suites; under CI=true they run, and fail. */
export const skipBrowserTests = !chromiumAvailable && process.env.CI !== 'true';
export const SCREENSHOTS = 'tests/e2e/screenshots';

/** Where the browser tests build the console (E2E_DIST lets parallel runs keep apart). */
export const DIST = process.env.E2E_DIST || 'dist';

/**
 * Builds the console (E2E_SKIP_BUILD=1 reuses an existing build). The global set-ups of the e2e and
 * bench projects both call it, in vitest's one main process: the build happens once per run.
 */
export function buildConsole() {
  // The mark names this process, so that a process it starts (which inherits its environment) still builds.
  const mark = `${process.pid}:${DIST}`;
  if (process.env.CONSOLE_BUILT_THIS_RUN === mark) return;
  if (process.env.E2E_SKIP_BUILD !== '1' || !existsSync(`${DIST}/index.html`)) {
    // The product's build, not vitest's NODE_ENV=test one (React's development build is twice the size and slower).
    execSync(`npx vite build --logLevel error --outDir ${DIST} --emptyOutDir`, {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  process.env.CONSOLE_BUILT_THIS_RUN = mark;
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
  return {
    app,
    db,
    config,
    url: `http://127.0.0.1:${port}`,
    api: `http://127.0.0.1:${port}/cz/${config.apiSegment}`,
    close: () => app.close(),
  };
}

export type E2eServer = Awaited<ReturnType<typeof startE2eServer>>;
export type Lang = 'zh' | 'en';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: false });
}

/** A test file's set-up (its beforeAll): the built console served by a fresh server, and a browser. */
export async function startE2e(): Promise<{ server: E2eServer; browser: Browser }> {
  ensureBuilt();
  const server = await startE2eServer();
  try {
    return { server, browser: await launchBrowser() };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** A test file's tear-down (its afterAll); either may be missing when the set-up failed. */
export async function stopE2e(server: E2eServer | undefined, browser: Browser | undefined) {
  await browser?.close();
  server?.app.server.closeAllConnections();
  await server?.close();
}

export interface OpenOptions {
  /** The language cookie; none leaves the console to its default. */
  lang?: Lang;
  width?: number;
  height?: number;
  /** The time-zone cookie (hours from UTC, e.g. '8'). */
  timeZone?: string;
  acceptDownloads?: boolean;
}

/** A fresh browser context (no session) at a viewport size, with language and time-zone cookies, and its page. */
export async function openPage(
  browser: Browser,
  server: E2eServer,
  { lang, width = 1440, height = 900, timeZone, acceptDownloads }: OpenOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, ...(acceptDownloads === undefined ? {} : { acceptDownloads }) });
  const cookies = [
    ...(lang ? [{ name: 'language', value: lang, url: server.url }] : []),
    ...(timeZone ? [{ name: 'timeZone', value: timeZone, url: server.url }] : []),
  ];
  if (cookies.length) await context.addCookies(cookies);
  return { context, page: await context.newPage() };
}

/** Logs in through the login page (to `redirect` when given) and waits to leave it. */
export async function logIn(page: Page, server: Pick<E2eServer, 'url'>, name: string, password: string, redirect?: string) {
  await page.goto(redirect === undefined ? `${server.url}/login` : `${server.url}/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  // Up to a minute: the benches log in on a machine busy with a large fleet.
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 60_000 });
}
