import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { Feature } from '../../../src/domain/features';
import { STATISTICS_RANGES_DAYS, TIME_ZONES } from '../../../src/domain/constants';
import { translateDomain } from '../../../src/domain/messages';
import { ok } from '../../http/envelope';
import { envelope, pageQuery, tokenQuery } from '../../http/schemas';
import { XLSX_TYPE } from '../../http/xlsx';
import { exportOptionsOf, exportQuery, sendExport } from '../../http/exportFile';
import { assertFeatureUnlocked } from '../devices/featureLock';
import { claimExportSlot } from '../devices/exportThrottleQueries';
import { EXPORT_MAX_ROWS } from '../devices/exportRoutes';
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
/** getFleet's filters and sort, which its export takes too. */
const fleetQuery = {
  ...windowQuery,
  search: { type: 'string', maxLength: 64 },
  sort: { type: 'string', enum: ['availability', 'name', 'onlineSeconds'], default: 'availability' },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
} as const;
/** The export's columns: the reports' availability words, the share as a number 0-100. */
const FLEET_HEADER = [
  'report.availability.vessel',
  'report.availability.deviceNum',
  'report.availability.online',
  'report.availability.warn',
  'export.statistics.availability',
  'report.availability.note',
] as const;
type FleetRow = Awaited<ReturnType<typeof fleetStatistics>>['list'][number];
const hours = (seconds: number | null) => (seconds === null ? null : Math.round(seconds / 36) / 100);

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
          properties: { ...tokenQuery, ...pageQuery, ...fleetQuery },
        },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await fleetStatistics(db, request.user, statisticsWindow(q.days, q.utcOffset), q));
    },
  );

  app.get(
    '/statistics/exportFleet',
    {
      schema: {
        tags,
        summary:
          'The vessels getFleet lists, all of them, as a file (format csv or xlsx): online and warning hours, availability in percent, a locked vessel noted; exporting again within 10 s answers code -101',
        querystring: { type: 'object', properties: { ...tokenQuery, ...fleetQuery, ...exportQuery } },
        produces: ['text/csv', XLSX_TYPE, 'application/json'],
      },
    },
    async (request, reply) => {
      const options = exportOptionsOf(request);
      const q = request.query;
      await claimExportSlot(db, request.user.id);
      const { list } = await fleetStatistics(db, request.user, statisticsWindow(q.days, q.utcOffset), {
        ...q,
        pageIndex: 1,
        pageSize: EXPORT_MAX_ROWS,
      });
      const t = (key: string) => translateDomain(options.lang, key);
      return sendExport(
        reply,
        'statistics',
        options,
        FLEET_HEADER.map(t),
        // The rows carry the list's availability (0..1, null when locked) beside the figures.
        (list as (FleetRow & { availability: number | null })[]).map((r) => [
          r.name,
          r.deviceNum,
          hours(r.onlineSeconds),
          hours(r.warnSeconds),
          r.availability === null ? null : Math.round(r.availability * 1000) / 10,
          r.locked ? t('report.availability.locked') : null,
        ]),
      );
    },
  );
}
