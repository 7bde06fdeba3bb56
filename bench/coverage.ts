import { gzipSync } from 'node:zlib';
import { mulberry32, between } from '../server/simulator/prng';
import { bestSatellite } from '../server/simulator/satellites';
import { skyAt } from '../server/simulator/sky';
import { projectPoint } from '../src/domain/degradeAhead';
import { SATELLITE_LAYER } from '../src/domain/coverage';
import { tallyCoverage, type CoverageSample } from '../server/modules/vessel/coverageTally';
import { addCoverageRows } from '../server/modules/vessel/coverageQueries';
import { loginToken, postgresAvailable, startConsoleBenchServer } from './benchServer';
import { SMOKE, sized } from './smoke';
import { DIST as E2E_DIST, launchBrowser, logIn } from '../tests/e2e/browser';
import type { DrawTiming } from '../src/map/drawTiming';

/**
 * bench:coverage — the fleet's coverage map at scale: VESSELS vessels sailing the oceans for DAYS
 * days (seeded tracks, a sample every 24/SAMPLES_A_DAY hours, each with the simulated sky's SNR and
 * lock towards the highest satellite) are counted into the cells as the leader does
 * (tallyCoverage, addCoverageRows), then GET /vessel/getCoverage is timed as the map asks: world
 * zoom over 90 days (all satellites, one satellite) and a region at resolution 3 and 4. Per call:
 * p50/p99 over RUNS requests and the bytes on the wire (JSON, and gzip as the server sends it to a
 * browser). Also the leader's cost of counting reports (reports/s). Then the real Coverage Map page
 * in headless Chromium (the built console: DIST, built when missing): from its request for the 90
 * days at world zoom to the cells drawn on screen, and the answer's bytes on the wire, PAGE_RUNS
 * times, each in a fresh page. Prints figures; asserts nothing.
 * BENCH_SMOKE=1: 200 vessels over 3 days on PGlite, one page run, the tests' build.
 */
const VESSELS = Number(process.env.BENCH_VESSELS ?? sized(10_000, 200));
const DAYS = Number(process.env.BENCH_DAYS ?? sized(90, 3));
const SAMPLES_A_DAY = Number(process.env.BENCH_SAMPLES_A_DAY ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? sized(20, 3));
const PAGE_RUNS = Number(process.env.BENCH_PAGE_RUNS ?? sized(5, 1));
const DIST = process.env.COVERAGE_BENCH_DIST ?? sized('/tmp/dist-bench-coverage', E2E_DIST);
const DAY = 86_400_000;

