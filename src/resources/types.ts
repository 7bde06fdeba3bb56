import type { ComponentType } from 'react';
import type { AnyObjectSchema } from 'yup';
import type { Level } from '../domain/levels';
import type { NameItem } from '../domain/user';
import type { ResourceEndpoints } from '../resourceEndpoints';

/**
 * A resource declared as data (DESIGN.md, schema-driven resources): the generic List, Create and
 * Edit render from it; a resource overrides only what really differs.
 */
export interface Choice {
  id: string;
  /** An i18n key. */
  nameKey: string;
}

export interface FieldDef {
  source: string;
  input: 'text' | 'password' | 'email' | 'textarea' | 'select' | 'options';
  /** select: fixed choices. */
  choices?: readonly Choice[] | ((level: string | null) => readonly Choice[]);
  /** options: id/name pairs loaded from the API. */
  options?: () => Promise<NameItem[]>;
  on: { create?: boolean; edit?: boolean };
  /** Shown only while this holds for the form values and the caller's level. */
  when?: (values: Record<string, unknown>, level: string | null) => boolean;
  disabledOnEdit?: boolean;
  fullWidth?: boolean;
}

export interface ColumnDef {
  source: string;
  /** json: an object shown as compact key: value text (the audit log's before and after). */
  kind?: 'text' | 'date' | 'choice' | 'json';
  /** choice: the i18n key prefix of the value (e.g. console.level. + '2'). */
  choicePrefix?: string;
  sortable?: boolean;
}

export interface RowAction {
  key: string;
  component: ComponentType;
}

export interface ResourceDefinition {
  /** The page path without its leading slash; also the react-admin resource name. */
  name: string;
  levels: readonly Level[];
  endpoints: ResourceEndpoints;
  fields: readonly FieldDef[];
  columns: readonly ColumnDef[];
  /** Filters shown above the list (the first one is the search box); a date filter is a date picker. */
  filters: readonly (string | { source: string; kind: 'date' })[];
  createSchema?: AnyObjectSchema;
  editSchema?: AnyObjectSchema;
  /** The defaults of a new record. */
  defaults?: (level: string | null) => Record<string, unknown>;
  recordRepresentation: string;
  canDelete?: boolean;
  rowActions?: readonly RowAction[];
  /** Views that really differ from the generic ones (the device list with its icons, import and export). */
  views?: { list?: ComponentType; create?: ComponentType; edit?: ComponentType };
}
