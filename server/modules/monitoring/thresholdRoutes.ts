import type { Api } from '../../http/api';
import * as yup from 'yup';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { keepDaysRule, offlineMinutesRule } from '../../../src/domain/systemSettings';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';
import { DEVICE_EDITORS } from '../../auth/deviceScope';
import * as q from './thresholdQueries';

const tags = ['monitoring'];
const minutes = offlineMinutesRule();
const thresholdSchema = yup.object({
  deviceId: yup.number().typeError('validation.integer').integer('validation.integer').optional(),
  enterpriseId: yup.number().typeError('validation.integer').integer('validation.integer').optional(),
  /** null removes the device's or enterprise's own threshold (the next level's applies). */
  minutes: minutes.nullable().defined('validation.required'),
});
const settingsSchema = yup.object({
  defaultOfflineMinutes: minutes.optional(),
  retentionDays: keepDaysRule().optional(),
  reportKeepDays: keepDaysRule().optional(),
});

/**
 * deviceModule/monitor offline thresholds and settings: a device's own threshold or its
 * enterprise's default (admins any; an enterprise its own), and the server default and history
 * retention (admins).
 */
export async function thresholdRoutes(app: Api, { db }: ServerContext) {
  app.post(
    '/monitor/setOfflineThreshold',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: "Set (or remove with minutes null) a device's or an enterprise's offline threshold",
        querystring: { type: 'object', properties: tokenQuery },
        body: {
          type: 'object',
          properties: { deviceId: { type: 'integer' }, enterpriseId: { type: 'integer' }, minutes: { type: ['integer', 'null'] } },
        },
        response: envelope(),
      },
    },
    async (request) => {
      const input = parseWith(thresholdSchema, request.body);
      const caller = request.user;
      if (input.deviceId !== undefined) {
        if (!(await q.deviceVisible(db, caller, input.deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
        await q.setDeviceThreshold(db, input.deviceId, input.minutes);
        return ok(null);
      }
      const enterpriseId = caller.permissionLevel === Level.Admin ? input.enterpriseId : caller.id;
      if (enterpriseId === undefined)
        throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'enterpriseId', message: 'validation.required' }]);
      if (input.enterpriseId !== undefined && input.enterpriseId !== enterpriseId) throw new BizError(ErrorCode.NotFound);
      if (!(await q.enterpriseExists(db, enterpriseId))) throw new BizError(ErrorCode.NotFound);
      await q.setEnterpriseThreshold(db, enterpriseId, input.minutes);
      return ok(null);
    },
  );

  app.get(
    '/monitor/settings',
    {
      config: { levels: [Level.Admin] },
      schema: {
        tags,
        summary: 'Server default offline threshold and history retention',
        querystring: { type: 'object', properties: tokenQuery },
      },
    },
    async () => ok(await q.readSettings(db)),
  );

  app.post(
    '/monitor/updateSettings',
    {
      config: { levels: [Level.Admin] },
      schema: {
        tags,
        summary:
          "Change the default offline threshold (minutes), the history retention (days) or how long report runs' files are kept (days)",
        querystring: { type: 'object', properties: tokenQuery },
        body: {
          type: 'object',
          properties: {
            defaultOfflineMinutes: { type: 'integer' },
            retentionDays: { type: 'integer' },
            reportKeepDays: { type: 'integer' },
          },
        },
      },
    },
    async (request) => {
      const input = parseWith(settingsSchema, request.body);
      await q.updateSettings(db, input);
      return ok(await q.readSettings(db));
    },
  );
}
