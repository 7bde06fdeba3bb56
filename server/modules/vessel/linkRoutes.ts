import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { Feature } from '../../../src/domain/features';
import { LINK_WINDOWS, LINK_WINDOW_NAMES } from '../../../src/domain/links';
import { ok } from '../../http/envelope';
import { envelope, tokenQuery } from '../../http/schemas';
import { assertFeatureUnlocked } from '../devices/featureLock';
import { clampToHistory, historyStartMs } from './vesselAccessQueries';
import { currentLinks, linkAvailability, linkLanes, windowFailovers } from './linkQueries';

const tags = ['vessel'];

/**
 * deviceModule/vessel/getLinks: a visible vessel's WAN links (docs/api.md, "GET /vessel/getLinks"):
 * now, a lane per link over the window, the failovers and each link's time. Levels 2 and 3 see
 * from the vessel's transfer to their enterprise on (docs/requirements.md §6).
 */
export async function linkRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/vessel/getLinks',
    {
      schema: {
        tags,
        summary: `A visible vessel's links over a window (${LINK_WINDOW_NAMES.join(', ')}): current state, one lane per link, failovers with their reasons, time up/standby/down/carrying the traffic per link. Feature iotData.`,
        querystring: {
          type: 'object',
          required: ['id'],
          properties: { ...tokenQuery, id: { type: 'integer' }, window: { type: 'string', enum: LINK_WINDOW_NAMES, default: '24h' } },
        },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const { id, window } = request.query;
      await assertFeatureUnlocked(db, request.user, id, Feature.IotData);
      const to = Date.now();
      const from = clampToHistory(to - LINK_WINDOWS[window] * 3_600_000, await historyStartMs(db, request.user, id));
      const [links, lanes, failovers, availability] = await Promise.all([
        currentLinks(db, id),
        linkLanes(db, id, from, to),
        windowFailovers(db, id, from, to),
        linkAvailability(db, id, from, to),
      ]);
      return ok({
        window,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        // Before the transfer, the new enterprise sees none of the vessel's links.
        links: links
          .filter((l) => l.reportedAt >= from)
          .map((l) => ({ ...l, reportedAt: new Date(l.reportedAt).toISOString(), since: new Date(l.since).toISOString() })),
        lanes: lanes.map((lane) => ({
          ...lane,
          segments: lane.segments.map((s) => ({ ...s, from: new Date(s.from).toISOString(), to: new Date(s.to).toISOString() })),
        })),
        failovers,
        availability,
      });
    },
  );
}
