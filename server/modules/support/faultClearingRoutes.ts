import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { FAULT_CODES, alarmMeaning } from '../../../src/domain/faultCodes';
import { translateDomain } from '../../../src/domain/messages';
import { XLSX_TYPE } from '../../http/xlsx';
import { exportOptionsOf, exportQuery, sendExport } from '../../http/exportFile';
import { claimExportSlot } from '../devices/exportThrottleQueries';
import { EXPORT_MAX_ROWS } from '../devices/exportRoutes';
import { CONTACT_MANUFACTURER_CODES, reportStepOf, stepsOf } from '../../../src/domain/faultSteps';
import { faultClearingRecordSchema } from '../../../src/domain/faultClearing';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { Level } from '../../../src/domain/levels';
import { findVisibleDevice } from '../devices/deviceQueries';
import { acknowledgeAlarms, activeAlarmsOf } from '../monitoring/alarmQueries';
import { insertAuditEntry } from '../audit/auditQueries';
import { insertFaultClearingRecord, listFaultClearingRecords } from './faultClearingQueries';

const tags = ['support'];
const recordObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    deviceId: { type: 'integer' },
    deviceName: { type: 'string' },
    deviceNum: { type: ['string', 'null'] },
    code: { type: 'string' },
    stepsDone: { type: 'array', items: { type: 'integer' } },
    action: { type: 'string' },
    cleared: { type: 'boolean' },
    recordedBy: { type: ['integer', 'null'] },
    recordedByName: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
  },
};

/** Filters of faultClearing/getRecords, which its export takes too. */
const recordFilterQuery = {
  deviceId: { type: 'integer' },
  code: { type: 'string', maxLength: 8 },
  cleared: { type: 'boolean' },
} as const;
const EXPORT_FIELDS = ['time', 'vessel', 'code', 'meaning', 'action', 'stepsDone', 'result', 'recordedBy'] as const;
interface RecordRow {
  deviceName: string;
  code: string;
  stepsDone: number[];
  action: string;
  cleared: boolean;
  recordedByName: string | null;
  createdAt: string | Date;
}

/** The fault table with the guided steps (docs/requirements.md §8), for the troubleshooting page. */
export const FAULT_GUIDE = FAULT_CODES.map((f) => ({
  ...f,
  steps: stepsOf(f.code),
  contactManufacturer: CONTACT_MANUFACTURER_CODES.includes(f.code),
  reportStep: reportStepOf(f.code),
}));

/**
 * What a record did to the vessel's alarms of its code: the ids it acknowledged, or why none
 * (notCleared: the fault was not marked cleared; noActiveAlarm: the vessel has no active alarm of
 * the code; alreadyAcknowledged: someone had, ackedByName says who).
 */
const alarmsObject = {
  type: 'object',
  properties: {
    acknowledged: { type: 'array', items: { type: 'integer' } },
    reason: { type: ['string', 'null'], enum: [null, 'notCleared', 'noActiveAlarm', 'alreadyAcknowledged'] },
    ackedByName: { type: ['string', 'null'] },
  },
};

/**
 * supportModule/faultClearing: the guided troubleshooting table and the records of what was done
 * on a device. Records follow device visibility (server/auth/deviceScope.ts): an admin every
 * device's, an enterprise its own devices', a sub-user its granted vessels'; others answer code 2.
 */
