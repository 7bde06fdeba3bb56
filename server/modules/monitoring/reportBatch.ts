import { ErrorCode } from '../../../src/domain/errorCodes';
import { MAX_BATCH_REPORTS, MAX_FUTURE_MS, reportSchema, type DeviceReport } from '../../../src/domain/reportSchema';
import { validate, type FieldError } from '../../../src/domain/validate';
import { BizError } from '../../http/envelope';

/** At most this many field errors are answered for one refused batch. */
const MAX_FIELD_ERRORS = 50;

/**
 * A device's report body, as HTTP ingest (ingestRoutes.ts) and the MQTT link
 * (server/link/deviceMessages.ts) both receive it (docs/api.md, "monitoring"): one report, or
 * { reports: [...] }; every report validated; one bad report refuses the whole batch.
 */
export function parseBatch(body: unknown, now = Date.now()): DeviceReport[] {
  const isBatch = typeof body === 'object' && body !== null && 'reports' in body;
  const raw = isBatch ? (body as { reports: unknown }).reports : body;
  if (isBatch && !Array.isArray(raw))
    throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'reports', message: 'validation.invalid' }]);
  const items = isBatch ? (raw as unknown[]) : [raw];
  if (!items.length) throw new BizError(ErrorCode.Validation, 'error.reportBatchEmpty');
  if (items.length > MAX_BATCH_REPORTS)
    throw new BizError(ErrorCode.Validation, 'error.reportBatchTooLarge', null, { max: MAX_BATCH_REPORTS });
  const reports: DeviceReport[] = [];
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    const prefix = isBatch ? `reports[${i}].` : '';
    const result = validate(reportSchema, typeof item === 'object' && item !== null ? item : {});
    if (!result.ok) {
      errors.push(...result.errors.map((e) => ({ field: prefix + e.field, message: e.message })));
      return;
    }
    if (Date.parse(result.value.deviceTime) > now + MAX_FUTURE_MS)
      errors.push({ field: `${prefix}deviceTime`, message: 'validation.reportFuture' });
    reports.push(result.value);
  });
  if (errors.length) throw new BizError(ErrorCode.Validation, 'error.validation', errors.slice(0, MAX_FIELD_ERRORS));
  return reports;
}
