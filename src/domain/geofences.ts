import * as yup from 'yup';
import { choiceRule, idRule, requiredText } from './schemaRules';
import { Level } from './levels';
import { VESSEL_COLUMNS, type TableResource } from './tableResource';
import { distanceM, wrapLongitude } from './greatCircle';

/**
 * Geofences (docs/api.md, "Notifications"): named areas of an enterprise drawn on the map, a circle
 * (centre and radius) or a polygon (3 to 200 points). The server records each vessel's arrival in
 * and departure from them (the geofence events: port calls) and an alarm rule that names them
 * raises an alarm when a vessel enters (GEOFENCE_IN) or leaves (GEOFENCE_OUT) one. One rule for the
 * console's form and the API.
 */
export const GEOFENCES_NAME = 'alarm/geofence';
export const GEOFENCE_EVENTS_NAME = 'alarm/geofenceEvent';
export const GEOFENCE_KINDS = ['port', 'anchorage', 'restricted', 'area'] as const;
export const GEOFENCE_SHAPES = ['circle', 'polygon'] as const;
export type GeofenceShape = (typeof GEOFENCE_SHAPES)[number];
export const GEOFENCE_EVENTS = ['arrival', 'departure'] as const;
export const MAX_GEOFENCE_POINTS = 200;
export const MIN_RADIUS_M = 50;
export const MAX_RADIUS_M = 500_000;

/** A point as [lat, lon]. */
export type LatLon = [number, number];
export interface GeofenceShapeInput {
  shape: GeofenceShape;
  lat?: number | null;
  lon?: number | null;
  radiusM?: number | null;
  points?: LatLon[] | null;
}

const coordinate = (max: number, message: string) =>
  yup.number().typeError(message).min(-max, message).max(max, message).optional().nullable();

const isPoint = (p: unknown): p is LatLon =>
  Array.isArray(p) &&
  p.length === 2 &&
  p.every((v) => typeof v === 'number' && Number.isFinite(v)) &&
  Math.abs(p[0] as number) <= 90 &&
  Math.abs(p[1] as number) <= 180;

const fields = {
  ownerId: idRule().optional().nullable(),
  name: requiredText(64),
  kind: choiceRule(GEOFENCE_KINDS).required('validation.required'),
  shape: choiceRule(GEOFENCE_SHAPES).required('validation.required'),
  lat: coordinate(90, 'validation.latitude').when('shape', {
    is: 'circle',
    then: (s) => s.required('validation.geofenceCircle'),
  }),
  lon: coordinate(180, 'validation.longitude').when('shape', {
    is: 'circle',
    then: (s) => s.required('validation.geofenceCircle'),
  }),
  radiusM: yup
    .number()
    .typeError('validation.geofenceRadius')
    .integer('validation.geofenceRadius')
    .min(MIN_RADIUS_M, 'validation.geofenceRadius')
    .max(MAX_RADIUS_M, 'validation.geofenceRadius')
    .optional()
    .nullable()
    .when('shape', { is: 'circle', then: (s) => s.required('validation.geofenceRadius') }),
  points: yup
    .mixed<LatLon[]>()
    .optional()
    .nullable()
    .test('points', 'validation.geofencePolygon', function check(points) {
      if (this.parent?.shape !== 'polygon') return true;
      return Array.isArray(points) && points.length >= 3 && points.length <= MAX_GEOFENCE_POINTS && points.every(isPoint);
    }),
};

export const geofenceSchema = yup.object(fields);
export const updateGeofenceSchema = yup.object({ id: idRule().required('validation.required'), ...fields });

const EDITORS = [Level.Admin, Level.Enterprise];

