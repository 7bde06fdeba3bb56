import { HttpError, type DataProvider, type Identifier, type RaRecord } from 'react-admin';
import { request, ApiError, NetworkError, type Method, type RequestOptions } from '../api';
import type { ListEndpoint, Params, ResourceEndpoints, Row, WriteEndpoint } from './resourceEndpoints';
import { DATA_CALLS, type CallMethod } from './dataCalls';
import { ErrorCode } from '../domain/errorCodes';

/**
 * react-admin's DataProvider over the /cz API, driven by each resource's endpoints. Errors become
 * CzHttpError (an HttpError) carrying the envelope code; field errors are handed to the form.
 */
export class CzHttpError extends HttpError {
  readonly code: number;
  constructor(message: string, status: number, code: number, body: unknown) {
    super(message, status, body);
    // react-admin's HttpError resets the prototype to its own; keep ours (instanceof, data).
    Object.setPrototypeOf(this, CzHttpError.prototype);
    this.code = code;
  }
  /** The envelope's data (field errors, row errors, remaining attempts...). */
  get data(): unknown {
    return (this.body as { data?: unknown } | null)?.data ?? null;
  }
}

/** The envelope code of an error from the dataProvider or the HTTP client (undefined: not a business error). */
export function errorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** The envelope's data of a business error ({ field, message }[] for field errors), else null. */
export function errorData(error: unknown): unknown {
  return error && typeof error === 'object' && 'data' in error ? (error as { data: unknown }).data : null;
}

const STATUS_OF: Partial<Record<number, number>> = {
  [ErrorCode.TokenMissing]: 401,
  [ErrorCode.TokenInvalid]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Validation]: 400,
};

export function toHttpError(error: unknown): unknown {
  if (error instanceof ApiError) {
    const errors: Record<string, string> = {};
    if (Array.isArray(error.data)) {
      for (const item of error.data as { field?: string; message?: string }[]) {
        if (item && item.field && item.message && !errors[item.field]) errors[item.field] = item.message;
      }
    }
    const body = { code: error.code, msg: error.msg, data: error.data, ...(Object.keys(errors).length ? { errors } : {}) };
    return new CzHttpError(error.msg, STATUS_OF[error.code] ?? 200, error.code, body);
  }
  if (error instanceof NetworkError) return new CzHttpError(error.message, error.status ?? 0, -1, { code: -1, msg: error.message, data: null });
  return error;
}

async function call<T>(path: string, options: RequestOptions): Promise<T> {
  try {
    return await request<T>(path, options);
  } catch (error) {
    throw toHttpError(error);
  }
}

function writeOptions(endpoint: WriteEndpoint, record: Row, signal?: AbortSignal): RequestOptions {
  const payload = endpoint.params ? endpoint.params(record) : record;
  const method: Method = endpoint.method ?? 'POST';
  const quiet = endpoint.quiet;
  return endpoint.send === 'json' ? { method, json: payload, signal, quiet } : { method, query: payload as Params, signal, quiet };
}

const compare = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
};

const isIdKey = (key: string) => key === 'id' || /Id$/.test(key);
const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Does a record match one filter here? Ids and numbers exactly (id 1 does not match 12); text as a case-insensitive substring. */
function matches(record: Row, key: string, value: unknown): boolean {
  const actual = record[key];
  if (Array.isArray(value)) return value.some((v) => String(v) === String(actual));
  if (isIdKey(key) || typeof value === 'number' || typeof value === 'boolean' || typeof actual === 'number' || typeof actual === 'boolean') return String(actual ?? '') === String(value);
  return String(actual ?? '').toLowerCase().includes(String(value).toLowerCase());
}

/** The filters a list sends: the declared ones (all when none are declared), plus `keep` (a reference's target) always. */
function sentFilters(list: ListEndpoint, filter: Record<string, unknown> | undefined, keep?: string): Params {
  const out: Params = {};
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (isEmpty(value)) continue;
    if (key === keep || !list.filters || list.filters.includes(key)) out[key] = (Array.isArray(value) ? value.join(',') : value) as Params[string];
  }
  return out;
}

/** The dataProvider with its non-CRUD calls (dataProvider.call(module, name, ...args), src/data/dataCalls.ts). */
export type ConsoleDataProvider = DataProvider & CallMethod;

