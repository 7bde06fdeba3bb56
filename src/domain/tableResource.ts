import type { AnyObjectSchema } from 'yup';
import type { Level } from './levels';

/**
 * A server resource declared as data (docs/extending.md): a table, who sees which rows, who may do
 * what, and the rules its fields follow. The reference server builds its /cz routes, its SQL, its
 * OpenAPI entries, its audit entries and (unless `generate: false`) its table from this; the console
 * builds the resource's endpoints and access from the same object. Pure data and yup schemas only:
 * both sides import it.
 */

/** A column's kind: its SQL type, its JSON type, and how the API writes it (dates as ISO text). */
export type TableColumnType = 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'timestamp' | 'json';

export interface TableColumn {
  type: TableColumnType;
  /** The SQL column (default: the field's name in snake_case). */
  column?: string;
  /** Read from this SQL expression instead, never written (e.g. the vessel's name: 'd.name'). */
  sql?: string;
  /** NOT NULL in a generated table (the yup schema is what refuses a missing value). */
  notNull?: boolean;
  /** The message key prefix of its values' names (a kind): an export writes the name in the caller's language. */
  choices?: string;
  /** false: left out of the export (an id that another column names, e.g. the vessel's). */
  exported?: boolean;
  /** A secret: written, never answered; an update that leaves it empty keeps the one stored. */
  writeOnly?: boolean;
}

/**
 * Which rows a caller sees (docs/requirements.md §6):
 * - vessel: the row names a vessel (field `deviceId`); level 1 sees all, level 2 its enterprise's
 *   vessels, level 3 the vessels it was granted. A write names a vessel the caller sees.
 * - enterprise: the row belongs to an enterprise (field `ownerId`); level 1 sees all and names the
 *   owner, level 2 sees and writes its own, level 3 sees its enterprise's.
 * - global: every row is everyone's to see; the levels alone decide who writes.
 */
export type TableScope = 'vessel' | 'enterprise' | 'global';

/** What a `references` field names (see TableResource.references). */
export type TableReferenceKind = 'vessel' | 'contactPoint' | 'user' | 'group' | 'geofence';

export type TableAction = 'list' | 'show' | 'create' | 'edit' | 'delete' | 'export';

export interface TableResource {
  /** The API path under /cz/{segment}: '/deviceModule/crewCertificate' serves getAll, getById, add, update, deleteById, export. */
  path: string;
  table: string;
  /** The fields the API reads and writes, by name; `id` is implied. */
  columns: Readonly<Record<string, TableColumn>>;
  scope: TableScope;
  /** The levels allowed per action; show takes `list`'s when not given; a write or export not given is nobody's (no route). */
  levels: { list: readonly Level[] } & Partial<Record<Exclude<TableAction, 'list'>, readonly Level[]>>;
  /** yup schemas from src/domain: create, and update (with `id`; default the create schema). */
  schema: { create: AnyObjectSchema; update?: AnyObjectSchema };
  /** Unique keys (fields); a duplicate answers code 9 naming the key's last field. */
  unique?: readonly (readonly string[])[];
  /** Fields the `search` filter matches (case-insensitive, anywhere in the text). */
  search?: readonly string[];
  /** Fields the list filters on by equality (query parameters of getAll and export). */
  filters?: readonly string[];
  /** Fields the list sorts on (`sort`, `order`); the first is the default. */
  sortable?: readonly string[];
  /** The default order (default 'asc'). */
  order?: 'asc' | 'desc';
  /** The entity name in the audit log (default the path's last segment). */
  audit?: string;
  /** The message key of "not found" (default error.notFound). */
  notFound?: string;
  /** The table is made and kept by the server from `columns` (default true); false: a migration of the product made it. */
  generate?: boolean;
  /** The column that records who created a row (default 'created_by' in a generated table, none otherwise). */
  createdBy?: string;
  /** The table has an updated_at column set on every update (default true). */
  updatedAt?: boolean;
  /**
   * vessel scope: a record of the vessel's past (its time in this field): levels 2 and 3 see only
   * those since the vessel became their enterprise's (docs/requirements.md §6, like its history).
   */
  since?: string;
  /**
   * vessel scope: the vessel feature (docs/requirements.md §6, "Features") that must be unlocked for
   * levels 2 and 3 on every route; getAll then lists one vessel (deviceId is required).
   */
  feature?: string;
  /** false: getAll answers every row at once (at most TABLE_ALL_ROWS), ignoring the page (default true). */
  paged?: boolean;
  /**
   * A rule that needs the stored row as well as the input (pure): the fields it finds wrong, with a
   * message key each, reported like the yup schema's (e.g. a secret required by the channel and not
   * stored yet). `stored` is the row as the API answers it, null for an add.
   */
  checkWrite?: (input: Record<string, unknown>, stored: Record<string, unknown> | null) => { field: string; message: string }[];
  /**
   * enterprise scope: fields that hold an id, or a list of ids, of rows that must belong to the
   * row's enterprise (a vessel it owns, its contact point, itself or a sub-user, a group of its
   * users). The server refuses any other with the field named (validation.foreignReference).
   */
  references?: Readonly<Record<string, TableReferenceKind>>;
  /** Computed fields added to every row the API answers (pure: e.g. a voyage's status from its dates). */
  present?: (row: Record<string, unknown>) => Record<string, unknown>;
}

/** The most rows an unpaged getAll answers. */
export const TABLE_ALL_ROWS = 1000;

/** 'voyageNo' -> 'voyage_no'. */
export const snakeCase = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The route of an action: '/deviceModule/crewCertificate' + 'getAll'. */
export const TABLE_ROUTES = {
  list: 'getAll',
  one: 'getById',
  create: 'add',
  update: 'update',
  delete: 'deleteById',
  export: 'export',
} as const;

/** The levels allowed to do an action on a table resource. */
export function tableLevels(resource: TableResource, action: TableAction): readonly Level[] {
  const given = resource.levels[action];
  if (given) return given;
  return action === 'show' ? resource.levels.list : [];
}

/** The field that names the row's owner, by scope (vessel: deviceId, enterprise: ownerId). */
export const SCOPE_FIELD: Record<TableScope, string | null> = { vessel: 'deviceId', enterprise: 'ownerId', global: null };

/** The fields getAll filters on by equality: the declared ones and the scope's field (a vessel's rows, an enterprise's). */
export function tableFilters(resource: TableResource): string[] {
  const scopeField = SCOPE_FIELD[resource.scope];
  return [...new Set([...(resource.filters ?? []), ...(scopeField && resource.columns[scopeField] ? [scopeField] : [])])];
}

/** The columns of a vessel-scoped row: its vessel, and the vessel's name (read, never written). */
export const VESSEL_COLUMNS = {
  deviceId: { type: 'integer', notNull: true, exported: false },
  deviceName: { type: 'text', sql: 'd.name' },
} as const satisfies Record<string, TableColumn>;

/** When a row was created and last changed (every generated table has both; read, never written). */
export const TIME_COLUMNS = {
  createdAt: { type: 'timestamp', sql: 't.created_at' },
  updatedAt: { type: 'timestamp', sql: 't.updated_at' },
} as const satisfies Record<string, TableColumn>;
