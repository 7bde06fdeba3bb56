/**
 * A statement refused by a unique index (PostgreSQL's unique_violation, 23505; PGlite reports it the
 * same way). Each module maps it to its own error code.
 */
export const isUniqueViolation = (e: unknown): boolean => typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';
