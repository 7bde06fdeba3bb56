import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import {
  AFTER_SALES_CLASSIFICATIONS,
  AFTER_SALES_FIELDS,
  AFTER_SALES_SORTS,
  afterSalesSchema,
  updateAfterSalesSchema,
} from '../../../src/domain/afterSales';
import { translateDomain } from '../../../src/domain/messages';
import type { Language } from '../../../src/domain/constants';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { XLSX_TYPE } from '../../http/xlsx';
import { exportOptionsOf, exportQuery, sendExport, type ExportValue } from '../../http/exportFile';
import { claimExportSlot } from '../devices/exportThrottleQueries';
import { deleteReport, findReport, insertReport, listReports, updateReport, type AfterSalesReport } from './afterSalesQueries';

const tags = ['support'];
const ADMIN = [Level.Admin] as const;
const EXPORT_MAX_ROWS = 100_000;
const notFound = () => new BizError(ErrorCode.NotFound);
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

const field = { type: ['string', 'null'] } as const;
const reportObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    ...Object.fromEntries(AFTER_SALES_FIELDS.map((f) => [f, field])),
    deviceId: { type: ['integer', 'null'] },
    faultCode: field,
    reporterId: { type: ['integer', 'null'] },
    reporterName: field,
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
};
const reportBody = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    ...Object.fromEntries(AFTER_SALES_FIELDS.map((f) => [f, field])),
    deviceId: { type: ['integer', 'null'] },
    faultCode: field,
  },
};
export const afterSalesFilterQuery = {
  dateFrom: { ...date, description: 'DispatchOfData on or after (YYYY-MM-DD)' },
  dateTo: { ...date, description: 'DispatchOfData on or before (YYYY-MM-DD)' },
  classification: { type: 'string', maxLength: 200, description: `comma-separated: ${AFTER_SALES_CLASSIFICATIONS.join(', ')}` },
  department: { type: 'string', maxLength: 64, description: 'part of the department or the responsible department' },
  device: { type: 'string', maxLength: 64, description: 'part of DeviceSn or DeviceNum' },
  sort: { type: 'string', enum: [...AFTER_SALES_SORTS] },
  order: { type: 'string', enum: ['asc', 'desc'] },
} as const;

/** The export's columns: the catalogue's list first, then the rest of the form. */
const EXPORT_FIELDS = [
  'id',
  'FeedbackPeople',
  'DispatchOfData',
  'FeedbackApartment',
  'Classification',
  'CustomerSuggestion',
  'Description',
  'Department',
  'Customer',
  'DeviceModel',
  'DeviceSn',
  'DeviceNum',
  'Reamrk',
  'faultCode',
  'reporterName',
  'createdAt',
] as const;

const cell = (report: AfterSalesReport, key: string, lang: Language): ExportValue => {
  const value = report[key];
  if (value === null || value === undefined) return null;
  if (key === 'Classification') return translateDomain(lang, `afterSales.classification.${String(value)}`);
  if (key === 'createdAt') return new Date(value as string);
  return typeof value === 'number' ? value : String(value);
};

/** supportModule/afterSales: after-sales reports (docs/requirements.md §3), admins only (docs/requirements.md §6). */
export async function afterSalesRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/afterSales/getAll',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: 'After-sales reports, filtered, sorted and paged',
        querystring: { type: 'object', properties: { ...tokenQuery, ...pageQuery, ...afterSalesFilterQuery } },
        response: envelope(pageOf(reportObject)),
      },
    },
    async (request) => {
      const { pageIndex, pageSize, ...filter } = request.query;
      return ok(await listReports(db, filter, pageSize, (pageIndex - 1) * pageSize));
    },
  );

  app.get(
    '/afterSales/getById',
    {
      config: { levels: ADMIN },
      schema: { tags, summary: 'One after-sales report', querystring: idQuery, response: envelope(reportObject) },
    },
    async (request) => {
      const report = await findReport(db, request.query.id);
      if (!report) throw notFound();
      return ok(report);
    },
  );

  app.post(
    '/afterSales/add',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: 'File an after-sales report (all fields required but CustomerSuggestion and Reamrk)',
        querystring: { type: 'object', properties: tokenQuery },
        body: reportBody,
        response: envelope(reportObject),
      },
    },
    async (request) => {
      const input = parseWith(afterSalesSchema, request.body);
      return ok(await findReport(db, await insertReport(db, input, request.user.id)));
    },
  );

  app.post(
    '/afterSales/update',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: 'Replace the fields of an after-sales report',
        querystring: { type: 'object', properties: tokenQuery },
        body: reportBody,
        response: envelope(reportObject),
      },
    },
    async (request) => {
      const { id, ...input } = parseWith(updateAfterSalesSchema, request.body);
      if (!(await findReport(db, id))) throw notFound();
      await updateReport(db, id, input);
      return ok(await findReport(db, id));
    },
  );

  app.delete(
    '/afterSales/deleteById',
    { config: { levels: ADMIN }, schema: { tags, summary: 'Delete an after-sales report', querystring: idQuery, response: envelope() } },
    async (request) => {
      if (!(await deleteReport(db, request.query.id))) throw notFound();
      return ok(null);
    },
  );

  app.get(
    '/afterSales/export',
    {
      config: { levels: ADMIN },
      schema: {
        tags,
        summary: 'The filtered reports as a file (format xlsx or csv, times at tz); exporting again within 10 s answers code -101',
        querystring: { type: 'object', properties: { ...tokenQuery, ...afterSalesFilterQuery, ...exportQuery } },
        produces: ['text/csv', XLSX_TYPE, 'application/json'],
      },
    },
    async (request, reply) => {
      const options = exportOptionsOf(request);
      await claimExportSlot(db, request.user.id);
      const { list } = await listReports(db, request.query, EXPORT_MAX_ROWS, 0);
      const header = EXPORT_FIELDS.map((f) => translateDomain(options.lang, `afterSalesField.${f}`));
      return sendExport(
        reply,
        'after-sales',
        options,
        header,
        list.map((report) => EXPORT_FIELDS.map((f) => cell(report, f, options.lang))),
      );
    },
  );
}
