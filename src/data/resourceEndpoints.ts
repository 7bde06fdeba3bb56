import type { Method, QueryValue } from '../api';
import { TABLE_ROUTES, tableFilters, tableLevels, type TableAction, type TableResource } from '../domain/tableResource';

/**
 * How one resource maps onto the /cz API: the data half of a resource definition, read by the
 * dataProvider (which never switches on resource names).
 */
export type Params = Record<string, QueryValue>;
export type Row = Record<string, unknown>;

export interface ListEndpoint {
  path: string;
  method?: Method;
  /** true: the server pages (pageIndex 1-based, pageSize, sort, order). false: a plain array, paged here. */
  paged: boolean;
  /** Filters passed on as query fields (others are ignored). */
  filters?: readonly string[];
  /** Fields the server can sort by. */
  sortable?: readonly string[];
  /**
   * Unpaged lists only: filters matched here as well, over what the server sent (text: substring,
   * case-insensitive; ids and numbers: exact). The others are sent to the server only.
   */
  matchHere?: readonly string[];
  /** Filters without which there is nothing to list (derived from the definition's required filters): no call is made until they have a value. */
  requires?: readonly string[];
}

export interface WriteEndpoint {
  path: string;
  method?: Method;
  /** json: the record as JSON body; query: params(record) as the query string. */
  send: 'json' | 'query';
  /** Shapes what is sent (default: the record itself). */
  params?: (record: Row) => Row;
  /** Codes the form shows itself (field errors under their fields), not announced by the error catalogue. */
  quiet?: readonly number[];
}

export interface IdEndpoint {
  path: string;
  method?: Method;
  /** The query built from the id (default { id }). */
  params?: (id: string | number) => Params;
}

/** Several records by id in one call (getMany): the ids go as one comma-separated parameter. */
export interface ManyEndpoint {
  path: string;
  method?: Method;
  /** The parameter's name (default ids). */
  param?: string;
}

export interface ResourceEndpoints {
  list: ListEndpoint;
  one?: IdEndpoint;
  many?: ManyEndpoint;
  create?: WriteEndpoint;
  update?: WriteEndpoint;
  delete?: IdEndpoint;
  /** The list's filters and sort as a file (the list shows an export button). */
  export?: { path: string };
  /** The record's id (default: record.id). */
  idOf?: (record: Row) => string | number;
}

/**
 * The body of an add (or, with its id, an update) made of these fields only; empty text and missing
 * values are sent as null ("not given"), as the /cz API takes them.
 */
export const fieldsBody = (fields: readonly string[], withId = false) => (record: Row): Row => {
  const out: Row = withId ? { id: record.id } : {};
  for (const field of fields) out[field] = record[field] === '' || record[field] === undefined ? null : record[field];
  return out;
};

/**
 * The endpoints of a resource the reference server builds from its table declaration
 * (docs/extending.md): the routes of the declaration's path, for the actions its levels allow.
 */
export function tableEndpoints(server: TableResource): ResourceEndpoints {
  const at = (action: keyof typeof TABLE_ROUTES) => `${server.path}/${TABLE_ROUTES[action]}`;
  const fields = Object.entries(server.columns)
    .filter(([, spec]) => !spec.sql)
    .map(([field]) => field);
  const allowed = (action: TableAction) => tableLevels(server, action).length > 0;
  return {
    list: {
      path: at('list'),
      paged: true,
      filters: [...(server.search?.length ? ['search'] : []), ...tableFilters(server)],
      sortable: ['id', ...(server.sortable ?? [])],
    },
    one: { path: at('one') },
    ...(allowed('create') ? { create: { path: at('create'), send: 'json' as const, params: fieldsBody(fields) } } : {}),
    ...(allowed('edit') ? { update: { path: at('update'), send: 'json' as const, params: fieldsBody(fields, true) } } : {}),
    ...(allowed('delete') ? { delete: { path: at('delete'), method: 'DELETE' as const } } : {}),
    ...(allowed('export') ? { export: { path: at('export') } } : {}),
  };
}
