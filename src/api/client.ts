import { BACKGROUND_HEADER, REQUEST_TIMEOUT_MS } from '../domain/constants';
import { ErrorCode } from '../domain/errorCodes';
import type { Envelope } from '../domain/user';
import { getConfig } from '../config';
import { ApiError, NetworkError } from './errors';
import { catalogueAction, type CatalogueContext } from './catalogue';
import { emitCatalogueAction } from './events';

/**
 * The one HTTP client of the console: `${baseURL}/cz/${apiSegment}${path}`, the token and the
 * language as query parameters, 60 s time-out, no credentials, success when code is 0. Every
 * failure is thrown as ApiError or NetworkError and announced to the error catalogue.
 */
export interface ClientHooks {
  getToken: () => string | null;
  getLanguage: () => string;
  /** The console's UTC offset in hours: files it downloads write their times in it. */
  getTimeZone: () => number;
  getContext: () => CatalogueContext;
  fetch: typeof fetch;
}

const defaults: ClientHooks = {
  getToken: () => null,
  getLanguage: () => 'zh',
  getTimeZone: () => 0,
  getContext: () => ({ onLoginPage: false, userName: null }),
  fetch: (...args) => fetch(...args),
};
let hooks: ClientHooks = { ...defaults };

export function configureClient(next: Partial<ClientHooks>): void {
  hooks = { ...hooks, ...next };
}

/** The fetch the client uses (tests replace it); the download helper goes through it as well. */
/** The console's UTC offset in hours (ClientHooks.getTimeZone). */
export const clientTimeZone = (): number => hooks.getTimeZone();

export const clientFetch: typeof fetch = (...args) => hooks.fetch(...args);

export function resetClient(): void {
  hooks = { ...defaults };
  lastAnswers.clear();
  primed.clear();
}

/**
 * Calls started before the view that needs them has loaded (primeRequests), by method, URL and
 * body: the first identical request within PRIMED_MS takes the answer instead of asking again.
 * Over a satellite link this saves the time the page's code takes to load and render (about a
 * second of the warm dashboard, npm run bench:satlink).
 */
const primed = new Map<string, { response: Promise<Response | null>; at: number }>();
const PRIMED_MS = 20_000;
let priming = false;

/** Runs `calls` (request() calls whose answers are not awaited) so that each only starts its fetch, for a view to take later. */
export function primeRequests(calls: () => void): void {
  priming = true;
  try {
    calls();
  } finally {
    priming = false;
  }
}

function takePrimed(key: string) {
  const entry = primed.get(key);
  primed.delete(key);
  return entry && Date.now() - entry.at < PRIMED_MS ? entry.response : null;
}

export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT';
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestOptions {
  method?: Method;
  query?: Record<string, QueryValue>;
  /** JSON body. */
  json?: unknown;
  /** application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** multipart body. */
  formData?: FormData;
  /** true: never announce to the catalogue; a list: codes to keep quiet about. */
  quiet?: boolean | readonly number[];
  /** Override the stored token (logout after local data is cleared). */
  token?: string | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * A POST that polls (the alarm query, the status monitor, the fleet map): sent with the ETag of
   * its last answer, and a bodiless 304 reuses that answer. A GET gets this from the browser's
   * cache already; a POST does not.
   */
  revalidate?: boolean;
  /**
   * A call the console makes by itself (a periodic refresh, the bell's poll), not the user: sent
   * with `X-Background: 1`, so the server answers it without counting it as activity and an idle
   * session still times out (-26).
   */
  background?: boolean;
}

/** The last successful answer of each revalidated POST (by URL and body), with its ETag; a few polls at most. */
const lastAnswers = new Map<string, { etag: string; payload: Envelope }>();
const LAST_ANSWERS_MAX = 16;
function rememberAnswer(key: string, etag: string | null, payload: Envelope) {
  if (!etag) return;
  lastAnswers.delete(key);
  lastAnswers.set(key, { etag, payload });
  if (lastAnswers.size > LAST_ANSWERS_MAX) lastAnswers.delete(lastAnswers.keys().next().value!);
}

export function apiUrl(path: string, query: Record<string, QueryValue> = {}, token: string | null = hooks.getToken()): string {
  const { baseURL, apiSegment } = getConfig();
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.append(key, String(value));
  }
  if (token) params.set('token', token);
  params.set('lang', hooks.getLanguage());
  return `${baseURL}/cz/${apiSegment}${path.startsWith('/') ? path : `/${path}`}?${params.toString()}`;
}

export const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' && value !== null && typeof (value as Envelope).code === 'number';

/** Hands a failure to the error catalogue unless the caller asked for quiet (the upload and download helpers use it too). */
export function announce(error: ApiError | NetworkError, quiet: RequestOptions['quiet']): void {
  if (quiet === true) return;
  if (Array.isArray(quiet) && error instanceof ApiError && quiet.includes(error.code)) return;
  emitCatalogueAction(catalogueAction(error, hooks.getContext()));
}

export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = options.token === undefined ? hooks.getToken() : options.token;
  const url = apiUrl(path, options.query, token);
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.background) headers[BACKGROUND_HEADER] = '1';
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.formData) {
    body = options.formData;
  }
  const answerKey = options.revalidate ? `${options.method ?? 'GET'} ${url}\n${typeof body === 'string' ? body : ''}` : '';
  const last = answerKey ? lastAnswers.get(answerKey) : undefined;
  if (last) headers['If-None-Match'] = last.etag;
  const primeKey = `${options.method ?? 'GET'} ${url}\n${typeof body === 'string' ? body : ''}`;
  if (priming) {
    clearTimeout(timeout);
    options.signal?.removeEventListener('abort', onAbort);
    const init = {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'omit' as const,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    };
    primed.set(primeKey, { response: hooks.fetch(url, init).catch(() => null), at: Date.now() });
    return undefined as T;
  }
  const early = takePrimed(primeKey);
  let response: Response;
  try {
    // A primed answer that failed is asked for again.
    response =
      (early && (await early)) ||
      (await hooks.fetch(url, { method: options.method ?? 'GET', headers, body, credentials: 'omit', signal: controller.signal }));
  } catch (cause) {
    const timedOut = controller.signal.aborted && !options.signal?.aborted;
    if (options.signal?.aborted) throw cause;
    const error = timedOut
      ? new NetworkError('timeout', `timeout of ${options.timeoutMs ?? REQUEST_TIMEOUT_MS}ms exceeded`, path)
      : new NetworkError('network', cause instanceof Error ? cause.message : 'Network Error', path);
    announce(error, options.quiet);
    throw error;
  } finally {
    clearTimeout(timeout);
    options.signal?.removeEventListener('abort', onAbort);
  }
  let payload: unknown = null;
  if (response.status === 304 && last) {
    payload = last.payload;
  } else {
    try {
      payload = await response.json();
    } catch {
      payload = null;
    }
    if (answerKey && isEnvelope(payload) && payload.code === ErrorCode.Ok) rememberAnswer(answerKey, response.headers.get('etag'), payload);
  }
  if (!isEnvelope(payload)) {
    const error = new NetworkError('http', `Request failed with status code ${response.status}`, path, response.status);
    announce(error, options.quiet);
    throw error;
  }
  if (payload.code !== ErrorCode.Ok) {
    const error = new ApiError(payload.code, payload.msg, payload.data, path);
    announce(error, options.quiet);
    throw error;
  }
  return payload.data as T;
}
