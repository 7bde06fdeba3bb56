import type { ApiModule } from '../http/api';
import { ErrorCode } from '../../src/domain/errorCodes';
import { enterpriseIdOf } from '../../src/domain/levels';
import { tableLevels } from '../../src/domain/tableResource';
import { isRealDate } from '../../src/domain/schemaRules';
import { REPORT_MAX_DAYS, REPORT_RUNS_TABLE, REPORT_SCHEDULES_TABLE, previousPeriod, type ReportRange } from '../../src/domain/reports';
import { BizError, ok } from '../http/envelope';
import { envelope, tokenQuery } from '../http/schemas';
import { attachment, XLSX_TYPE } from '../http/xlsx';
import { runFile, visibleSchedule } from './reportRunQueries';
import { startRuns } from './reportService';

const tags = ['reports'];
const DAY = '^\\d{4}-\\d{2}-\\d{2}$';
const DAY_MS = 86_400_000;

/** A custom range of whole days in the zone (`to` included), checked: real days, in order, past, at most REPORT_MAX_DAYS. */
function customRange(from: string, to: string, offsetHours: number, now: number): ReportRange {
  const bad = (field: string, message: string) => new BizError(ErrorCode.Validation, 'error.validation', [{ field, message }]);
  if (!isRealDate(from)) throw bad('from', 'validation.date');
  if (!isRealDate(to)) throw bad('to', 'validation.date');
  const offsetMs = offsetHours * 3_600_000;
  const fromMs = Date.parse(`${from}T00:00:00Z`) - offsetMs;
  const toMs = Date.parse(`${to}T00:00:00Z`) + DAY_MS - offsetMs;
  if (toMs <= fromMs || toMs - fromMs > REPORT_MAX_DAYS * DAY_MS) throw bad('to', 'validation.reportRange');
  if (fromMs >= now) throw bad('from', 'validation.reportRange');
  return { fromMs, toMs: Math.min(toMs, now) };
}

/**
 * supportModule/reportSchedule/runNow and supportModule/reportRun/download (docs/api.md, "Reports"):
 * run a schedule now over its last period or any past range of days, and download a run's workbook.
 * Schedules and runs themselves are declared resources (src/domain/reports.ts).
 */
export const reportsModule: ApiModule = async (app, { db }) => {
  app.post(
    '/reportSchedule/runNow',
    {
      config: { levels: tableLevels(REPORT_SCHEDULES_TABLE, 'edit') },
      schema: {
        tags,
        summary: "Run a report schedule now: over its last complete period, or from..to (whole days in the schedule's zone)",
        querystring: {
          type: 'object',
          required: ['id'],
          properties: {
            ...tokenQuery,
            id: { type: 'integer', minimum: 1 },
            from: { type: 'string', pattern: DAY, description: 'first day, YYYY-MM-DD' },
            to: { type: 'string', pattern: DAY, description: 'last day, YYYY-MM-DD (included)' },
          },
        },
        response: envelope({
          type: 'object',
          properties: { runId: { type: 'integer' }, runIds: { type: 'array', items: { type: 'integer' } } },
        }),
      },
    },
    async (request) => {
      const { id, from, to } = request.query;
      const schedule = await visibleSchedule(db, request.user, id, enterpriseIdOf(request.user));
      if (!schedule) throw new BizError(ErrorCode.NotFound);
      const now = Date.now();
      if (!from !== !to)
        throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: from ? 'to' : 'from', message: 'validation.required' }]);
      // Checked in the schedule's zone before any run is recorded.
      if (from && to) customRange(from, to, schedule.timeZone, now);
      const rangeIn = (zone: number) => (from && to ? customRange(from, to, zone, now) : previousPeriod(schedule.period, zone, now));
      const { runIds, done } = await startRuns(db, schedule, rangeIn, request.user.id);
      // The runs go on after the answer; the runs list shows how they went.
      void done.catch((e: Error) => request.log.warn(`report runs ${runIds.join(', ')}: ${e.message}`));
      return ok({ runId: runIds[0], runIds });
    },
  );

  app.get(
    '/reportRun/download',
    {
      config: { levels: tableLevels(REPORT_RUNS_TABLE, 'list') },
      schema: {
        tags,
        summary:
          "A finished run's workbook (format xlsx, the default) or PDF (format pdf); kept reportKeepDays days (monitor settings, 90 by default)",
        querystring: {
          type: 'object',
          required: ['id'],
          properties: {
            ...tokenQuery,
            id: { type: 'integer', minimum: 1 },
            format: { type: 'string', enum: ['xlsx', 'pdf'], default: 'xlsx' },
          },
        },
        produces: [XLSX_TYPE, 'application/pdf', 'application/json'],
      },
    },
    async (request, reply) => {
      const found = await runFile(db, request.user, request.query.id, enterpriseIdOf(request.user));
      if (!found) throw new BizError(ErrorCode.NotFound);
      const pdf = request.query.format === 'pdf';
      const file = pdf ? found.pdf : found.file;
      if (!file) throw new BizError(ErrorCode.NotFound, 'error.reportFileGone');
      const base = found.fileName ?? 'report';
      return pdf ? attachment(reply, base, 'pdf', 'application/pdf').send(file) : attachment(reply, base, 'xlsx', XLSX_TYPE).send(file);
    },
  );
};
