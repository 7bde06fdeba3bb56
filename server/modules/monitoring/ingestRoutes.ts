import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';
import { ok } from '../../http/envelope';
import { envelope } from '../../http/schemas';
import { authenticateDevice } from '../../auth/deviceCredentials';
import { parseBatch } from './reportBatch';
import { MAX_REPORT_BODY_BYTES } from '../../../src/domain/reportSchema';

const reportBody = {
  type: 'object',
  description: 'One report, or { reports: [report, ...] } with at most 1000 reports of the same device',
} as const;

/**
 * deviceModule/ingest/report: a device's own reports (no session token: the device authenticates
 * with x-device-num and x-device-secret). See docs/api.md "monitoring" for future, duplicate and
 * out-of-order reports.
 */
export async function ingestRoutes(app: FastifyInstance, { devices, ingest, metrics }: ServerContext) {
  app.post(
    '/ingest/report',
    {
      config: { public: true },
      bodyLimit: MAX_REPORT_BODY_BYTES,
      schema: {
        tags: ['monitoring'],
        summary: 'A device reports its state (one report or a batch)',
        security: [],
        headers: { type: 'object', properties: { 'x-device-num': { type: 'string' }, 'x-device-secret': { type: 'string' } } },
        body: reportBody,
        response: envelope({
          type: 'object',
          properties: {
            accepted: { type: 'integer' },
            duplicates: { type: 'integer' },
            outOfOrder: { type: 'integer' },
            unactivated: { type: 'boolean' },
            latestReportedAt: { type: ['string', 'null'] },
          },
        }),
      },
    },
    async (request) => {
      if (!metrics) return ok(await ingest.write(await authenticateDevice(devices, request), parseBatch(request.body)));
      metrics.ingest.received('http');
      try {
        const result = await ingest.write(await authenticateDevice(devices, request), parseBatch(request.body));
        metrics.ingest.stored('http', result.accepted);
        return ok(result);
      } catch (error) {
        metrics.ingest.refused('http', error);
        throw error;
      }
    },
  );
}
