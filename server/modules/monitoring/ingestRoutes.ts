import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { MAX_BATCH_REPORTS, MAX_FUTURE_MS, reportSchema, type DeviceReport } from '../../../src/domain/reportSchema';
import { validate, type FieldError } from '../../../src/domain/validate';
import { BizError, ok } from '../../http/envelope';
import { envelope } from '../../http/schemas';
import { authenticateDevice } from '../../auth/deviceCredentials';

const MAX_FIELD_ERRORS = 50;

/** One report, or { reports: [...] }: every report validated; one bad report refuses the whole batch. */
export function parseBatch(body: unknown, now = Date.now()): DeviceReport[] {
  const isBatch = typeof body === 'object' && body !== null && 'reports' in body;
  const raw = isBatch ? (body as { reports: unknown }).reports : body;
  if (isBatch && !Array.isArray(raw)) throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'reports', message: 'validation.invalid' }]);
  const items = isBatch ? (raw as unknown[]) : [raw];
  if (!items.length) throw new BizError(ErrorCode.Validation, 'error.reportBatchEmpty');
  if (items.length > MAX_BATCH_REPORTS) throw new BizError(ErrorCode.Validation, 'error.reportBatchTooLarge', null, { max: MAX_BATCH_REPORTS });
  const reports: DeviceReport[] = [];
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    const prefix = isBatch ? `reports[${i}].` : '';
    const result = validate(reportSchema, typeof item === 'object' && item !== null ? item : {});
    if (!result.ok) {
      errors.push(...result.errors.map((e) => ({ field: prefix + e.field, message: e.message })));
      return;
    }
    if (Date.parse(result.value.deviceTime) > now + MAX_FUTURE_MS) errors.push({ field: `${prefix}deviceTime`, message: 'validation.reportFuture' });
    reports.push(result.value);
  });
  if (errors.length) throw new BizError(ErrorCode.Validation, 'error.validation', errors.slice(0, MAX_FIELD_ERRORS));
  return reports;
}

const reportBody = {
  type: 'object',
  description: 'One report, or { reports: [report, ...] } with at most 1000 reports of the same device',
} as const;

/**
 * deviceModule/ingest/report: a device's own reports (no session token: the device authenticates
 * with x-device-num and x-device-secret). See docs/api.md "monitoring" for future, duplicate and
 * out-of-order reports.
 */
export async function ingestRoutes(app: FastifyInstance, { devices, ingest }: ServerContext) {
  app.post('/ingest/report', {
    config: { public: true },
    bodyLimit: 4 * 1024 * 1024,
    schema: {
      tags: ['monitoring'], summary: 'A device reports its state (one report or a batch)', security: [],
      headers: { type: 'object', properties: { 'x-device-num': { type: 'string' }, 'x-device-secret': { type: 'string' } } },
      body: reportBody,
      response: envelope({
        type: 'object',
        properties: {
          accepted: { type: 'integer' }, duplicates: { type: 'integer' }, outOfOrder: { type: 'integer' },
          unactivated: { type: 'boolean' }, latestReportedAt: { type: ['string', 'null'] },
        },
      }),
    },
  }, async (request) => {
    const device = await authenticateDevice(devices, request);
    const reports = parseBatch(request.body);
    return ok(await ingest.write(device, reports));
  });
}
