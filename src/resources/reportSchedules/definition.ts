import ScheduleSendIcon from '@mui/icons-material/ScheduleSend';
import { Level } from '../../domain/levels';
import { CONTACT_POINTS_NAME } from '../../domain/contactPoints';
import {
  REPORT_DEFAULT_CRON,
  REPORT_KINDS,
  REPORT_PERIODS,
  REPORT_SCHEDULES_NAME as NAME,
  REPORT_SCHEDULES_TABLE,
} from '../../domain/reports';
import type { ReferenceDef, ResourceDeclaration } from '../types';
import { lazyView } from '../lazyView';
import { ENTERPRISE_REFERENCE } from '../references';

/**
 * Support > Report schedules (levels 1 and 2; docs/api.md, "Reports"): availability, alarm and
 * command reports over the last day, week or month in the recipients' zone, built when the
 * schedule's cron comes and mailed as a workbook to the enterprise's users and email contact
 * points. A row's "Run now" runs it over its last period or any past days; Support > Report runs
 * lists every run with its file.
 */
const both = { create: true, edit: true };
const OF_OWNER = { ownerId: 'ownerId' } as const;
const CONTACT_POINT_REFERENCE: ReferenceDef = {
  resource: CONTACT_POINTS_NAME,
  optionText: 'name',
  searchField: 'search',
  filterFrom: OF_OWNER,
  filter: { channel: 'email' },
};
const USER_REFERENCE: ReferenceDef = {
  resource: 'system/user',
  optionText: 'name',
  searchField: 'name',
  filterFrom: { parentId: 'ownerId' },
};
const kindChoices = REPORT_KINDS.map((id) => ({ id, nameKey: `report.kind.${id}` }));
const periodChoices = REPORT_PERIODS.map((id) => ({ id, nameKey: `resources.${NAME}.periods.${id}` }));
const WHEN = `resources.${NAME}.sections.when`;
const RECIPIENTS = `resources.${NAME}.sections.recipients`;

export const reportSchedulesResource: ResourceDeclaration = {
  name: NAME,
  server: REPORT_SCHEDULES_TABLE,
  menu: { group: 'service', order: 63, titleKey: `resources.${NAME}.name`, icon: ScheduleSendIcon },
  fields: [
    { source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE, on: both, when: (_, level) => level === Level.Admin },
    { source: 'name', kind: 'text', on: both },
    { source: 'kinds', kind: 'multiselect', choices: kindChoices, on: both },
    { source: 'period', kind: 'select', choices: periodChoices, on: both, section: WHEN },
    { source: 'cron', kind: 'text', on: both, section: WHEN },
    { source: 'timeZone', kind: 'number', min: -12, max: 12, on: both, section: WHEN },
    {
      source: 'language',
      kind: 'select',
      choices: [
        { id: 'zh', nameKey: 'console.lang.zh' },
        { id: 'en', nameKey: 'console.lang.en' },
      ],
      on: both,
      section: RECIPIENTS,
    },
    { source: 'userIds', kind: 'references', reference: USER_REFERENCE, on: both, section: RECIPIENTS },
    { source: 'contactPointIds', kind: 'references', reference: CONTACT_POINT_REFERENCE, on: both, section: RECIPIENTS },
    { source: 'recipientZones', kind: 'boolean', on: both, section: RECIPIENTS },
    { source: 'enabled', kind: 'boolean', on: both },
  ],
  columns: [
    { source: 'name', sortable: true },
    { source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE, levels: [Level.Admin] },
    { source: 'period', kind: 'choice', choicePrefix: `resources.${NAME}.periods.` },
    { source: 'cron' },
    { source: 'lastRunAt', kind: 'datetime' },
    { source: 'enabled', kind: 'boolean' },
  ],
  filters: ['search', { source: 'period', kind: 'select', choices: periodChoices }, { source: 'enabled', kind: 'boolean' }],
  defaults: () => ({
    kinds: [...REPORT_KINDS],
    period: 'week',
    cron: REPORT_DEFAULT_CRON,
    timeZone: 8,
    language: 'zh',
    userIds: [],
    contactPointIds: [],
    recipientZones: false,
    enabled: true,
  }),
  recordRepresentation: 'name',
  rowActions: [
    {
      key: 'runNow',
      component: lazyView(
        () => import('./RunNowButton'),
        (m) => m.RunNowButton,
      ),
    },
  ],
  messages: {
    zh: {
      name: '定时报表',
      fields: {
        id: '编号',
        ownerId: '所属企业',
        name: '名称',
        kinds: '内容',
        period: '周期',
        cron: '发送时间（分 时 日 月 周，如 0 7 * * 1）',
        timeZone: '时区（UTC 偏移小时数，如 8）',
        language: '语言',
        userIds: '收件用户',
        contactPointIds: '邮件渠道',
        recipientZones: '每位用户按自己的时区和语言收到',
        enabled: '启用',
        lastRunAt: '上次运行',
      },
      periods: { day: '前一天', week: '上一周（周一至周日）', month: '上个月' },
      sections: { when: '何时、覆盖哪段时间', recipients: '发给谁' },
      runNow: {
        action: '立即运行',
        title: '立即运行：%{name}',
        intro: '不填日期时，报表覆盖上一个完整周期；也可以选择过去的任意日期范围（按报表的时区）。运行结果见“报表记录”。',
        from: '开始日期',
        to: '结束日期（含）',
        both: '请同时填写开始和结束日期',
        confirm: '运行',
        started: '报表 %{id} 已开始运行，结果见“报表记录”',
      },
    },
    en: {
      name: 'Report schedule |||| Report schedules',
      fields: {
        id: 'ID',
        ownerId: 'Enterprise',
        name: 'Name',
        kinds: 'Contents',
        period: 'Period',
        cron: 'When (cron: minute hour day month weekday)',
        timeZone: 'Time zone (UTC offset in hours, e.g. 8)',
        language: 'Language',
        userIds: 'Users',
        contactPointIds: 'Email contact points',
        recipientZones: 'Each user in their own time zone and language',
        enabled: 'Enabled',
        lastRunAt: 'Last run',
      },
      periods: { day: 'The day before', week: 'Last week (Monday to Sunday)', month: 'Last month' },
      sections: { when: 'When, and over which period', recipients: 'Who gets it' },
      runNow: {
        action: 'Run now',
        title: 'Run now: %{name}',
        intro:
          "Without dates the report covers its last complete period; or pick any past days (in the report's time zone). Report runs shows how it went.",
        from: 'From',
        to: 'To (included)',
        both: 'Give both days, or neither',
        confirm: 'Run',
        started: 'Report run %{id} started; Report runs shows how it goes',
      },
    },
  },
};
