import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import type { ReportFigures } from './reportFigures';

/** A report's headline figures: the Summary sheet's and the mail's (server/reports/buildReport.ts). */
export interface Headline {
  label: string;
  /** The figure as a cell holds it (a fraction for availability); null when there is none. */
  value: number | string | null;
  /** The figure as the mail writes it. */
  text: string;
  /** The cell's number format, if any. */
  numFmt?: string;
  /** Shown on the Summary sheet, in the mail. */
  sheet: boolean;
  mail: boolean;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The headline figures of the requested kinds, in order. */
export function headlines(lang: Language, figures: ReportFigures): Headline[] {
  const t = (key: string) => translateDomain(lang, key);
  const none = t('report.mail.none');
  // Thousands grouped as the reader writes them: 7,333,980 h.
  const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  const out: Headline[] = [];
  const add = (key: string, value: number | null, options: Partial<Headline> = {}) =>
    out.push({
      label: t(key),
      value,
      text: value === null ? none : value.toLocaleString(locale),
      sheet: true,
      mail: true,
      ...options,
    });
  add('report.figure.vessels', figures.vessels);
  const a = figures.availability;
  if (a) {
    add('report.figure.availability', a.availability, {
      numFmt: '0.0%',
      text: a.availability === null ? none : `${(a.availability * 100).toFixed(1)}%`,
    });
    add('report.figure.onlineHours', round1(a.onlineSeconds / 3600), { mail: false });
  }
  const alarms = figures.alarms;
  if (alarms) {
    const all = alarms.times.find((r) => r.severity === null);
    const critical = alarms.times.find((r) => r.severity === 'critical');
    const minutes = (v: number | null | undefined) => (v === null || v === undefined ? null : round1(v));
    add('report.figure.alarms', all?.count ?? 0);
    add('report.figure.critical', critical?.count ?? 0);
    add('report.figure.ackMedian', minutes(all?.ackMedian));
    add('report.figure.ackP90', minutes(all?.ackP90), { mail: false });
    add('report.figure.clearMedian', minutes(all?.clearMedian), { mail: false });
    add('report.figure.clearP90', minutes(all?.clearP90), { mail: false });
    const top = alarms.byVessel.slice(0, 3).map((v) => `${v.name} (${v.count})`);
    if (top.length) out.push({ label: t('report.figure.topAlarms'), value: top.join(', '), text: top.join(', '), sheet: true, mail: true });
  }
  const usage = figures.dataUsage;
  if (usage) {
    add('report.figure.dataUsed', round1(usage.reduce((s, v) => s + v.usedBytes, 0) / 1e9));
    add('report.figure.overQuota', usage.filter((v) => v.quotaBytes !== null && v.usedBytes > v.quotaBytes).length);
  }
  if (figures.portCalls) add('report.figure.portCalls', figures.portCalls.length);
  const commands = figures.commands;
  if (commands) {
    const sum = (k: 'sent' | 'succeeded' | 'failed' | 'expired') => commands.reduce((s, r) => s + r[k], 0);
    add('report.figure.commandsSent', sum('sent'));
    add('report.figure.commandsSucceeded', sum('succeeded'), { mail: false });
    add('report.figure.commandsFailed', sum('failed'));
    add('report.figure.commandsExpired', sum('expired'), { mail: false });
  }
  return out;
}
