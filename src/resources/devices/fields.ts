import { DEVICE_KIND_KEYS, DEVICE_KINDS, DEVICE_STATES, DEVICE_STATE_KEYS } from '../../domain/deviceKinds';
import { deviceFieldKey, type DeviceField } from '../../domain/deviceSchemas';
import { Level } from '../../domain/levels';
import type { Choice, ColumnDef, FieldDef, FilterDef } from '../types';
import { ENTERPRISE_REFERENCE, SUB_USER_REFERENCE } from '../references';

/**
 * The device resource's declarations (fields, columns, filters), kept apart from definition.ts so
 * that the device views can read them without importing the definition (which imports the views).
 */

/** Device kinds: their names are the same in both languages (no message key; translate returns them as they are). */
export const DEVICE_KIND_CHOICES: readonly Choice[] = DEVICE_KINDS.map((id) => ({ id, nameKey: DEVICE_KIND_KEYS[id] }));
export const DEVICE_STATE_CHOICES: readonly Choice[] = DEVICE_STATES.map((s) => ({ id: String(s), nameKey: DEVICE_STATE_KEYS[s] }));
export const ACTIVATED_CHOICES: readonly Choice[] = [
  { id: 'true', nameKey: 'activation.activated' },
  { id: 'false', nameKey: 'activation.notActivated' },
];

const enterprises = ENTERPRISE_REFERENCE;
const subUsers = SUB_USER_REFERENCE;
/** The list's sub-user filter offers the sub-users of the enterprise its owner filter names (users/getAll's parentId). */
const subUsersOfOwner = { ...SUB_USER_REFERENCE, filterFrom: { parentId: 'ownerId' } };

const both = { create: true, edit: true } as const;
const field = (source: DeviceField, kind: FieldDef['kind'], extra: Partial<FieldDef> = {}): FieldDef => ({
  source,
  kind,
  on: both,
  label: deviceFieldKey(source),
  ...extra,
});

/** Every device field of docs/requirements.md §3 in the schema's (and the import template's) order. */
export const DEVICE_FIELD_DEFS: readonly FieldDef[] = [
  field('name', 'text'),
  field('deviceNum', 'text'),
  field('mac', 'text'),
  field('deviceSn', 'text'),
  field('ownerId', 'reference', { reference: enterprises }),
  field('ownerSubId', 'reference', { reference: subUsers }),
  field('manufactureDate', 'date'),
  field('deviceType', 'text'),
  field('aduVersion', 'text'),
  field('bduVersion', 'text'),
  field('manufactureInfo', 'text'),
  field('deviceModel', 'text'),
  field('deviceKind', 'select', { choices: DEVICE_KIND_CHOICES }),
  field('chipId', 'text'),
  field('modemSn', 'text'),
  field('hardware', 'text'),
  field('mmsi', 'text'),
  field('imo', 'text'),
  field('callsign', 'text'),
];

export const DEVICE_COLUMNS: readonly ColumnDef[] = [
  { source: 'status', kind: 'choice', choicePrefix: 'deviceState.', sortable: true, label: 'deviceField.status' },
  { source: 'name', sortable: true, label: 'deviceField.name' },
  { source: 'deviceNum', label: 'deviceField.deviceNum' },
  { source: 'deviceSn', label: 'deviceField.deviceSn' },
  { source: 'deviceKind', sortable: true, label: 'deviceField.deviceKind' },
  { source: 'deviceType', sortable: true, label: 'deviceField.deviceType' },
  { source: 'ownerId', kind: 'reference', reference: enterprises, sortable: true, label: 'deviceField.ownerId' },
  { source: 'ownerSubName', label: 'deviceField.ownerSubId' },
  { source: 'activated', kind: 'boolean', sortable: true, label: 'deviceField.activated' },
  { source: 'groupName', label: 'deviceField.groupName' },
  { source: 'mac', label: 'deviceField.mac' },
  { source: 'mmsi', label: 'deviceField.mmsi' },
];

/** The list's filters (device/getAll's), with the levels that see each one. */
export const DEVICE_FILTER_DEFS: readonly (FilterDef & { levels?: readonly string[] })[] = [
  { source: 'search', kind: 'search', alwaysOn: true, label: 'devices.list.search' },
  { source: 'deviceKind', kind: 'select', choices: DEVICE_KIND_CHOICES, alwaysOn: true, label: 'deviceField.deviceKind' },
  { source: 'status', kind: 'select', choices: DEVICE_STATE_CHOICES, alwaysOn: true, label: 'deviceField.status' },
  { source: 'activated', kind: 'select', choices: ACTIVATED_CHOICES, alwaysOn: true, label: 'deviceField.activated' },
  { source: 'deviceType', kind: 'text', label: 'deviceField.deviceType' },
  { source: 'ownerId', kind: 'reference', reference: enterprises, label: 'deviceField.ownerId', levels: [Level.Admin] },
  {
    source: 'ownerSubId',
    kind: 'reference',
    reference: subUsersOfOwner,
    label: 'deviceField.ownerSubId',
    levels: [Level.Admin, Level.Enterprise],
  },
];

export const DEVICE_SORT = { field: 'id', order: 'ASC' } as const;
