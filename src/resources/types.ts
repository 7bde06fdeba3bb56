import type { ComponentType } from 'react';
import type { RaRecord } from 'ra-core';
import type { AnyObjectSchema } from 'yup';
import type { Level } from '../domain/levels';
import type { MenuEntry } from '../navigation/types';
import type { ResourceEndpoints } from '../data/resourceEndpoints';
import type { TableResource } from '../domain/tableResource';

/**
 * A resource declared as data (docs/console.md, "Schema-driven resources"; docs/extending.md): the generic List, Create, Edit
 * and Show render from it; the menu, the breadcrumb, the tabs, the access matrix and
 * authProvider.canAccess are derived from it. A resource overrides only the view that really differs.
 */
export interface Choice {
  id: string | number;
  /** An i18n key. */
  nameKey: string;
}

/** A reference to another resource: the input is a ReferenceInput, the column a ReferenceField. */
export interface ReferenceDef {
  resource: string;
  /** The referenced record's field shown, or the text made from the record (default: its recordRepresentation). */
  optionText?: string | ((record: Record<string, unknown>) => string);
  /** A filter on the referenced list (e.g. only enterprises). */
  filter?: Record<string, unknown>;
  /**
   * Filters on the referenced list taken from other values of the same form (or filter bar), as
   * `{ <the list's filter>: <the form's field> }`: `{ ownerId: 'ownerId' }` lists only the records of
   * the enterprise the form names, while it names one. A pick made for another value is cleared
   * when that value changes.
   */
  filterFrom?: Readonly<Record<string, string>>;
  /** The field the typed text filters on (default: the list's first filter). */
  searchField?: string;
}

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'password'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'select'
  /** Several of the fixed choices (an array of ids). */
  | 'multiselect'
  | 'reference'
  /** Several records of the reference (an array of ids). */
  | 'references'
  | 'file'
  | 'image'
  /**
   * An area drawn on a map (src/map/GeometryInput.tsx): the form's `shape` ('circle' or 'polygon'),
   * a circle's `lat`, `lon` and `radiusM` (number boxes under the map), a polygon's [lat, lon] points
   * in the field's own source. Its words: resources.<name>.draw.*.
   */
  | 'geometry';

export interface FieldDef {
  source: string;
  kind: FieldKind;
  /** select: fixed choices (or by the caller's level). */
  choices?: readonly Choice[] | ((level: string | null) => readonly Choice[]);
  reference?: ReferenceDef;
  /** number: bounds and step. */
  min?: number;
  max?: number;
  step?: number;
  /** file/image: accepted types (e.g. "image/png,image/jpeg"). */
  accept?: string;
  on: { create?: boolean; edit?: boolean };
  /** Shown only while this holds for the form values and the caller's level. */
  when?: (values: Record<string, unknown>, level: string | null) => boolean;
  disabledOnEdit?: boolean;
  /** An i18n key for the label (default: resources.<name>.fields.<source>). */
  label?: string;
  /** An i18n key naming the group the field belongs to on the Show page and in the forms (fields without one come first). */
  section?: string;
}

export type ColumnKind =
  | 'text'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'choice'
  | 'chip'
  | 'json'
  | 'reference'
  | 'references'
  | 'image'
  /** The record's area on a small read-only map (a geometry field on the Show page). */
  | 'geometry';

export interface ColumnDef {
  source: string;
  /** date: the day; datetime (and date for full timestamps): in the user's time zone. json: an object as compact key: value text. */
  kind?: ColumnKind;
  /** choice: the i18n key prefix of the value (e.g. console.level. + '2'). */
  choicePrefix?: string;
  /** chip: a choice shown as a chip coloured by value (a state); values not named are grey. */
  chipColors?: Readonly<Record<string, 'default' | 'primary' | 'secondary' | 'info' | 'success' | 'warning' | 'error'>>;
  reference?: ReferenceDef;
  sortable?: boolean;
  label?: string;
  /** The field this column draws (deviceName for the reference field deviceId): the Show page draws the field with it, once. */
  shows?: string;
  /** Shown only to these levels (e.g. the enterprise a row belongs to, for level 1 who sees every enterprise's). */
  levels?: readonly Level[];
  /** Draws the value instead of its kind (a value that reads as a sentence: a command's result); load it with lazyView. */
  component?: ComponentType<{ record: RaRecord }>;
}

