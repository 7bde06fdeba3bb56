import type { FastifyError, FastifyInstance } from 'fastify';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError, sendBizError } from './envelope';

/**
 * Every failure leaves the server as an envelope with a clear code: business refusals as they
 * are, schema and parse errors as validation or bad-request codes, unknown routes as 10, and
 * anything unexpected as -100 without a stack trace.
 */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | BizError, request, reply) => {
    if (error instanceof BizError) return sendBizError(request, reply, error);
    if ('validation' in error && error.validation) {
      const data = error.validation.map((v) => ({
        field: String(v.instancePath || v.params?.missingProperty || '').replace(/^\//, ''),
        message: v.keyword === 'required' ? 'validation.required' : 'validation.invalid',
      }));
      return sendBizError(request, reply, new BizError(ErrorCode.Validation, 'error.validation', data));
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return sendBizError(request, reply, new BizError(ErrorCode.UploadRejected, 'error.uploadSize'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendBizError(request, reply, new BizError(ErrorCode.BadRequest, 'error.badRequest', error.message));
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendBizError(request, reply, new BizError(ErrorCode.Busy, 'error.busy'));
  });
  app.setNotFoundHandler((request, reply) => {
    if (!request.url.startsWith('/cz/')) return reply.status(404).send('Not found');
    return sendBizError(request, reply, new BizError(ErrorCode.RouteNotFound, 'error.routeNotFound', request.url.split('?')[0]), 404);
  });
}
