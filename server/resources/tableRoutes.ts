import type { FastifyRequest } from 'fastify';
import type { Feature } from '../../src/domain/features';
import type { Api } from '../http/api';
import type { ServerContext } from '../context';
import { ErrorCode } from '../../src/domain/errorCodes';
import { Level, enterpriseIdOf, type Principal } from '../../src/domain/levels';
import { TABLE_ALL_ROWS, TABLE_ROUTES, tableFilters, tableLevels, type TableResource } from '../../src/domain/tableResource';
import { translateDomain } from '../../src/domain/messages';
import { BizError, ok } from '../http/envelope';
import { parseWith } from '../http/validation';
import { envelope, idQuery, pageOf, tokenQuery } from '../http/schemas';
import { XLSX_TYPE } from '../http/xlsx';
import { exportOptionsOf, sendExport, type ExportValue } from '../http/exportFile';
import { isUniqueViolation } from '../db/uniqueViolation';
import { uniqueIndexName } from '../db/generatedTables';
import { assertFeatureUnlocked } from '../modules/devices';
import { bodySchema, listQuerySchema, rowSchema } from './tableSchemas';
import { assertOwnReferences } from './tableReferenceQueries';
import {
  deleteTableRow,
  exportTableRows,
  findTableRow,
  insertTableRow,
  listTableRows,
  updateTableRow,
  vesselVisible,
  type TableListQuery,
} from './tableQueries';

/** The most rows one export writes. */
export const TABLE_EXPORT_MAX_ROWS = 100_000;

type Row = Record<string, unknown>;

/** A declared resource as the server mounts it: its console name (its words are under resources.<name>) and its table declaration. */
export interface MountedTable {
  name: string;
  resource: TableResource;
}

/** What getAll and export read from their query string (already checked by listQuerySchema). */
function listQueryOf(r: TableResource, query: unknown): TableListQuery {
  const q = (query ?? {}) as Row;
  const filters = Object.fromEntries(tableFilters(r).map((field) => [field, q[field]]));
  const paged = r.paged !== false;
  return {
    pageIndex: paged ? Number(q.pageIndex ?? 1) : 1,
    pageSize: paged ? Number(q.pageSize ?? 20) : TABLE_ALL_ROWS,
    search: typeof q.search === 'string' ? q.search : undefined,
    sort: typeof q.sort === 'string' ? q.sort : undefined,
    order: q.order === 'desc' ? 'desc' : q.order === 'asc' ? 'asc' : undefined,
    filters,
  };
}

/**
 * The routes of a declared table resource (docs/extending.md, docs/api.md "Conventions"): getAll
 * (paged, searched, filtered, sorted from its whitelist), getById, add, update, deleteById and,
 * when its levels name export, export (csv or xlsx). Every route reads and writes only the rows
 * of the caller's scope; another enterprise's row is "not found".
 */
