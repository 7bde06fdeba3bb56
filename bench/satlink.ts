import type { CDPSession, Page } from 'playwright-core';
import { startBackgroundWork } from '../server/simulator/startDemo';
import { alwaysLeader } from '../server/leader';
import { launchBrowser, startE2eServer } from '../tests/e2e/browser';
import { sized } from './smoke';

/**
 * The console over a slow satellite link: Chromium's network emulation (DevTools protocol) with a
 * 600 ms round trip and a few hundred kbit/s, against the built console (run after a build;
 * E2E_DIST picks the build). Prints figures, asserts nothing.
 *   SATLINK_PROFILES="512/128,256/64"  down/up kbit/s, one fresh browser context (cold cache) each
 *   SATLINK_IDLE_SECONDS=60            length of the idle stretch on the dashboard
 *   SATLINK_TIMELINE=1                 also print when each request of the login and the reload started and ended
 *   BENCH_SMOKE=1                      one profile, 2048/512, and an idle stretch of 5 s (bench/smoke.ts)
 * Bytes are what Chromium reports received on the wire (Network.loadingFinished encodedDataLength,
 * headers included); requests are Network.requestWillBeSent for http(s) URLs. The live-push stream
 * (an EventSource the console keeps open, docs/api.md "GET /live/events") counts in bytes and
 * requests as its events arrive, but never as a request in flight: the network is idle while it is open.
 */
const LATENCY_MS = 600;
const IDLE_S = Number(process.env.SATLINK_IDLE_SECONDS ?? sized(60, 5));
const PROFILES = (process.env.SATLINK_PROFILES ?? sized('512/128,256/64', '2048/512')).split(',').map((p) => {
  const [down, up] = p.split('/').map(Number);
  return { name: p.trim(), down: down!, up: up! };
});
const AIMS = {
  login: '<= 4 s, <= 160 KB',
  dashboard: '<= 8 s',
  reload: '<= 2 s',
  reloadAssets: '0',
  chain: '<= 3 (in requests)',
  idle: '<= 10 KB',
};

interface Req {
  path: string;
  bytes: number;
  cached: boolean;
  stream: boolean;
  status?: number;
  start: number;
  end?: number;
  /** Its place in the longest chain of round trips that ended one after another before it started (chainDepth). */
  depth?: number;
}

/** Records every request the page makes through its own DevTools session. */
function recorder(cdp: CDPSession) {
  const byId = new Map<string, Req>();
  const rec = { all: [] as Req[], bytes: 0, inflight: new Map<string, string>(), lastActivity: performance.now(), failed: [] as string[] };
  const received = (r: Req, bytes: number) => {
    r.bytes += bytes;
    rec.bytes += bytes;
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!/^https?:/.test(e.request.url)) return;
    // The live-push stream stays open for good: it is not the page loading (as in tests/e2e/walk.test.ts).
    const stream = e.type === 'EventSource';
    const r: Req = { path: new URL(e.request.url).pathname, bytes: 0, cached: false, stream, start: performance.now() };
    byId.set(e.requestId, r);
    rec.all.push(r);
    if (stream) return;
    rec.inflight.set(e.requestId, r.path);
    rec.lastActivity = performance.now();
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = byId.get(e.requestId);
    if (!r) return;
    r.status = e.response.status;
    // A memory-cache hit shows as requestServedFromCache (the protocol's Response has no fromMemoryCache).
    if (e.response.fromDiskCache) r.cached = true;
    // The stream's headers: its body is counted chunk by chunk below, as it never finishes loading.
    if (r.stream) received(r, e.response.encodedDataLength);
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = byId.get(e.requestId);
    if (r?.stream) received(r, e.encodedDataLength);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (!r) return;
    // The total on the wire; a stream that ended has had most of it counted already.
    received(r, Math.max(0, e.encodedDataLength - r.bytes));
    r.end = performance.now();
    if (r.stream) return;
    rec.inflight.delete(e.requestId);
    rec.lastActivity = performance.now();
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.end = performance.now();
    if (!r || r.stream) return;
    if (!e.canceled) rec.failed.push(`${r.path}: ${e.errorText}`);
    rec.inflight.delete(e.requestId);
    rec.lastActivity = performance.now();
  });
  return rec;
}
type Recorder = ReturnType<typeof recorder>;

const mark = (rec: Recorder) => ({ t: performance.now(), bytes: rec.bytes, n: rec.all.length });
type Mark = ReturnType<typeof mark>;

