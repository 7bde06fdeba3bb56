import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import {
  COVERAGE_MIN_SAMPLES,
  COVERAGE_RESOLUTIONS,
  COVERAGE_WINDOWS,
  COVERAGE_WINDOW_NAMES,
  COVERAGE_LINK_KINDS,
  SATELLITE_LAYER,
  type CoverageAnswer,
  windowDays,
} from '../../../src/domain/coverage';
import { BizError, ok } from '../../http/envelope';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { envelope, tokenQuery } from '../../http/schemas';
import { coverageLayers, readCoverage } from './coverageQueries';

const tags = ['vessel'];

/**
 * deviceModule/vessel/getCoverage: the fleet's coverage map (docs/api.md, "GET /vessel/getCoverage").
 * It describes the sky, not a customer: every level sees the cells of the whole fleet, and a cell
 * carries figures only, never a vessel (docs/requirements.md §6).
 */
export async function coverageRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/vessel/getCoverage',
    {
      schema: {
        tags,
        summary: `Link quality per H3 cell over a window (${COVERAGE_WINDOW_NAMES.join(', ')}) at resolution ${COVERAGE_RESOLUTIONS.join(', ')}, for one satellite or all, or for a link kind (link: where a vessel's LEO, 4G/5G, microwave or shore Wi-Fi link was available): [cell, reports, locked (available) %, median SNR] per cell; bounds (south, west, north, east) keep the cells whose centre is inside.`,
        querystring: {
          type: 'object',
          properties: {
            ...tokenQuery,
            window: { type: 'string', enum: COVERAGE_WINDOW_NAMES, default: '30d' },
            res: { type: 'integer', enum: [...COVERAGE_RESOLUTIONS], default: 2 },
            satellite: { type: 'string', minLength: 1, maxLength: 64 },
            link: { type: 'string', enum: [...COVERAGE_LINK_KINDS] },
            south: { type: 'number', minimum: -90, maximum: 90 },
            west: { type: 'number', minimum: -180, maximum: 180 },
            north: { type: 'number', minimum: -90, maximum: 90 },
            east: { type: 'number', minimum: -180, maximum: 180 },
          },
        },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const { window, res, satellite, link, south, west, north, east } = request.query;
      const { from, to } = windowDays(COVERAGE_WINDOWS[window]);
      const bounds = boundsOf({ south, west, north, east });
      // A link layer has no satellites: asking for both is a mistake, not a filter that finds nothing.
      if (satellite !== undefined && link !== undefined)
        throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'satellite', message: 'validation.coverageLayer' }]);
      const [cells, layers] = await Promise.all([
        readCoverage(db, { res, from, to, kind: link ?? SATELLITE_LAYER, satellite: satellite ?? null, bounds }),
        coverageLayers(db, from, to),
      ]);
      const answer: CoverageAnswer = {
        window,
        res,
        satellite: satellite ?? null,
        link: link ?? null,
        from,
        to,
        minSamples: COVERAGE_MIN_SAMPLES,
        ...layers,
        cells,
      };
      return ok(answer);
    },
  );
}

type Bounds = [south: number, west: number, north: number, east: number];

/** Bounds come whole or not at all; a missing side is named. South above north is refused (west above east crosses the antimeridian). */
function boundsOf(sides: { south?: number; west?: number; north?: number; east?: number }): Bounds | null {
  const given = Object.values(sides).filter((v) => v !== undefined).length;
  if (!given) return null;
  const missing = Object.entries(sides).filter(([, v]) => v === undefined);
  if (missing.length)
    throw new BizError(
      ErrorCode.Validation,
      'error.validation',
      missing.map(([field]) => ({ field, message: 'validation.required' })),
    );
  if (sides.south! > sides.north!)
    throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: 'south', message: 'validation.coverageBounds' }]);
  return [sides.south!, sides.west!, sides.north!, sides.east!];
}
