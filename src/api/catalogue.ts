import { ErrorCode } from '../domain/errorCodes';
import { MESSAGE_DURATION_MS } from '../domain/constants';
import { ApiError, NetworkError } from './errors';

/**
 * The error catalogue of docs/requirements.md §8 as a pure decision: what the console does for each
 * failure. A host component (layout/ErrorCatalogueHost) carries the decision out.
 */
export type CatalogueAction =
  /** -124, -125: confirm dialog, then reload. */
  | { kind: 'confirmReload'; messageKey: string }
  /** -26 with a known user name: the login-again dialog. */
  | { kind: 'relogin' }
  /** -26 without a user name. */
  | { kind: 'reload' }
  /** -24: non-dismissable dialog; the token is cleared and the page reloaded. */
  | { kind: 'kicked'; messageKey: string }
  /** Token missing or no longer valid: clear it and go to the login page. */
  | { kind: 'toLogin' }
  /** A message of the catalogue (translated by key) or the server's own text, for 5 s. */
  | { kind: 'message'; messageKey?: string; messageArgs?: Record<string, unknown>; text?: string; closable: boolean; durationMs: number }
  | { kind: 'none' };

export interface CatalogueContext {
  onLoginPage: boolean;
  userName: string | null;
}

/** Field errors and other data, shown in square brackets after the message (docs/requirements.md §8: "msg [data]"). */
export function describeData(data: unknown): string {
  if (data === null || data === undefined || data === '') return '';
  if (Array.isArray(data)) {
    if (data.length === 0) return '';
    return data
      .map((item) => {
        if (item && typeof item === 'object' && 'message' in item) {
          const { field, message } = item as { field?: unknown; message?: unknown };
          return field ? `${String(field)}: ${String(message)}` : String(message);
        }
        return typeof item === 'object' ? JSON.stringify(item) : String(item);
      })
      .join('; ');
  }
  if (typeof data === 'object') {
    // An object reads as "name: value" pairs, never as raw JSON.
    return Object.entries(data as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join('; ');
  }
  return String(data);
}

/** The generic message of docs/requirements.md §8: the message, then the data in square brackets when there is any. */
export function formatMessage(msg: string, data: unknown): string {
  const detail = describeData(data);
  return detail ? `${msg} [${detail}]` : msg;
}

/** The wrong-password refusal's data: how many attempts are left before the account locks. */
function remainingAttempts(data: unknown): number | null {
  const value =
    data && typeof data === 'object' && !Array.isArray(data) ? (data as { remainingAttempts?: unknown }).remainingAttempts : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function catalogueAction(error: unknown, context: CatalogueContext): CatalogueAction {
  if (error instanceof NetworkError) {
    const messageKey =
      error.kind === 'timeout' ? 'console.error.timeout' : error.kind === 'http' ? 'console.error.http' : 'console.error.network';
    return { kind: 'message', messageKey, messageArgs: { status: error.status ?? '' }, closable: false, durationMs: MESSAGE_DURATION_MS };
  }
  if (!(error instanceof ApiError)) return { kind: 'none' };
  switch (error.code) {
    case ErrorCode.Ok:
      return { kind: 'none' };
    case ErrorCode.KickedOut:
    case ErrorCode.KickedOutByAdmin:
      return context.onLoginPage ? { kind: 'none' } : { kind: 'confirmReload', messageKey: 'error.kickedOut' };
    case ErrorCode.SessionTimeout:
      if (context.onLoginPage) return { kind: 'none' };
      return context.userName ? { kind: 'relogin' } : { kind: 'reload' };
    case ErrorCode.ExportTooFrequent:
      return { kind: 'message', messageKey: 'error.exportTooFrequent', closable: false, durationMs: MESSAGE_DURATION_MS };
    case ErrorCode.Busy:
      return { kind: 'message', messageKey: 'error.busy', closable: false, durationMs: MESSAGE_DURATION_MS };
    case ErrorCode.LoggedInElsewhere:
      return context.onLoginPage ? { kind: 'none' } : { kind: 'kicked', messageKey: 'error.loggedInElsewhere' };
    case ErrorCode.TokenMissing:
    case ErrorCode.TokenInvalid:
      return context.onLoginPage ? { kind: 'none' } : { kind: 'toLogin' };
    case ErrorCode.LoginFailed: {
      // A sentence with the number in the user's language, not the server's data as JSON.
      const left = remainingAttempts(error.data);
      if (left !== null)
        return {
          kind: 'message',
          messageKey: 'console.error.loginFailedRemaining',
          messageArgs: { smart_count: left, count: left },
          closable: true,
          durationMs: MESSAGE_DURATION_MS,
        };
      return { kind: 'message', text: formatMessage(error.msg, error.data), closable: true, durationMs: MESSAGE_DURATION_MS };
    }
    default:
      return { kind: 'message', text: formatMessage(error.msg, error.data), closable: true, durationMs: MESSAGE_DURATION_MS };
  }
}
