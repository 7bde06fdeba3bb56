import { ValidationError, type AnySchema, type InferType } from 'yup';

export interface FieldError {
  field: string;
  /** A message key of messages.ts (or of the console's i18n tables). */
  message: string;
}

export type Validated<S extends AnySchema> = { ok: true; value: InferType<S> } | { ok: false; errors: FieldError[] };

/** Validates with every rule at once and reports each failing field once. */
export function validate<S extends AnySchema>(schema: S, input: unknown): Validated<S> {
  try {
    const value = schema.validateSync(input, { abortEarly: false, stripUnknown: true });
    return { ok: true, value };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const seen = new Set<string>();
    const errors: FieldError[] = [];
    for (const inner of error.inner.length ? error.inner : [error]) {
      const field = inner.path ?? '';
      if (seen.has(field)) continue;
      seen.add(field);
      errors.push({ field, message: String(inner.message) });
    }
    return { ok: false, errors };
  }
}
