import L from 'leaflet';
import { wrapLongitude } from '../domain/greatCircle';

/**
 * Framing a map on what it shows: the smallest longitude arc that holds every point (so a fleet
 * on both sides of the antimeridian is framed across 180°, not across the whole world), and a
 * fit that follows the map's size until the user moves the map (a layout that settles after
 * the first fit, a phone turned, a sidebar opened).
 */

/**
 * The bounds of points given as [lat, lon]: the longitudes are taken on the circle and the arc
 * left after the widest empty gap is kept; its east edge may pass 180 (Leaflet draws it on the
 * next world copy). Null without points.
 */
export function pointsBounds(points: readonly (readonly [number, number])[]): L.LatLngBounds | null {
  const valid = points.filter(([lat, lon]) => Number.isFinite(lat) && Number.isFinite(lon));
  if (!valid.length) return null;
  const lats = valid.map(([lat]) => lat);
  const lons = valid.map(([, lon]) => wrapLongitude(lon)).sort((a, b) => a - b);
  // The widest gap between neighbours on the circle; the one across 180 is from the last to the first.
  let gap = lons[0]! + 360 - lons[lons.length - 1]!;
  let west = lons[0]!;
  let east = lons[lons.length - 1]!;
  for (let i = 1; i < lons.length; i += 1) {
    const g = lons[i]! - lons[i - 1]!;
    if (g > gap) {
      gap = g;
      west = lons[i]!;
      east = lons[i - 1]! + 360;
    }
  }
  return L.latLngBounds([Math.min(...lats), west], [Math.max(...lats), east]);
}

export interface FitOptions {
  padding?: number;
  maxZoom?: number;
}

/**
 * Fits the map to `bounds` now, and again whenever the map's size changes until the user drags,
 * zooms or clicks it; the zoom may go below the map's minZoom to show everything on a narrow
 * screen. Answers a function that forgets the fit (call it on clean-up or before a new fit).
 */
export function fitAndFollow(map: L.Map, bounds: L.LatLngBounds, { padding = 24, maxZoom = 12 }: FitOptions = {}): () => void {
  const container = map.getContainer();
  const floor = map.getMinZoom();
  const fit = () => {
    const size = map.getSize();
    if (size.x <= 2 * padding || size.y <= 2 * padding) return;
    // getBoundsZoom stops at minZoom: ask it without one, then lower minZoom to the fit if need be.
    map.options.minZoom = 0;
    const zoom = Math.min(maxZoom, map.getBoundsZoom(bounds, false, L.point(2 * padding, 2 * padding)));
    map.options.minZoom = floor;
    map.setMinZoom(Math.min(floor, Math.max(0, Math.floor(zoom * 4) / 4)));
    map.setView(bounds.getCenter(), zoom, { animate: false });
  };
  let following = true;
  const stop = () => {
    following = false;
    map.off('resize', onResize);
    for (const type of ['pointerdown', 'wheel', 'keydown', 'touchstart'] as const) container.removeEventListener(type, stop);
  };
  const onResize = () => {
    if (following) fit();
  };
  fit();
  map.on('resize', onResize);
  for (const type of ['pointerdown', 'wheel', 'keydown', 'touchstart'] as const) container.addEventListener(type, stop, { passive: true });
  return stop;
}
