import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { serveConsole } from '../server/serveConsole';
import { issueDemoSecrets } from '../server/simulator/demoDevices';
import { launchBrowser, DIST } from '../tests/e2e/browser';
import { loginToken, postgresAvailable, startBenchServer } from './benchServer';
import { sized } from './smoke';

/**
 * Fault report -> bell dot (docs/architecture.md, "Live push"; aim: p99 <= 1.5 s with push; the polling interval without).
 * A headless Chromium console (the built console; E2E_DIST picks the build) logged in as an
 * enterprise watches its bell while a vessel reports a fault over HTTP ingest; the time from just
 * before the report is sent to the dot appearing (a MutationObserver in the page) is one sample.
 * Run twice: with the live stream, and with the stream refused (the console falls back to the bell's
 * poll at the configured interval). Between samples the fault is cleared and acknowledged and
 * the dot goes off; before each fault a random pause puts it anywhere in the poll's period.
 * Also prints the bytes per event on the stream, read by a plain SSE client beside the console.
 *   PUSH_FAULTS=30           samples per mode
 *   PUSH_POLL_SECONDS=10     the bell's configured interval (the console settings), both modes
 *   PUSH_ENGINES=pglite,postgres   (postgres when one answers at DATABASE_URL or the local test database)
 * Prints figures, asserts nothing. BENCH_SMOKE=1: 2 faults per mode, a 2 s interval, PGlite only (bench/smoke.ts).
 */
const FAULTS = Number(process.env.PUSH_FAULTS ?? sized(30, 2));
const POLL_S = Number(process.env.PUSH_POLL_SECONDS ?? sized(10, 2));
const ENGINES = (process.env.PUSH_ENGINES ?? sized('pglite,postgres', 'pglite')).split(',').map((e) => e.trim()) as (
  'pglite' | 'postgres'
)[];

