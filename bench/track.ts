import { chromium } from 'playwright-core';
import { CHROMIUM, DIST as E2E_DIST, logIn } from '../tests/e2e/browser';
import { seedReports, type SeedPoint } from '../tests/api/trackFixtures';
import { loginToken, PG_URL, postgresAvailable, startConsoleBenchServer } from './benchServer';
import { SMOKE, sized } from './smoke';
import type { DrawTiming } from '../src/map/drawTiming';

/**
 * bench:track — one vessel, a month at one report a minute (43,200 reports, with port stops,
 * warnings and offline gaps), on PostgreSQL (a throw-away schema; PGlite when none answers):
 * the track query's time p50/p99 and bytes on the wire for the overview, a zoomed-in detail and
 * the worst case (zoom 18 over the whole month); then in headless Chromium the real Location
 * Track page, from the request to the drawn track. Prints figures; asserts nothing.
 * BENCH_SMOKE=1: 2 days, 3 requests each, 1 page run, on PGlite, with the tests' build (E2E_DIST or
 * dist/; bench/smoke.ts).
 */
const DAYS = sized(30, 2);
const RUNS = Number(process.env.BENCH_RUNS ?? sized(30, 3));
const PAGE_RUNS = Number(process.env.BENCH_PAGE_RUNS ?? sized(7, 1));
const DIST = process.env.TRACK_BENCH_DIST ?? sized('/tmp/dist-bench-track', E2E_DIST);

