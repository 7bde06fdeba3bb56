import MailIcon from '@mui/icons-material/Mail';
import { MAIL_SERVER_NAME as NAME, MAIL_SERVER_TABLE } from '../../domain/mailServer';
import type { ResourceDeclaration } from '../types';

/**
 * Support > Mail server (level 1): the SMTP server alarm mails go through (docs/api.md,
 * "Notifications"). The first enabled one is used; an email contact point's "Test" button tries it.
 */
const both = { create: true, edit: true };

export const mailServerResource: ResourceDeclaration = {
  name: NAME,
  server: MAIL_SERVER_TABLE,
  menu: { group: 'service', order: 64, titleKey: `resources.${NAME}.name`, icon: MailIcon },
  fields: [
    { source: 'name', kind: 'text', on: both },
    { source: 'host', kind: 'text', on: both },
    { source: 'port', kind: 'number', min: 1, max: 65535, on: both },
    { source: 'secure', kind: 'boolean', on: both },
    { source: 'userName', kind: 'text', on: both },
    { source: 'password', kind: 'password', on: both },
    { source: 'fromAddress', kind: 'email', on: both },
    { source: 'enabled', kind: 'boolean', on: both },
  ],
  columns: [
    { source: 'name', sortable: true },
    { source: 'host' },
    { source: 'port', kind: 'number' },
    { source: 'fromAddress' },
    { source: 'enabled', kind: 'boolean' },
  ],
  filters: ['search'],
  defaults: () => ({ port: 587, secure: false, enabled: true }),
  recordRepresentation: 'name',
  messages: {
    zh: {
      name: '邮件服务器',
      fields: {
        id: '编号',
        name: '名称',
        host: '发信服务器地址',
        port: '端口',
        secure: '全程加密连接（465 端口）',
        userName: '登录用户名',
        password: '密码',
        passwordSet: '已设密码',
        fromAddress: '发件人地址',
        enabled: '启用',
      },
    },
    en: {
      name: 'Mail server |||| Mail servers',
      fields: {
        id: 'ID',
        name: 'Name',
        host: 'SMTP host',
        port: 'Port',
        secure: 'TLS from the start (port 465)',
        userName: 'Login',
        password: 'Password',
        passwordSet: 'Password set',
        fromAddress: 'From address',
        enabled: 'Enabled',
      },
    },
  },
};
