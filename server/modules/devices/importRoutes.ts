import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api';
import ExcelJS from 'exceljs';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { IMPORT_MAX_FILE_BYTES, normaliseLanguage, type Language } from '../../../src/domain/constants';
import { DEVICE_KIND_KEYS, DEVICE_KINDS } from '../../../src/domain/deviceKinds';
import { DEVICE_FIELDS, deviceFieldKey, deviceSchema } from '../../../src/domain/deviceSchemas';
import { translateDomain } from '../../../src/domain/messages';
import { BizError, languageOf, ok } from '../../http/envelope';
import { envelope, tokenQuery } from '../../http/schemas';
import { rethrowMultipart } from '../../http/multipartErrors';
import { DEVICE_EDITORS } from '../../auth/deviceScope';
import { Permission } from '../../../src/domain/permissionGroups';
import { readDeviceSheet, sniffExcel } from './importParser';
import { checkImportRows } from './importCheck';
import { insertDevices } from './importQueries';
import { uniqueViolationToBizError } from './deviceRules';

/** Bad cells listed in one answer (the count in msg is the full count). */
const ERRORS_SHOWN = 1000;
/** Template headers of required fields end in *, as the schema says. */
const REQUIRED = new Set(DEVICE_FIELDS.filter((field) => !(deviceSchema.fields[field].describe() as { optional: boolean }).optional));

async function uploadedBytes(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new BizError(ErrorCode.UploadRejected, 'error.uploadMissing');
  const part = await request.file({ limits: { fileSize: IMPORT_MAX_FILE_BYTES, files: 1 } }).catch(rethrowMultipart);
  if (!part) throw new BizError(ErrorCode.UploadRejected, 'error.uploadMissing');
  const content = await part.toBuffer().catch((e: { code?: string }) => {
    if (e?.code === 'FST_REQ_FILE_TOO_LARGE')
      throw new BizError(
        ErrorCode.UploadRejected,
        'error.importSize',
        { limit: 'fileBytes', max: IMPORT_MAX_FILE_BYTES },
        { mb: IMPORT_MAX_FILE_BYTES / 1024 / 1024 },
      );
    return rethrowMultipart(e);
  });
  return content;
}

async function templateWorkbook(lang: Language): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  sheet.columns = DEVICE_FIELDS.map((field) => ({
    header: `${translateDomain(lang, deviceFieldKey(field))}${REQUIRED.has(field) ? '*' : ''}`,
    width: 18,
  }));
  sheet.getRow(1).font = { bold: true };
  const notes = workbook.addWorksheet(lang === 'zh' ? '说明' : 'notes');
  notes.addRows([
    // The kinds in the template's language (the import takes either language's names).
    [translateDomain(lang, 'deviceField.deviceKind'), DEVICE_KINDS.map((k) => translateDomain(lang, DEVICE_KIND_KEYS[k])).join(', ')],
    [translateDomain(lang, 'deviceField.deviceNum'), translateDomain(lang, 'validation.deviceNum')],
    [translateDomain(lang, 'deviceField.mac'), translateDomain(lang, 'validation.mac')],
    [translateDomain(lang, 'deviceField.deviceSn'), translateDomain(lang, 'validation.snNoSpace')],
    [translateDomain(lang, 'deviceField.manufactureDate'), translateDomain(lang, 'validation.date')],
    [translateDomain(lang, 'deviceField.ownerId'), translateDomain(lang, 'import.ownerCell')],
    [translateDomain(lang, 'deviceField.ownerSubId'), translateDomain(lang, 'import.ownerSubCell')],
  ]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * deviceModule/device/import: an Excel file of devices, checked row by row with the form's rules
 * before anything is written, then written all together in one transaction (or not at all).
 */
export async function importRoutes(app: Api, { db }: ServerContext) {
  app.post(
    '/device/import',
    {
      config: { levels: DEVICE_EDITORS, permission: Permission.addMachine },
      schema: {
        tags: ['devices'],
        summary:
          'Import devices from .xlsx (multipart field file; at most 5 MB, 10,000 rows, 64 columns, 1,000 characters a cell, 32 MB unpacked: over a limit, code 8 naming it). Bad rows answer code 1 with [{row, column, message}] and nothing is written',
        consumes: ['multipart/form-data'],
        querystring: { type: 'object', properties: tokenQuery },
        response: envelope({ type: ['object', 'array'] }),
      },
    },
    async (request) => {
      const lang = languageOf(request);
      const content = await uploadedBytes(request);
      const kind = sniffExcel(content);
      if (!kind) throw new BizError(ErrorCode.UploadRejected, 'error.importType');
      if (kind === 'xls') throw new BizError(ErrorCode.UploadRejected, 'error.importXls');
      // Read in a worker thread under the upload limits (constants.ts IMPORT_*): a file that crosses
      // one is refused with code 8 naming it, before any row is checked.
      const rows = await readDeviceSheet(content);
      if (!rows.length) throw new BizError(ErrorCode.Validation, 'error.importEmpty');
      const { devices, errors } = await checkImportRows(db, request.user, rows, lang);
      if (errors.length)
        throw new BizError(ErrorCode.Validation, 'error.importRows', errors.slice(0, ERRORS_SHOWN), { count: errors.length });
      const imported = await db
        .transaction((tx) => insertDevices(tx, devices))
        .catch((e: unknown) => {
          throw uniqueViolationToBizError(e);
        });
      return ok({ imported });
    },
  );

  app.get(
    '/device/importTemplate',
    {
      schema: {
        tags: ['devices'],
        summary: 'The import template (.xlsx) with the column headers in the given language',
        querystring: { type: 'object', properties: tokenQuery },
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      },
    },
    async (request, reply) => {
      const lang = normaliseLanguage(request.query.lang ?? languageOf(request));
      reply.header('content-disposition', `attachment; filename="device-import-template-${lang}.xlsx"`);
      return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(await templateWorkbook(lang));
    },
  );
}