/** A month of a vessel sailing, deterministic: 12-14 kn, slow turns, GPS jitter, a 12 h port stop every 5 days, a 2 h outage every 4 days, a warning hour every 3 days. */
function month(): SeedPoint[] {
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  const minutes = DAYS * 1440;
  const out: SeedPoint[] = [];
  let lat = 10;
  let lon = 115;
  let heading = 45;
  for (let i = 0; i < minutes; i += 1) {
    const day = i / 1440;
    if (i % (4 * 1440) >= 600 && i % (4 * 1440) < 720) continue; // offline
    const inPort = i % (5 * 1440) >= 3 * 1440 && i % (5 * 1440) < 3 * 1440 + 720;
    const speed = inPort ? random() * 0.3 : 12 + random() * 2;
    heading = (heading + (random() - 0.5) * 3 + 360) % 360;
    if (lat > 30 || lat < -5 || lon > 140 || lon < 100) heading = (heading + 180) % 360;
    const step = speed / 60 / 60; // degrees of latitude per minute
    lat += step * Math.cos((heading * Math.PI) / 180);
    lon += (step * Math.sin((heading * Math.PI) / 180)) / Math.cos((lat * Math.PI) / 180);
    out.push({
      at: new Date(end - (minutes - 1 - i) * 60_000),
      lat: lat + (random() - 0.5) * 0.0004,
      lon: lon + (random() - 0.5) * 0.0004,
      speed,
      heading,
      signal: 55 + random() * 30,
      warn: Math.floor(day) % 3 === 1 && i % 1440 < 60,
    });
  }
  return out;
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const engine = !SMOKE && (await postgresAvailable()) ? 'postgres' : 'pglite';
const load = (await import('node:os')).loadavg();
console.log(
  `machine load average ${load.map((x) => x.toFixed(1)).join(' ')} on ${(await import('node:os')).cpus().length} cores (figures scale with it)`,
);
/** The server with demo data and the built console (served before it listens), on a scratch schema. */
const server = await startConsoleBenchServer(engine, DIST, { seedDemo: true });
try {
  const [{ id }] = (await server.db.query<{ id: number }>(
    "SELECT min(d.id) AS id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic'",
  )) as [{ id: number }];
  const points = month();
  await server.db.query('DELETE FROM device_reports WHERE device_id = $1', [id]);
  const t0 = performance.now();
  await seedReports(server.db, id, points);
  const where =
    engine === 'postgres'
      ? `PostgreSQL ${PG_URL.replace(/\/\/[^@]*@/, '//')} (throw-away schema)`
      : SMOKE
        ? 'PGlite'
        : 'PGlite (no PostgreSQL answered)';
  console.log(
    `bench:track — ${where}: ${points.length.toLocaleString('en')} reports of one vessel over ${DAYS} days, loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const token = await loginToken(server.url, 'oceanic', 'oceanic123');

  const measure = async (label: string, query: string) => {
    const times: number[] = [];
    let bytes = 0;
    let kept = 0;
    for (let i = 0; i < RUNS + 2; i += 1) {
      const start = performance.now();
      const res = await fetch(`${server.url}/deviceModule/history/track?token=${token}&deviceId=${id}&window=1m&${query}`);
      const body = await res.text();
      const ms = performance.now() - start;
      if (i >= 2) times.push(ms); // two warm-up requests
      bytes = Buffer.byteLength(body);
      const parsed = JSON.parse(body) as { code: number; data: { track: { t: number[] } } };
      if (parsed.code !== 0) throw new Error(body);
      kept = parsed.data.track.t.length;
    }
    console.log(
      `${label.padEnd(40)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms   ${kb(bytes).padStart(9)}   ${kept.toLocaleString('en').padStart(6)} points`,
    );
    return { p50: percentile(times, 50), bytes };
  };
  console.log(`\nthe track query (${RUNS} requests each, one at a time, uncompressed JSON):`);
  const overview = await measure('zoom 5 + 3,000 samples (the page asks)', 'zoom=5&samples=3000');
  await measure('overview, zoom 5', 'zoom=5');
  await measure('overview, zoom 8', 'zoom=8');
  const at = points[Math.min(20_000, Math.floor(points.length / 2))]!;
  await measure(
    'detail, zoom 12, a 0.5° box',
    `zoom=12&west=${at.lon - 0.25}&east=${at.lon + 0.25}&south=${at.lat - 0.25}&north=${at.lat + 0.25}`,
  );
  const worst = await measure('worst case, zoom 18, whole month', 'zoom=18');

  const exportStart = performance.now();
  const gpx = await (
    await fetch(`${server.url}/deviceModule/history/track/export?token=${token}&deviceId=${id}&window=1m&format=gpx`)
  ).text();
  console.log(`export GPX of the month: ${kb(Buffer.byteLength(gpx))} in ${(performance.now() - exportStart).toFixed(0)} ms`);

  // The real page in headless Chromium: from the track request to the drawn track.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const origin = server.url.replace(/\/cz\/.*$/, '');
    await logIn(page, { url: origin }, 'oceanic', 'oceanic123');
    type Timing = DrawTiming;
    /** The timing of the next drawing after the request made at `after` (ms, page clock). */
    const drawnTiming = async (after = -1) => {
      await page.waitForFunction(
        (a) => {
          const timing = window.__drawTiming?.track;
          return timing !== undefined && timing.requested !== a && timing.drawn !== undefined;
        },
        after,
        { timeout: 60_000 },
      );
      return page.evaluate(() => window.__drawTiming!.track!) as Promise<Timing>;
    };
    const cold: Timing[] = [];
    const warm: Timing[] = [];
    for (let i = 0; i < PAGE_RUNS + 1; i += 1) {
      // Opening the page: the track's request races the page's other first requests and the base map's land.
      await page.goto(`${origin}/device/map?id=${id}&window=1m`);
      const first = await drawnTiming();
      // Switching the window on an open page: 3 weeks, then back to the month.
      await page.getByTestId('window-3w').click();
      const between = await drawnTiming(first.requested);
      await page.getByTestId('window-1m').click();
      const second = await drawnTiming(between.requested);
      if (i > 0) {
        cold.push(first);
        warm.push(second);
      }
    }
    const line = (label: string, xs: Timing[]) => {
      const total = xs.map((x) => x.drawn! - x.requested);
      const net = xs.map((x) => x.received! - x.requested);
      const render = xs.map((x) => x.drawStart! - x.received!);
      const leaflet = xs.map((x) => x.drawEnd! - x.drawStart!);
      const paint = xs.map((x) => x.drawn! - x.drawEnd!);
      console.log(
        `${label.padEnd(24)} request -> drawn p50 ${percentile(total, 50).toFixed(0).padStart(5)} ms (max ${Math.max(...total).toFixed(0)}): ` +
          `request -> parsed response ${percentile(net, 50).toFixed(0)} ms, decode + React render ${percentile(render, 50).toFixed(0)} ms, ` +
          `Leaflet draw + fit ${percentile(leaflet, 50).toFixed(0)} ms, to the next frame ${percentile(paint, 50).toFixed(0)} ms; ${xs[0]!.items!.toLocaleString('en')} points`,
      );
      return percentile(total, 50);
    };
    console.log(`\nin headless Chromium (${await browser.version()}), the Location Track page, window 1 month, ${PAGE_RUNS} runs:`);
    const coldP50 = line('opening the page', cold);
    const warmP50 = line('switching to the month', warm);
    const endToEnd = [coldP50, warmP50];
    console.log(
      `\naims: under 1 s end to end (opening ${endToEnd[0]! < 1000 ? 'met' : 'missed'}, switching ${endToEnd[1]! < 1000 ? 'met' : 'missed'}), under 500 KB on the wire (overview ${kb(overview.bytes)}: ${overview.bytes < 500 * 1024 ? 'met' : 'missed'}; worst case ${kb(worst.bytes)}: ${worst.bytes < 500 * 1024 ? 'met' : 'missed'})`,
    );
    console.log(`query p50 for the page's request: ${overview.p50.toFixed(1)} ms`);
  } finally {
    await browser.close();
  }
} finally {
  await server.stop();
}
