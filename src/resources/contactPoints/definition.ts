import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import { Level } from '../../domain/levels';
import { CONTACT_CHANNELS, CONTACT_POINTS_TABLE, CONTACT_POINTS_NAME as NAME } from '../../domain/contactPoints';
import type { ResourceDeclaration } from '../types';
import { lazyView } from '../lazyView';
import { ENTERPRISE_REFERENCE } from '../references';

/**
 * Support > Contact points (levels 1 and 2): where alarm notifications go besides the console, a
 * robot of WeCom, DingTalk, Feishu or Telegram, or a webhook (docs/api.md, "Notifications"). Each
 * enterprise keeps its own; level 1 names the enterprise. A row's "Test" button sends a test
 * message through supportModule/contactPoint/testSend.
 */

const channelChoices = CONTACT_CHANNELS.map((id) => ({ id, nameKey: `resources.${NAME}.channels.${id}` }));
const both = { create: true, edit: true };

export const contactPointsResource: ResourceDeclaration = {
  name: NAME,
  server: CONTACT_POINTS_TABLE,
  menu: { group: 'service', order: 60, titleKey: `resources.${NAME}.name`, icon: NotificationsActiveIcon },
  fields: [
    { source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE, on: both, when: (_, level) => level === Level.Admin },
    { source: 'name', kind: 'text', on: both },
    { source: 'channel', kind: 'select', choices: channelChoices, on: both },
    { source: 'target', kind: 'text', on: both },
    { source: 'secret', kind: 'password', on: both },
    {
      source: 'language',
      kind: 'select',
      choices: [
        { id: 'zh', nameKey: 'console.lang.zh' },
        { id: 'en', nameKey: 'console.lang.en' },
      ],
      on: both,
      section: `resources.${NAME}.sections.reader`,
    },
    { source: 'timeZone', kind: 'text', on: both, section: `resources.${NAME}.sections.reader` },
    { source: 'quietFrom', kind: 'text', on: both, section: `resources.${NAME}.sections.reader` },
    { source: 'quietTo', kind: 'text', on: both, section: `resources.${NAME}.sections.reader` },
    { source: 'enabled', kind: 'boolean', on: both },
  ],
  columns: [
    { source: 'name', sortable: true },
    { source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE, levels: [Level.Admin] },
    { source: 'channel', kind: 'choice', choicePrefix: `resources.${NAME}.channels.`, sortable: true },
    { source: 'target' },
    { source: 'enabled', kind: 'boolean' },
  ],
  filters: ['search', { source: 'channel', kind: 'select', choices: channelChoices }, { source: 'enabled', kind: 'boolean' }],
  defaults: () => ({ channel: 'webhook', language: 'zh', timeZone: 'Asia/Shanghai', enabled: true }),
  recordRepresentation: 'name',
  rowActions: [
    {
      key: 'testSend',
      component: lazyView(
        () => import('./TestSendButton'),
        (m) => m.TestSendButton,
      ),
    },
  ],
  messages: {
    zh: {
      name: '通知渠道',
      fields: {
        id: '编号',
        ownerId: '所属企业',
        name: '名称',
        channel: '渠道',
        target: '地址',
        secret: '密钥',
        secretSet: '已设密钥',
        language: '语言',
        timeZone: '时区',
        quietFrom: '免打扰开始（HH:MM）',
        quietTo: '免打扰结束（HH:MM）',
        enabled: '启用',
      },
      channels: {
        email: '邮件',
        webhook: 'Webhook',
        wecom: '企业微信机器人',
        dingtalk: '钉钉机器人',
        feishu: '飞书机器人',
        telegram: 'Telegram 机器人',
      },
      sections: { reader: '接收方' },
      test: { action: '测试', sent: '测试消息已送达（%{ms} 毫秒）' },
    },
    en: {
      name: 'Contact point |||| Contact points',
      fields: {
        id: 'ID',
        ownerId: 'Enterprise',
        name: 'Name',
        channel: 'Channel',
        target: 'Address',
        secret: 'Secret',
        secretSet: 'Secret set',
        language: 'Language',
        timeZone: 'Time zone',
        quietFrom: 'Quiet hours from (HH:MM)',
        quietTo: 'Quiet hours to (HH:MM)',
        enabled: 'Enabled',
      },
      channels: {
        email: 'Email',
        webhook: 'Webhook',
        wecom: 'WeCom robot',
        dingtalk: 'DingTalk robot',
        feishu: 'Feishu bot',
        telegram: 'Telegram bot',
      },
      sections: { reader: 'Recipient' },
      test: { action: 'Test', sent: 'The test message was delivered (%{ms} ms)' },
    },
  },
};
