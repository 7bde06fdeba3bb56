import { tableFilters, type TableColumnType, type TableResource } from '../../src/domain/tableResource';
import { pageQuery, tokenQuery } from '../http/schemas';
import { exportQuery } from '../http/exportFile';

/**
 * The JSON schemas of a declared table resource's routes, for the OpenAPI document and the edge's
 * checks. A body takes any scalar in each field: the resource's yup schema judges the values, so
 * that every bad field is reported at once and in the caller's language (docs/api.md).
 */

const JSON_TYPES: Record<TableColumnType, object> = {
  text: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  timestamp: { type: 'string', format: 'date-time' },
  json: { type: 'object' },
};

const LOOSE: Record<TableColumnType, string[]> = {
  text: ['string', 'number', 'null'],
  integer: ['integer', 'string', 'null'],
  number: ['number', 'string', 'null'],
  boolean: ['boolean', 'string', 'null'],
  date: ['string', 'null'],
  timestamp: ['string', 'null'],
  json: ['object', 'array', 'null'],
};

/** A row as the API answers it. */
export function rowSchema(r: TableResource): object {
  const properties: Record<string, object> = { id: { type: 'integer' } };
  for (const [field, spec] of Object.entries(r.columns))
    if (!spec.writeOnly) properties[field] = { ...JSON_TYPES[spec.type], nullable: true };
  return { type: 'object', properties, additionalProperties: true };
}

/** add and update: every writable field, typed loosely (the yup schema decides), plus id for update. */
export function bodySchema(r: TableResource, withId: boolean): object {
  const properties: Record<string, object> = withId ? { id: { type: 'integer', description: 'the row to change' } } : {};
  for (const [field, spec] of Object.entries(r.columns)) {
    if (spec.sql) continue;
    properties[field] = {
      type: LOOSE[spec.type],
      description: `${spec.type}; checked by the resource's rules${spec.writeOnly ? '; never answered, and kept when left empty' : ''}`,
    };
  }
  return { type: 'object', properties, ...(withId ? { required: ['id'] } : {}) };
}

/** getAll and export: the page (getAll), the file's format (export), the search, the sort and the equality filters. */
export function listQuerySchema(r: TableResource, route: 'list' | 'export'): object {
  const properties: Record<string, object> = { ...tokenQuery, ...(route === 'list' && r.paged !== false ? pageQuery : {}) };
  if (route === 'export') Object.assign(properties, exportQuery);
  if (r.search?.length) properties.search = { type: 'string', maxLength: 100, description: `matches ${r.search.join(', ')}` };
  if (r.sortable?.length) properties.sort = { type: 'string', enum: ['id', ...r.sortable], default: r.sortable[0] };
  properties.order = { type: 'string', enum: ['asc', 'desc'], default: r.order ?? 'asc' };
  for (const field of tableFilters(r)) properties[field] = JSON_TYPES[r.columns[field]!.type];
  // A feature is unlocked per vessel: a list under one names its vessel.
  return { type: 'object', properties, ...(r.feature ? { required: ['deviceId'] } : {}) };
}
