import RuleIcon from '@mui/icons-material/Rule';
import { Level } from '../../domain/levels';
import { ALARM_RULES_NAME as NAME, ALARM_RULES_TABLE, GEOFENCE_TRIGGERS } from '../../domain/alarmRules';
import { ALARM_CODE_LIST, DATA_PLAN_ALARMS, FAULT_CODES, FAULT_SEVERITIES, OFFLINE_ALARM, RULE_ALARMS } from '../../domain/faultCodes';
import { GEOFENCES_NAME } from '../../domain/geofences';
import { CONTACT_POINTS_NAME } from '../../domain/contactPoints';
import type { ReferenceDef, ResourceDeclaration } from '../types';
import { ENTERPRISE_REFERENCE, VESSEL_REFERENCE } from '../references';
import { lazyView } from '../lazyView';

/**
 * Support > Alarm rules (docs/api.md, "Notifications"): which alarms reach which contact points
 * outside the console, with escalation and repeats. Levels 1 and 2 write them (level 1 names the
 * enterprise), level 3 reads its enterprise's and subscribes itself by mail (a row's button) to
 * those covering a vessel it was granted. The server checks that every vessel, group and
 * contact point a rule names is the rule's enterprise's.
 */
const both = { create: true, edit: true };
/** For level 1 the pickers list only the enterprise the rule names (the server refuses another's). */
const OF_OWNER = { ownerId: 'ownerId' } as const;
const CONTACT_POINT_REFERENCE: ReferenceDef = {
  resource: CONTACT_POINTS_NAME,
  optionText: 'name',
  searchField: 'search',
  filterFrom: OF_OWNER,
};
/** The enterprise's users (told by mail, in their console's language and time zone). */
const USER_REFERENCE: ReferenceDef = {
  resource: 'system/user',
  optionText: 'name',
  searchField: 'name',
  filterFrom: { parentId: 'ownerId' },
};
const GROUP_REFERENCE: ReferenceDef = { resource: 'device/deviceData', optionText: 'name', searchField: 'name' };
const GEOFENCE_REFERENCE: ReferenceDef = { resource: GEOFENCES_NAME, optionText: 'name', searchField: 'search', filterFrom: OF_OWNER };
const OWNED_VESSEL_REFERENCE: ReferenceDef = { ...VESSEL_REFERENCE, filterFrom: OF_OWNER };
const triggerChoices = GEOFENCE_TRIGGERS.map((id) => ({ id, nameKey: `notify.geofenceTrigger.${id}` }));
const severityChoices = FAULT_SEVERITIES.map((id) => ({ id, nameKey: `support.severity.${id}` }));
const codeChoices = ALARM_CODE_LIST.map((id) => ({ id, nameKey: `resources.${NAME}.codeNames.${id}` }));
const codeNames = (language: 'zh' | 'en') =>
  Object.fromEntries(
    [...FAULT_CODES, ...DATA_PLAN_ALARMS, OFFLINE_ALARM, ...RULE_ALARMS].map((f) => [f.code, `${f.code} ${f.meaning[language]}`]),
  );
const MATCH = `resources.${NAME}.sections.match`;
const TRIGGERS = `resources.${NAME}.sections.triggers`;
const RECIPIENTS = `resources.${NAME}.sections.recipients`;
const FOLLOW_UP = `resources.${NAME}.sections.followUp`;

