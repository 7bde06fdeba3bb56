import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { languageOf } from '../../http/envelope';
import { tokenQuery } from '../../http/schemas';
import { attachment, xlsxOf, XLSX_TYPE } from '../../http/xlsx';
import { deviceFilterQuery } from './deviceJsonSchemas';
import { allDevices } from './deviceListQueries';
import { exportHeaders, exportRow, toCsv } from './deviceSheet';
import { claimExportSlot } from './exportThrottleQueries';
import { Permission } from '../../../src/domain/permissionGroups';

/** The most rows one export writes. */
export const EXPORT_MAX_ROWS = 100_000;

/** deviceModule/device/export: the device list with getAll's filters, as CSV or Excel; -101 within 10 s. */
export async function exportRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/device/export',
    {
      config: { permission: Permission.viewMachine },
      schema: {
        tags: ['devices'],
        summary: 'The filtered device list as a file (format csv or xlsx); exporting again within 10 s answers code -101',
        querystring: {
          type: 'object',
          properties: { ...tokenQuery, ...deviceFilterQuery, format: { type: 'string', enum: ['csv', 'xlsx'], default: 'xlsx' } },
        },
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/json'],
      },
    },
    async (request, reply) => {
      const query = request.query;
      const lang = languageOf(request);
      await claimExportSlot(db, request.user.id);
      const devices = await allDevices(db, request.user, query, EXPORT_MAX_ROWS);
      if (query.format === 'csv') return attachment(reply, 'devices', 'csv', 'text/csv; charset=utf-8').send(toCsv(devices, lang));
      return attachment(reply, 'devices', 'xlsx', XLSX_TYPE).send(
        await xlsxOf(
          'devices',
          exportHeaders(lang),
          devices.map((d) => exportRow(d, lang)),
        ),
      );
    },
  );
}
