import { idRule } from './schemaRules';
import * as yup from 'yup';
import { Level } from './levels';
import { VESSEL_COLUMNS, type TableResource } from './tableResource';

/**
 * The delivery log (docs/api.md, "Notifications"): one row per message to one recipient about one
 * alarm transition, with its state, attempts, last error and latency. Written by the server only
 * (server/notify/); read like any row of a vessel (level 1 all, level 2 its vessels, level 3 the
 * vessels it was granted).
 */
export const NOTIFICATION_LOG_NAME = 'alarm/notification';
export const NOTIFICATION_STATES = ['pending', 'sent', 'failed', 'held', 'cancelled'] as const;
export const NOTIFICATION_EVENTS = ['raised', 'cleared', 'escalated', 'repeated'] as const;

export const NOTIFICATION_LOG_TABLE: TableResource = {
  path: '/supportModule/notification',
  table: 'notifications',
  scope: 'vessel',
  generate: false,
  updatedAt: false,
  columns: {
    ...VESSEL_COLUMNS,
    alarmId: { type: 'integer' },
    alarmCode: { type: 'text', sql: '(SELECT a.code FROM alarms a WHERE a.id = t.alarm_id)' },
    ruleName: { type: 'text' },
    event: { type: 'text', choices: `resources.${NOTIFICATION_LOG_NAME}.events.` },
    recipientName: { type: 'text' },
    channel: { type: 'text', choices: 'resources.service/contactPoint.channels.' },
    state: { type: 'text', choices: `resources.${NOTIFICATION_LOG_NAME}.states.` },
    attempts: { type: 'integer' },
    lastError: { type: 'text' },
    createdAt: { type: 'timestamp' },
    sentAt: { type: 'timestamp' },
    latencyMs: { type: 'integer' },
  },
  levels: { list: [Level.Admin, Level.Enterprise, Level.SubUser], export: [Level.Admin, Level.Enterprise] },
  // Nobody writes it through the API; the schema only types the (absent) add.
  schema: { create: yup.object({ id: idRule() }) },
  search: ['recipientName', 'ruleName'],
  filters: ['state', 'channel', 'event', 'alarmId'],
  sortable: ['createdAt', 'sentAt'],
  order: 'desc',
  // A vessel's new enterprise does not see who the one before was told.
  since: 'createdAt',
  audit: 'notification',
};