type Server = Awaited<ReturnType<typeof startBenchServer>>;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function consolePage(browser: Browser, origin: string, { blockStream }: { blockStream: boolean }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: 'language', value: 'en', url: origin }]);
  const page = await context.newPage();
  await page.route('**/supportModule/settings/get*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json().catch(() => null)) as { data?: Record<string, unknown> } | null;
    if (body?.data && typeof body.data === 'object') body.data.warnRefreshSeconds = POLL_S;
    await route.fulfill({ response, json: body });
  });
  // A proxy that refuses the stream: the console polls.
  if (blockStream) await page.route('**/live/events*', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
  // The moment the dot appears, on the page's clock (the same machine's as this process).
  await page.addInitScript(() => {
    const w = window as unknown as { __dotAt: number | null; __armed: boolean };
    w.__dotAt = null;
    w.__armed = false;
    new MutationObserver(() => {
      if (w.__armed && document.querySelector('[data-testid="bell-dot"]')) {
        w.__dotAt = Date.now();
        w.__armed = false;
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(`${origin}/login`);
  await page.getByTestId('login-name').fill('oceanic');
  await page.getByTestId('login-password').fill('oceanic123');
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 60_000 });
  await page.getByTestId('bell').waitFor({ timeout: 60_000 });
  if (!blockStream) await page.getByTestId('live-indicator').waitFor({ timeout: 30_000 });
  return page;
}

/** A plain SSE client: bytes and events received on the stream (what a satellite link carries). */
function sseCounter(url: string) {
  const counts = { bytes: 0, events: 0, helloBytes: 0 };
  const req = http.get(url, { headers: { accept: 'text/event-stream' } }, (res) => {
    let first = true;
    res.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (first) {
        // retry and hello are per connection, not per event.
        counts.helloBytes = chunk.length;
        first = false;
        return;
      }
      counts.bytes += chunk.length;
      counts.events += (text.match(/^event: /gm) ?? []).length;
    });
  });
  return { counts, close: () => req.destroy() };
}

async function run(server: Server, browser: Browser, origin: string, blockStream: boolean) {
  const secrets = await issueDemoSecrets(server.db);
  const owned = await server.db.query<{ num: string }>(
    `SELECT d.device_num AS num FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' AND d.device_num = ANY($1::text[]) ORDER BY d.id`,
    [secrets.map((s) => s.deviceNum)],
  );
  const vessels = owned.map((o) => secrets.find((s) => s.deviceNum === o.num)!);
  const report = (faults: string[]) => ({
    deviceTime: new Date().toISOString(),
    lat: 10,
    lon: 115,
    speed: 12,
    heading: 40,
    azimuth: 180,
    elevation: 45,
    skew: 0,
    satellite: { name: 'AsiaSat 7', longitude: 105.5 },
    signalLevel: 70,
    snr: 11,
    modemLock: true,
    txOn: true,
    faults,
    firmware: { adu: 'V2.1.3', bdu: 'V1.0.9' },
  });
  const ingest = async (v: { deviceNum: string; secret: string }, faults: string[]) => {
    const res = await fetch(`${server.url}/deviceModule/ingest/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-num': v.deviceNum, 'x-device-secret': v.secret },
      body: JSON.stringify(report(faults)),
    });
    const body = (await res.json()) as { code: number };
    if (body.code !== 0) throw new Error(`ingest refused: ${JSON.stringify(body)}`);
  };
  const quiet = async () => {
    for (const v of vessels) await ingest(v, []);
    await server.db.query('UPDATE alarms SET acked_at = now() WHERE acked_at IS NULL');
  };
  await quiet();
  const page = await consolePage(browser, origin, { blockStream });
  const samples: number[] = [];
  for (let i = 0; i < FAULTS; i++) {
    const v = vessels[i % vessels.length]!;
    await quiet();
    await page.waitForFunction(() => !document.querySelector('[data-testid="bell-dot"]'), undefined, {
      timeout: (POLL_S * 3 + 10) * 1000,
      polling: 100,
    });
    // Anywhere in the poll's period.
    await sleep(Math.random() * POLL_S * 1000);
    await page.evaluate(() => {
      const w = window as unknown as { __dotAt: number | null; __armed: boolean };
      w.__dotAt = null;
      w.__armed = true;
    });
    const sentAt = Date.now();
    await ingest(v, ['E05']);
    await page.waitForFunction(() => (window as unknown as { __dotAt: number | null }).__dotAt !== null, undefined, {
      timeout: (POLL_S * 3 + 10) * 1000,
      polling: 100,
    });
    const dotAt = await page.evaluate(() => (window as unknown as { __dotAt: number }).__dotAt);
    samples.push(dotAt - sentAt);
  }
  await page.context().close();
  await quiet();
  return samples.sort((a, b) => a - b);
}

async function bytesPerEvent(server: Server) {
  const token = await loginToken(server.url, 'oceanic', 'oceanic123');
  const counter = sseCounter(`${server.url}/deviceModule/live/events?token=${token}`);
  await sleep(500);
  const secrets = await issueDemoSecrets(server.db);
  const [v] = await server.db.query<{ num: string }>(
    `SELECT d.device_num AS num FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' AND d.device_num = ANY($1::text[]) ORDER BY d.id LIMIT 1`,
    [secrets.map((s) => s.deviceNum)],
  );
  const vessel = secrets.find((s) => s.deviceNum === v!.num)!;
  for (let i = 0; i < 10; i++) {
    for (const faults of [['E05'], []]) {
      await fetch(`${server.url}/deviceModule/ingest/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-num': vessel.deviceNum, 'x-device-secret': vessel.secret },
        body: JSON.stringify({
          deviceTime: new Date().toISOString(),
          lat: 10,
          lon: 115,
          speed: 12,
          heading: 40,
          azimuth: 180,
          elevation: 45,
          skew: 0,
          satellite: { name: 'AsiaSat 7', longitude: 105.5 },
          signalLevel: 70,
          snr: 11,
          modemLock: true,
          txOn: true,
          faults,
          firmware: { adu: 'V2.1.3', bdu: 'V1.0.9' },
        }),
      });
    }
  }
  await sleep(500);
  counter.close();
  return counter.counts;
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const engines: ('pglite' | 'postgres')[] = [];
  for (const e of ENGINES) if (e === 'pglite' || (e === 'postgres' && (await postgresAvailable()))) engines.push(e);
  const browser = await launchBrowser();
  console.log(
    `bench:push: fault report -> bell dot, ${FAULTS} faults per mode, bell interval ${POLL_S} s (console settings), build ${DIST}/`,
  );
  console.log('engine     mode                 p50      p99      max      aim');
  try {
    for (const engine of engines) {
      const server = await startBenchServer(engine, { consoleDir: DIST }, async (s) => {
        if (!(await serveConsole(s.app, s.config))) throw new Error(`no built console in ${DIST}/ (npm run build, or E2E_DIST)`);
      });
      try {
        const origin = new URL(server.url).origin;
        for (const blockStream of [false, true]) {
          const s = await run(server, browser, origin, blockStream);
          const mode = blockStream ? `polling (${POLL_S} s)` : 'push (SSE)';
          const aim = blockStream ? `<= ${POLL_S} s` : '<= 1.5 s';
          console.log(
            `${engine.padEnd(10)} ${mode.padEnd(20)} ${fmt(quantile(s, 0.5)).padEnd(8)} ${fmt(quantile(s, 0.99)).padEnd(8)} ${fmt(s.at(-1)!).padEnd(8)} ${aim}`,
          );
        }
        const bytes = await bytesPerEvent(server);
        console.log(
          `${engine.padEnd(10)} stream: ${bytes.events} events in ${bytes.bytes} bytes = ${(bytes.bytes / Math.max(1, bytes.events)).toFixed(0)} bytes/event (connection set-up ${bytes.helloBytes} bytes + headers; heartbeat 3 bytes / 25 s)`,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
