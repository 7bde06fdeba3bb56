import * as yup from 'yup';
import { ALARM_CODE_LIST, FAULT_SEVERITIES } from './faultCodes';
import { Level } from './levels';
import { choiceRule, idListRule, idRule, requiredText, nullToEmpty } from './schemaRules';
import type { TableResource } from './tableResource';

/**
 * Alarm rules (docs/api.md, "Notifications"): which alarms of an enterprise's vessels reach whom
 * outside the console. A rule matches an alarm by its code (any of `codes`) or, when no code is
 * named, by its severity (at least `minSeverity`), on all the enterprise's vessels or only the chosen
 * ones (`deviceIds`) and those of the chosen groups (`groupIds`). It also raises alarms of its own,
 * with its severity (`minSeverity`), for the vessels it covers: OFFLINE for one silent `offlineMinutes`;
 * SIGNAL_LOW for one whose signal stays under `signalBelow` or SNR under `snrBelow` for `lowMinutes`;
 * GEOFENCE_IN while one is in a geofence of `geofenceIds` (`geofenceTrigger` enter) or GEOFENCE_OUT once it
 * has left one (leave); CMD_FAILED and FW_FAILED when its `codes` name them. It notifies contact points and users (by mail) when the alarm is raised,
 * and when it clears if `notifyCleared`; unacknowledged after `escalateMinutes`, the escalation
 * contact points too; and again every `repeatMinutes` (at most `repeatLimit` times) until the
 * alarm is acknowledged or cleared. One rule for the console's form and the API.
 */
export const ALARM_RULES_NAME = 'alarm/rule';
/** A geofence rule raises an alarm while a vessel is in (enter) or out of (leave) the areas it names. */
export const GEOFENCE_TRIGGERS = ['enter', 'leave'] as const;

const threshold = (min: number, max: number, message: string) =>
  yup.number().typeError(message).min(min, message).max(max, message).optional().nullable();

const minutes = (max: number) => idRule().min(1, 'validation.outOfRange').max(max, 'validation.outOfRange').optional().nullable();

const fields = {
  ownerId: idRule().optional().nullable(),
  name: requiredText(64),
  enabled: yup.boolean().typeError('validation.invalid').default(true),
  codes: yup
    .array()
    .transform(nullToEmpty)
    .of(choiceRule(ALARM_CODE_LIST).required('validation.required'))
    .max(50, 'validation.tooMany')
    .default([]),
  minSeverity: choiceRule(FAULT_SEVERITIES).required('validation.required'),
  deviceIds: idListRule('deviceIds'),
  groupIds: idListRule('groupIds'),
  contactPointIds: idListRule('contactPointIds'),
  userIds: idListRule('userIds'),
  offlineMinutes: minutes(7 * 24 * 60),
  signalBelow: threshold(0, 100, 'validation.signalLevel'),
  snrBelow: threshold(-20, 50, 'validation.snr'),
  lowMinutes: minutes(24 * 60),
  geofenceIds: idListRule('geofenceIds'),
  geofenceTrigger: choiceRule(GEOFENCE_TRIGGERS).default('enter'),
  notifyCleared: yup.boolean().typeError('validation.invalid').default(true),
  escalateMinutes: minutes(24 * 60),
  escalateContactPointIds: idListRule('escalateContactPointIds'),
  repeatMinutes: minutes(24 * 60),
  repeatLimit: idRule().min(1, 'validation.outOfRange').max(20, 'validation.outOfRange').optional().nullable(),
};

/**
 * A rule notifies someone (a contact point or a user), and a weak-signal trigger has both its
 * minutes and a threshold (signal, SNR or both).
 */
const withRecipients = <S extends yup.AnyObjectSchema>(schema: S) =>
  schema
    .test('recipients', 'validation.noRecipient', function check(rule: Record<string, unknown[] | undefined>) {
      if ((rule.contactPointIds?.length ?? 0) + (rule.userIds?.length ?? 0) > 0) return true;
      return this.createError({ path: 'contactPointIds', message: 'validation.noRecipient' });
    })
    .test('low', 'validation.lowSignalRule', function check(rule: Record<string, unknown>) {
      const threshold = rule.signalBelow != null || rule.snrBelow != null;
      if (threshold === (rule.lowMinutes != null)) return true;
      return this.createError({ path: threshold ? 'lowMinutes' : 'signalBelow', message: 'validation.lowSignalRule' });
    });

export const alarmRuleSchema = withRecipients(yup.object(fields));
export const updateAlarmRuleSchema = withRecipients(yup.object({ id: idRule().required('validation.required'), ...fields }));

const EDITORS = [Level.Admin, Level.Enterprise];

/**
 * Ids a rule names, and what they name: each must belong to the rule's enterprise (a vessel it
 * owns, its contact points, itself or its sub-users). The server checks them (tableRoutes.ts).
 */
export const ALARM_RULE_REFERENCES = {
  deviceIds: 'vessel',
  groupIds: 'group',
  contactPointIds: 'contactPoint',
  escalateContactPointIds: 'contactPoint',
  userIds: 'user',
  geofenceIds: 'geofence',
} as const;

export const ALARM_RULES_TABLE: TableResource = {
  path: '/supportModule/alarmRule',
  table: 'alarm_rules',
  scope: 'enterprise',
  columns: {
    ownerId: { type: 'integer' },
    name: { type: 'text', notNull: true },
    enabled: { type: 'boolean', notNull: true },
    codes: { type: 'json' },
    minSeverity: { type: 'text', notNull: true, choices: 'notify.severity.' },
    deviceIds: { type: 'json' },
    groupIds: { type: 'json' },
    contactPointIds: { type: 'json' },
    userIds: { type: 'json' },
    offlineMinutes: { type: 'integer' },
    signalBelow: { type: 'number' },
    snrBelow: { type: 'number' },
    lowMinutes: { type: 'integer' },
    geofenceIds: { type: 'json' },
    geofenceTrigger: { type: 'text', choices: 'notify.geofenceTrigger.' },
    notifyCleared: { type: 'boolean', notNull: true },
    escalateMinutes: { type: 'integer' },
    escalateContactPointIds: { type: 'json' },
    repeatMinutes: { type: 'integer' },
    repeatLimit: { type: 'integer' },
  },
  // Level 3 reads its enterprise's rules (what reaches whom); levels 1 and 2 write them.
  levels: { list: [...EDITORS, Level.SubUser], create: EDITORS, edit: EDITORS, delete: EDITORS },
  schema: { create: alarmRuleSchema, update: updateAlarmRuleSchema },
  unique: [['ownerId', 'name']],
  search: ['name'],
  filters: ['enabled'],
  sortable: ['name'],
  audit: 'alarmRule',
  references: ALARM_RULE_REFERENCES,
};
