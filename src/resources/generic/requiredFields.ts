import type { AnyObjectSchema } from 'yup';

/**
 * The fields a form must fill, read from its yup schema (the rule the server keeps too): a field
 * whose rule is required() (neither optional nor nullable) is marked in the form. Given the form's
 * values, rules that depend on another field (`when`) are read for those values, so a mark can come
 * and go as the user types (a sub-user's enterprise). Nothing is declared twice in the definition.
 */
export function requiredSources(schema: AnyObjectSchema | undefined, values?: Record<string, unknown>): ReadonlySet<string> {
  if (!schema) return new Set();
  const { fields } = schema.describe(values ? { value: values } : undefined);
  return new Set(
    Object.entries(fields)
      .filter(([, rule]) => 'optional' in rule && !rule.optional && !rule.nullable)
      .map(([source]) => source),
  );
}
