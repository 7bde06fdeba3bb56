import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from './envelope';

/**
 * What @fastify/multipart and busboy throw for a body that is not a complete multipart form, as
 * the refusal the client should see (code 8) instead of an unexpected -100:
 * - no boundary in the content type: busboy's "Multipart: Boundary not found";
 * - a body that stops inside a part or before the closing boundary: "Unexpected end of
 *   multipart data", "Part terminated early …", FST_MP_PREMATURE_CLOSE;
 * - a malformed part header, a __proto__ field, a bad JSON field;
 * - more parts, files or fields than allowed: FST_PARTS_LIMIT, FST_FILES_LIMIT, FST_FIELDS_LIMIT.
 * A file over its size limit (FST_REQ_FILE_TOO_LARGE) is left to the caller, which names its limit.
 */
const MALFORMED_CODES = new Set(['FST_MP_PREMATURE_CLOSE', 'FST_PROTO_VIOLATION', 'FST_INVALID_JSON_FIELD_ERROR']);
const TOO_MANY_CODES = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);
const MALFORMED_MESSAGES = [
  /^Multipart: /,
  /Boundary (not found|required)/,
  /Unexpected end of (multipart|form)/i,
  /terminated early/,
  /Malformed part header/i,
];

export function multipartRefusal(error: unknown): BizError | null {
  if (!error || typeof error !== 'object' || error instanceof BizError) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && TOO_MANY_CODES.has(code)) return new BizError(ErrorCode.UploadRejected, 'error.uploadTooManyParts');
  if (typeof code === 'string' && MALFORMED_CODES.has(code)) return new BizError(ErrorCode.UploadRejected, 'error.uploadMalformed');
  if (typeof message === 'string' && MALFORMED_MESSAGES.some((m) => m.test(message)))
    return new BizError(ErrorCode.UploadRejected, 'error.uploadMalformed');
  return null;
}

/** For `.catch()` on multipart reads: a malformed body becomes its refusal, anything else goes on. */
export function rethrowMultipart(error: unknown): never {
  throw multipartRefusal(error) ?? error;
}
