import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { tokenQuery } from '../../http/schemas';
import { exportOptionsOf, exportQuery, sendExport } from '../../http/exportFile';
import { deviceFilterQuery } from './deviceJsonSchemas';
import { allDevices } from './deviceListQueries';
import { exportHeaders, exportRow } from './deviceSheet';
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
        summary: 'The filtered device list as a file (format csv or xlsx, times at tz); exporting again within 10 s answers code -101',
        querystring: {
          type: 'object',
          properties: { ...tokenQuery, ...deviceFilterQuery, ...exportQuery },
        },
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/json'],
      },
    },
    async (request, reply) => {
      const options = exportOptionsOf(request);
      await claimExportSlot(db, request.user.id);
      const devices = await allDevices(db, request.user, request.query, EXPORT_MAX_ROWS);
      return sendExport(
        reply,
        'devices',
        options,
        exportHeaders(options.lang),
        devices.map((d) => exportRow(d, options.lang)),
      );
    },
  );
}
