import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { trackQuerySchema, trackRange, TRACK_WINDOWS, type TrackQuery } from '../../../src/domain/track';
import { ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';
import { encodeTrack, gapStarts, simplifyTrack, type TrackColumns } from './simplify';
import { loadTrackColumns, summarise, trackDevice } from './trackQueries';
import { claimExportSlot } from '../devices/exportThrottleQueries';
import { exportTrack, TRACK_EXPORT_FORMATS, TRACK_EXPORT_TYPES } from './trackExport';
import { clampToHistory, historyStartMs } from '../vessel/vesselAccessQueries';

const tags = ['history'];
const windowQuery = {
  ...tokenQuery,
  deviceId: { type: 'integer' },
  window: { type: 'string', enum: [...TRACK_WINDOWS, 'custom'], default: '3d', description: '3d, 1w, 2w, 3w, 1m (ending now) or custom' },
  from: { type: 'string', description: 'custom: ISO 8601 start' },
  to: { type: 'string', description: 'custom: ISO 8601 end; at most one month after from' },
} as const;
const viewQuery = {
  zoom: { type: 'number', default: 3, description: 'Map zoom (0-18): the simplification tolerance is about one pixel at it' },
  samples: { type: 'integer', default: 0, description: 'Also keep a report at least every window/samples (0-5000; for playback)' },
  west: { type: 'number' },
  south: { type: 'number' },
  east: { type: 'number' },
  north: { type: 'number' },
} as const;

type Bbox = { west: number; south: number; east: number; north: number };
const bboxOf = (q: TrackQuery): Bbox | null =>
  q.west !== undefined && q.south !== undefined && q.east !== undefined && q.north !== undefined
    ? { west: q.west, south: q.south, east: q.east, north: q.north }
    : null;

const inBox = (box: Bbox, lat: number, lon: number) => {
  if (lat < box.south || lat > box.north) return false;
  if (box.east - box.west >= 360) return true;
  const offset = (((lon - box.west) % 360) + 360) % 360;
  return offset <= (((box.east - box.west) % 360) + 360) % 360;
};

/** The reports in the box plus one neighbour on each side (so lines leave the view), as ascending indices. */
function indicesInBox(c: TrackColumns, box: Bbox): number[] {
  const n = c.t.length;
  const take = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) {
    if (!inBox(box, c.lat[i]!, c.lon[i]!)) continue;
    take[i] = 1;
    if (i > 0) take[i - 1] = 1;
    if (i < n - 1) take[i + 1] = 1;
  }
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) if (take[i]) out.push(i);
  return out;
}

const pick = (c: TrackColumns, idx: readonly number[]): TrackColumns => ({
  t: idx.map((i) => c.t[i]!),
  lat: idx.map((i) => c.lat[i]!),
  lon: idx.map((i) => c.lon[i]!),
  speed: idx.map((i) => c.speed[i]!),
  heading: idx.map((i) => c.heading[i]!),
  signal: idx.map((i) => c.signal[i]!),
  state: idx.map((i) => c.state[i]!),
});

/**
 * The track of a window for a view: the whole window simplified at the zoom, or (with a box) the
 * detail of the part inside the box. In the detail, `cuts` are the points where the track comes
 * back into the box after leaving it; like offline gaps, no line is drawn into them.
 */
export function trackForView(c: TrackColumns, offlineMinutes: number, zoom: number, box: Bbox | null, sampleMs = 0) {
  const gaps = gapStarts(c.t, offlineMinutes * 60_000);
  if (!box) {
    const { indices, toleranceDegrees } = simplifyTrack(c, gaps, zoom, undefined, undefined, sampleMs);
    return { track: encodeTrack(c, indices, gaps), cuts: [] as number[], toleranceDegrees, gaps };
  }
  const chosen = indicesInBox(c, box);
  const sub = pick(c, chosen);
  const subGaps: number[] = [];
  const cutStarts: number[] = [];
  const gapSet = new Set(gaps);
  for (let k = 1; k < chosen.length; k += 1) {
    if (chosen[k]! !== chosen[k - 1]! + 1) cutStarts.push(k);
    else if (gapSet.has(chosen[k]!)) subGaps.push(k);
  }
  const anchors = [...subGaps, ...cutStarts].sort((a, b) => a - b);
  const { indices, toleranceDegrees } = simplifyTrack(sub, anchors, zoom);
  const position = new Map(indices.map((i, k) => [i, k]));
  return {
    track: encodeTrack(sub, indices, subGaps),
    cuts: cutStarts.map((k) => position.get(k)!).filter((k) => k !== undefined),
    toleranceDegrees,
    gaps,
  };
}

/**
 * deviceModule/history/track (Location Track page) and its export. Same rules for both: the
 * device must be visible to the caller (else code 2) and track history unlocked (else code 3).
 * Levels 2 and 3 get the reports from the vessel's transfer to their enterprise on (docs/requirements.md §6).
 */
export async function trackRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/history/track',
    {
      schema: {
        tags,
        summary: "A vessel's track for a window, simplified for the view (compact columns), with its summary",
        querystring: { type: 'object', required: ['deviceId'], properties: { ...windowQuery, ...viewQuery } },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const q = parseWith(trackQuerySchema, request.query);
      const device = await trackDevice(db, request.user, q.deviceId);
      const { from, to } = trackRange(q);
      const columns = await loadTrackColumns(db, device.id, clampToHistory(from, await historyStartMs(db, request.user, device.id)), to);
      const box = bboxOf(q);
      const view = trackForView(columns, device.offlineMinutes, q.zoom, box, q.samples ? (to - from) / q.samples : 0);
      return ok({
        device,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        zoom: q.zoom,
        detail: Boolean(box),
        toleranceDegrees: view.toleranceDegrees,
        total: columns.t.length,
        track: view.track,
        cuts: view.cuts,
        summary: summarise(columns, view.gaps),
      });
    },
  );

  app.get(
    '/history/track/export',
    {
      schema: {
        tags,
        summary: 'The whole track of a window (every report) as a GPX, KML or CSV file; exporting again within 10 s answers code -101',
        querystring: {
          type: 'object',
          required: ['deviceId'],
          properties: { ...windowQuery, format: { type: 'string', enum: TRACK_EXPORT_FORMATS, default: 'gpx' } },
        },
        produces: ['application/gpx+xml', 'application/vnd.google-earth.kml+xml', 'text/csv', 'application/json'],
      },
    },
    async (request, reply) => {
      const q = parseWith(trackQuerySchema, request.query);
      const { format } = request.query;
      const device = await trackDevice(db, request.user, q.deviceId);
      const { from, to } = trackRange(q);
      // The device export's throttle (-101): one export per user per 10 s, whichever list or track.
      await claimExportSlot(db, request.user.id);
      const columns = await loadTrackColumns(db, device.id, clampToHistory(from, await historyStartMs(db, request.user, device.id)), to);
      const gaps = gapStarts(columns.t, device.offlineMinutes * 60_000);
      const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
      const safeName = (device.deviceNum ?? String(device.id)).replace(/[^A-Za-z0-9_-]/g, '');
      reply.header('content-disposition', `attachment; filename="track-${safeName}-${stamp(from)}-${stamp(to)}.${format}"`);
      return reply.type(TRACK_EXPORT_TYPES[format]).send(exportTrack(format, device, columns, gaps));
    },
  );
}
