import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import type { ServerContext } from '../../context';
import type { Language } from '../../../src/domain/constants';
import type { Device } from '../../../src/domain/device';
import { languageOf } from '../../http/envelope';
import { tokenQuery } from '../../http/schemas';
import { deviceFilterQuery } from './deviceJsonSchemas';
import { allDevices, type DeviceFilter } from './deviceList';
import { exportHeaders, exportRow, toCsv } from './deviceSheet';
import { claimExportSlot } from './exportThrottle';
import { Permission } from '../../../src/domain/permissionGroups';

/** The most rows one export writes. */
export const EXPORT_MAX_ROWS = 100_000;

async function toXlsx(devices: Device[], lang: Language): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => { sink.on('end', resolve); sink.on('error', reject); });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('devices');
  sheet.addRow(exportHeaders(lang)).commit();
  for (const device of devices) sheet.addRow(exportRow(device, lang)).commit();
  sheet.commit();
  await workbook.commit();
  await done;
  return Buffer.concat(chunks);
}

/** deviceModule/device/export: the device list with getAll's filters, as CSV or Excel; -101 within 10 s. */
export async function exportRoutes(app: FastifyInstance, { db }: ServerContext) {
  app.get('/device/export', {
    config: { permission: Permission.viewMachine },
    schema: {
      tags: ['devices'],
      summary: 'The filtered device list as a file (format csv or xlsx); exporting again within 10 s answers code -101',
      querystring: { type: 'object', properties: { ...tokenQuery, ...deviceFilterQuery, format: { type: 'string', enum: ['csv', 'xlsx'], default: 'xlsx' } } },
      produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/json'],
    },
  }, async (request, reply) => {
    const query = request.query as DeviceFilter & { format: 'csv' | 'xlsx' };
    const lang = languageOf(request);
    await claimExportSlot(db, request.user.id);
    const devices = await allDevices(db, request.user, query, EXPORT_MAX_ROWS);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    reply.header('content-disposition', `attachment; filename="devices-${stamp}.${query.format}"`);
    if (query.format === 'csv') return reply.type('text/csv; charset=utf-8').send(toCsv(devices, lang));
    return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(await toXlsx(devices, lang));
  });
}
