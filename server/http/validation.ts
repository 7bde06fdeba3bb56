import type { AnySchema, InferType } from 'yup';
import { validate } from '../../src/domain/validate';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from './envelope';

/** Validates input with a shared domain schema; failures become code 1 with every bad field. */
export function parseWith<S extends AnySchema>(schema: S, input: unknown): InferType<S> {
  const result = validate(schema, input ?? {});
  if (!result.ok) throw new BizError(ErrorCode.Validation, 'error.validation', result.errors);
  return result.value;
}
