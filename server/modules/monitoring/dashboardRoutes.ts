import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { DEVICE_KINDS } from '../../../src/domain/deviceKinds';
import { faultInfo } from '../../../src/domain/faultCodes';
import { languageOf, ok } from '../../http/envelope';
import { envelope, tokenQuery } from '../../http/schemas';
import { linkSummary, statusCounts, topFaults } from './dashboardQueries';

const tags = ['monitoring'];
type Counts = { total: number; online: number; offline: number; warn: number };
const zero = (): Counts => ({ total: 0, online: 0, offline: 0, warn: 0 });
const STATE_NAMES = ['offline', 'online', 'warn'] as const;

/** deviceModule/monitor: counts per state and per kind, and the faults seen most lately (Home). */
export async function dashboardRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/monitor/statusCounts',
    {
      schema: {
        tags,
        summary: 'Visible devices counted per state and per kind',
        querystring: { type: 'object', properties: tokenQuery },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const rows = await statusCounts(db, request.user);
      const all = zero();
      const byKind = Object.fromEntries(DEVICE_KINDS.map((k) => [k, zero()])) as Record<string, Counts>;
      for (const r of rows) {
        const name = STATE_NAMES[r.status] ?? 'offline';
        for (const c of [all, (byKind[r.kind] ??= zero())]) {
          c.total += r.n;
          c[name] += r.n;
        }
      }
      return ok({ ...all, byKind });
    },
  );

  app.get(
    '/monitor/linkSummary',
    {
      schema: {
        tags,
        summary:
          'Visible vessels on a backup link now (the most recent first, at most `limit`) and their count, vessels reporting links, failovers since local midnight at utcOffset (docs/api.md, "Links")',
        querystring: {
          type: 'object',
          properties: {
            ...tokenQuery,
            utcOffset: { type: 'integer', minimum: -12, maximum: 14, default: 0 },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
          },
        },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const { utcOffset, limit } = request.query;
      const shift = utcOffset * 3_600_000;
      const midnight = Math.floor((Date.now() + shift) / 86_400_000) * 86_400_000 - shift;
      return ok({ since: new Date(midnight).toISOString(), ...(await linkSummary(db, request.user, midnight, limit)) });
    },
  );

  app.get(
    '/monitor/topFaults',
    {
      schema: {
        tags,
        summary: 'Fault codes seen most within the last days (default 7) on visible devices',
        querystring: {
          type: 'object',
          properties: {
            ...tokenQuery,
            days: { type: 'integer', minimum: 1, maximum: 366, default: 7 },
            limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          },
        },
        response: envelope({ type: 'array', items: { type: 'object', additionalProperties: true } }),
      },
    },
    async (request) => {
      const { days, limit } = request.query;
      const rows = await topFaults(db, request.user, days, limit);
      const lang = languageOf(request);
      return ok(
        rows.map((r) => {
          const info = faultInfo(r.code);
          return { ...r, severity: info?.severity ?? null, unit: info?.unit ?? null, meaning: info?.meaning[lang] ?? r.code };
        }),
      );
    },
  );
}
