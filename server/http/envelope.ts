import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, errorMessageKey } from '../../src/domain/errorCodes';
import { normaliseLanguage, type Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import type { FieldError } from '../../src/domain/validate';

/** A refusal the client should see as { code, msg, data }. msgKey is a domain message key. */
export class BizError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly msgKey: string = errorMessageKey[code],
    readonly data: unknown = null,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(msgKey);
  }
}

export const ok = <T>(data: T) => ({ code: ErrorCode.Ok, msg: 'success', data });

/** The request's language: the `lang` query parameter, else Accept-Language, else zh. */
export function languageOf(request: FastifyRequest): Language {
  const query = request.query as Record<string, unknown> | undefined;
  if (query?.lang) return normaliseLanguage(query.lang);
  const header = request.headers['accept-language'] ?? '';
  const first = header.split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return normaliseLanguage(first === 'en' || first === 'zh' ? first : undefined);
}

/** Field errors with their messages in the caller's language. */
export function translateFields(lang: Language, errors: FieldError[]) {
  return errors.map((e) => ({ field: e.field, message: translateDomain(lang, e.message) }));
}

export function sendBizError(request: FastifyRequest, reply: FastifyReply, error: BizError, status = 200) {
  const lang = languageOf(request);
  const data = Array.isArray(error.data) && error.data.every(isFieldError) ? translateFields(lang, error.data) : error.data;
  return reply.status(status).send({ code: error.code, msg: translateDomain(lang, error.msgKey, error.vars), data });
}

const isFieldError = (v: unknown): v is FieldError => typeof v === 'object' && v !== null && 'field' in v && 'message' in v;
