import type { Api } from '../../http/api';
import * as yup from 'yup';
import type { ServerContext } from '../../context';
import { Level } from '../../../src/domain/levels';
import { ALARM_CODE_LIST, FAULT_CODES, FAULT_SEVERITIES } from '../../../src/domain/faultCodes';
import { languageOf, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
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
          properties: {
            ...tokenQuery,
            ...pageQuery,
            deviceId: { type: 'integer' },
            ownerId: { type: 'integer' },
            code: { type: 'string', enum: [...ALARM_CODE_LIST] },
            severity: { type: 'string', enum: [...FAULT_SEVERITIES] },
            active: yesNo,
            acknowledged: yesNo,
          },
        },
        response: envelope(pageOf({ type: 'object', additionalProperties: true })),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await listAlarms(db, request.user, q, languageOf(request)));
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
