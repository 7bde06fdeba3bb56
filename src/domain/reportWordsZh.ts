/** The words of scheduled reports (sheets, headers, mail), in Chinese; reportWordsEn.ts has the same keys. */
export const reportWordsZh: Record<string, string> = {
  'report.kind.availability': '可用率',
  'report.kind.alarms': '告警',
  'report.kind.commands': '远程指令',
  'report.period.day': '日报',
  'report.period.week': '周报',
  'report.period.month': '月报',
};
