import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../tests/e2e/browser';
import { sized } from './smoke';

/**
 * bench:map — in headless Chromium, the time to draw 10,000 vessels on a Leaflet map and to pan
 * it by 200 px, with the console's vessel layer (src/map/vesselLayer.ts: one canvas, Supercluster)
 * against plain Leaflet with one L.marker per vessel, in the same run. "sync" is the script plus
 * the style and layout it forces; "frame" runs until the next frame has been produced (so it
 * includes paint, and cannot be below the ~16.7 ms frame interval). A DOM marker pan is cheap in
 * script (the marker pane just moves) and pays in paint, so compare pans by "frame". Prints figures;
 * asserts nothing. BENCH_SCREENSHOT=file.png saves the canvas layer's view. BENCH_SMOKE=1: 1,000
 * vessels, 3 pans (bench/smoke.ts).
 */
const VESSELS = Number(process.env.BENCH_VESSELS ?? sized(10_000, 1_000));
const PANS = Number(process.env.BENCH_PANS ?? sized(9, 3));
const WIDTH = 1440;
const HEIGHT = 900;

const out = mkdtempSync(join(tmpdir(), 'bench-map-'));
await build({
  entryPoints: [fileURLToPath(new URL('./mapPage.ts', import.meta.url))],
  bundle: true,
  format: 'esm',
  minify: true,
  outdir: out,
  entryNames: 'bundle',
  loader: { '.png': 'file', '.svg': 'file' },
  logLevel: 'error',
  define: { 'process.env.NODE_ENV': '"production"' },
});
writeFileSync(
  join(out, 'index.html'),
  `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/bundle.css">
<style>html,body,#map{margin:0;width:100%;height:100%}#map{background:#cfe3f3}</style></head>
<body><div id="map"></div><script type="module" src="/bundle.js"></script></body></html>`,
);

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};
const server = createServer((req, res) => {
  const path = join(out, (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : (req.url ?? '/').split('?')[0]!);
  if (!path.startsWith(out) || !existsSync(path)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;

const browser = await chromium.launch({
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
type Figures = {
  drawSync: number;
  drawFrame: number;
  panSync: number;
  panFrame: number;
  panSyncMax: number;
  stats: Record<string, number> | null;
};
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
  await page.goto(url);
  await page.waitForFunction(() => 'benchMap' in window);
  const run = (kind: 'canvas' | 'markers') =>
    page.evaluate(
      ([k, n, p]) =>
        (window as unknown as { benchMap: { measure: (k: string, n: number, p: number) => Promise<unknown> } }).benchMap.measure(
          k as string,
          n as number,
          p as number,
        ),
      [kind, VESSELS, PANS] as const,
    ) as Promise<Figures>;
  await run('canvas'); // warm-up: JIT and the first canvas
  const canvas = await run('canvas');
  if (process.env.BENCH_SCREENSHOT) await page.screenshot({ path: process.env.BENCH_SCREENSHOT });
  const markers = await run('markers');
  const ms = (x: number) => `${x.toFixed(1).padStart(8)} ms`;
  console.log(
    `bench:map — ${VESSELS.toLocaleString('en')} vessels, ${WIDTH}x${HEIGHT}, zoom 3, headless Chromium (${await browser.version()}); pan = median of ${PANS} pans of 200 px`,
  );
  console.log('                                   draw (sync)   draw (frame)    pan (sync)   pan (frame)   pan max (sync)');
  console.log(
    `canvas + Supercluster layer     ${ms(canvas.drawSync)}    ${ms(canvas.drawFrame)}   ${ms(canvas.panSync)}   ${ms(canvas.panFrame)}   ${ms(canvas.panSyncMax)}`,
  );
  console.log(
    `plain L.marker per vessel       ${ms(markers.drawSync)}    ${ms(markers.drawFrame)}   ${ms(markers.panSync)}   ${ms(markers.panFrame)}   ${ms(markers.panSyncMax)}`,
  );
  console.log(
    `ratio (markers / canvas)        ${(markers.drawSync / canvas.drawSync).toFixed(1).padStart(8)} x    ${(markers.drawFrame / canvas.drawFrame).toFixed(1).padStart(8)} x   ${(markers.panSync / canvas.panSync).toFixed(1).padStart(8)} x   ${(markers.panFrame / canvas.panFrame).toFixed(1).padStart(8)} x`,
  );
  if (canvas.stats)
    console.log(
      `canvas layer drew ${canvas.stats.points} single vessels and ${canvas.stats.clusters} clusters holding ${canvas.stats.vesselsInClusters} vessels (index built in ${canvas.stats.indexMs!.toFixed(1)} ms; last redraw ${canvas.stats.drawMs!.toFixed(1)} ms)`,
    );
  console.log(
    `aims: draw < 150 ms (${canvas.drawSync < 150 ? 'met' : 'missed'}), pan within one frame, 17 ms (${canvas.panSync < 17 ? 'met' : 'missed'})`,
  );
} finally {
  await browser.close();
  server.close();
}
