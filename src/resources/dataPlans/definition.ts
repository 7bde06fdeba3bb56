import DataUsageIcon from '@mui/icons-material/DataUsage';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import type { ResourceDefinition } from '../types';

const M = '/deviceModule/dataPlan';

/**
 * Monitoring > Data plans (docs/api.md, "dataPlan"): every visible vessel with its plan and this period's
 * usage, highest share first, read-only (a plan is set on the vessel's page, Data usage). Every
 * level reads the vessels it sees. Filters: search, with or without a plan, a least share used.
 */
export const dataPlansResource: ResourceDefinition = {
  name: 'device/dataPlan',
  access: { list: PAGE_LEVELS.all },
  menu: { group: 'device', order: 85, titleKey: 'dataPlans.menu', icon: DataUsageIcon },
  endpoints: {
    list: {
      path: `${M}/getAll`,
      paged: true,
      filters: ['search', 'planned', 'minPercent'],
      sortable: ['percent', 'usedGb', 'quotaGb', 'name', 'deviceNum', 'ownerName', 'resetDay'],
    },
  },
  fields: [],
  // Every column the endpoint sorts by is sortable from its header (percent first: who runs out soonest).
  columns: [
    { source: 'name', sortable: true },
    { source: 'deviceNum', sortable: true },
    { source: 'ownerName', sortable: true },
    { source: 'percent', kind: 'number', sortable: true },
    {
      source: 'levelName',
      kind: 'chip',
      choicePrefix: 'resources.device/dataPlan.level.',
      chipColors: { over100: 'error', over80: 'warning', normal: 'success' },
      sortable: false,
    },
    { source: 'usedGb', kind: 'number', sortable: true },
    { source: 'quotaGb', kind: 'number', sortable: true },
    { source: 'resetDay', kind: 'number', sortable: true },
  ],
  filters: ['search', { source: 'planned', kind: 'boolean', alwaysOn: true }, { source: 'minPercent', kind: 'number' }],
  sort: { field: 'percent', order: 'DESC' },
  recordRepresentation: 'name',
  messages: {
    zh: {
      name: '流量套餐',
      fields: {
        name: '船舶',
        deviceNum: '设备编号',
        ownerName: '所属企业',
        percent: '已用（%）',
        levelName: '状态',
        usedGb: '本期已用（GB）',
        quotaGb: '额度（GB）',
        resetDay: '重置日',
        search: '搜索',
        planned: '已设置套餐',
        minPercent: '已用至少（%）',
      },
      level: { none: '未设置', normal: '正常', over80: '超过 80%', over100: '超出额度' },
    },
    en: {
      name: 'Data plans',
      fields: {
        name: 'Vessel',
        deviceNum: 'Device number',
        ownerName: 'Enterprise',
        percent: 'Used (%)',
        levelName: 'State',
        usedGb: 'Used this period (GB)',
        quotaGb: 'Quota (GB)',
        resetDay: 'Reset day',
        search: 'Search',
        planned: 'With a plan',
        minPercent: 'Used at least (%)',
      },
      level: { none: 'No plan', normal: 'Normal', over80: 'Over 80 %', over100: 'Over the quota' },
    },
  },
};
