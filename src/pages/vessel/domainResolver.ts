import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { AnySchema } from 'yup';
import { validate } from '../../domain/validate';

/**
 * A react-hook-form resolver over a shared domain schema: the form's values are turned into the
 * API body (`toBody`), checked with the same yup rules the server applies, and each failing
 * field carries the message key (translated where it is shown).
 */
export function domainResolver<T extends FieldValues>(schema: AnySchema, toBody: (values: T) => unknown): Resolver<T> {
  return async (values) => {
    const result = validate(schema, toBody(values));
    if (result.ok) return { values, errors: {} };
    const errors = Object.fromEntries(result.errors.map((e) => [e.field, { type: 'domain', message: e.message }])) as FieldErrors<T>;
    return { values: {}, errors };
  };
}

/** Field errors the server answered (code 1, data: [{ field, message }]) as they are. */
export function serverFieldErrors(data: unknown): { field: string; message: string }[] {
  return Array.isArray(data)
    ? data.filter((e): e is { field: string; message: string } => typeof e?.field === 'string' && typeof e?.message === 'string')
    : [];
}
