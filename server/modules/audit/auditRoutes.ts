import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { Level } from '../../../src/domain/levels';
import { translateDomain } from '../../../src/domain/messages';
import { BizError, languageOf, ok } from '../../http/envelope';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { isRealTime } from '../../../src/domain/schemaRules';
import { envelope, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { attachment, safeCell, xlsxOf, XLSX_TYPE } from '../../http/xlsx';
import { claimExportSlot } from '../devices/exportThrottleQueries';

const tags = ['support'];
const READERS = [Level.Admin, Level.Enterprise] as const;
const EXPORT_MAX_ROWS = 100_000;

const DAY_OR_TIME = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';
const isDay = (value: string) => value.length === 10;

export const auditFilterQuery = {
  userName: { type: 'string', maxLength: 64, description: 'part of the name of who made the change' },
  entity: { type: 'string', maxLength: 64, description: 'user, device, deviceGroup, voyage, camera, firmware, afterSales...' },
  entityId: { type: 'string', maxLength: 32 },
  from: { type: 'string', pattern: DAY_OR_TIME, description: 'at or after: a day (YYYY-MM-DD, from its start, UTC) or an ISO 8601 time' },
  to: { type: 'string', pattern: DAY_OR_TIME, description: 'before: an ISO 8601 time, or a day (YYYY-MM-DD, up to its end, UTC)' },
} as const;

const entryObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' }, at: { type: 'string' }, userId: { type: ['integer', 'null'] }, userName: { type: 'string' }, userLevel: { type: 'string' },
    address: { type: 'string' }, method: { type: 'string' }, route: { type: 'string' }, entity: { type: 'string' }, entityId: { type: ['string', 'null'] },
    action: { type: 'string' }, before: { type: ['object', 'null'] }, after: { type: ['object', 'null'] },
  },
};

export interface AuditFilter { userName?: string; entity?: string; entityId?: string; from?: string; to?: string }
export interface AuditEntry {
  id: number; at: string; userId: number | null; userName: string; userLevel: string; address: string; method: string; route: string;
  entity: string; entityId: string | null; action: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null;
}

/** Level 1 reads every entry; level 2 the entries made by its enterprise (itself and its sub-users). */
function listAudit(db: Queryable, caller: FastifyRequest['user'], filter: AuditFilter, limit: number, offset: number) {
  const badTimes = (['from', 'to'] as const).filter((k) => filter[k] && !isRealTime(filter[k]));
  if (badTimes.length) throw new BizError(ErrorCode.Validation, 'error.validation', badTimes.map((field) => ({ field, message: 'validation.date' })));
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => { params.push(value); where.push(sql.replace('?', `$${params.length}`)); };
  if (caller.permissionLevel !== Level.Admin) add('enterprise_id = ?', caller.id);
  if (filter.userName) add(`user_name ILIKE '%' || ? || '%'`, filter.userName.replace(/[\\%_]/g, '\\$&'));
  if (filter.entity) add('entity = ?', filter.entity);
  if (filter.entityId) add('entity_id = ?', filter.entityId);
  if (filter.from) add(isDay(filter.from) ? `at >= (?::date)::timestamp AT TIME ZONE 'UTC'` : 'at >= ?::timestamptz', filter.from);
  if (filter.to) add(isDay(filter.to) ? `at < (?::date + 1)::timestamp AT TIME ZONE 'UTC'` : 'at < ?::timestamptz', filter.to);
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return Promise.all([
    db.query<AuditEntry>(
      `SELECT id::int, at, user_id AS "userId", user_name AS "userName", user_level AS "userLevel", address, method, route, entity, entity_id AS "entityId", action, before, after
         FROM audit_log ${clause} ORDER BY at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM audit_log ${clause}`, params),
  ]).then(([list, [count]]) => ({ list, total: count?.total ?? 0 }));
}

const EXPORT_COLUMNS = ['at', 'userName', 'address', 'entity', 'entityId', 'action', 'before', 'after'] as const;

/** supportModule/auditLog: the audit log, read-only (levels 1 and 2), with an export sharing the -101 throttle. */
export async function auditRoutes(app: Api, { db }: ServerContext) {
  app.get('/auditLog/getAll', {
    config: { levels: READERS },
    schema: { tags, summary: 'Changes made through the API, newest first: level 1 all, level 2 its enterprise', querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, ...auditFilterQuery } }, response: envelope(pageOf(entryObject)) },
  }, async (request) => {
    const { pageIndex, pageSize, ...filter } = request.query;
    return ok(await listAudit(db, request.user, filter, pageSize, (pageIndex - 1) * pageSize));
  });

  app.get('/auditLog/export', {
    config: { levels: READERS },
    schema: {
      tags, summary: 'The filtered audit log as an .xlsx file; exporting again within 10 s answers code -101',
      querystring: { type: 'object', properties: { ...tokenQuery, ...auditFilterQuery } },
      produces: [XLSX_TYPE, 'application/json'],
    },
  }, async (request, reply) => {
    const lang = languageOf(request);
    await claimExportSlot(db, request.user.id);
    const { list } = await listAudit(db, request.user, request.query, EXPORT_MAX_ROWS, 0);
    const header = EXPORT_COLUMNS.map((c) => translateDomain(lang, `auditField.${c}`));
    const rows = list.map((e) => EXPORT_COLUMNS.map((c) => {
      const value = e[c];
      if (value === null || value === undefined) return '';
      if (value instanceof Date) return value.toISOString();
      return safeCell(typeof value === 'object' ? JSON.stringify(value) : String(value));
    }));
    return attachment(reply, 'audit-log', 'xlsx', XLSX_TYPE).send(await xlsxOf('audit-log', header, rows));
  });
}
