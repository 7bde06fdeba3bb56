import L from 'leaflet';
import type { TrackPoint } from '../domain/track';
import { STATE_COLOURS } from './vesselStyle';

/**
 * A vessel's track on a Leaflet map: one canvas polyline per state (online, warn), each made of
 * the runs between offline gaps (and cuts, where a zoomed-in detail leaves the view), so a gap is
 * drawn as a gap; start and end marked; longitudes unwrapped so a crossing of the antimeridian
 * stays one line.
 */
export interface DrawnTrack {
  layer: L.LayerGroup;
  bounds: L.LatLngBounds | null;
  /** The drawn (unwrapped) longitude of each point. */
  lons: number[];
}

export function unwrapLongitudes(points: readonly TrackPoint[]): number[] {
  const out: number[] = new Array(points.length);
  let offset = 0;
  for (let i = 0; i < points.length; i += 1) {
    if (i > 0) {
      const d = points[i]!.lon - points[i - 1]!.lon;
      if (d > 180) offset -= 360;
      else if (d < -180) offset += 360;
    }
    out[i] = points[i]!.lon + offset;
  }
  return out;
}

const endIcon = (letter: string, colour: string) =>
  L.divIcon({
    className: 'track-end-marker',
    html: `<div style="width:20px;height:20px;border-radius:50%;background:${colour};color:#fff;font:bold 11px/20px sans-serif;text-align:center;border:2px solid #fff;box-shadow:0 0 2px rgba(0,0,0,.5)">${letter}</div>`,
    iconSize: [24, 24],
    iconAnchor: [12, 12],
  });

export function drawTrack(
  points: readonly TrackPoint[],
  cuts: ReadonlySet<number>,
  renderer: L.Renderer,
  labels: { start: string; end: string },
): DrawnTrack {
  const layer = L.layerGroup();
  if (!points.length) return { layer, bounds: null, lons: [] };
  const lons = unwrapLongitudes(points);
  const runs: Record<number, L.LatLngExpression[][]> = {};
  let current: L.LatLngExpression[] = [[points[0]!.lat, lons[0]!]];
  let state = points[0]!.state;
  const flush = () => {
    if (current.length > 1) (runs[state] ??= []).push(current);
  };
  for (let i = 1; i < points.length; i += 1) {
    const p = points[i]!;
    const here: L.LatLngExpression = [p.lat, lons[i]!];
    if (p.afterGap || cuts.has(i)) {
      flush();
      current = [here];
      state = p.state;
      continue;
    }
    current.push(here);
    if (p.state !== state) {
      flush();
      current = [here];
      state = p.state;
    }
  }
  flush();
  for (const [s, lines] of Object.entries(runs)) {
    L.polyline(lines, { renderer, color: STATE_COLOURS[Number(s)] ?? STATE_COLOURS[1], weight: 3, opacity: 0.9, interactive: false }).addTo(
      layer,
    );
  }
  const first = points[0]!;
  const last = points[points.length - 1]!;
  L.marker([first.lat, lons[0]!], { icon: endIcon('S', '#1565c0'), title: labels.start, keyboard: false }).addTo(layer);
  L.marker([last.lat, lons[lons.length - 1]!], { icon: endIcon('E', '#6a1b9a'), title: labels.end, keyboard: false }).addTo(layer);
  const bounds = L.latLngBounds(points.map((p, i) => [p.lat, lons[i]!] as L.LatLngTuple));
  return { layer, bounds, lons };
}

/** The vessel at the playback cursor: an arrow turned to its heading. */
export function vesselMarker(): { marker: L.Marker; place: (lat: number, lon: number, heading: number, colour: string) => void } {
  const icon = L.divIcon({
    className: 'track-vessel-marker',
    html: '<svg data-testid="track-vessel" width="26" height="26" viewBox="-13 -13 26 26" style="overflow:visible"><path d="M0,-11 L7,9 L0,5 L-7,9 Z" stroke="#fff" stroke-width="1.5"/></svg>',
    iconSize: [26, 26],
    iconAnchor: [13, 13],
  });
  const marker = L.marker([0, 0], { icon, interactive: false, keyboard: false, zIndexOffset: 1000 });
  const place = (lat: number, lon: number, heading: number, colour: string) => {
    marker.setLatLng([lat, lon]);
    const svg = marker.getElement()?.querySelector('svg');
    if (svg) {
      svg.style.transform = `rotate(${heading}deg)`;
      svg.querySelector('path')?.setAttribute('fill', colour);
      svg.setAttribute('data-lat', lat.toFixed(5));
      svg.setAttribute('data-lon', lon.toFixed(5));
    }
  };
  return { marker, place };
}
