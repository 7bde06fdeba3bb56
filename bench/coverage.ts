import { gzipSync } from 'node:zlib';
import { mulberry32, between } from '../server/simulator/prng';
import { bestSatellite } from '../server/simulator/satellites';
import { skyAt } from '../server/simulator/sky';
import { projectPoint } from '../src/domain/degradeAhead';
import { tallyCoverage, type CoverageSample } from '../server/modules/vessel/coverageTally';
import { addCoverageRows } from '../server/modules/vessel/coverageQueries';
import { loginToken, postgresAvailable, startBenchServer } from './benchServer';
import { SMOKE, sized } from './smoke';

/**
 * bench:coverage — the fleet's coverage map at scale: VESSELS vessels sailing the oceans for DAYS
 * days (seeded tracks, a sample every 24/SAMPLES_A_DAY hours, each with the simulated sky's SNR and
 * lock towards the highest satellite) are counted into the cells as the leader does
 * (tallyCoverage, addCoverageRows), then GET /vessel/getCoverage is timed as the map asks: world
 * zoom over 90 days (all satellites, one satellite) and a region at resolution 3 and 4. Per call:
 * p50/p99 over RUNS requests and the bytes on the wire (JSON, and gzip as the server sends it to a
 * browser). Also the leader's cost of counting reports (reports/s). Prints figures; asserts nothing.
 * BENCH_SMOKE=1: 200 vessels over 3 days on PGlite.
 */
const VESSELS = Number(process.env.BENCH_VESSELS ?? sized(10_000, 200));
const DAYS = Number(process.env.BENCH_DAYS ?? sized(90, 3));
const SAMPLES_A_DAY = Number(process.env.BENCH_SAMPLES_A_DAY ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? sized(20, 3));
const DAY = 86_400_000;

const engine = !SMOKE && (await postgresAvailable()) ? 'postgres' : 'pglite';
const server = await startBenchServer(engine);
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
} finally {
  await server.stop();
}
