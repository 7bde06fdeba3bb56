import type { AnySchema, InferType } from 'yup';
import { validate } from '../../src/domain/validate';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from './envelope';

/** A message key ("validation.size"); anything else is yup's own English text, which quotes the input. */
const MESSAGE_KEY = /^[a-z][\w./]{0,119}$/i;
const FIELD_MAX = 100;

/**
 * Validates input with a shared domain schema; failures become code 1 with every bad field, each
 * a message key the envelope translates. A rule without a message of ours (yup's default text,
 * e.g. a type error that quotes the whole value sent) answers "invalid value", and a field path is
 * cut short, so an answer and its log line stay small whatever the input.
 */
export function parseWith<S extends AnySchema>(schema: S, input: unknown): InferType<S> {
  const result = validate(schema, input ?? {});
  if (!result.ok) {
    const errors = result.errors.map((e) => ({
      field: e.field.slice(0, FIELD_MAX),
      message: MESSAGE_KEY.test(e.message) ? e.message : 'validation.invalid',
    }));
    throw new BizError(ErrorCode.Validation, 'error.validation', errors);
  }
  return result.value;
}
