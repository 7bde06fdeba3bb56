import { AFTER_SALES_CLASSIFICATIONS, AFTER_SALES_FIELDS, type AfterSalesField } from '../../domain/afterSales';
import type { Choice, ColumnDef, FieldDef, FilterDef } from '../types';

/** The after-sales resource's declarations, apart from definition.ts so the form override can read them too. */
export const afterSalesLabel = (field: string) => `afterSalesField.${field}`;

export const CLASSIFICATION_CHOICES: readonly Choice[] = AFTER_SALES_CLASSIFICATIONS.map((id) => ({
  id,
  nameKey: `afterSales.classification.${id}`,
}));

const LONG: readonly AfterSalesField[] = ['CustomerSuggestion', 'Description', 'Reamrk'];
const kindOf = (field: AfterSalesField): FieldDef['kind'] =>
  field === 'Classification' ? 'select' : field === 'DispatchOfData' ? 'date' : LONG.includes(field) ? 'textarea' : 'text';

/** Every field of the form of docs/requirements.md §3, in its order (the schema says which are required). */
export const AFTER_SALES_FIELD_DEFS: readonly FieldDef[] = AFTER_SALES_FIELDS.map((source) => ({
  source,
  kind: kindOf(source),
  label: afterSalesLabel(source),
  on: { create: true, edit: true },
  ...(source === 'Classification' ? { choices: CLASSIFICATION_CHOICES } : {}),
}));

export const AFTER_SALES_COLUMNS: readonly ColumnDef[] = [
  { source: 'FeedbackPeople', sortable: true, label: afterSalesLabel('FeedbackPeople') },
  // A calendar day (YYYY-MM-DD), not an instant: shown as it is, never shifted by the time zone.
  { source: 'DispatchOfData', sortable: true, label: afterSalesLabel('DispatchOfData') },
  { source: 'FeedbackApartment', sortable: true, label: afterSalesLabel('FeedbackApartment') },
  {
    source: 'Classification',
    kind: 'choice',
    choicePrefix: 'afterSales.classification.',
    sortable: true,
    label: afterSalesLabel('Classification'),
  },
  { source: 'CustomerSuggestion', label: afterSalesLabel('CustomerSuggestion') },
  { source: 'Description', label: afterSalesLabel('Description') },
  { source: 'Department', sortable: true, label: afterSalesLabel('Department') },
  { source: 'DeviceSn', label: afterSalesLabel('DeviceSn') },
  { source: 'createdAt', kind: 'datetime', sortable: true, label: afterSalesLabel('createdAt') },
];

/** afterSales/getAll's filters: device (SN or number) is the search box; dates are inclusive days. */
export const AFTER_SALES_FILTER_DEFS: readonly FilterDef[] = [
  { source: 'device', kind: 'search', alwaysOn: true },
  { source: 'dateFrom', kind: 'date', alwaysOn: true, label: 'support.afterSales.dateFrom' },
  { source: 'dateTo', kind: 'date', alwaysOn: true, label: 'support.afterSales.dateTo' },
  { source: 'classification', kind: 'select', choices: CLASSIFICATION_CHOICES, alwaysOn: true, label: 'support.afterSales.classification' },
  { source: 'department', kind: 'text', label: 'support.afterSales.department' },
];
