import type { FastifyError, FastifyInstance } from 'fastify';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError, sendBizError } from './envelope';
import { multipartRefusal } from './multipartErrors';

/** What a failed JSON-schema keyword tells the user (the rest: "invalid value"). */
const SCHEMA_KEYWORD_MESSAGES: Record<string, string> = {
  required: 'validation.required',
  minimum: 'validation.outOfRange',
  maximum: 'validation.outOfRange',
  exclusiveMinimum: 'validation.outOfRange',
  exclusiveMaximum: 'validation.outOfRange',
  maxLength: 'validation.tooLong',
  maxItems: 'validation.tooLong',
};

/** Node's error for a request body cut off by the client closing its connection ("aborted", ECONNRESET). */
const clientAborted = (error: { code?: string; message?: string }, raw: { aborted?: boolean; destroyed?: boolean }) =>
  (error.code === 'ECONNRESET' || error.code === 'ECONNABORTED' || error.message === 'aborted') &&
  (raw.aborted === true || raw.destroyed === true);

/**
 * Every failure leaves the server as an envelope with a clear code: business refusals as they
 * are, schema and parse errors as validation or bad-request codes, unknown routes as 10, and
 * anything unexpected as -100 without a stack trace.
 */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | BizError, request, reply) => {
    /** Bad input is the caller's mistake: one warn line (no stack) and an envelope naming it. */
    const refuse = (refusal: BizError) => {
      request.log.warn({ code: refusal.code, msgKey: refusal.msgKey, data: refusal.data }, 'input refused');
      return sendBizError(request, reply, refusal);
    };
    if (error instanceof BizError) return error.code === ErrorCode.Validation ? refuse(error) : sendBizError(request, reply, error);
    // Uploads: a malformed multipart body (no boundary, a truncated part, too many
    // parts) is an upload refusal, code 8, whichever route was reading it (multipartErrors.ts).
    const multipartError = multipartRefusal(error);
    if (multipartError) return sendBizError(request, reply, multipartError);
    if ('validation' in error && error.validation) {
      const data = error.validation.map((v) => ({
        field: String(v.instancePath || v.params?.missingProperty || '').replace(/^\//, ''),
        message: SCHEMA_KEYWORD_MESSAGES[v.keyword] ?? 'validation.invalid',
      }));
      return refuse(new BizError(ErrorCode.Validation, 'error.validation', data));
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return refuse(new BizError(ErrorCode.UploadRejected, 'error.uploadSize'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return refuse(new BizError(ErrorCode.BadRequest, 'error.badRequest', error.message));
    }
    // The client went away mid-request (an upload cancelled, a closed tab): no fault of the server, one info line, no stack.
    if (clientAborted(error, request.raw)) {
      request.log.info({ code: error.code }, 'client aborted the request');
      return sendBizError(request, reply, new BizError(ErrorCode.UploadRejected, 'error.uploadMalformed'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendBizError(request, reply, new BizError(ErrorCode.Busy, 'error.busy'));
  });
  app.setNotFoundHandler((request, reply) => {
    if (!request.url.startsWith('/cz/')) return reply.status(404).send('Not found');
    return sendBizError(request, reply, new BizError(ErrorCode.RouteNotFound, 'error.routeNotFound', request.url.split('?')[0]), 404);
  });
}
