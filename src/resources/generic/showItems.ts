import type { ColumnDef, ColumnKind, FieldDef, FieldKind, ResourceDefinition } from '../types';

/**
 * What the generic Show page shows: the definition's fields (the ones a form has) in their order
 * and sections, then the list's columns that are not among them (an id, a creation time). A field
 * that is also a column is shown as the list shows it; a password is never shown.
 */
export interface ShowItem {
  source: string;
  /** An i18n key; none: resources.<name>.fields.<source>. */
  label?: string;
  section?: string;
  /** How the value is drawn, as a list cell (ColumnValue). */
  column: ColumnDef;
  /** A select field's own choices (translated by their nameKey). */
  choices?: FieldDef['choices'];
  /** A file: its name is shown. */
  file?: boolean;
  /** The field's condition, read against the record (a sub-user's enterprise). */
  when?: FieldDef['when'];
}

const COLUMN_KIND: Record<FieldKind, ColumnKind | undefined> = {
  text: 'text',
  textarea: 'text',
  email: 'text',
  password: undefined,
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  select: 'text',
  multiselect: 'text',
  reference: 'reference',
  references: 'references',
  file: 'text',
  image: 'image',
  geometry: 'geometry',
};

export function showItems(definition: ResourceDefinition): ShowItem[] {
  const columns = new Map(definition.columns.map((c) => [c.shows ?? c.source, c]));
  const fromFields = definition.fields
    .filter((f) => (f.on.create || f.on.edit) && f.kind !== 'password')
    .map((field): ShowItem => {
      const column = columns.get(field.source);
      return {
        source: field.source,
        label: field.label ?? column?.label,
        section: field.section,
        column: column ?? { source: field.source, kind: COLUMN_KIND[field.kind], reference: field.reference },
        choices: column || (field.kind !== 'select' && field.kind !== 'multiselect') ? undefined : field.choices,
        file: !column && field.kind === 'file',
        when: field.when,
      };
    });
  // A column is shown once: not again after its field, and never for a password.
  const shown = new Set([
    ...fromFields.map((i) => i.source),
    ...definition.fields.filter((f) => f.kind === 'password').map((f) => f.source),
  ]);
  const rest = definition.columns
    .filter((c) => !shown.has(c.shows ?? c.source))
    .map((column): ShowItem => ({ source: column.source, label: column.label, column }));
  return [...fromFields, ...rest];
}
