import type { Api } from '../../http/api';
import * as yup from 'yup';
import type { ServerContext } from '../../context';
import { dataPlanSchema, MAX_USAGE_DAYS } from '../../../src/domain/dataPlans';
import { ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { DEVICE_EDITORS } from '../../auth/deviceScope';
import { translateDomain } from '../../../src/domain/messages';
import { XLSX_TYPE } from '../../http/xlsx';
import { exportOptionsOf, exportQuery, sendExport, type ExportValue } from '../../http/exportFile';
import { claimExportSlot } from '../devices/exportThrottleQueries';
import { EXPORT_MAX_ROWS } from '../devices/exportRoutes';
import { historyStartMs, visibleVessel } from '../vessel/vesselAccessQueries';
import { FLEET_SORTS, findPlan, fleetUsage, removePlan, savePlan, usageOf } from './dataPlanQueries';

const tags = ['dataPlan'];
const planObject = {
  type: ['object', 'null'],
  properties: {
    deviceId: { type: 'integer' },
    quotaBytes: { type: 'number' },
    resetDay: { type: 'integer' },
    updatedAt: { type: 'string' },
    updatedBy: { type: ['integer', 'null'] },
    updatedByName: { type: ['string', 'null'] },
  },
} as const;
const usageObject = {
  type: 'object',
  properties: {
    deviceId: { type: 'integer' },
    plan: planObject,
    periodStart: { type: 'string' },
    periodEnd: { type: 'string' },
    usedBytes: { type: 'number' },
    quotaBytes: { type: ['number', 'null'] },
    percent: { type: ['number', 'null'] },
    level: { type: 'integer' },
    previous: {
      type: 'object',
      properties: { periodStart: { type: 'string' }, periodEnd: { type: 'string' }, usedBytes: { type: 'number' } },
    },
    daily: { type: 'array', items: { type: 'object', properties: { date: { type: 'string' }, bytes: { type: 'number' } } } },
  },
} as const;
/** Filters and sort of dataPlan/getAll, which its export takes too. */
const fleetQuery = {
  search: { type: 'string', maxLength: 64 },
  ownerId: { type: 'integer' },
  planned: { type: 'boolean', description: 'true: vessels with a plan; false: without' },
  minPercent: { type: 'number', minimum: 0 },
  sort: { type: 'string', enum: [...FLEET_SORTS], default: 'percent' },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
} as const;
const EXPORT_FIELDS = [
  'name',
  'deviceNum',
  'ownerName',
  'plan',
  'periodStart',
  'periodEnd',
  'usedGb',
  'quotaGb',
  'percent',
  'levelName',
] as const;
type FleetRow = Record<(typeof EXPORT_FIELDS)[number] | 'resetDay', unknown>;

/** A row of the data plans list as it reads: the plan and its state in words, the period as times. */
function exportRow(r: FleetRow, t: (key: string, vars?: Record<string, number>) => string): ExportValue[] {
  return EXPORT_FIELDS.map((field) => {
    switch (field) {
      case 'plan':
        return r.resetDay === null ? t('export.dataPlans.level.none') : t('export.dataPlans.planResets', { day: Number(r.resetDay) });
      case 'periodStart':
      case 'periodEnd':
        return new Date(r[field] as string);
      case 'levelName':
        return t(`export.dataPlans.level.${String(r.levelName)}`);
      default:
        return r[field] as ExportValue;
    }
  });
}

const deviceIdBody = yup.object({
  deviceId: yup.number().typeError('validation.integer').integer('validation.integer').required('validation.required'),
});

/**
 * deviceModule/dataPlan (docs/api.md, "dataPlan"): a vessel's monthly data plan and its usage. Reading:
 * every level on the vessels it sees; setting or removing: levels 1 and 2 (a sub-user: code 3).
 * A vessel the caller may not see answers "not found".
 */
export async function dataPlanRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/dataPlan/getByDevice',
    {
      schema: {
        tags,
        summary: 'The data plan of a visible vessel, or null',
        querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
        response: envelope(planObject),
      },
    },
    async (request) => {
      const { deviceId } = request.query;
      await visibleVessel(db, request.user, deviceId);
      return ok(await findPlan(db, deviceId));
    },
  );

  app.get(
    '/dataPlan/getUsage',
    {
      schema: {
        tags,
        summary: "A visible vessel's usage: current period (used, quota, percent), previous period, and bytes per UTC day",
        querystring: {
          type: 'object',
          required: ['deviceId'],
          properties: {
            ...tokenQuery,
            deviceId: { type: 'integer' },
            days: { type: 'integer', minimum: 1, maximum: MAX_USAGE_DAYS, default: 62 },
          },
        },
        response: envelope(usageObject),
      },
    },
    async (request) => {
      const { deviceId, days } = request.query;
      await visibleVessel(db, request.user, deviceId);
      return ok(await usageOf(db, deviceId, days, await historyStartMs(db, request.user, deviceId)));
    },
  );

  app.post(
    '/dataPlan/set',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: "Set a visible vessel's plan: quotaBytes (1 .. 10^15) and resetDay (1 .. 28); answers its usage",
        querystring: { type: 'object', properties: tokenQuery },
        body: {
          type: 'object',
          properties: {
            deviceId: { type: ['integer', 'null'] },
            quotaBytes: { type: ['number', 'null'] },
            resetDay: { type: ['integer', 'null'] },
          },
        },
        response: envelope(usageObject),
      },
    },
    async (request) => {
      const input = parseWith(dataPlanSchema, request.body);
      await visibleVessel(db, request.user, input.deviceId);
      await db.transaction((tx) => savePlan(tx, input, request.user.id));
      return ok(await usageOf(db, input.deviceId, 62, await historyStartMs(db, request.user, input.deviceId)));
    },
  );

  app.post(
    '/dataPlan/remove',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: "Remove a visible vessel's plan (its data alarms clear)",
        querystring: { type: 'object', properties: tokenQuery },
        body: { type: 'object', properties: { deviceId: { type: ['integer', 'null'] } } },
        response: envelope({ type: 'object', properties: { changed: { type: 'integer' } } }),
      },
    },
    async (request) => {
      const { deviceId } = parseWith(deviceIdBody, request.body);
      await visibleVessel(db, request.user, deviceId);
      const removed = await db.transaction((tx) => removePlan(tx, deviceId));
      return ok({ changed: removed ? 1 : 0 });
    },
  );

  app.get(
    '/dataPlan/getAll',
    {
      schema: {
        tags,
        summary: "Visible vessels with their plan and this period's usage, paged (default: highest percent first)",
        querystring: {
          type: 'object',
          properties: { ...tokenQuery, ...pageQuery, ...fleetQuery },
        },
        response: envelope(pageOf({ type: 'object', additionalProperties: true })),
      },
    },
    async (request) => ok(await fleetUsage(db, request.user, request.query)),
  );

  app.get(
    '/dataPlan/export',
    {
      schema: {
        tags,
        summary:
          'The vessels getAll lists, all of them, as a file (format csv or xlsx, times at tz): plan, period, used, quota, percent and state in words; exporting again within 10 s answers code -101',
        querystring: { type: 'object', properties: { ...tokenQuery, ...fleetQuery, ...exportQuery } },
        produces: ['text/csv', XLSX_TYPE, 'application/json'],
      },
    },
    async (request, reply) => {
      const options = exportOptionsOf(request);
      await claimExportSlot(db, request.user.id);
      const { list } = await fleetUsage(db, request.user, { ...request.query, pageIndex: 1, pageSize: EXPORT_MAX_ROWS });
      const t = (key: string, vars?: Record<string, number>) => translateDomain(options.lang, key, vars);
      return sendExport(
        reply,
        'data-plans',
        options,
        EXPORT_FIELDS.map((f) => t(`export.dataPlans.${f}`)),
        (list as FleetRow[]).map((r) => exportRow(r, t)),
      );
    },
  );
}