const engine = !SMOKE && (await postgresAvailable()) ? 'postgres' : 'pglite';
const server = await startConsoleBenchServer(engine, DIST);
try {
  const end = Date.now();
  const start = end - DAYS * DAY;
  // Each vessel: a seeded start in the open ocean, 10-20 kn, a heading that wanders; it turns back from the poles.
  const vessels = Array.from({ length: VESSELS }, (_, i) => {
    const rng = mulberry32(i * 7_919 + 13);
    return { rng, lat: between(rng, -45, 55), lon: between(rng, -180, 180), heading: between(rng, 0, 360), speed: between(rng, 10, 20) };
  });
  const stepH = 24 / SAMPLES_A_DAY;
  let samples = 0;
  let tallyMs = 0;
  let writeMs = 0;
  for (let day = 0; day < DAYS; day++) {
    const batch: CoverageSample[] = [];
    for (const [i, v] of vessels.entries()) {
      for (let k = 0; k < SAMPLES_A_DAY; k++) {
        const t = start + day * DAY + k * stepH * 3_600_000;
        [v.lat, v.lon] = projectPoint(v.lat, v.lon, v.heading, v.speed, stepH);
        v.heading = (v.heading + between(v.rng, -25, 25) + (Math.abs(v.lat) > 60 ? 180 : 0) + 360) % 360;
        const sat = bestSatellite([v.lat, v.lon]);
        const sky = skyAt(sat, [v.lat, v.lon], { t, heading: v.heading, vesselIndex: i });
        batch.push({
          deviceTime: new Date(t),
          lat: v.lat,
          lon: v.lon,
          kind: SATELLITE_LAYER,
          satellite: sat.name,
          snr: Number.isFinite(sky.snr) ? sky.snr : -5,
          locked: sky.locked,
        });
      }
    }
    const t0 = performance.now();
    const rows = tallyCoverage(batch);
    const t1 = performance.now();
    for (let i = 0; i < rows.length; i += 5_000) await addCoverageRows(server.db, rows.slice(i, i + 5_000));
    tallyMs += t1 - t0;
    writeMs += performance.now() - t1;
    samples += batch.length;
  }
  const [{ rows: cellRows }] = (await server.db.query<{ rows: number }>('SELECT count(*)::int AS rows FROM coverage_daily')) as [
    { rows: number },
  ];
  console.log(
    `\nbench:coverage — ${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${VESSELS.toLocaleString('en')} vessels over ${DAYS} days, ${SAMPLES_A_DAY} samples a vessel a day: ${samples.toLocaleString('en')} reports counted into ${cellRows.toLocaleString('en')} cell rows (3 resolutions × satellite × day)`,
  );
  console.log(
    `counting: ${Math.round(samples / ((tallyMs + writeMs) / 1000)).toLocaleString('en')} reports/s (cells found ${Math.round(tallyMs / 1000)} s, rows written ${Math.round(writeMs / 1000)} s)`,
  );

  const token = await loginToken(server.url, 'oceanic', 'oceanic123');
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
  const measure = async (label: string, query: string) => {
    const times: number[] = [];
    let body = '';
    for (let i = 0; i < RUNS + 1; i++) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/deviceModule/vessel/getCoverage?token=${token}&${query}`);
      body = await res.text();
      if (i > 0) times.push(performance.now() - t0);
    }
    const parsed = JSON.parse(body) as { code: number; data: { cells: unknown[] } };
    if (parsed.code !== 0) throw new Error(body);
    const raw = Buffer.byteLength(body);
    console.log(
      `${label.padEnd(44)} p50 ${pct(times, 50).toFixed(0).padStart(5)} ms   p99 ${pct(times, 99).toFixed(0).padStart(5)} ms   ${parsed.data.cells.length.toLocaleString('en').padStart(6)} cells   ${(raw / 1024).toFixed(0).padStart(5)} KB JSON   ${(gzipSync(body).length / 1024).toFixed(0).padStart(4)} KB gzip`,
    );
  };
  console.log(`\nGET /vessel/getCoverage (${RUNS} requests each, one at a time):`);
  await measure('world zoom, 90 days, all satellites', 'window=90d&res=2');
  await measure('world zoom, 90 days, one satellite', 'window=90d&res=2&satellite=AsiaSat%207');
  await measure('world zoom, 7 days, all satellites', 'window=7d&res=2');
  await measure('region 40° × 60°, resolution 3, 90 days', 'window=90d&res=3&south=-10&west=80&north=30&east=140');
  await measure('region 10° × 15°, resolution 4, 90 days', 'window=90d&res=4&south=0&west=100&north=10&east=115');
  await measurePage(server.url.replace(/\/cz\/.*$/, ''), pct);
} finally {
  await server.stop();
}

/**
 * The Coverage Map in headless Chromium at 1440 × 900, logged in as an enterprise: each run opens the
 * page afresh (30 days, drawn), then picks 90 days, and reads the page's timing of that drawing
 * (src/map/drawTiming.ts): request -> answer -> cells built -> on screen. Bytes: the answer's body
 * and headers as received (compressed).
 */
async function measurePage(origin: string, pct: (xs: number[], p: number) => number) {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await logIn(page, { url: origin }, 'oceanic', 'oceanic123');
    const bytes: number[] = [];
    page.on('requestfinished', (request) => {
      if (!request.url().includes('getCoverage') || !request.url().includes('window=90d')) return;
      void request.sizes().then((s) => bytes.push(s.responseBodySize + s.responseHeadersSize));
    });
    const drawn = async (after: number) => {
      await page.waitForFunction(
        (a) => {
          const t = window.__drawTiming?.coverage;
          return t !== undefined && t.requested > a && t.drawn !== undefined;
        },
        after,
        { timeout: 120_000 },
      );
      return page.evaluate(() => window.__drawTiming!.coverage!) as Promise<DrawTiming>;
    };
    const runs: DrawTiming[] = [];
    for (let i = 0; i < PAGE_RUNS; i++) {
      await page.goto(`${origin}/device/coverage`);
      const first = await drawn(-1);
      await page.getByTestId('coverage-window').locator('xpath=..').getByRole('combobox').click();
      await page.getByRole('option', { name: /90/ }).click();
      runs.push(await drawn(first.requested));
    }
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const of = (f: (t: DrawTiming) => number) => `${pct(runs.map(f), 50).toFixed(0)} ms`;
    console.log(
      `\nthe Coverage Map page, 90 days at world zoom (headless Chromium, 1440 × 900, ${PAGE_RUNS} fresh pages, p50): request -> drawn ${of((t) => t.drawn! - t.requested)} (answer ${of((t) => t.received! - t.requested)}, cells built ${of((t) => t.drawEnd! - t.drawStart!)}, to the next frame ${of((t) => t.drawn! - t.drawEnd!)}); ${runs[0]!.items!.toLocaleString('en')} cells; on the wire ${kb(bytes[0] ?? 0)} the first time${bytes.length > 1 ? `, ${kb(bytes.at(-1)!)} on a later load (the same answer: 304 Not Modified)` : ''}`,
    );
  } finally {
    await browser.close();
  }
}
