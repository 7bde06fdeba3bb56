import OutboxIcon from '@mui/icons-material/Outbox';
import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_LOG_NAME as NAME,
  NOTIFICATION_LOG_TABLE,
  NOTIFICATION_STATES,
} from '../../domain/notificationLog';
import { CONTACT_CHANNELS, CONTACT_POINTS_NAME } from '../../domain/contactPoints';
import type { ResourceDeclaration } from '../types';
import { VESSEL_REFERENCE } from '../references';

/**
 * Support > Delivery log (docs/api.md, "Notifications"): every message to a contact point about an
 * alarm, with its state, attempts, last error and latency. Read-only; each level sees the rows of
 * the vessels it sees. Filtered by alarm (alarmId) it answers "who was notified" for one alarm.
 */
const stateChoices = NOTIFICATION_STATES.map((id) => ({ id, nameKey: `resources.${NAME}.states.${id}` }));
const eventChoices = NOTIFICATION_EVENTS.map((id) => ({ id, nameKey: `resources.${NAME}.events.${id}` }));
const channelChoices = CONTACT_CHANNELS.map((id) => ({ id, nameKey: `resources.${CONTACT_POINTS_NAME}.channels.${id}` }));
const STATE_COLORS = { sent: 'success', failed: 'error', pending: 'warning', held: 'default', cancelled: 'default' } as const;

export const notificationLogResource: ResourceDeclaration = {
  name: NAME,
  server: NOTIFICATION_LOG_TABLE,
  menu: { group: 'service', order: 62, titleKey: `resources.${NAME}.name`, icon: OutboxIcon },
  fields: [],
  columns: [
    { source: 'createdAt', kind: 'datetime', sortable: true },
    { source: 'deviceName' },
    { source: 'alarmCode' },
    { source: 'event', kind: 'choice', choicePrefix: `resources.${NAME}.events.` },
    { source: 'recipientName' },
    { source: 'channel', kind: 'choice', choicePrefix: `resources.${CONTACT_POINTS_NAME}.channels.` },
    { source: 'state', kind: 'chip', choicePrefix: `resources.${NAME}.states.`, chipColors: STATE_COLORS },
    { source: 'attempts', kind: 'number' },
    { source: 'latencyMs', kind: 'number' },
    { source: 'lastError' },
    { source: 'ruleName' },
    { source: 'sentAt', kind: 'datetime', sortable: true },
  ],
  filters: [
    'search',
    { source: 'state', kind: 'select', choices: stateChoices },
    { source: 'channel', kind: 'select', choices: channelChoices },
    { source: 'event', kind: 'select', choices: eventChoices },
    { source: 'deviceId', kind: 'reference', reference: VESSEL_REFERENCE },
    // Set by an alarm's "Notified: N" link in the status monitor, shown so the list says it is one alarm's.
    { source: 'alarmId', kind: 'number' },
  ],
  // A log reads newest first.
  sort: { field: 'createdAt', order: 'DESC' },
  recordRepresentation: 'recipientName',
  messages: {
    zh: {
      name: '通知记录',
      fields: {
        id: '编号',
        createdAt: '时间',
        deviceId: '船舶',
        deviceName: '船舶',
        alarmId: '告警编号',
        alarmCode: '告警代码',
        event: '事件',
        recipientName: '接收方',
        channel: '渠道',
        state: '状态',
        attempts: '尝试次数',
        latencyMs: '耗时（毫秒）',
        lastError: '最近错误',
        ruleName: '规则',
        sentAt: '送达时间',
      },
      states: { pending: '待发送', sent: '已送达', failed: '失败', held: '渠道已停用', cancelled: '已取消' },
      events: { raised: '告警', cleared: '恢复', escalated: '升级', repeated: '重复提醒' },
    },
    en: {
      name: 'Delivery log',
      fields: {
        id: 'ID',
        createdAt: 'Time',
        deviceId: 'Vessel',
        deviceName: 'Vessel',
        alarmId: 'Alarm ID',
        alarmCode: 'Alarm code',
        event: 'Event',
        recipientName: 'Recipient',
        channel: 'Channel',
        state: 'State',
        attempts: 'Attempts',
        latencyMs: 'Latency (ms)',
        lastError: 'Last error',
        ruleName: 'Rule',
        sentAt: 'Delivered at',
      },
      states: { pending: 'Pending', sent: 'Delivered', failed: 'Failed', held: 'Contact point disabled', cancelled: 'Cancelled' },
      events: { raised: 'Raised', cleared: 'Cleared', escalated: 'Escalated', repeated: 'Reminder' },
    },
  },
};
