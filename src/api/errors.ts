/** Typed failures of the HTTP client. */

/** The server answered with an envelope whose code is not 0. */
export class ApiError extends Error {
  readonly code: number;
  readonly msg: string;
  readonly data: unknown;
  readonly path: string;
  constructor(code: number, msg: string, data: unknown, path: string) {
    super(msg || `code ${code}`);
    this.name = 'ApiError';
    this.code = code;
    this.msg = msg;
    this.data = data;
    this.path = path;
  }
}

export type NetworkErrorKind = 'network' | 'timeout' | 'http';

/** No envelope came back: the network failed, the 60 s time-out passed, or HTTP said no. */
export class NetworkError extends Error {
  readonly kind: NetworkErrorKind;
  readonly status: number | null;
  readonly path: string;
  constructor(kind: NetworkErrorKind, message: string, path: string, status: number | null = null) {
    super(message);
    this.name = 'NetworkError';
    this.kind = kind;
    this.status = status;
    this.path = path;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
export const isNetworkError = (error: unknown): error is NetworkError => error instanceof NetworkError;
