import type { DeepStrings } from './raZh';
import type { dataPlansZh } from './dataPlansZh';

/** Strings of data usage and data plans (docs/api.md, "dataPlan") in English. */
export const dataPlansEn: DeepStrings<typeof dataPlansZh> = {
  title: 'Data usage',
  menu: 'Data plans',
  period: 'This period %{from} – %{to} (UTC)',
  used: '%{used} of %{quota} used',
  usedNoPlan: '%{used} used this month (no plan)',
  percent: '%{percent} %',
  progress: 'Share of the data plan used this period',
  previous: 'Previous period: %{used}',
  resetDay: 'Resets on day %{day} of each month (00:00 UTC)',
  noPlan: 'This vessel has no data plan yet. With a plan, reaching 80 % and 100 % of it raises an alarm.',
  noPlanReadOnly: 'This vessel has no data plan yet.',
  setPlan: 'Set plan',
  editPlan: 'Edit plan',
  removePlan: 'Remove plan',
  removeConfirm: "Remove this vessel's data plan? Its data alarms clear.",
  saved: 'Data plan saved',
  removed: 'Data plan removed',
  level: { normal: 'Normal', over80: 'Over 80 %', over100: 'Over the quota' },
  chart: {
    daily: 'Daily usage (GB)',
    cumulative: 'Usage this period against the quota (GB)',
    cumulativeSeries: 'Used so far',
    quotaSeries: 'Quota',
    dailySeries: 'Daily usage',
    empty: 'No data usage yet',
  },
  dialog: {
    title: 'Data plan',
    quota: 'Monthly quota (GB)',
    quotaHelp: '1 GB = 1,000,000,000 bytes; at most 1,000,000 GB',
    resetDay: 'Reset day (1–28)',
    resetDayHelp: 'A new period starts on this day at 00:00 UTC',
    save: 'Save',
    cancel: 'Cancel',
  },
  updatedBy: 'Changed by %{name} on %{at}',
};