export type FilterKind = 'search' | 'text' | 'select' | 'reference' | 'date' | 'boolean' | 'number';

export interface FilterDef {
  source: string;
  kind: FilterKind;
  choices?: readonly Choice[];
  reference?: ReferenceDef;
  /** Shown without the add-filter button. */
  alwaysOn?: boolean;
  /** The list is not loaded until it has a value (camera/getAll needs deviceId): the page asks for it. */
  required?: boolean;
  label?: string;
}

export interface RowAction {
  key: string;
  component: ComponentType;
}

export type ResourceAction = 'list' | 'show' | 'create' | 'edit' | 'delete' | 'export';

/** The levels allowed per action; an action not given takes the list's levels (when its endpoint exists). */
export type ResourceAccess = { list: readonly Level[] } & Partial<Record<Exclude<ResourceAction, 'list'>, readonly Level[]>>;

/** An entity's words in one language: its name ("one |||| many"), its fields' labels, anything its views add. */
export interface ResourceMessages {
  name: string;
  fields: Record<string, string>;
  [key: string]: unknown;
}

export interface ResourceDefinition {
  /** The page path without its leading slash; also the react-admin resource name. */
  name: string;
  access: ResourceAccess;
  /** The menu line (group, order, title, icon, hidden). */
  menu: MenuEntry;
  endpoints: ResourceEndpoints;
  fields: readonly FieldDef[];
  columns: readonly ColumnDef[];
  /** Filters shown above the list; a string is a text filter (the first one: the search box). */
  filters: readonly (string | FilterDef)[];
  /** Filters always applied, not shown (e.g. a kind of record). */
  permanentFilter?: Record<string, unknown>;
  /** The list's first sort (default id ascending). */
  sort?: { field: string; order: 'ASC' | 'DESC' };
  perPage?: number;
  createSchema?: AnyObjectSchema;
  editSchema?: AnyObjectSchema;
  /** The defaults of a new record. */
  defaults?: (level: string | null) => Record<string, unknown>;
  recordRepresentation: string;
  rowActions?: readonly RowAction[];
  /** Buttons over the selected rows (the list shows checkboxes when there are any). */
  bulkActions?: readonly RowAction[];
  /** Views that really differ from the generic ones; say why in the definition's comment. */
  views?: { list?: ComponentType; create?: ComponentType; edit?: ComponentType; show?: ComponentType };
  /** Drawn inside the generic list above its table, with the list's context (the geofences' map of the listed areas). */
  listPanel?: ComponentType;
  /** The generic Show page is registered (rows open it). */
  show?: boolean;
  /**
   * Its words, when they are not in the console catalogues (an integrator's entity): merged into
   * react-admin's catalogue under resources.<name>.
   */
  messages?: { zh: ResourceMessages; en: ResourceMessages };
  /**
   * The server half (docs/extending.md): the table, its scope, the levels per action, the unique
   * keys, the rules. The reference server serves the resource from it, and `endpoints` and `access`
   * default to what it declares.
   */
  server?: TableResource;
}

/**
 * A definition as written: with a `server` part, `endpoints` and `access` may be left out (they are
 * derived from it); without one, both are required.
 */
export type ResourceDeclaration =
  | ResourceDefinition
  | (Omit<ResourceDefinition, 'endpoints' | 'access'> & { server: TableResource; endpoints?: ResourceEndpoints; access?: ResourceAccess });

/** A filter declaration in its full form. */
export const filterDefOf = (filter: string | FilterDef, index: number): FilterDef =>
  typeof filter === 'string' ? { source: filter, kind: index === 0 ? 'search' : 'text', alwaysOn: index === 0 } : filter;
