import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { Feature } from '../../../src/domain/features';
import { STATISTICS_RANGES_DAYS, TIME_ZONES } from '../../../src/domain/constants';
import { ok } from '../../http/envelope';
import { envelope, pageQuery, tokenQuery } from '../../http/schemas';
import { assertFeatureUnlocked } from '../devices/featureLock';
import { dailyStatistics, fleetStatistics, statisticsWindow } from './statisticsQueries';

const tags = ['statistics'];
const windowQuery = {
  days: { type: 'integer', enum: [...STATISTICS_RANGES_DAYS], default: 5, description: 'The last 5, 10 or 15 days, today included' },
  utcOffset: {
    type: 'integer',
    minimum: TIME_ZONES[0],
    maximum: TIME_ZONES[TIME_ZONES.length - 1],
    default: 0,
    description: "The client's time zone in whole hours from UTC; days are bucketed at it",
  },
} as const;

/** deviceModule/statistics: online time per day (one vessel) and availability (the fleet). Feature "statistics". */
export async function statisticsRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/statistics/getDaily',
    {
      schema: {
        tags,
        summary: "One visible vessel's online time per local day (date, MM-DD label, online and warn seconds, availability)",
        querystring: { type: 'object', required: ['id'], properties: { ...tokenQuery, id: { type: 'integer' }, ...windowQuery } },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const { id, days, utcOffset } = request.query;
      await assertFeatureUnlocked(db, request.user, id, Feature.Statistics);
      const w = statisticsWindow(days, utcOffset);
      const list = await dailyStatistics(db, request.user, id, w);
      const online = list.reduce((a, d) => a + d.onlineSeconds, 0);
      const period = list.reduce((a, d) => a + d.periodSeconds, 0);
      return ok({
        deviceId: id,
        days,
        utcOffset,
        from: new Date(w.fromMs).toISOString(),
        to: new Date(w.toMs).toISOString(),
        list,
        onlineSeconds: online,
        periodSeconds: period,
        availability: period ? Math.min(1, online / period) : 0,
      });
    },
  );

  app.get(
    '/statistics/getFleet',
    {
      schema: {
        tags,
        summary:
          "Every visible vessel's availability over the window, sorted and paged; a vessel whose statistics are locked shows locked: true and no figures",
        querystring: {
          type: 'object',
          properties: {
            ...tokenQuery,
            ...pageQuery,
            ...windowQuery,
            search: { type: 'string', maxLength: 64 },
            sort: { type: 'string', enum: ['availability', 'name', 'onlineSeconds'], default: 'availability' },
            order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
          },
        },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await fleetStatistics(db, request.user, statisticsWindow(q.days, q.utcOffset), q));
    },
  );
}