export function createDataProvider(resources: Readonly<Record<string, ResourceEndpoints>>, calls: Record<string, object> = DATA_CALLS): ConsoleDataProvider {
  const endpointsOf = (resource: string): ResourceEndpoints => {
    const found = resources[resource];
    if (!found) throw new CzHttpError(`unknown resource ${resource}`, 404, ErrorCode.NotFound, null);
    return found;
  };
  const withId = (endpoints: ResourceEndpoints, record: Row): RaRecord => ({
    ...record,
    id: (endpoints.idOf ? endpoints.idOf(record) : record.id) as Identifier,
  });
  const requireEndpoint = <K extends keyof ResourceEndpoints>(resource: string, key: K) => {
    const endpoint = endpointsOf(resource)[key];
    if (!endpoint) throw new CzHttpError(`${resource} has no ${String(key)}`, 405, ErrorCode.BadRequest, null);
    return endpoint as NonNullable<ResourceEndpoints[K]>;
  };

  const list = async (resource: string, params: { pagination?: { page: number; perPage: number }; sort?: { field: string; order: string }; filter?: Record<string, unknown>; signal?: AbortSignal }, keep?: string) => {
    const endpoints = endpointsOf(resource);
    const { list: endpoint } = endpoints;
    const page = params.pagination?.page ?? 1;
    const perPage = params.pagination?.perPage ?? 10;
    const filters = sentFilters(endpoint, params.filter, keep);
    if (endpoint.requires?.some((key) => isEmpty(filters[key]))) return { data: [] as never[], total: 0 };
    const sort = params.sort?.field;
    const descending = params.sort?.order === 'DESC';
    if (endpoint.paged) {
      const query: Params = { pageIndex: page, pageSize: perPage, ...filters };
      if (sort && (!endpoint.sortable || endpoint.sortable.includes(sort))) {
        query.sort = sort;
        query.order = descending ? 'desc' : 'asc';
      }
      const data = await call<{ list: Row[]; total: number; totalEstimated?: boolean }>(endpoint.path, { method: endpoint.method ?? 'GET', query, signal: params.signal });
      // totalEstimated (device list past its exact-count threshold): the page shows "about N".
      return { data: data.list.map((r) => withId(endpoints, r)) as never[], total: data.total, ...(data.totalEstimated ? { meta: { totalEstimated: true } } : {}) };
    }
    // An unpaged list: the server filters by what it takes; matchHere filters (and a reference's target) are matched here too.
    const all = (await call<Row[]>(endpoint.path, { method: endpoint.method ?? 'GET', query: filters, signal: params.signal })).map((r) => withId(endpoints, r));
    const local = Object.entries(params.filter ?? {}).filter(([key, value]) => !isEmpty(value) && (key === keep || endpoint.matchHere?.includes(key)));
    const matching = all.filter((record) => local.every(([key, value]) => matches(record, key, value)));
    if (sort) matching.sort((a, b) => compare(a[sort], b[sort]) * (descending ? -1 : 1));
    return { data: matching.slice((page - 1) * perPage, page * perPage) as never[], total: matching.length };
  };

  const provider: ConsoleDataProvider = {
    getList: (resource, params) => list(resource, params),

    async getOne(resource, params) {
      const endpoints = endpointsOf(resource);
      const one = requireEndpoint(resource, 'one');
      // meta.quiet: codes the caller shows in place rather than as a message (a vessel the user may not see).
      const quiet = (params.meta as { quiet?: RequestOptions['quiet'] } | undefined)?.quiet;
      const data = await call<Row | null>(one.path, { method: one.method ?? 'GET', query: one.params ? one.params(params.id) : { id: params.id }, signal: params.signal, quiet });
      if (!data) throw new CzHttpError('not found', 404, ErrorCode.NotFound, null);
      return { data: withId(endpoints, data) as never };
    },

    /** One call where the server reads several ids at once (endpoints.many), else one getOne per id; ids it does not find are left out. */
    async getMany(resource, params) {
      const endpoints = endpointsOf(resource);
      const ids = [...new Set(params.ids.map(String))];
      if (ids.length === 0) return { data: [] };
      if (endpoints.many) {
        const rows = await call<Row[]>(endpoints.many.path, { method: endpoints.many.method ?? 'GET', query: { [endpoints.many.param ?? 'ids']: ids.join(',') }, signal: params.signal });
        return { data: rows.map((r) => withId(endpoints, r)) as never[] };
      }
      const records = await Promise.all(ids.map((id) => provider.getOne(resource, { id, signal: params.signal }).then((r) => r.data, (error: unknown) => {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      })));
      return { data: records.filter((r) => r !== null) as never[] };
    },

    /** The records whose target field is this id: the target is always sent (and matched here on an unpaged list). */
    getManyReference: (resource, params) => list(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }, params.target),

    async create(resource, params) {
      const endpoints = endpointsOf(resource);
      const create = requireEndpoint(resource, 'create');
      const data = await call<Row | null>(create.path, writeOptions(create, params.data as Row));
      return { data: withId(endpoints, { ...(params.data as Row), ...(data && typeof data === 'object' ? data : {}) }) as never };
    },

    async update(resource, params) {
      const endpoints = endpointsOf(resource);
      const update = requireEndpoint(resource, 'update');
      const data = await call<Row | null>(update.path, writeOptions(update, { ...(params.data as Row), id: params.id }));
      return { data: withId(endpoints, { ...(params.data as Row), ...(data && typeof data === 'object' ? data : {}), id: params.id }) as never };
    },

    /** One update per id, one after the other: the first refusal stops the rest and is reported. */
    async updateMany(resource, params) {
      const done: Identifier[] = [];
      for (const id of params.ids) {
        await provider.update(resource, { id, data: params.data, previousData: { id } as never });
        done.push(id);
      }
      return { data: done };
    },

    async delete(resource, params) {
      const remove = requireEndpoint(resource, 'delete');
      await call(remove.path, { method: remove.method ?? 'DELETE', query: remove.params ? remove.params(params.id) : { id: params.id } });
      return { data: (params.previousData ?? { id: params.id }) as never };
    },

    async deleteMany(resource, params) {
      for (const id of params.ids) await provider.delete(resource, { id });
      return { data: params.ids };
    },

    async call(module, name, ...args) {
      const fn = (calls[module] as Record<string, unknown> | undefined)?.[name];
      if (typeof fn !== 'function') throw new CzHttpError(`no call ${module}.${name}`, 404, ErrorCode.NotFound, null);
      try {
        return await (fn as (...a: unknown[]) => Promise<never>)(...args);
      } catch (error) {
        throw toHttpError(error);
      }
    },
  };
  return provider;
}