export const alarmRulesResource: ResourceDeclaration = {
  name: NAME,
  server: ALARM_RULES_TABLE,
  menu: { group: 'service', order: 58, titleKey: `resources.${NAME}.name`, icon: RuleIcon },
  fields: [
    { source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE, on: both, when: (_, level) => level === Level.Admin },
    { source: 'name', kind: 'text', on: both },
    { source: 'enabled', kind: 'boolean', on: both },
    { source: 'codes', kind: 'multiselect', choices: codeChoices, on: both, section: MATCH },
    { source: 'minSeverity', kind: 'select', choices: severityChoices, on: both, section: MATCH },
    { source: 'deviceIds', kind: 'references', reference: OWNED_VESSEL_REFERENCE, on: both, section: MATCH },
    { source: 'groupIds', kind: 'references', reference: GROUP_REFERENCE, on: both, section: MATCH },
    { source: 'offlineMinutes', kind: 'number', min: 1, max: 10080, on: both, section: TRIGGERS },
    { source: 'signalBelow', kind: 'number', min: 0, max: 100, step: 0.1, on: both, section: TRIGGERS },
    { source: 'snrBelow', kind: 'number', min: -20, max: 50, step: 0.1, on: both, section: TRIGGERS },
    { source: 'lowMinutes', kind: 'number', min: 1, max: 1440, on: both, section: TRIGGERS },
    { source: 'geofenceIds', kind: 'references', reference: GEOFENCE_REFERENCE, on: both, section: TRIGGERS },
    {
      source: 'geofenceTrigger',
      kind: 'select',
      choices: triggerChoices,
      on: both,
      section: TRIGGERS,
      when: (values) => Array.isArray(values.geofenceIds) && values.geofenceIds.length > 0,
    },
    { source: 'contactPointIds', kind: 'references', reference: CONTACT_POINT_REFERENCE, on: both, section: RECIPIENTS },
    { source: 'userIds', kind: 'references', reference: USER_REFERENCE, on: both, section: RECIPIENTS },
    { source: 'notifyCleared', kind: 'boolean', on: both, section: RECIPIENTS },
    { source: 'escalateMinutes', kind: 'number', min: 1, max: 1440, on: both, section: FOLLOW_UP },
    { source: 'escalateContactPointIds', kind: 'references', reference: CONTACT_POINT_REFERENCE, on: both, section: FOLLOW_UP },
    { source: 'repeatMinutes', kind: 'number', min: 1, max: 1440, on: both, section: FOLLOW_UP },
    { source: 'repeatLimit', kind: 'number', min: 1, max: 20, on: both, section: FOLLOW_UP },
  ],
  columns: [
    { source: 'name', sortable: true },
    { source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE, levels: [Level.Admin] },
    { source: 'minSeverity', kind: 'choice', choicePrefix: 'support.severity.' },
    { source: 'contactPointIds', kind: 'references', reference: CONTACT_POINT_REFERENCE },
    { source: 'enabled', kind: 'boolean' },
  ],
  filters: ['search', { source: 'enabled', kind: 'boolean' }],
  defaults: () => ({
    enabled: true,
    minSeverity: 'major',
    codes: [],
    deviceIds: [],
    groupIds: [],
    contactPointIds: [],
    userIds: [],
    escalateContactPointIds: [],
    geofenceIds: [],
    geofenceTrigger: 'enter',
    notifyCleared: true,
  }),
  recordRepresentation: 'name',
  // Rows open the rule's page: level 3, which may not edit a rule, reads it there.
  show: true,
  rowActions: [
    {
      key: 'subscribe',
      component: lazyView(
        () => import('./SubscribeButton'),
        (m) => m.SubscribeButton,
      ),
    },
  ],
  messages: {
    zh: {
      name: '告警规则',
      fields: {
        id: '编号',
        ownerId: '所属企业',
        name: '名称',
        enabled: '启用',
        codes: '告警代码（不选则按严重程度）',
        minSeverity: '严重程度',
        deviceIds: '船舶（不选则为全部）',
        groupIds: '分组',
        offlineMinutes: '离线超过多少分钟时告警',
        signalBelow: '信号强度低于',
        snrBelow: '信噪比低于（dB）',
        lowMinutes: '持续多少分钟时告警',
        geofenceIds: '电子围栏',
        geofenceTrigger: '何时告警',
        contactPointIds: '通知渠道',
        userIds: '用户（邮件通知）',
        notifyCleared: '恢复时也通知',
        escalateMinutes: '未确认多少分钟后升级',
        escalateContactPointIds: '升级通知渠道',
        repeatMinutes: '未确认时每隔多少分钟重复',
        repeatLimit: '最多重复次数',
      },
      sections: { match: '匹配条件', triggers: '规则自身的告警', recipients: '通知谁', followUp: '升级与重复' },
      subscribe: { join: '邮件通知我', leave: '不再通知我', joined: '已订阅：该规则的告警会发邮件给你', left: '已取消订阅' },
      codeNames: codeNames('zh'),
    },
    en: {
      name: 'Alarm rule |||| Alarm rules',
      fields: {
        id: 'ID',
        ownerId: 'Enterprise',
        name: 'Name',
        enabled: 'Enabled',
        codes: 'Alarm codes (none: by severity)',
        minSeverity: 'Severity',
        deviceIds: 'Vessels (none: all)',
        groupIds: 'Groups',
        offlineMinutes: 'Alarm when offline longer than (min)',
        signalBelow: 'Signal level below',
        snrBelow: 'SNR below (dB)',
        lowMinutes: 'Alarm when low for (min)',
        geofenceIds: 'Geofences',
        geofenceTrigger: 'Alarm when the vessel',
        contactPointIds: 'Contact points',
        userIds: 'Users (by mail)',
        notifyCleared: 'Notify when cleared too',
        escalateMinutes: 'Escalate when unacknowledged after (min)',
        escalateContactPointIds: 'Escalate to',
        repeatMinutes: 'Repeat while unacknowledged every (min)',
        repeatLimit: 'Repeat at most (times)',
      },
      sections: {
        match: 'What it matches',
        triggers: 'Alarms the rule raises',
        recipients: 'Who is notified',
        followUp: 'Escalation and repeats',
      },
      subscribe: {
        join: 'Mail me',
        leave: 'Stop mailing me',
        joined: 'Subscribed: this rule will mail you its alarms',
        left: 'Unsubscribed',
      },
      codeNames: codeNames('en'),
    },
  },
};