export function tableRoutes({ name, resource: r }: MountedTable) {
  const tags = [r.audit ?? r.path.split('/').pop()!];
  const audit = { entity: tags[0]!, table: r.table };
  const notFound = () => new BizError(ErrorCode.NotFound, r.notFound ?? 'error.notFound');
  const row = rowSchema(r);

  /** The owner a write names must be the caller's to write to (a vessel it sees; its own enterprise). */
  async function checkOwner(db: ServerContext['db'], caller: Principal, input: Row, existing?: Row): Promise<Row> {
    if (r.scope === 'vessel' && r.feature) {
      await assertFeatureUnlocked(db, caller, Number(input.deviceId), r.feature as Feature);
      return input;
    }
    if (r.scope === 'vessel') {
      if (!(await vesselVisible(db, caller, Number(input.deviceId)))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
      return input;
    }
    if (r.scope === 'enterprise') {
      // Level 1 names the owner (a row of an enterprise's belongs to one); an update that names none keeps the row's.
      if (caller.permissionLevel === Level.Admin) {
        const ownerId = input.ownerId ?? existing?.ownerId ?? null;
        if (ownerId === null)
          throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'ownerId', message: 'validation.required' }]);
        return { ...input, ownerId };
      }
      // Levels 2 and 3 write for their own enterprise; naming another is refused, as for devices.
      const own = enterpriseIdOf(caller);
      if (input.ownerId !== undefined && input.ownerId !== null && input.ownerId !== own) throw new BizError(ErrorCode.Forbidden);
      return { ...input, ownerId: own };
    }
    return input;
  }

  /** The owner checked, then the ids the row names (they must be the owner's: TableResource.references). */
  async function checkedOwner(db: ServerContext['db'], caller: Principal, input: Row, existing?: Row): Promise<Row> {
    const owned = await checkOwner(db, caller, input, existing);
    await assertOwnReferences(db, r, owned);
    return owned;
  }

  /** The declaration's rule over the input and the stored row, reported as the yup rules are (code 1, every field). */
  function checked(input: Row, stored: Row | null): Row {
    const errors = r.checkWrite?.(input, stored) ?? [];
    if (errors.length) throw new BizError(ErrorCode.Validation, 'error.validation', errors);
    return input;
  }

  /** A list of one vessel names a vessel the caller sees, else "not found" (as every vessel route answers). */
  async function checkedQuery(db: ServerContext['db'], caller: Principal, query: unknown): Promise<TableListQuery> {
    const q = listQueryOf(r, query);
    const deviceId = q.filters.deviceId;
    if (r.scope === 'vessel' && deviceId !== undefined && deviceId !== '') await checkOwner(db, caller, { deviceId });
    return q;
  }

  /** A row the caller sees (and, under a feature, whose vessel has it unlocked), else "not found" or "locked". */
  async function visibleRow(db: ServerContext['db'], caller: Principal, id: number): Promise<Row> {
    const found = await findTableRow(db, r, caller, id);
    if (!found) throw notFound();
    if (r.feature) await checkOwner(db, caller, found);
    return found;
  }

  /** A unique key refused the write: code 9, naming the key's last field. */
  function duplicate(error: unknown): never {
    const constraint = (error as { constraint?: string }).constraint;
    const key = r.unique?.find((fields) => uniqueIndexName(r.table, fields) === constraint) ?? r.unique?.[0];
    const field = key?.at(-1);
    throw new BizError(ErrorCode.Duplicate, 'error.duplicate', field ? [{ field, message: 'error.duplicate' }] : undefined);
  }

  const write = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) duplicate(error);
      throw error;
    }
  };

  return async (app: Api, { db }: ServerContext) => {
    const route = (action: keyof typeof TABLE_ROUTES) => `/${TABLE_ROUTES[action]}`;
    app.get(
      route('list'),
      {
        config: { levels: tableLevels(r, 'list') },
        schema: {
          tags,
          summary: `The ${name} rows the caller sees, a page at a time`,
          querystring: listQuerySchema(r, 'list'),
          response: envelope(pageOf(row)),
        },
      },
      async (request) => ok(await listTableRows(db, r, request.user, await checkedQuery(db, request.user, request.query))),
    );

    app.get(
      route('one'),
      {
        config: { levels: tableLevels(r, 'show') },
        schema: { tags, summary: `One ${name} row the caller sees`, querystring: idQuery, response: envelope(row) },
      },
      async (request) => ok(await visibleRow(db, request.user, request.query.id)),
    );

    const idOf = (request: FastifyRequest) => Number((request.body as Row | undefined)?.id);
    if (tableLevels(r, 'create').length)
      app.post(
        route('create'),
        {
          config: { levels: tableLevels(r, 'create'), audit },
          schema: {
            tags,
            summary: `Add a ${name} row`,
            querystring: { type: 'object', properties: tokenQuery },
            body: bodySchema(r, false),
            response: envelope(row),
          },
        },
        async (request) => {
          const input = await checkedOwner(db, request.user, checked(parseWith(r.schema.create, request.body), null));
          const id = await write(() => insertTableRow(db, r, input, request.user.id));
          return ok(await findTableRow(db, r, request.user, id));
        },
      );

    if (tableLevels(r, 'edit').length)
      app.post(
        route('update'),
        {
          config: { levels: tableLevels(r, 'edit'), audit },
          schema: {
            tags,
            summary: `Change a ${name} row the caller sees`,
            querystring: { type: 'object', properties: tokenQuery },
            body: bodySchema(r, true),
            response: envelope(row),
          },
        },
        async (request) => {
          const id = idOf(request);
          const { id: _id, ...fields } = parseWith(r.schema.update ?? r.schema.create, request.body) as Row;
          const existing = await visibleRow(db, request.user, id);
          const input = await checkedOwner(db, request.user, checked(fields, existing), existing);
          await write(() => updateTableRow(db, r, id, input));
          return ok(await findTableRow(db, r, request.user, id));
        },
      );

    if (tableLevels(r, 'delete').length)
      app.delete(
        route('delete'),
        {
          config: { levels: tableLevels(r, 'delete'), audit },
          schema: { tags, summary: `Delete a ${name} row the caller sees`, querystring: idQuery, response: envelope() },
        },
        async (request) => {
          const { id } = request.query;
          await visibleRow(db, request.user, id);
          await deleteTableRow(db, r, id);
          return ok(null);
        },
      );

    if (tableLevels(r, 'export').length)
      app.get(
        route('export'),
        {
          config: { levels: tableLevels(r, 'export') },
          schema: {
            tags,
            summary: `The ${name} rows the caller sees with getAll's filters, as a file (format csv or xlsx)`,
            querystring: listQuerySchema(r, 'export'),
            produces: ['text/csv', XLSX_TYPE, 'application/json'],
          },
        },
        async (request, reply) => {
          const options = exportOptionsOf(request);
          const rows = await exportTableRows(
            db,
            r,
            request.user,
            await checkedQuery(db, request.user, request.query),
            TABLE_EXPORT_MAX_ROWS,
          );
          const fields = [
            'id',
            ...Object.keys(r.columns).filter((field) => r.columns[field]!.exported !== false && !r.columns[field]!.writeOnly),
          ];
          const header = fields.map((field) => {
            const key = `resources.${name}.fields.${field}`;
            const text = translateDomain(options.lang, key);
            return text === key ? field : text;
          });
          const valueOf = (field: string, value: unknown): ExportValue => {
            const column = r.columns[field];
            if (value === null || value === undefined) return null;
            if (column?.choices && typeof value === 'string') return translateDomain(options.lang, `${column.choices}${value}`);
            if (column?.type === 'timestamp') return new Date(value as string);
            if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
            return JSON.stringify(value);
          };
          return sendExport(
            reply,
            tags[0]!,
            options,
            header,
            rows.map((item) => fields.map((field) => valueOf(field, item[field]))),
          );
        },
      );
  };
}
