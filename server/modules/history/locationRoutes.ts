import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { degreesPerPixel, LOCATION_MAX_CELLS, LOCATION_WINDOW_DAYS, LOCATION_WINDOWS, locationQuerySchema, type LocationWindow } from '../../../src/domain/track';
import { manualPositionSchema, toSigned } from '../../../src/domain/position';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';
import type { Queryable } from '../../db/connection';
import { deviceWithThreshold, trackDevice } from './trackQueries';

const tags = ['history'];
const EDITORS = [Level.Admin, Level.Enterprise] as const;
/** A cell of the thinned positions is about this many screen pixels wide at the asked zoom. */
const CELL_PIXELS = 10;

type Cell = [lat: number, lon: number, first: number, last: number, count: number];

/**
 * Where a vessel has been, thinned to what a map at `zoom` can show: reports grouped into cells of
 * about CELL_PIXELS, each cell one point (mean position, first and last time in it, report count),
 * oldest visit first. Above LOCATION_MAX_CELLS the cells double in size until they fit.
 */
async function thinnedPositions(db: Queryable, deviceId: number, from: Date, to: Date, zoom: number): Promise<{ cellDegrees: number; points: Cell[] }> {
  let cell = degreesPerPixel(zoom) * CELL_PIXELS;
  for (;;) {
    const rows = await db.query<{ lat: number; lon: number; first: number; last: number; n: number }>(
      `SELECT avg(lat)::float8 AS lat, avg(lon)::float8 AS lon, extract(epoch FROM min(device_time))::float8 AS first,
              extract(epoch FROM max(device_time))::float8 AS last, count(*)::int AS n
         FROM device_reports
        WHERE device_id = $1 AND device_time >= $2 AND device_time <= $3
        GROUP BY floor(lat / $4::float8), floor(lon / $4::float8)
        ORDER BY last LIMIT $5`,
      [deviceId, from.toISOString(), to.toISOString(), cell, LOCATION_MAX_CELLS + 1],
    );
    if (rows.length <= LOCATION_MAX_CELLS || cell >= 90) {
      return {
        cellDegrees: cell,
        points: rows.map((r) => [Math.round(r.lat * 1e4) / 1e4, Math.round(r.lon * 1e4) / 1e4, Math.round(r.first), Math.round(r.last), r.n]),
      };
    }
    cell *= 2;
  }
}

async function manualPosition(db: Queryable, deviceId: number) {
  const [row] = await db.query<{ lat: number; lon: number; setAt: Date; setBy: string | null }>(
    `SELECT m.lat, m.lon, m.set_at AS "setAt", u.name AS "setBy" FROM device_manual_positions m
       LEFT JOIN users u ON u.id = m.set_by WHERE m.device_id = $1`, [deviceId]);
  return row ?? null;
}

/**
 * deviceModule/history/location (Device Location page) and the manual position of a vessel
 * without a GPS fix. Location history is track history, so the same feature lock applies; the
 * manual position is read by anyone who sees the device and set by levels 1 and 2.
 */
export async function locationRoutes(app: Api, { db }: ServerContext) {
  app.get('/history/location', {
    schema: {
      tags, summary: 'Where a vessel has been over a week, month, 3 months or year, thinned for the view',
      querystring: {
        type: 'object', required: ['deviceId'],
        properties: { ...tokenQuery, deviceId: { type: 'integer' }, window: { type: 'string', enum: [...LOCATION_WINDOWS], default: 'week' }, zoom: { type: 'number', default: 3 } },
      },
      response: envelope({ type: 'object', additionalProperties: true }),
    },
  }, async (request) => {
    const q = parseWith(locationQuerySchema, request.query);
    const device = await trackDevice(db, request.user, q.deviceId);
    const to = new Date();
    const from = new Date(to.getTime() - LOCATION_WINDOW_DAYS[q.window as LocationWindow] * 86_400_000);
    const [latest] = await db.query<{ lat: number; lon: number; reportedAt: Date }>(
      'SELECT lat, lon, reported_at AS "reportedAt" FROM device_state WHERE device_id = $1', [device.id]);
    const thinned = await thinnedPositions(db, device.id, from, to, q.zoom);
    return ok({
      device, window: q.window, from: from.toISOString(), to: to.toISOString(), zoom: q.zoom, ...thinned,
      latest: latest ?? null, manual: await manualPosition(db, device.id),
    });
  });

  app.get('/history/manualPosition/get', {
    schema: {
      tags, summary: 'The hand-typed position of a visible vessel (null when none is set)',
      querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
      response: envelope({ type: ['object', 'null'], additionalProperties: true }),
    },
  }, async (request) => {
    const { deviceId } = request.query;
    if (!(await deviceWithThreshold(db, request.user, deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
    return ok(await manualPosition(db, deviceId));
  });

  app.post('/history/manualPosition/set', {
    config: { levels: EDITORS },
    schema: {
      tags, summary: 'Set the position of a vessel with no GPS fix: longitude 0-180 E/W, latitude 0-90 N/S, two decimals (levels 1, 2)',
      querystring: { type: 'object', properties: tokenQuery },
      body: {
        type: 'object',
        properties: { deviceId: { type: 'integer' }, longitude: { type: 'string' }, lonHemisphere: { type: 'string', description: 'E or W' }, latitude: { type: 'string' }, latHemisphere: { type: 'string', description: 'N or S' } },
      },
      response: envelope({ type: 'object', additionalProperties: true }),
    },
  }, async (request) => {
    const input = parseWith(manualPositionSchema, request.body);
    if (!(await deviceWithThreshold(db, request.user, input.deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
    const { lat, lon } = toSigned(input);
    await db.query(
      `INSERT INTO device_manual_positions (device_id, lat, lon, set_by, set_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (device_id) DO UPDATE SET lat = EXCLUDED.lat, lon = EXCLUDED.lon, set_by = EXCLUDED.set_by, set_at = EXCLUDED.set_at`,
      [input.deviceId, lat, lon, request.user.id]);
    return ok(await manualPosition(db, input.deviceId));
  });

  app.delete('/history/manualPosition/deleteByDeviceId', {
    config: { levels: EDITORS },
    schema: {
      tags, summary: 'Remove a vessel\'s hand-typed position (levels 1, 2)',
      querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
      response: envelope(),
    },
  }, async (request) => {
    const { deviceId } = request.query;
    if (!(await deviceWithThreshold(db, request.user, deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
    await db.query('DELETE FROM device_manual_positions WHERE device_id = $1', [deviceId]);
    return ok(null);
  });
}