export const GEOFENCES_TABLE: TableResource = {
  path: '/supportModule/geofence',
  table: 'geofences',
  scope: 'enterprise',
  columns: {
    ownerId: { type: 'integer' },
    name: { type: 'text', notNull: true },
    kind: { type: 'text', notNull: true, choices: `resources.${GEOFENCES_NAME}.kinds.` },
    shape: { type: 'text', notNull: true, choices: `resources.${GEOFENCES_NAME}.shapes.` },
    lat: { type: 'number' },
    lon: { type: 'number' },
    radiusM: { type: 'integer' },
    points: { type: 'json' },
  },
  // Level 3 sees its enterprise's areas (on the map and in rules); levels 1 and 2 draw them.
  levels: { list: [...EDITORS, Level.SubUser], create: EDITORS, edit: EDITORS, delete: EDITORS, export: EDITORS },
  schema: { create: geofenceSchema, update: updateGeofenceSchema },
  unique: [['ownerId', 'name']],
  search: ['name'],
  filters: ['kind'],
  sortable: ['name'],
  audit: 'geofence',
};

/**
 * Geofence events: a vessel's arrival in or departure from a geofence (port calls when it is a
 * port), written by the server's minute check (server/notify/geofenceCheck.ts), read like any row of
 * a vessel.
 */
export const GEOFENCE_EVENTS_TABLE: TableResource = {
  path: '/supportModule/geofenceEvent',
  table: 'geofence_events',
  scope: 'vessel',
  generate: false,
  updatedAt: false,
  columns: {
    ...VESSEL_COLUMNS,
    geofenceId: { type: 'integer', exported: false },
    geofenceName: { type: 'text' },
    geofenceKind: { type: 'text', choices: `resources.${GEOFENCES_NAME}.kinds.` },
    event: { type: 'text', choices: `resources.${GEOFENCE_EVENTS_NAME}.events.` },
    at: { type: 'timestamp' },
    lat: { type: 'number' },
    lon: { type: 'number' },
  },
  levels: { list: [Level.Admin, Level.Enterprise, Level.SubUser], export: [Level.Admin, Level.Enterprise, Level.SubUser] },
  schema: { create: yup.object({ id: idRule() }) },
  search: ['geofenceName'],
  filters: ['event', 'geofenceKind', 'geofenceId'],
  sortable: ['at'],
  order: 'desc',
  // A vessel's new enterprise does not see the port calls it made for the one before.
  since: 'at',
  audit: 'geofenceEvent',
};

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The number a form or record holds (a number input may hold a numeric string), else null. */
export const toNumber = (v: unknown): number | null => {
  if (isFiniteNumber(v)) return v;
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
  return list.filter((p): p is LatLon => Array.isArray(p) && p.length === 2 && isFiniteNumber(p[0]) && isFiniteNumber(p[1]));
}

/** The circle's centre when both coordinates are numbers in range. */
export function centreOf(g: Pick<GeofenceShapeInput, 'lat' | 'lon'>): LatLon | null {
  const lat = toNumber(g.lat);
  const lon = toNumber(g.lon);
  return lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? [lat, lon] : null;
}

/**
 * Where a geofence is, as one point: a circle's centre, a polygon's mean vertex (fine at port scale;
 * its longitudes taken from the first vertex's, so one across the antimeridian stays there); null
 * when it has neither.
 */
export function geofenceCentre(g: GeofenceShapeInput): LatLon | null {
  if (g.shape === 'circle') return centreOf(g);
  const pts = pointsOf(g.points);
  if (!pts.length) return null;
  const lon0 = pts[0]![1];
  const lat = pts.reduce((a, [y]) => a + y, 0) / pts.length;
  return [lat, wrapLongitude(lon0 + pts.reduce((a, [, x]) => a + wrapLongitude(x - lon0), 0) / pts.length)];
}

/** Whether a point lies in a geofence (a polygon by ray casting on lat/lon, fine at port scale). */
export function contains(g: GeofenceShapeInput, p: LatLon): boolean {
  if (g.shape === 'circle') return g.lat != null && g.lon != null && distanceM([g.lat, g.lon], p) <= (g.radiusM ?? 0);
  const pts = g.points ?? [];
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [yi, xi] = pts[i]!;
    const [yj, xj] = pts[j]!;
    if (yi > p[0] !== yj > p[0] && p[1] < ((xj - xi) * (p[0] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