/** A table row from a mark to now (or to `end`, a performance.now() time). */
function row(rec: Recorder, from: Mark, figure: string, aim: string, end = performance.now()) {
  return {
    figure,
    seconds: +((end - from.t) / 1000).toFixed(2),
    KB: +((rec.bytes - from.bytes) / 1024).toFixed(1),
    requests: rec.all.length - from.n,
    'aim (512/128)': aim,
  };
}

/** Waits until no request (but the live-push stream) has been in flight for `quietMs`; returns when the last one ended. */
async function networkIdle(rec: Recorder, quietMs = 1000) {
  for (const started = performance.now(); performance.now() - started < 180_000; await new Promise((r) => setTimeout(r, 50))) {
    if (rec.inflight.size === 0 && performance.now() - rec.lastActivity >= quietMs) return rec.lastActivity;
  }
  throw new Error(`the network never went idle; in flight: ${[...rec.inflight.values()].join(', ')}`);
}

/**
 * "Drawn": the dashboard's fleet map has drawn the land (the Leaflet canvas renderer of the land
 * layer sits in the overlay pane only once the land chunk has loaded and been added) and has put
 * the vessels on its own canvas (the window.__fleetMap test hook: at least one vessel, and every
 * vessel drawn as an arrow or inside a cluster).
 */
const mapDrawn = (page: Page, rec: Recorder) =>
  page
    .waitForFunction(
      () => {
        const s = window.__fleetMap?.stats;
        return (
          !!s &&
          s.vessels > 0 &&
          s.points + s.vesselsInClusters === s.vessels &&
          !!document.querySelector('[data-testid="fleet-map"] .leaflet-overlay-pane canvas')
        );
      },
      undefined,
      { timeout: 180_000 },
    )
    .catch(async (error: Error) => {
      const stats = await page.evaluate(() => JSON.stringify(window.__fleetMap?.stats ?? null)).catch(() => '?');
      const text = await page.evaluate(() => document.body.innerText.slice(0, 300)).catch(() => '?');
      throw new Error(
        `the dashboard's map was not drawn (at ${page.url()}, map stats ${stats}; failed requests: ${rec.failed.join(', ') || 'none'}; ` +
          `page errors: ${pageErrors.join(' | ') || 'none'}; page text: ${JSON.stringify(text)}): ${error.message}`,
      );
    });

/**
 * The request chain depth of a stretch: how many network round trips ran one after another. A request
 * goes one deeper than the deepest network request of the stretch that had ended before it started
 * (what it may have waited for); cache hits and the live-push stream are no round trip. Counted up
 * to `until` (the map drawn), so the polls of an idle page do not add up.
 */
function chainDepth(reqs: Req[], until: number) {
  const net = reqs.filter((r) => !r.cached && !r.stream && r.start <= until);
  let deepest = 0;
  for (const r of net) {
    r.depth = 1 + Math.max(0, ...net.filter((p) => p.end !== undefined && p.end <= r.start).map((p) => p.depth ?? 0));
    deepest = Math.max(deepest, r.depth);
  }
  return deepest;
}

const kb = (bytes: number) => +(bytes / 1024).toFixed(1);
/** The page's uncaught errors, shown when its map is not drawn. */
const pageErrors: string[] = [];
/** Bytes received so far on the live-push streams (each opened before the stretch it is read over). */
const streamBytes = (rec: Recorder) => rec.all.filter((r) => r.stream).reduce((n, r) => n + r.bytes, 0);

/** Requests grouped by path: count and bytes on the wire, largest first. */
function byPath(reqs: Req[]) {
  const groups = new Map<string, { path: string; requests: number; KB: number; bytes: number }>();
  for (const r of reqs) {
    const g = groups.get(r.path) ?? { path: r.path, requests: 0, KB: 0, bytes: 0 };
    g.requests += 1;
    g.bytes += r.bytes;
    g.KB = kb(g.bytes);
    groups.set(r.path, g);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes);
}

const server = await startE2eServer();
// The demo fleet reports every 10 s as under `npm start`, so the idle minute sees live data.
const simulator = await startBackgroundWork(server.app, server.db, server.config, alwaysLeader());
const browser = await launchBrowser();

