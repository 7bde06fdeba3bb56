import { ALARM_RULES_NAME } from './alarmRules';
import { CONTACT_POINTS_NAME } from './contactPoints';
import { deviceFieldKey } from './deviceSchemas';
import { GEOFENCES_NAME } from './geofences';
import { MAIL_SERVER_NAME } from './mailServer';
import { REPORT_SCHEDULES_NAME } from './reports';

/**
 * The audit log as people read it (docs/api.md, "auditLog"): for each entry only the fields that
 * changed, under the names the console gives them, without the columns that are ours alone (ids,
 * search text, time stamps, hashes). The console shows these; the export writes them.
 */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** The console resource whose field names an audited entity's fields take. */
export const AUDIT_ENTITY_RESOURCES: Readonly<Record<string, string>> = {
  user: 'system/user',
  deviceGroup: 'device/deviceData',
  deviceAuth: 'system/deviceAuth',
  voyage: 'device/voyage',
  camera: 'device/cameraInfo',
  command: 'device/command',
  firmware: 'system/firmware',
  extraLink: 'system/extraLink',
  contactPoint: CONTACT_POINTS_NAME,
  alarmRule: ALARM_RULES_NAME,
  geofence: GEOFENCES_NAME,
  mailServer: MAIL_SERVER_NAME,
  reportSchedule: REPORT_SCHEDULES_NAME,
};

/** Columns that are the database's, not the user's: never shown as a change. */
const INTERNAL = /^(id|searchText|createdAt|updatedAt|createdBy|ownerSince|enterpriseId)$|Hash$/;

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const camelKeys = (row: Record<string, unknown> | null) =>
  row ? Object.fromEntries(Object.entries(row).map(([k, v]) => [camel(k), v])) : null;
const empty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** What changed: on an add the fields given, on a delete the fields the row had, on an update those that differ. */
export function auditChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditChange[] {
  const b = camelKeys(before);
  const a = camelKeys(after);
  const fields = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])].filter((f) => !INTERNAL.test(f));
  return fields
    .map((field) => ({ field, before: b ? (b[field] ?? null) : null, after: a ? (a[field] ?? null) : null }))
    .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after) && !(empty(c.before) && empty(c.after)));
}

/** The i18n key of a changed field's name ('resources.system/user.fields.nickname'); null for an entity without one. */
export const auditFieldKey = (entity: string, field: string): string | null => {
  // A device's fields are named once for the console, the server and the import sheet.
  if (entity === 'device' || entity === 'activation') return deviceFieldKey(field);
  return AUDIT_ENTITY_RESOURCES[entity] ? `resources.${AUDIT_ENTITY_RESOURCES[entity]}.fields.${field}` : null;
};

/** An ISO 8601 time as the API writes it. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The key of an entity's or action's words ('auditEntity.device', 'auditAction.update'; src/domain/auditWordsZh.ts). */
export const auditWordKey = (kind: 'entity' | 'action', name: string) => `audit${kind === 'entity' ? 'Entity' : 'Action'}.${name}`;

/**
 * An audit entry's entity or action under its console name ('device' -> "Device", 'update' ->
 * "Changed") with `translate` (the console's or translateDomain); a name without words (a declared
 * resource's) as it is recorded. Both answer the key itself for a key they do not know.
 */
export function auditName(kind: 'entity' | 'action', name: string, translate: (key: string) => string): string {
  const key = auditWordKey(kind, name);
  const words = translate(key);
  return words === key ? name : words;
}
