import { REQUEST_TIMEOUT_MS } from '../domain/constants';
import { ErrorCode } from '../domain/errorCodes';
import { announce, apiUrl, clientFetch, clientTimeZone, isEnvelope, type QueryValue, type RequestOptions } from './client';
import { ApiError, NetworkError } from './errors';

/**
 * Files to and from the /cz API with the client's rules (token and lang in the query, no
 * credentials, code 0 is success, failures to the error catalogue unless quiet):
 * uploadWithProgress (XMLHttpRequest, because fetch reports no upload progress) and
 * downloadFile (a file answer, or an envelope when the server refuses, e.g. -101).
 */
export interface UploadOptions {
  query?: Record<string, QueryValue>;
  /** 0..1 of the bytes sent. */
  onProgress?: (fraction: number) => void;
  quiet?: RequestOptions['quiet'];
  signal?: AbortSignal;
  timeoutMs?: number;
}

export function uploadWithProgress<T = unknown>(path: string, formData: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const fail = (error: ApiError | NetworkError) => {
      announce(error, options.quiet);
      reject(error);
    };
    xhr.open('POST', apiUrl(path, options.query));
    xhr.withCredentials = false;
    xhr.timeout = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.upload.onload = () => options.onProgress?.(1);
    xhr.onload = () => {
      let payload: unknown = null;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = null;
      }
      if (!isEnvelope(payload)) return fail(new NetworkError('http', `Request failed with status code ${xhr.status}`, path, xhr.status));
      if (payload.code !== ErrorCode.Ok) return fail(new ApiError(payload.code, payload.msg, payload.data, path));
      resolve(payload.data as T);
    };
    xhr.onerror = () => fail(new NetworkError('network', 'Network Error', path));
    xhr.ontimeout = () => fail(new NetworkError('timeout', `timeout of ${xhr.timeout}ms exceeded`, path));
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(formData);
  });
}

/** The file name of a content-disposition header, if any. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const match = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

/** Fetches a file; an envelope answer (an error) is thrown as ApiError like any request. */
export async function fetchFile(
  path: string,
  query: Record<string, QueryValue> = {},
  quiet?: RequestOptions['quiet'],
): Promise<{ blob: Blob; fileName: string }> {
  let response: Response;
  try {
    // Times in a file are written in the console's time zone (docs/api.md, "Exports").
    response = await clientFetch(apiUrl(path, { tz: clientTimeZone(), ...query }), {
      credentials: 'omit',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (cause) {
    const timedOut = cause instanceof DOMException && cause.name === 'TimeoutError';
    const error = timedOut
      ? new NetworkError('timeout', `timeout of ${REQUEST_TIMEOUT_MS}ms exceeded`, path)
      : new NetworkError('network', cause instanceof Error ? cause.message : 'Network Error', path);
    announce(error, quiet);
    throw error;
  }
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json') || !response.ok) {
    let payload: unknown = null;
    try {
      payload = await response.json();
    } catch {
      payload = null;
    }
    const error =
      isEnvelope(payload) && payload.code !== ErrorCode.Ok
        ? new ApiError(payload.code, payload.msg, payload.data, path)
        : new NetworkError('http', `Request failed with status code ${response.status}`, path, response.status);
    announce(error, quiet);
    throw error;
  }
  return {
    blob: await response.blob(),
    fileName: fileNameOf(response.headers.get('content-disposition'), path.split('/').pop() ?? 'download'),
  };
}

/** Saves a fetched file through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function downloadFile(path: string, query: Record<string, QueryValue> = {}): Promise<string> {
  const { blob, fileName } = await fetchFile(path, query);
  saveBlob(blob, fileName);
  return fileName;
}
