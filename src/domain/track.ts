import * as yup from 'yup';
import { idRule } from './schemaRules';
import { LOCATION_HISTORY_DAYS, TRACK_WINDOWS_DAYS } from './constants';

/**
 * Track and location-history rules shared by the console and the server: the windows
 * of docs/requirements.md §9, the custom range's bounds, the query schemas, and the compact wire format.
 */
export const TRACK_WINDOWS = ['3d', '1w', '2w', '3w', '1m'] as const;
export type TrackWindow = (typeof TRACK_WINDOWS)[number] | 'custom';
export const TRACK_WINDOW_DAYS: Record<(typeof TRACK_WINDOWS)[number], number> = {
  '3d': TRACK_WINDOWS_DAYS[0],
  '1w': TRACK_WINDOWS_DAYS[1],
  '2w': TRACK_WINDOWS_DAYS[2],
  '3w': TRACK_WINDOWS_DAYS[3],
  '1m': TRACK_WINDOWS_DAYS[4],
};
/** A custom range may span at most the longest preset (one month), and not end in the future. */
export const TRACK_CUSTOM_MAX_DAYS = TRACK_WINDOWS_DAYS[TRACK_WINDOWS_DAYS.length - 1];

export const LOCATION_WINDOWS = ['week', 'month', '3months', 'year'] as const;
export type LocationWindow = (typeof LOCATION_WINDOWS)[number];
export const LOCATION_WINDOW_DAYS: Record<LocationWindow, number> = {
  week: LOCATION_HISTORY_DAYS[0],
  month: LOCATION_HISTORY_DAYS[1],
  '3months': LOCATION_HISTORY_DAYS[2],
  year: LOCATION_HISTORY_DAYS[3],
};

/** Speed at or above which a vessel is "under way"; a stop is a run below it lasting STOP_MIN_MINUTES or more. */
export const UNDER_WAY_KNOTS = 1;
export const STOP_MIN_MINUTES = 15;
/** The most points one track response carries; the tolerance grows until the track fits. */
export const TRACK_MAX_POINTS = 8000;
/** The most evenly spaced reports a client may ask to be kept for playback (`samples`). */
export const TRACK_MAX_SAMPLES = 5000;
/** The most cells one location-history response carries. */
export const LOCATION_MAX_CELLS = 4000;
/** Map zoom levels the client may name (Leaflet's range in the console's base map and a little more). */
export const ZOOM_MIN = 0;
export const ZOOM_MAX = 18;

const DAY_MS = 86_400_000;
const isoDate = () =>
  yup
    .string()
    .strict()
    .typeError('validation.dateTime')
    .trim()
    .test('date', 'validation.dateTime', (v) => !v || !Number.isNaN(Date.parse(v)));
const zoom = () => yup.number().typeError('validation.zoom').min(ZOOM_MIN, 'validation.zoom').max(ZOOM_MAX, 'validation.zoom');
const coordinate = (limit: number) =>
  yup
    .number()
    .typeError('validation.bbox')
    .min(-limit * 2, 'validation.bbox')
    .max(limit * 2, 'validation.bbox');

/**
 * The track query: a device, a preset window or a custom from/to (from before to, at most one
 * month, not ending in the future), the map zoom the track is drawn at, and optionally the visible
 * box (west, south, east, north) for the detail of a zoomed-in part.
 */
