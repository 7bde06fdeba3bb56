import * as yup from 'yup';
import { Cron } from 'croner';
import { Level } from './levels';
import { choiceRule, idListRule, idRule, requiredText, nullToEmpty } from './schemaRules';
import type { TableResource } from './tableResource';
const DAY_MS = 86_400_000;

/**
 * Scheduled reports (docs/requirements.md, "Reports"): what a report holds, over which period, and
 * when it runs. The periods are calendar periods in the recipient's time zone (a UTC offset in
 * whole hours, as the console's zone), so "last week" is Monday 00:00 to Monday 00:00 there.
 */
export const REPORT_KINDS = ['availability', 'alarms', 'dataUsage', 'portCalls', 'commands'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** The schedule a new report gets: Mondays at 07:00 in its zone, for the week before. */
export const REPORT_DEFAULT_CRON = '0 7 * * 1';
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

const fields = {
  ownerId: idRule().optional().nullable(),
  name: requiredText(64),
  kinds: yup
    .array()
    .transform(nullToEmpty)
    .of(choiceRule(REPORT_KINDS, 'validation.reportKinds').required('validation.reportKinds'))
    .min(1, 'validation.reportKinds')
    .required('validation.reportKinds'),
  period: choiceRule(REPORT_PERIODS, 'validation.reportPeriod').required('validation.required'),
  cron: requiredText(64).test('cron', 'validation.reportCron', (v) => !v || isCron(v)),
  language: choiceRule(['zh', 'en']).required('validation.required'),
  timeZone: yup
    .number()
    .typeError('validation.reportTimeZone')
    .integer('validation.reportTimeZone')
    .min(-12, 'validation.reportTimeZone')
    .max(12, 'validation.reportTimeZone')
    .required('validation.required'),
  userIds: idListRule('userIds'),
  contactPointIds: idListRule('contactPointIds'),
  recipientZones: yup.boolean().typeError('validation.invalid').default(false),
  enabled: yup.boolean().typeError('validation.invalid').default(true),
};

/** A schedule sends to someone: a user (by mail) or an email contact point. */
const withRecipients = <S extends yup.AnyObjectSchema>(schema: S) =>
  schema.test('recipients', 'validation.noRecipient', function check(row: Record<string, unknown[] | undefined>) {
    if ((row.contactPointIds?.length ?? 0) + (row.userIds?.length ?? 0) > 0) return true;
    return this.createError({ path: 'userIds', message: 'validation.noRecipient' });
  });

export const reportScheduleSchema = withRecipients(yup.object(fields));
export const updateReportScheduleSchema = withRecipients(yup.object({ id: idRule().required('validation.required'), ...fields }));

export const REPORT_SCHEDULES_NAME = 'report/schedule';
export const REPORT_RUNS_NAME = 'report/run';
const EDITORS = [Level.Admin, Level.Enterprise];

/**
 * The server half of Reports > Schedules (src/resources/reportSchedules/definition.ts): an
 * enterprise's report schedules, written by levels 1 and 2. Here because the leader's scheduler
 * (server/reports/) reads it too.
 */
export const REPORT_SCHEDULES_TABLE: TableResource = {
  path: '/supportModule/reportSchedule',
  table: 'report_schedules',
  scope: 'enterprise',
  generate: false,
  createdBy: 'created_by',
  columns: {
    ownerId: { type: 'integer' },
    name: { type: 'text', notNull: true },
    kinds: { type: 'json' },
    period: { type: 'text', notNull: true, choices: `resources.${REPORT_SCHEDULES_NAME}.periods.` },
    cron: { type: 'text', notNull: true },
    language: { type: 'text', notNull: true },
    timeZone: { type: 'integer', notNull: true },
    userIds: { type: 'json' },
    contactPointIds: { type: 'json' },
    recipientZones: { type: 'boolean', notNull: true },
    enabled: { type: 'boolean', notNull: true },
    lastRunAt: { type: 'timestamp', sql: 't.last_run_at' },
  },
  levels: { list: EDITORS, create: EDITORS, edit: EDITORS, delete: EDITORS },
  schema: { create: reportScheduleSchema, update: updateReportScheduleSchema },
  unique: [['ownerId', 'name']],
  search: ['name'],
  filters: ['enabled', 'period'],
  sortable: ['name'],
  audit: 'reportSchedule',
  references: { userIds: 'user', contactPointIds: 'contactPoint' },
};

/** Reports > Runs: every run of a report, read-only; its file is downloaded through supportModule/reportRun/download. */
export const REPORT_RUNS_TABLE: TableResource = {
  path: '/supportModule/reportRun',
  table: 'report_runs',
  scope: 'enterprise',
  generate: false,
  updatedAt: false,
  columns: {
    ownerId: { type: 'integer' },
    scheduleId: { type: 'integer' },
    name: { type: 'text' },
    kinds: { type: 'json' },
    periodFrom: { type: 'timestamp' },
    periodTo: { type: 'timestamp' },
    timeZone: { type: 'integer' },
    language: { type: 'text' },
    state: { type: 'text', choices: `resources.${REPORT_RUNS_NAME}.states.` },
    attempts: { type: 'integer' },
    error: { type: 'text' },
    startedAt: { type: 'timestamp' },
    durationMs: { type: 'integer' },
    sizeBytes: { type: 'integer' },
    recipients: { type: 'integer' },
    fileName: { type: 'text' },
    createdAt: { type: 'timestamp' },
  },
  levels: { list: EDITORS },
  // Nobody writes it through the API; the schema only types the (absent) add.
  schema: { create: yup.object({ id: idRule() }) },
  search: ['name'],
  filters: ['state', 'scheduleId'],
  sortable: ['createdAt'],
  order: 'desc',
};
