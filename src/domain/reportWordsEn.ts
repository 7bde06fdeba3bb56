import type { reportWordsZh } from './reportWordsZh';

/** The words of scheduled reports (sheets, headers, mail), in English; the same keys as reportWordsZh.ts. */
export const reportWordsEn: Record<keyof typeof reportWordsZh, string> = {
  'report.kind.availability': 'Availability',
  'report.kind.alarms': 'Alarms',
  'report.kind.commands': 'Commands',
  'report.period.day': 'Daily report',
  'report.period.week': 'Weekly report',
  'report.period.month': 'Monthly report',
};