export const trackQuerySchema = yup
  .object({
    deviceId: idRule().required('validation.required'),
    window: yup
      .string()
      .oneOf([...TRACK_WINDOWS, 'custom'], 'validation.trackWindow')
      .default('3d'),
    from: isoDate().when('window', { is: 'custom', then: (s) => s.required('validation.required') }),
    to: isoDate().when('window', { is: 'custom', then: (s) => s.required('validation.required') }),
    zoom: zoom().default(3),
    samples: yup
      .number()
      .typeError('validation.integer')
      .integer('validation.integer')
      .min(0, 'validation.invalid')
      .max(TRACK_MAX_SAMPLES, 'validation.invalid')
      .default(0),
    west: coordinate(180).optional(),
    south: coordinate(90).optional(),
    east: coordinate(180).optional(),
    north: coordinate(90).optional(),
  })
  .test('range', 'validation.trackRange', function check(value) {
    if (value.window !== 'custom' || !value.from || !value.to) return true;
    const from = Date.parse(value.from);
    const to = Date.parse(value.to);
    if (Number.isNaN(from) || Number.isNaN(to)) return true;
    if (to <= from) return this.createError({ path: 'to', message: 'validation.trackOrder' });
    if (to - from > TRACK_CUSTOM_MAX_DAYS * DAY_MS) return this.createError({ path: 'to', message: 'validation.trackRange' });
    return true;
  });
export type TrackQuery = yup.InferType<typeof trackQuerySchema>;

export const locationQuerySchema = yup.object({
  deviceId: idRule().required('validation.required'),
  window: yup
    .string()
    .oneOf([...LOCATION_WINDOWS], 'validation.locationWindow')
    .default('week'),
  zoom: zoom().default(3),
});

/** The instants a query covers: a preset ends now; a custom range is taken as given. */
export function trackRange(q: Pick<TrackQuery, 'window' | 'from' | 'to'>, now = Date.now()): { from: number; to: number } {
  if (q.window === 'custom') return { from: Date.parse(q.from!), to: Date.parse(q.to!) };
  const days = TRACK_WINDOW_DAYS[q.window as keyof typeof TRACK_WINDOW_DAYS] ?? TRACK_WINDOW_DAYS['3d'];
  return { from: now - days * DAY_MS, to: now };
}

/**
 * Map units per screen pixel at a Leaflet zoom (256-pixel tiles spanning 360 degrees); the
 * simplification tolerance is a pixel or so of this, so what is dropped cannot be seen.
 */
export const degreesPerPixel = (zoomLevel: number) => 360 / (256 * 2 ** zoomLevel);

/**
 * A track on the wire, column by column (no object per point): t is seconds after t0, lat and lon
 * in 1e-5 degrees, each of t, lat, lon as differences from the previous point; speed in tenths of
 * a knot; heading in whole degrees; signal level; state 1 online, 2 warn. `breaks` are the indices
 * of points that follow an offline gap (no line is drawn into them).
 */
export interface EncodedTrack {
  t0: number;
  t: number[];
  lat: number[];
  lon: number[];
  speed: number[];
  heading: number[];
  signal: number[];
  state: number[];
  breaks: number[];
}

export interface TrackPoint {
  /** Epoch milliseconds. */
  time: number;
  lat: number;
  lon: number;
  speed: number;
  heading: number;
  signal: number;
  state: number;
  /** True when the device was offline (a gap) just before this point. */
  afterGap: boolean;
}

export function decodeTrack(e: EncodedTrack): TrackPoint[] {
  const out: TrackPoint[] = new Array(e.t.length);
  const breaks = new Set(e.breaks);
  let t = 0;
  let lat = 0;
  let lon = 0;
  for (let i = 0; i < e.t.length; i += 1) {
    t += e.t[i]!;
    lat += e.lat[i]!;
    lon += e.lon[i]!;
    out[i] = {
      time: (e.t0 + t) * 1000,
      lat: lat / 1e5,
      lon: lon / 1e5,
      speed: e.speed[i]! / 10,
      heading: e.heading[i]!,
      signal: e.signal[i]!,
      state: e.state[i]!,
      afterGap: breaks.has(i),
    };
  }
  return out;
}

export interface TrackSummary {
  /** Distance sailed in nautical miles (gaps excluded). */
  distanceNm: number;
  /** Seconds under way (speed at or above UNDER_WAY_KNOTS). */
  underWaySeconds: number;
  /** Seconds online (between reports not separated by an offline gap). */
  onlineSeconds: number;
  stops: number;
  reports: number;
  gaps: number;
}
