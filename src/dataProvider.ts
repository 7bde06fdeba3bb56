import { HttpError, type DataProvider, type Identifier, type RaRecord } from 'react-admin';
import { request, ApiError, NetworkError, type Method, type RequestOptions } from './api';
import type { Params, ResourceEndpoints, Row, WriteEndpoint } from './resourceEndpoints';
import { ErrorCode } from './domain/errorCodes';

/**
 * react-admin's DataProvider over the /cz API, driven by each resource's endpoints. Errors become
 * CzHttpError (an HttpError) carrying the envelope code; field errors are handed to the form.
 */
export class CzHttpError extends HttpError {
  readonly code: number;
  constructor(message: string, status: number, code: number, body: unknown) {
    super(message, status, body);
    this.code = code;
  }
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
  return endpoint.send === 'json' ? { method, json: payload, signal } : { method, query: payload as Params, signal };
}

const compare = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
};

export function createDataProvider(resources: Readonly<Record<string, ResourceEndpoints>>): DataProvider {
  const endpointsOf = (resource: string): ResourceEndpoints => {
    const found = resources[resource];
    if (!found) throw new Error(`No endpoints for resource ${resource}`);
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

  const provider: DataProvider = {
    async getList(resource, params) {
      const endpoints = endpointsOf(resource);
      const { list } = endpoints;
      const page = params.pagination?.page ?? 1;
      const perPage = params.pagination?.perPage ?? 10;
      const filters: Params = {};
      for (const [key, value] of Object.entries(params.filter ?? {})) {
        if (!list.filters || list.filters.includes(key)) filters[key] = value as Params[string];
      }
      if (list.paged) {
        const sort = params.sort?.field;
        const query: Params = { pageIndex: page, pageSize: perPage, ...filters };
        if (sort && (!list.sortable || list.sortable.includes(sort))) {
          query.sort = sort;
          query.order = params.sort?.order === 'DESC' ? 'desc' : 'asc';
        }
        const data = await call<{ list: Row[]; total: number; totalEstimated?: boolean }>(list.path, { method: list.method ?? 'GET', query, signal: params.signal });
        // totalEstimated (device list past its exact-count threshold): the page shows "about N".
        return { data: data.list.map((r) => withId(endpoints, r)) as never[], total: data.total, ...(data.totalEstimated ? { meta: { totalEstimated: true } } : {}) };
      }
      const all = (await call<Row[]>(list.path, { method: list.method ?? 'GET', signal: params.signal })).map((r) => withId(endpoints, r));
      const matching = all.filter((record) =>
        Object.entries(filters).every(([key, value]) => value === undefined || value === '' || String(record[key] ?? '').toLowerCase().includes(String(value).toLowerCase())),
      );
      const field = params.sort?.field;
      if (field) matching.sort((a, b) => compare(a[field], b[field]) * (params.sort?.order === 'DESC' ? -1 : 1));
      return { data: matching.slice((page - 1) * perPage, page * perPage) as never[], total: matching.length };
    },

    async getOne(resource, params) {
      const endpoints = endpointsOf(resource);
      const one = requireEndpoint(resource, 'one');
      const data = await call<Row | null>(one.path, { method: one.method ?? 'GET', query: one.params ? one.params(params.id) : { id: params.id }, signal: params.signal });
      if (!data) throw new CzHttpError('not found', 404, ErrorCode.NotFound, null);
      return { data: withId(endpoints, data) as never };
    },

    async getMany(resource, params) {
      const records = await Promise.all(params.ids.map((id) => provider.getOne(resource, { id, signal: params.signal })));
      return { data: records.map((r) => r.data) };
    },

    async getManyReference(resource, params) {
      return provider.getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } });
    },

    async create(resource, params) {
      const endpoints = endpointsOf(resource);
      const create = requireEndpoint(resource, 'create');
      const data = await call<Row | null>(create.path, writeOptions(create, params.data as Row));
      return { data: withId(endpoints, { ...(params.data as Row), ...(data ?? {}) }) as never };
    },

    async update(resource, params) {
      const endpoints = endpointsOf(resource);
      const update = requireEndpoint(resource, 'update');
      const data = await call<Row | null>(update.path, writeOptions(update, { ...(params.data as Row), id: params.id }));
      return { data: withId(endpoints, { ...(params.data as Row), ...(data ?? {}), id: params.id }) as never };
    },

    async updateMany(resource, params) {
      await Promise.all(params.ids.map((id) => provider.update(resource, { id, data: params.data, previousData: {} as never })));
      return { data: params.ids };
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
  };
  return provider;
}
