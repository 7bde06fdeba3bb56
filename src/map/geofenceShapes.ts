import L from 'leaflet';
import type { GeofenceShapeInput, LatLon } from '../domain/geofences';
import { pointsBounds } from './fitView';

/**
 * Geofences on a Leaflet map: a circle (centre and radius in metres) or a polygon of [lat, lon]
 * points, as src/domain/geofences.ts holds them. Used by the drawing input, the Show page's small
 * map and the geofence list's map.
 */

/** The colour of an area by its kind (a port blue, an anchorage teal, a restricted area red). */
export const KIND_COLOURS: Readonly<Record<string, string>> = {
  port: '#065aa1',
  anchorage: '#00897b',
  restricted: '#c62828',
  area: '#6a1b9a',
};
export const kindColour = (kind: unknown) => KIND_COLOURS[String(kind)] ?? '#065aa1';

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The number a form or record holds (a number input may hold a numeric string), else null. */
export const toNumber = (v: unknown): number | null => {
  if (finite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

/** A record's points as [lat, lon] pairs, the malformed ones left out (JSON text is parsed). */
export function pointsOf(value: unknown): LatLon[] {
  let list = value;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.filter((p): p is LatLon => Array.isArray(p) && p.length === 2 && finite(p[0]) && finite(p[1]));
}

/** The circle's centre when both coordinates are numbers in range. */
export function centreOf(g: Pick<GeofenceShapeInput, 'lat' | 'lon'>): LatLon | null {
  const lat = toNumber(g.lat);
  const lon = toNumber(g.lon);
  return lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? [lat, lon] : null;
}

/** A coordinate as stored: six decimals (about 0.1 m). */
export const roundCoordinate = (v: number) => Math.round(v * 1e6) / 1e6;

/** A point clicked on a map, as [lat, lon] with the longitude brought back into -180..180. */
export const pointOf = (latlng: L.LatLng): LatLon => [roundCoordinate(latlng.lat), roundCoordinate(latlng.wrap().lng)];

/** The layer that draws a geofence (null while it has too little to draw). */
export function shapeLayer(g: GeofenceShapeInput & { kind?: unknown }, options: L.PathOptions = {}): L.Path | null {
  const colour = kindColour(g.kind);
  const style: L.PathOptions = { color: colour, weight: 2, fillColor: colour, fillOpacity: 0.15, ...options };
  if (g.shape === 'circle') {
    const centre = centreOf(g);
    const radius = toNumber(g.radiusM);
    return centre && radius !== null && radius > 0 ? L.circle(centre, { ...style, radius }) : null;
  }
  const points = pointsOf(g.points);
  if (points.length >= 3) return L.polygon(points, style);
  return points.length === 2 ? L.polyline(points, style) : null;
}

/** The bounds that frame a geofence (a circle by its radius), or null. */
export function shapeBounds(g: GeofenceShapeInput): L.LatLngBounds | null {
  if (g.shape === 'circle') {
    const centre = centreOf(g);
    if (!centre) return null;
    const radius = Math.max(toNumber(g.radiusM) ?? 0, 500);
    const bounds = L.latLng(centre).toBounds(radius * 2);
    return pointsBounds([
      [bounds.getSouth(), bounds.getWest()],
      [bounds.getNorth(), bounds.getEast()],
    ]);
  }
  return pointsBounds(pointsOf(g.points));
}

/** The bounds that frame several geofences. */
export function shapesBounds(list: readonly GeofenceShapeInput[]): L.LatLngBounds | null {
  const corners = list.flatMap((g) => {
    const b = shapeBounds(g);
    return b
      ? ([
          [b.getSouth(), b.getWest()],
          [b.getNorth(), b.getEast()],
        ] as LatLon[])
      : [];
  });
  return pointsBounds(corners);
}

/** A small square handle (a centre or a vertex) that can be dragged; its marker's title names it (Leaflet's keyboard focus). */
export const handleIcon = (colour: string, testId: string) =>
  L.divIcon({
    className: 'geofence-handle',
    html: `<div data-testid="${testId}" style="width:12px;height:12px;margin:2px;background:#fff;border:2px solid ${colour};border-radius:2px;box-shadow:0 0 2px rgba(0,0,0,.5);cursor:move"></div>`,
    iconSize: [16, 16],
    iconAnchor: [8, 8],
  });
