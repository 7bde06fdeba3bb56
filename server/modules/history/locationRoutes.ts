import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { LOCATION_WINDOW_DAYS, LOCATION_WINDOWS, locationQuerySchema, type LocationWindow } from '../../../src/domain/track';
import { manualPositionSchema, toSigned } from '../../../src/domain/position';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';
import { deviceWithThreshold, trackDevice } from './trackQueries';
import { clampToHistory, historyStartMs } from '../vessel/vesselAccessQueries';
import { deleteManualPosition, latestPosition, manualPosition, saveManualPosition, thinnedPositions } from './locationQueries';

const tags = ['history'];
const EDITORS = [Level.Admin, Level.Enterprise] as const;
/**
 * deviceModule/history/location (Device Location page) and the manual position of a vessel
 * without a GPS fix. Location history is track history, so the same feature lock applies; the
 * manual position is read by anyone who sees the device and set by levels 1 and 2. Levels 2 and 3
 * see the positions (and a hand-typed one) from the vessel's transfer to their enterprise on
 * (docs/requirements.md §6).
 */
export async function locationRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/history/location',
    {
      schema: {
        tags,
        summary: 'Where a vessel has been over a week, month, 3 months or year, thinned for the view',
        querystring: {
          type: 'object',
          required: ['deviceId'],
          properties: {
            ...tokenQuery,
            deviceId: { type: 'integer' },
            window: { type: 'string', enum: [...LOCATION_WINDOWS], default: 'week' },
            zoom: { type: 'number', default: 3 },
          },
        },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const q = parseWith(locationQuerySchema, request.query);
      const device = await trackDevice(db, request.user, q.deviceId);
      const to = new Date();
      const from = new Date(to.getTime() - LOCATION_WINDOW_DAYS[q.window as LocationWindow] * 86_400_000);
      const since = await historyStartMs(db, request.user, device.id);
      const thinned = await thinnedPositions(db, device.id, new Date(clampToHistory(from.getTime(), since)), to, q.zoom);
      return ok({
        device,
        window: q.window,
        from: from.toISOString(),
        to: to.toISOString(),
        zoom: q.zoom,
        ...thinned,
        latest: await latestPosition(db, device.id, since),
        manual: await manualPosition(db, device.id, since),
      });
    },
  );

  app.get(
    '/history/manualPosition/get',
    {
      schema: {
        tags,
        summary: 'The hand-typed position of a visible vessel (null when none is set)',
        querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
        response: envelope({ type: ['object', 'null'], additionalProperties: true }),
      },
    },
    async (request) => {
      const { deviceId } = request.query;
      if (!(await deviceWithThreshold(db, request.user, deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      return ok(await manualPosition(db, deviceId, await historyStartMs(db, request.user, deviceId)));
    },
  );

  app.post(
    '/history/manualPosition/set',
    {
      config: { levels: EDITORS },
      schema: {
        tags,
        summary: 'Set the position of a vessel with no GPS fix: longitude 0-180 E/W, latitude 0-90 N/S, two decimals (levels 1, 2)',
        querystring: { type: 'object', properties: tokenQuery },
        body: {
          type: 'object',
          properties: {
            deviceId: { type: 'integer' },
            longitude: { type: 'string' },
            lonHemisphere: { type: 'string', description: 'E or W' },
            latitude: { type: 'string' },
            latHemisphere: { type: 'string', description: 'N or S' },
          },
        },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const input = parseWith(manualPositionSchema, request.body);
      if (!(await deviceWithThreshold(db, request.user, input.deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      const { lat, lon } = toSigned(input);
      await saveManualPosition(db, input.deviceId, lat, lon, request.user.id);
      return ok(await manualPosition(db, input.deviceId, null));
    },
  );

  app.delete(
    '/history/manualPosition/deleteByDeviceId',
    {
      config: { levels: EDITORS },
      schema: {
        tags,
        summary: "Remove a vessel's hand-typed position (levels 1, 2)",
        querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
        response: envelope(),
      },
    },
    async (request) => {
      const { deviceId } = request.query;
      if (!(await deviceWithThreshold(db, request.user, deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      await deleteManualPosition(db, deviceId);
      return ok(null);
    },
  );
}
