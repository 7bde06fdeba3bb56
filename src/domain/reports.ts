import * as yup from 'yup';
import { Cron } from 'croner';
const DAY_MS = 86_400_000;

/**
 * Scheduled reports (docs/requirements.md, "Reports"): what a report holds, over which period, and
 * when it runs. The periods are calendar periods in the recipient's time zone (a UTC offset in
 * whole hours, as the console's zone), so "last week" is Monday 00:00 to Monday 00:00 there.
 */
export const REPORT_KINDS = ['availability', 'alarms', 'commands'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** The schedule a new report gets: Mondays at 07:00 in its zone, for the week before. */
export const REPORT_DEFAULT_CRON = '0 7 * * 1';
/** Days a run's file is kept for download. */
export const REPORT_KEEP_DAYS = 90;
/** Attempts of a run before it stays failed. */
export const REPORT_ATTEMPTS = 3;
/** The longest custom range a report covers. */
export const REPORT_MAX_DAYS = 366;

export interface ReportRange {
  fromMs: number;
  toMs: number;
}

const HOUR_MS = 3_600_000;

/**
 * The last complete period before `now` in the zone: yesterday, last week (Monday to Monday) or
 * last month, as UTC instants.
 */
export function previousPeriod(period: ReportPeriod, offsetHours: number, now = Date.now()): ReportRange {
  const offsetMs = offsetHours * HOUR_MS;
  const local = new Date(now + offsetMs);
  const today = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  let from: number;
  let to: number;
  if (period === 'day') {
    to = today;
    from = today - DAY_MS;
  } else if (period === 'week') {
    const sinceMonday = (local.getUTCDay() + 6) % 7;
    to = today - sinceMonday * DAY_MS;
    from = to - 7 * DAY_MS;
  } else {
    to = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
    from = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - 1, 1);
  }
  return { fromMs: from - offsetMs, toMs: to - offsetMs };
}

/** Whether a cron expression (5 fields: minute hour day month weekday) is one croner reads. */
export function isCron(expression: string): boolean {
  if (expression.trim().split(/\s+/).length !== 5) return false;
  try {
    new Cron(expression, { paused: true });
    return true;
  } catch {
    return false;
  }
}

/** The first time after `after` the schedule is due, reading the cron in the zone (UTC offset hours). */
export function nextRunAfter(expression: string, offsetHours: number, after: number): number | null {
  const zone = offsetHours === 0 ? 'Etc/UTC' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
  const next = new Cron(expression, { paused: true, timezone: zone }).nextRun(new Date(after));
  return next ? next.getTime() : null;
}

const emailList = /^\s*$|^\s*[^\s@,]+@[^\s@,]+\.[^\s@,]+(\s*,\s*[^\s@,]+@[^\s@,]+\.[^\s@,]+)*\s*$/;

/** A report schedule as the console and the API write it. */
export const reportScheduleSchema = yup.object({
  name: yup.string().trim().required('validation.required').max(64, 'validation.reportName'),
  kinds: yup
    .array(yup.string().oneOf([...REPORT_KINDS], 'validation.reportKinds').required())
    .min(1, 'validation.reportKinds')
    .required('validation.reportKinds'),
  period: yup.string().oneOf([...REPORT_PERIODS], 'validation.reportPeriod').required('validation.reportPeriod'),
  cron: yup
    .string()
    .trim()
    .required('validation.reportCron')
    .test('cron', 'validation.reportCron', (v) => !v || isCron(v)),
  language: yup.string().oneOf(['zh', 'en'], 'validation.reportLanguage').required('validation.reportLanguage'),
  timeZone: yup
    .number()
    .typeError('validation.reportTimeZone')
    .integer('validation.reportTimeZone')
    .min(-12, 'validation.reportTimeZone')
    .max(12, 'validation.reportTimeZone')
    .required('validation.reportTimeZone'),
  emails: yup.string().default('').max(1000, 'validation.reportEmails').matches(emailList, 'validation.reportEmails'),
  enabled: yup.boolean().default(true),
});
