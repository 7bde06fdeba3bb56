import type { Api } from '../../http/api';
import * as yup from 'yup';
import type { ServerContext } from '../../context';
import { Level } from '../../../src/domain/levels';
import { ALARM_CODE_LIST, FAULT_CODES, FAULT_SEVERITIES } from '../../../src/domain/faultCodes';
import { languageOf, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { translateDomain } from '../../../src/domain/messages';
import { XLSX_TYPE } from '../../http/xlsx';
import { exportOptionsOf, exportQuery, sendExport } from '../../http/exportFile';
import { claimExportSlot } from '../devices/exportThrottleQueries';
import { EXPORT_MAX_ROWS } from '../devices/exportRoutes';
import { visibleVessel } from '../vessel/vesselAccessQueries';
import { acknowledgeAlarms, assertAlarmsVisible, clearAlarms, listAlarms } from './alarmQueries';

const tags = ['monitoring'];
const idList = yup.object({
  ids: yup
    .array(yup.number().typeError('validation.integer').integer('validation.integer').required('validation.required'))
    .typeError('validation.invalid')
    .required('validation.required')
    .min(1, 'validation.required')
    .max(1000, 'validation.tooLong'),
});
const yesNo = { type: 'boolean' } as const;
/** Filters of alarm/getAll, which its export takes too. */
const alarmFilterQuery = {
  deviceId: { type: 'integer' },
  ownerId: { type: 'integer' },
  code: { type: 'string', enum: [...ALARM_CODE_LIST] },
  severity: { type: 'string', enum: [...FAULT_SEVERITIES] },
  active: yesNo,
  acknowledged: yesNo,
} as const;
const EXPORT_FIELDS = ['vessel', 'code', 'meaning', 'severity', 'raisedAt', 'ackedAt', 'ackedBy', 'clearedAt'] as const;
const timeOf = (at: string | Date | null) => (at === null ? null : new Date(at));

/**
 * deviceModule/alarm: the alarms of visible devices (getAll with filters), acknowledge one or
 * many (every level that sees the device), clear one or many (admins and enterprises), and the
 * fault code table. Ids of alarms the caller may not see answer "not found".
 */
export async function alarmRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/alarm/getAll',
    {
      schema: {
        tags,
        summary: 'Alarms of visible devices, newest first',
        querystring: {
          type: 'object',
          properties: { ...tokenQuery, ...pageQuery, ...alarmFilterQuery },
        },
        response: envelope(pageOf({ type: 'object', additionalProperties: true })),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await listAlarms(db, request.user, q, languageOf(request)));
    },
  );

  app.get(
    '/alarm/export',
    {
      schema: {
        tags,
        summary:
          "The alarms getAll lists, all of them, as a file (format csv or xlsx, times at tz): meaning and severity in words, who acknowledged; another enterprise's deviceId answers code 2; exporting again within 10 s answers code -101",
        querystring: { type: 'object', properties: { ...tokenQuery, ...alarmFilterQuery, ...exportQuery } },
        produces: ['text/csv', XLSX_TYPE, 'application/json'],
      },
    },
    async (request, reply) => {
      const options = exportOptionsOf(request);
      const q = request.query;
      if (q.deviceId !== undefined) await visibleVessel(db, request.user, q.deviceId);
      await claimExportSlot(db, request.user.id);
      const { list } = await listAlarms(db, request.user, { ...q, pageIndex: 1, pageSize: EXPORT_MAX_ROWS }, options.lang);
      const t = (key: string) => translateDomain(options.lang, key);
      return sendExport(
        reply,
        'alarms',
        options,
        EXPORT_FIELDS.map((f) => t(`export.alarms.${f}`)),
        list.map((a) => [
          a.deviceName,
          a.code,
          a.meaning,
          t(`report.severity.${a.severity}`),
          timeOf(a.raisedAt),
          timeOf(a.ackedAt),
          a.ackedByName,
          timeOf(a.clearedAt),
        ]),
      );
    },
  );

  for (const [path, summary, levels, apply] of [
    ['/alarm/acknowledge', 'Acknowledge alarms by id', undefined, acknowledgeAlarms],
    [
      '/alarm/clear',
      'Clear alarms by id (the device raises a new one if it still reports the fault)',
      [Level.Admin, Level.Enterprise],
      clearAlarms,
    ],
  ] as const) {
    app.post(
      path,
      {
        config: levels ? { levels } : {},
        schema: {
          tags,
          summary,
          querystring: { type: 'object', properties: tokenQuery },
          body: { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } },
          response: envelope({ type: 'object', properties: { changed: { type: 'integer' } } }),
        },
      },
      async (request) => {
        const { ids } = parseWith(idList, request.body);
        await assertAlarmsVisible(db, request.user, ids);
        return ok({ changed: await apply(db, request.user.id, ids) });
      },
    );
  }

  app.get(
    '/alarm/faultCodes',
    {
      schema: {
        tags,
        summary: 'The fault code table (docs/requirements.md §8) with severity, unit, meaning and remedy in zh and en',
        querystring: { type: 'object', properties: tokenQuery },
      },
    },
    async () => ok(FAULT_CODES),
  );
}