for (const profile of PROFILES) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // Throughput in bytes/s with kbit = 1000 bit (as link rates are quoted): kbit * 1000 / 8.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: (profile.down * 1000) / 8,
    uploadThroughput: (profile.up * 1000) / 8,
  });
  const rec = recorder(cdp);
  pageErrors.length = 0;
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const rows = [];

  // 1. The login form, cold cache.
  const login = mark(rec);
  await page.goto(`${server.url}/login`, { waitUntil: 'commit' });
  await page.getByTestId('login-name').waitFor({ state: 'visible', timeout: 180_000 });
  rows.push(row(rec, login, 'login form visible', AIMS.login));
  rows.push(row(rec, login, 'login page, network idle', '', await networkIdle(rec)));
  const loginReqs = rec.all.slice(login.n);

  // 2. Log in until the dashboard's map is drawn.
  await page.getByTestId('login-name').fill('admin');
  await page.getByTestId('login-password').fill('admin123');
  const dash = mark(rec);
  await page.getByTestId('login-submit').click();
  await mapDrawn(page, rec);
  const dashDrawn = performance.now();
  rows.push(row(rec, dash, 'log in -> dashboard map drawn', AIMS.dashboard));
  rows.push(row(rec, dash, 'log in -> dashboard, network idle', '', await networkIdle(rec)));
  const dashReqs = rec.all.slice(dash.n);
  rows.push({
    ...row(rec, dash, 'log in -> map drawn: request chain depth', AIMS.chain),
    seconds: '',
    KB: '',
    requests: chainDepth(dashReqs, dashDrawn),
  });

  // 3. Warm reload of the dashboard.
  const reload = mark(rec);
  await page.reload({ waitUntil: 'commit' });
  await mapDrawn(page, rec);
  rows.push(row(rec, reload, 'warm reload -> map drawn', AIMS.reload));
  const reloadReqs = rec.all.slice(reload.n);
  rows.push({
    ...row(rec, reload, 'warm reload -> map drawn: request chain depth', AIMS.chain),
    seconds: '',
    KB: '',
    requests: chainDepth(reloadReqs, performance.now()),
  });
  const reloadNet = reloadReqs.filter((r) => !r.cached);
  const assetFetches = reloadNet.filter((r) => r.path.startsWith('/assets/'));
  rows.push({
    ...row(rec, reload, 'warm reload: /assets/ requests to network', AIMS.reloadAssets),
    seconds: '',
    KB: kb(assetFetches.reduce((n, r) => n + r.bytes, 0)),
    requests: assetFetches.length,
  });

  // 4. Idle on the dashboard.
  await networkIdle(rec);
  const idle = mark(rec);
  const idleStream = streamBytes(rec);
  await page.waitForTimeout(IDLE_S * 1000);
  rows.push(
    row(rec, idle, `idle ${IDLE_S} s on the dashboard`, IDLE_S === 60 ? AIMS.idle : `<= ${kb((10 * 1024 * IDLE_S) / 60)} KB pro rata`),
  );
  const idleReqs = rec.all.slice(idle.n);

  console.log(`\nbench:satlink — ${profile.name} kbit/s, ${LATENCY_MS} ms round trip (cold cache, then a warm reload)`);
  console.table(rows);
  console.log(
    `warm reload: ${reloadReqs.length - reloadNet.length} requests served from cache; to the network:`,
    reloadNet.map((r) => `${r.path} (${r.status}, ${r.bytes} B)`).join(', '),
  );
  console.log(`idle ${IDLE_S} s, requests by path:`);
  console.table(byPath(idleReqs).map(({ bytes: _, ...g }) => g));
  console.log(`live-push stream (open since before the idle stretch): ${kb(streamBytes(rec) - idleStream)} KB of the idle ${IDLE_S} s`);
  if (process.env.SATLINK_TIMELINE === '1') {
    for (const [name, from, reqs] of [
      ['login', login, loginReqs],
      ['log in -> dashboard', dash, dashReqs],
      ['warm reload', reload, reloadReqs],
    ] as const) {
      console.log(`timeline, ${name} (ms from its start):`);
      console.table(
        reqs.map((r) => ({
          path: r.path,
          start: Math.round(r.start - from.t),
          end: r.end ? Math.round(r.end - from.t) : '',
          bytes: r.bytes,
          cached: r.cached,
          depth: r.depth ?? '',
        })),
      );
    }
  }
  console.log('largest downloads, login page (to network idle):');
  console.table(
    loginReqs
      .filter((r) => !r.cached)
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 10)
      .map((r) => ({ path: r.path, bytes: r.bytes })),
  );
  console.log('largest downloads, log in -> dashboard (to network idle):');
  console.table(
    dashReqs
      .filter((r) => !r.cached)
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 12)
      .map((r) => ({ path: r.path, bytes: r.bytes })),
  );
  await context.close();
}

await browser.close();
await simulator.stop();
server.app.server.closeAllConnections();
await server.close();
process.exit(0);
