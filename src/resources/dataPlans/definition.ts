import DataUsageIcon from '@mui/icons-material/DataUsage';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { exportWordsZh } from '../../domain/exportWordsZh';
import { exportWordsEn } from '../../domain/exportWordsEn';
import type { ResourceDefinition } from '../types';

const M = '/deviceModule/dataPlan';

/**
 * Monitoring > Data plans (docs/api.md, "dataPlan"): every visible vessel with its plan and this period's
 * usage, highest share first, read-only (a plan is set on the vessel's page, Data usage). Every
 * level reads the vessels it sees. Filters: search, with or without a plan, a least share used.
 * Exports what it selects (dataPlan/export); its column and state words are the export's
 * (src/domain/exportWords*.ts), so the list and its file read alike.
 */
type Words = Record<keyof typeof exportWordsZh, string>;
/** The list's words of one language, taken from the export's. */
const wordsOf = (w: Words) => ({
  fields: {
    name: w['export.dataPlans.name'],
    deviceNum: w['export.dataPlans.deviceNum'],
    ownerName: w['export.dataPlans.ownerName'],
    percent: w['export.dataPlans.percent'],
    levelName: w['export.dataPlans.levelName'],
    usedGb: w['export.dataPlans.usedGb'],
    quotaGb: w['export.dataPlans.quotaGb'],
  },
  level: {
    none: w['export.dataPlans.level.none'],
    normal: w['export.dataPlans.level.normal'],
    over80: w['export.dataPlans.level.over80'],
    over100: w['export.dataPlans.level.over100'],
  },
});
const zh = wordsOf(exportWordsZh);
const en = wordsOf(exportWordsEn);
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
    export: { path: `${M}/export` },
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
        ...zh.fields,
        resetDay: '重置日',
        search: '搜索',
        planned: '已设置套餐',
        minPercent: '已用至少（%）',
      },
      level: zh.level,
    },
    en: {
      name: 'Data plans',
      fields: {
        ...en.fields,
        resetDay: 'Reset day',
        search: 'Search',
        planned: 'With a plan',
        minPercent: 'Used at least (%)',
      },
      level: en.level,
    },
  },
};
