import { FIRMWARE_STATUSES, FIRMWARE_VERSION_TYPES } from '../../domain/firmware';
import type { Choice, ColumnDef, FieldDef, FilterDef } from '../types';

/** The firmware resource's data (the definition and the list override read the same declarations). */
export const VERSION_TYPE_CHOICES: readonly Choice[] = FIRMWARE_VERSION_TYPES.map((id) => ({ id, nameKey: `firmware.versionType.${id}` }));
export const STATUS_CHOICES: readonly Choice[] = FIRMWARE_STATUSES.map((id) => ({ id, nameKey: `firmware.status.${id}` }));
export const ENABLED_CHOICES: readonly Choice[] = [
  { id: 'true', nameKey: 'firmware.enabledOn' },
  { id: 'false', nameKey: 'firmware.enabledOff' },
];

export const FIRMWARE_FIELDS: readonly FieldDef[] = [
  { source: 'deviceType', kind: 'text', on: { create: true } },
  { source: 'customer', kind: 'text', on: { create: true, edit: true } },
  { source: 'model', kind: 'text', on: { create: true } },
  { source: 'version', kind: 'text', on: { create: true } },
  { source: 'versionType', kind: 'select', choices: VERSION_TYPE_CHOICES, on: { create: true, edit: true } },
  { source: 'enabled', kind: 'boolean', on: { create: true, edit: true } },
  { source: 'updateInfo', kind: 'textarea', on: { create: true, edit: true } },
  { source: 'file', kind: 'file', on: { create: true } },
];

export const FIRMWARE_COLUMNS: readonly ColumnDef[] = [
  { source: 'name', sortable: true },
  { source: 'version', sortable: true },
  { source: 'deviceType', sortable: true },
  { source: 'model', sortable: true },
  { source: 'customer', sortable: true },
  { source: 'versionType', kind: 'choice', choicePrefix: 'firmware.versionType.', sortable: true },
  { source: 'enabled', kind: 'boolean', sortable: true },
  { source: 'fileSize', kind: 'number', sortable: true },
  { source: 'status', kind: 'choice', choicePrefix: 'firmware.status.', sortable: true },
  { source: 'updateInfo' },
  { source: 'createdAt', kind: 'datetime', sortable: true },
];

export const FIRMWARE_FILTER_DEFS: readonly FilterDef[] = [
  { source: 'name', kind: 'search', alwaysOn: true },
  { source: 'versionType', kind: 'select', choices: VERSION_TYPE_CHOICES, alwaysOn: true },
  { source: 'enabled', kind: 'select', choices: ENABLED_CHOICES },
  { source: 'status', kind: 'select', choices: STATUS_CHOICES },
  { source: 'deviceType', kind: 'text' },
  { source: 'model', kind: 'text' },
  { source: 'customer', kind: 'text' },
];

export const FIRMWARE_SORT = { field: 'createdAt', order: 'DESC' } as const;