export async function faultClearingRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/faultClearing/faultCodes',
    {
      schema: {
        tags,
        summary: 'Fault codes with severity, unit, meaning, remedy and the steps to clear them (zh and en)',
        querystring: { type: 'object', properties: tokenQuery },
      },
    },
    async () => ok(FAULT_GUIDE),
  );

  app.get(
    '/faultClearing/getRecords',
    {
      schema: {
        tags,
        summary: "Fault clearing records of the visible devices, newest first (deviceId: one device's history)",
        querystring: {
          type: 'object',
          properties: { ...tokenQuery, ...pageQuery, ...recordFilterQuery },
        },
        response: envelope(pageOf(recordObject)),
      },
    },
    async (request) => {
      const { pageIndex, pageSize, deviceId, code, cleared } = request.query;
      const caller = request.user;
      if (deviceId !== undefined && !(await findVisibleDevice(db, caller, deviceId)))
        throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      return ok(
        await listFaultClearingRecords(db, caller, { deviceId, code, cleared, limit: pageSize, offset: (pageIndex - 1) * pageSize }),
      );
    },
  );

  app.get(
    '/faultClearing/exportRecords',
    {
      schema: {
        tags,
        summary:
          'The records getRecords lists, all of them, as a file (format csv or xlsx, times at tz): meaning, steps (from 1) and result in words; exporting again within 10 s answers code -101',
        querystring: { type: 'object', properties: { ...tokenQuery, ...recordFilterQuery, ...exportQuery } },
        produces: ['text/csv', XLSX_TYPE, 'application/json'],
      },
    },
    async (request, reply) => {
      const options = exportOptionsOf(request);
      const { deviceId, code, cleared } = request.query;
      const caller = request.user;
      if (deviceId !== undefined && !(await findVisibleDevice(db, caller, deviceId)))
        throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      await claimExportSlot(db, caller.id);
      const { list } = await listFaultClearingRecords(db, caller, { deviceId, code, cleared, limit: EXPORT_MAX_ROWS, offset: 0 });
      const t = (key: string) => translateDomain(options.lang, key);
      return sendExport(
        reply,
        'fault-clearing',
        options,
        EXPORT_FIELDS.map((f) => t(`export.faultRecords.${f}`)),
        (list as unknown as RecordRow[]).map((r) => [
          new Date(r.createdAt),
          r.deviceName,
          r.code,
          alarmMeaning(r.code, null, options.lang),
          r.action,
          r.stepsDone.map((i) => i + 1).join(', '),
          t(r.cleared ? 'export.faultRecords.cleared' : 'export.faultRecords.notCleared'),
          r.recordedByName,
        ]),
      );
    },
  );

  app.post(
    '/faultClearing/addRecord',
    {
      schema: {
        tags,
        summary: 'Record what was done to clear a fault on a visible device, and whether it cleared',
        querystring: { type: 'object', properties: tokenQuery },
        body: {
          type: 'object',
          properties: {
            deviceId: { type: 'integer' },
            code: { type: 'string' },
            stepsDone: { type: 'array', items: { type: 'integer' } },
            action: { type: 'string' },
            cleared: { type: 'boolean' },
          },
        },
        response: envelope({ ...recordObject, properties: { ...recordObject.properties, alarms: alarmsObject } }),
      },
    },
    async (request) => {
      const input = parseWith(faultClearingRecordSchema, request.body);
      const user = request.user;
      if (!(await findVisibleDevice(db, user, input.deviceId))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      const steps = [...new Set(input.stepsDone)].filter((i) => i < stepsOf(input.code).length).sort((a, b) => a - b);
      const answer = await db.transaction(async (tx) => {
        const record = (await insertFaultClearingRecord(tx, {
          deviceId: input.deviceId,
          code: input.code,
          stepsDone: steps,
          action: input.action,
          cleared: input.cleared,
          recordedBy: user.id,
        })) as { id: number };
        // A fault cleared acknowledges the vessel's active alarms of its code (docs/api.md, faultClearing), each in the audit log.
        const active = input.cleared ? await activeAlarmsOf(tx, user, input.deviceId, input.code) : [];
        const open = active.filter((a) => a.ackedAt === null).map((a) => a.id);
        if (open.length) await acknowledgeAlarms(tx, user.id, open);
        for (const id of open)
          await insertAuditEntry(tx, {
            userId: user.id,
            userName: user.name,
            userLevel: user.permissionLevel,
            enterpriseId:
              user.permissionLevel === Level.Enterprise ? user.id : user.permissionLevel === Level.SubUser ? user.parentId : null,
            address: request.ip,
            method: 'POST',
            route: (request.routeOptions.url ?? '').replace(/^\/cz\/[^/]+/, ''),
            entity: 'alarm',
            entityId: String(id),
            action: 'acknowledge',
            before: null,
            after: { acknowledged: true, by: 'fault clearing record', record: record.id },
          });
        const reason = !input.cleared ? 'notCleared' : !active.length ? 'noActiveAlarm' : !open.length ? 'alreadyAcknowledged' : null;
        const ackedByName = reason === 'alreadyAcknowledged' ? (active[0]!.ackedByName ?? null) : null;
        return { ...record, alarms: { acknowledged: open, reason, ackedByName } };
      });
      return ok(answer);
    },
  );
}
