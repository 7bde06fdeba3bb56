import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { Level } from '../../../src/domain/levels';
import { translateDomain } from '../../../src/domain/messages';
import { BizError, ok } from '../../http/envelope';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { isRealTime } from '../../../src/domain/schemaRules';
import { envelope, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { XLSX_TYPE } from '../../http/xlsx';
import { exportOptionsOf, exportQuery, localTime, sendExport, type ExportOptions } from '../../http/exportFile';
import { claimExportSlot } from '../devices/exportThrottleQueries';
import { listAudit, type AuditEntry, type AuditFilter } from './auditQueries';
import { ISO_TIME, auditChanges, auditFieldKey, auditName, type AuditChange } from '../../../src/domain/auditChanges';

const tags = ['support'];
const READERS = [Level.Admin, Level.Enterprise] as const;
const EXPORT_MAX_ROWS = 100_000;

const DAY_OR_TIME = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';

export const auditFilterQuery = {
  userName: { type: 'string', maxLength: 64, description: 'part of the name of who made the change' },
  entity: {
    type: 'string',
    maxLength: 64,
    description:
      'the entity as recorded (user, device, deviceGroup, voyage, camera, firmware, afterSales...) or as the list names it, in either language ("Device group", "设备分组")',
  },
  entityId: { type: 'string', maxLength: 32 },
  from: { type: 'string', pattern: DAY_OR_TIME, description: 'at or after: a day (YYYY-MM-DD, from its start, UTC) or an ISO 8601 time' },
  to: { type: 'string', pattern: DAY_OR_TIME, description: 'before: an ISO 8601 time, or a day (YYYY-MM-DD, up to its end, UTC)' },
} as const;

const entryObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: { type: 'string' },
    userId: { type: ['integer', 'null'] },
    userName: { type: 'string' },
    userLevel: { type: 'string' },
    address: { type: 'string' },
    method: { type: 'string' },
    route: { type: 'string' },
    entity: { type: 'string' },
    entityId: { type: ['string', 'null'] },
    action: { type: 'string' },
    before: { type: ['object', 'null'] },
    after: { type: ['object', 'null'] },
    changes: {
      type: 'array',
      description: 'the fields that changed, camelCase, without internal columns (src/domain/auditChanges.ts)',
      items: { type: 'object', properties: { field: { type: 'string' }, before: {}, after: {} } },
    },
  },
};

/** A time that is not a real one (a 30 February) is refused before the log is read. */
function listChecked(db: Queryable, caller: FastifyRequest['user'], filter: AuditFilter, limit: number, offset: number) {
  const badTimes = (['from', 'to'] as const).filter((k) => filter[k] && !isRealTime(filter[k]));
  if (badTimes.length)
    throw new BizError(
      ErrorCode.Validation,
      'error.validation',
      badTimes.map((field) => ({ field, message: 'validation.date' })),
    );
  return listAudit(db, caller, filter, limit, offset);
}

const EXPORT_COLUMNS = ['at', 'userName', 'address', 'entity', 'entityId', 'action', 'changes'] as const;

/** The entry with what changed, as the console shows it. */
const withChanges = (entry: AuditEntry) => ({ ...entry, changes: auditChanges(entry.before, entry.after) });

/** One change as a line of the export: "Name: Reefers → Reefer fleet", in the reader's language and zone. */
function changeLine(entity: string, change: AuditChange, options: ExportOptions): string {
  const key = auditFieldKey(entity, change.field);
  const named = key ? translateDomain(options.lang, key) : null;
  const label = named && named !== key ? named : change.field;
  const text = (value: unknown): string => {
    if (value === null || value === undefined || value === '') return '-';
    if (typeof value === 'boolean') return translateDomain(options.lang, value ? 'export.yes' : 'export.no');
    if (typeof value === 'string' && ISO_TIME.test(value)) return localTime(new Date(value), options.offsetHours);
    if (Array.isArray(value)) return value.map(text).join(', ');
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  return `${label}: ${text(change.before)} → ${text(change.after)}`;
}

/** supportModule/auditLog: the audit log, read-only (levels 1 and 2), with an export sharing the -101 throttle. */
export async function auditRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/auditLog/getAll',
    {
      config: { levels: READERS },
      schema: {
        tags,
        summary: 'Changes made through the API, newest first: level 1 all, level 2 its enterprise',
        querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, ...auditFilterQuery } },
        response: envelope(pageOf(entryObject)),
      },
    },
    async (request) => {
      const { pageIndex, pageSize, ...filter } = request.query;
      const page = await listChecked(db, request.user, filter, pageSize, (pageIndex - 1) * pageSize);
      return ok({ ...page, list: page.list.map(withChanges) });
    },
  );

  app.get(
    '/auditLog/export',
    {
      config: { levels: READERS },
      schema: {
        tags,
        summary: 'The filtered audit log as a file (format xlsx or csv, times at tz); exporting again within 10 s answers code -101',
        querystring: { type: 'object', properties: { ...tokenQuery, ...auditFilterQuery, ...exportQuery } },
        produces: ['text/csv', XLSX_TYPE, 'application/json'],
      },
    },
    async (request, reply) => {
      const options = exportOptionsOf(request);
      await claimExportSlot(db, request.user.id);
      const { list } = await listChecked(db, request.user, request.query, EXPORT_MAX_ROWS, 0);
      const header = EXPORT_COLUMNS.map((c) => translateDomain(options.lang, `auditField.${c}`));
      const rows = list.map((e) =>
        EXPORT_COLUMNS.map((c) => {
          if (c === 'changes')
            return auditChanges(e.before, e.after)
              .map((change) => changeLine(e.entity, change, options))
              .join('\n');
          const value = e[c];
          if (value === null || value === undefined) return null;
          if (c === 'entity' || c === 'action') return auditName(c, String(value), (key) => translateDomain(options.lang, key));
          return c === 'at' ? new Date(value) : String(value);
        }),
      );
      return sendExport(reply, 'audit-log', options, header, rows);
    },
  );
}
