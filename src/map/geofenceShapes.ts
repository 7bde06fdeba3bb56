import L from 'leaflet';
import { centreOf, pointsOf, toNumber, type GeofenceShapeInput, type LatLon } from '../domain/geofences';
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
