import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { VesselLayer, type MapVessel } from '../src/map/vesselLayer';

/**
 * The page bench:map loads in headless Chromium: one Leaflet map, and functions that draw N
 * vessels and pan by 200 px with the console's canvas + Supercluster layer (src/map/vesselLayer.ts)
 * or with one plain L.marker per vessel. Times are taken in the page with performance.now().
 */
const map = L.map('map', { center: [20, 110], zoom: 3, worldCopyJump: true, zoomAnimation: false, fadeAnimation: false });

/** Deterministic vessels over the oceans' latitudes (mulberry32). */
function vessels(n: number, seed = 7): MapVessel[] {
  let a = seed;
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `V${i + 1}`,
    lat: -55 + rand() * 120,
    lon: -180 + rand() * 360,
    heading: rand() * 360,
    status: rand() < 0.1 ? 2 : rand() < 0.25 ? 0 : 1,
  }));
}

/** Forces style and layout, so DOM work the operation queued is paid inside the measurement. */
const settle = () => document.body.getBoundingClientRect();
/** Resolves after the next frame was produced (rAF, then a task after it). */
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

let clear: () => void = () => undefined;

async function time(op: () => void) {
  const t0 = performance.now();
  op();
  settle();
  const sync = performance.now() - t0;
  await nextFrame();
  return { sync, frame: performance.now() - t0 };
}

async function measure(kind: 'canvas' | 'markers', n: number, pans: number) {
  clear();
  map.setView([20, 110], 3, { animate: false });
  await nextFrame();
  const list = vessels(n);
  let layer: L.Layer;
  const draw = await time(() => {
    if (kind === 'canvas') layer = new VesselLayer().setVessels(list).addTo(map);
    else {
      const group = L.layerGroup();
      for (const v of list) L.marker([v.lat, v.lon], { title: v.name }).addTo(group);
      layer = group.addTo(map);
    }
  });
  await nextFrame();
  const panTimes: { sync: number; frame: number }[] = [];
  for (let i = 0; i < pans; i++) {
    const dx = i % 2 === 0 ? 200 : -200;
    panTimes.push(await time(() => map.panBy([dx, 0], { animate: false })));
    await nextFrame();
  }
  const stats = kind === 'canvas' ? { ...(layer! as VesselLayer).stats, indexMs: (layer! as VesselLayer).indexMs } : null;
  clear = () => {
    map.removeLayer(layer);
    clear = () => undefined;
  };
  const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
  return {
    drawSync: draw.sync,
    drawFrame: draw.frame,
    panSync: median(panTimes.map((p) => p.sync)),
    panFrame: median(panTimes.map((p) => p.frame)),
    panSyncMax: Math.max(...panTimes.map((p) => p.sync)),
    stats,
  };
}

(window as unknown as { benchMap: unknown }).benchMap = { measure };
