import HistoryEduIcon from '@mui/icons-material/HistoryEdu';
import { Level } from '../../domain/levels';
import { REPORT_RUNS_NAME as NAME, REPORT_RUNS_TABLE } from '../../domain/reports';
import type { ResourceDeclaration } from '../types';
import { lazyView } from '../lazyView';
import { ENTERPRISE_REFERENCE } from '../references';

/**
 * Support > Report runs (levels 1 and 2): every run of a report schedule, newest first: its period,
 * state, attempts, why it failed, how long it took, how big its file is and to how many it was
 * mailed. A finished run's workbook downloads for 90 days.
 */
const STATES = ['running', 'done', 'failed'] as const;
const stateChoices = STATES.map((id) => ({ id, nameKey: `resources.${NAME}.states.${id}` }));

export const reportRunsResource: ResourceDeclaration = {
  name: NAME,
  server: REPORT_RUNS_TABLE,
  menu: { group: 'service', order: 64, titleKey: `resources.${NAME}.name`, icon: HistoryEduIcon },
  fields: [],
  columns: [
    { source: 'createdAt', kind: 'datetime', sortable: true },
    { source: 'name' },
    { source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE, levels: [Level.Admin] },
    { source: 'periodFrom', kind: 'datetime' },
    { source: 'periodTo', kind: 'datetime' },
    { source: 'timeZone', kind: 'number' },
    { source: 'language', kind: 'choice', choicePrefix: 'console.lang.' },
    {
      source: 'state',
      kind: 'chip',
      choicePrefix: `resources.${NAME}.states.`,
      chipColors: { done: 'success', failed: 'error', running: 'warning' },
    },
    { source: 'attempts', kind: 'number' },
    { source: 'recipients', kind: 'number' },
    { source: 'sizeBytes', kind: 'number' },
    { source: 'durationMs', kind: 'number' },
    { source: 'error' },
  ],
  filters: ['search', { source: 'state', kind: 'select', choices: stateChoices }],
  sort: { field: 'createdAt', order: 'DESC' },
  recordRepresentation: 'name',
  rowActions: [
    {
      key: 'download',
      component: lazyView(
        () => import('./DownloadRunButton'),
        (m) => m.DownloadRunButton,
      ),
    },
  ],
  messages: {
    zh: {
      name: '报表记录',
      fields: {
        id: '编号',
        createdAt: '时间',
        ownerId: '所属企业',
        scheduleId: '定时报表',
        name: '报表',
        kinds: '内容',
        periodFrom: '开始',
        periodTo: '结束',
        timeZone: '时区',
        language: '语言',
        state: '状态',
        attempts: '尝试次数',
        error: '原因',
        startedAt: '开始运行',
        durationMs: '用时（毫秒）',
        sizeBytes: '大小（字节）',
        recipients: '收件人数',
        fileName: '文件',
      },
      states: { running: '运行中', done: '已完成', failed: '失败' },
      download: '下载 Excel',
      downloadPdf: '下载 PDF',
    },
    en: {
      name: 'Report run |||| Report runs',
      fields: {
        id: 'ID',
        createdAt: 'Time',
        ownerId: 'Enterprise',
        scheduleId: 'Schedule',
        name: 'Report',
        kinds: 'Contents',
        periodFrom: 'From',
        periodTo: 'To',
        timeZone: 'Time zone',
        language: 'Language',
        state: 'State',
        attempts: 'Attempts',
        error: 'Why',
        startedAt: 'Started',
        durationMs: 'Took (ms)',
        sizeBytes: 'Size (bytes)',
        recipients: 'Recipients',
        fileName: 'File',
      },
      states: { running: 'Running', done: 'Done', failed: 'Failed' },
      download: 'Excel',
      downloadPdf: 'PDF',
    },
  },
};
